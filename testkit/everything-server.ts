// The MCP reference server `@modelcontextprotocol/server-everything` (npm, real): its registry entry over stdio, and
// a Streamable HTTP instance on a free port (its transport reads PORT).
import path from 'node:path';
import { freePort } from '../worker/dev-server';
import { PROJECT_ROOT } from '../worker/worker-settings';
import { startProcess, type StartedProcess } from './process';

export const EVERYTHING_BIN = path.join(
  PROJECT_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

/** A registry entry that runs it over stdio; its tools are annotated read-only, so `destructive` never asks. */
export function everythingStdio(extra: object = {}) {
  return { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], requireApproval: 'destructive', ...extra };
}

/**
 * It over Streamable HTTP, at `url` (its /mcp); `end()` stops it. Its "listening on port" is printed even when the
 * port is taken (Express 5 calls the listen callback with the error; it then exits), and the free port we chose can
 * be taken by another test file before it binds: so it counts as started once a request to the url reaches it (it
 * logs each GET), and a fresh port is tried otherwise (`port`: the one to try first).
 */
export async function startEverythingHttp(
  opts: { port?: number } = {},
): Promise<{ url: string; process: StartedProcess; end(): Promise<void> }> {
  for (let attempt = 1; ; attempt++) {
    const port = attempt === 1 && opts.port ? opts.port : await freePort(0);
    const started = await startProcess(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      ready: /listening on port/i,
      what: 'server-everything (Streamable HTTP)',
      timeoutMs: 20_000,
    });
    const url = `http://127.0.0.1:${port}/mcp`;
    const end = () => started.end('SIGTERM', 3_000);
    if (await reachesIt(url, started)) return { url, process: started, end };
    await end();
    if (attempt === 3) throw new Error(`server-everything (Streamable HTTP) did not get a port:\n${started.output()}`);
  }
}

async function reachesIt(url: string, started: StartedProcess): Promise<boolean> {
  const from = started.output().length;
  try {
    await fetch(url, { signal: AbortSignal.timeout(5_000) });
  } catch {
    return false;
  }
  return started.printed(/Received MCP GET request/, from, 5_000);
}
