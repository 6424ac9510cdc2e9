// A mock HTTP API generated from an OpenAPI document by Prism (@stoplight/prism-cli), as a child process on a free
// port: the real third-party server the HTTP API tests call over real HTTP. Stopped by its pid.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../tools/project-root';
import { freePort } from '../worker/dev-server';

export interface MockApi {
  url: string;
  stop(): Promise<void>;
}

/** Starts `prism mock` on `document` and waits until it answers (a 13 MB document takes several seconds). */
export async function startPrism(document: string, timeoutMs = 60_000): Promise<MockApi> {
  const port = await freePort(0);
  const bin = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'prism');
  const child: ChildProcess = spawn(bin, ['mock', '-h', '127.0.0.1', '-p', String(port), document], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}): ${output}`);
    if (/Prism is listening/.test(output)) return { url, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`prism did not start within ${timeoutMs} ms: ${output}`);
}
