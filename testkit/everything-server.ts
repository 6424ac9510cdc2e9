// The MCP reference server `@modelcontextprotocol/server-everything` (npm, real): its registry entry over stdio, and
// a Streamable HTTP instance on a free port (its transport reads PORT and says "listening on port" when ready).
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

/** It over Streamable HTTP, at `url` (its /mcp); `end()` stops it. */
export async function startEverythingHttp(): Promise<{ url: string; process: StartedProcess; end(): Promise<void> }> {
  const port = await freePort(0);
  const started = await startProcess(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    ready: /listening on port/i,
    what: 'server-everything (Streamable HTTP)',
    timeoutMs: 20_000,
  });
  return { url: `http://127.0.0.1:${port}/mcp`, process: started, end: () => started.end('SIGTERM', 3_000) };
}
