// A throwaway Redis (Debian's redis-server) on a free port, nothing persisted, stopped by its pid.
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export const MISSING_REDIS = 'redis-server is not installed: apt-get update && apt-get install -y redis-server';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startRedis(): Promise<RunningRedis> {
  if (spawnSync('redis-server', ['--version']).error) throw new Error(MISSING_REDIS);
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port}: ${output}`)), 10_000);
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${output}`));
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
