// The official MCP Inspector's CLI (`mcp-inspector --cli`), a client we did not write, run as a user runs it against
// a Streamable HTTP server: one process per request, its JSON answer on stdout.
import { execFile } from 'node:child_process';
import path from 'node:path';

const BIN = path.join(__dirname, '..', 'node_modules', '.bin', 'mcp-inspector');

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
    execFile(BIN, argv, { timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) => {
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
