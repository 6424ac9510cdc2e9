// A throwaway PostgreSQL server for the memory store's tests against DATABASE_URL: the `pgserver` wheel's binaries
// (testkit/test-binaries.ts), a fresh cluster in a temporary folder, on a free port, nothing synced to disk, stopped by
// its pid. PostgreSQL refuses to run as root: as root, the cluster belongs to `nobody` and the server runs as it.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from './redis-server';
import { findPostgres, MISSING_POSTGRES } from './test-binaries';

export interface RunningPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  pid: number;
  /** A new empty database on this server: its URL. */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

const NOBODY = 65534;

/** `port`: the port to serve on (default: a free one). */
export async function startPostgres(port?: number, env: NodeJS.ProcessEnv = process.env): Promise<RunningPostgres> {
  const postgres = findPostgres(env);
  if (!postgres) throw new Error(MISSING_POSTGRES);
  const dir = mkdtempSync(path.join(tmpdir(), 'pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, NOBODY, NOBODY);
  const as = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
  const initdb = spawnSync(
    path.join(path.dirname(postgres), 'initdb'),
    ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
    { ...as, encoding: 'utf8' },
  );
  if (initdb.status !== 0) throw new Error(`initdb failed (${initdb.status}): ${initdb.stderr || initdb.error}`);
  port ??= await freePort();
  const child = spawn(
    postgres,
    // fsync, full page writes and synchronous commits off: a test's server need not survive a power cut.
    ['-D', dir, '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-c', 'fsync=off', '-c', 'full_page_writes=off'],
    { ...as, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      reject(new Error(`postgres did not start on port ${port}: ${output}`));
    }, 20_000);
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`postgres exited (${code}): ${output}`));
    });
  });
  child.stderr.removeAllListeners('data').resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    pid: child.pid!,
    async database(name) {
      const admin = new Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await admin.end();
      }
      return url.replace(/\/postgres$/, `/${name}`);
    },
    async stop() {
      // SIGINT: a fast shutdown (open connections are ended, not waited for).
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
