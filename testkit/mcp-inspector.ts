// The official MCP Inspector's CLI (`mcp-inspector-cli --cli`, the CLI alone as @modelcontextprotocol/inspector-cli
// publishes it: the whole Inspector 2.x also brings its web app and TUI, ~80 MB, and wants Node 22), a client we did
// not write, run as a user runs it against a Streamable HTTP server: one process per request, its JSON answer on stdout.
import { execFile } from 'node:child_process';
import path from 'node:path';

const PACKAGE = path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json'));
const BIN = path.join(PACKAGE, 'build', 'cli.js');
// It runs in its own build/ folder: it reads its package.json from `../package.json` if that exists relative to the
// working directory, else from `../../package.json` (where the full Inspector keeps it), either imported relative to
// itself (upstream modelcontextprotocol/inspector#1503): from here that is the one path that finds it.
const CWD = path.join(PACKAGE, 'build');

export interface InspectorRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, when it is JSON. */
  json?: Record<string, unknown>;
}

/** `method`: tools/list, tools/call (with `tool` and `args`, each `key=value`), … */
export function inspect(
  url: string,
  opts: { method: string; tool?: string; args?: Record<string, string>; headers?: Record<string, string> },
): Promise<InspectorRun> {
  const argv = ['--cli', url, '--transport', 'http', '--method', opts.method];
  for (const [name, value] of Object.entries(opts.headers ?? {})) argv.push('--header', `${name}: ${value}`);
  if (opts.tool) argv.push('--tool-name', opts.tool);
  const args = Object.entries(opts.args ?? {});
  if (args.length) argv.push('--tool-arg', ...args.map(([k, v]) => `${k}=${v}`));
  return new Promise((resolve) => {
    const options = { cwd: CWD, timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } };
    execFile(BIN, argv, options, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(stdout) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}
