// Where memories are kept: PGlite (Postgres in WebAssembly) in MEMORY_DIR (DATA_DIR/memory), for one process that
// both works and answers (npm start). Opened on first use, not at start: it costs a few hundred MB and, the first
// time, seconds; a turn of an owner with no memories on a machine that never kept one opens nothing.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { MemoryStore, type MemoryLimits } from './memory-store';
import { migrate, type Sql } from './migrations';

export interface MemorySettings {
  /** MEMORY=off: no recall, no Remember/Forget. */
  enabled: boolean;
  /** MEMORY_DIR: the PGlite data folder. */
  dir: string;
  /** MEMORY_RECALL_TOKENS: the most a turn is shown. */
  recallTokens: number;
  limits: MemoryLimits;
}

export const MEMORY_SETTING_NAMES = [
  'MEMORY',
  'MEMORY_DIR',
  'MEMORY_RECALL_TOKENS',
  'MEMORY_MAX_PER_OWNER',
  'MEMORY_MAX_BYTES',
] as const;

export function readMemorySettings(env: NodeJS.ProcessEnv, dataDir: string): MemorySettings {
  const whole = (name: string, fallback: number, max: number) => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new Error(`${name} must be a whole number from 1 to ${max}, got "${v}"`);
    return n;
  };
  const flag = env.MEMORY ?? 'on';
  if (!['on', 'off'].includes(flag)) throw new Error(`MEMORY must be on or off, got "${flag}"`);
  return {
    enabled: flag === 'on',
    dir: path.resolve(env.MEMORY_DIR || path.join(dataDir, 'memory')),
    recallTokens: whole('MEMORY_RECALL_TOKENS', 500, 100_000),
    limits: {
      perOwner: whole('MEMORY_MAX_PER_OWNER', 1_000, 1_000_000),
      bytes: whole('MEMORY_MAX_BYTES', 2_000, 100_000),
    },
  };
}

/** The store, opened (and migrated) on first use; one per process and folder. */
export class LazyMemoryStore {
  private opening: Promise<{ store: MemoryStore; close(): Promise<void> }> | null = null;

  constructor(readonly settings: MemorySettings) {}

  /** Whether any memory could be kept here yet: false until the first write made the folder. */
  get started(): boolean {
    return this.opening !== null || existsSync(path.join(this.settings.dir, 'PG_VERSION'));
  }

  store(): Promise<MemoryStore> {
    this.opening ??= openPglite(this.settings);
    return this.opening.then((o) => o.store);
  }

  async close(): Promise<void> {
    const open = this.opening;
    this.opening = null;
    if (open) await (await open).close();
  }
}

async function openPglite(settings: MemorySettings): Promise<{ store: MemoryStore; close(): Promise<void> }> {
  const db = new PgliteThread(settings.dir);
  await migrate(db);
  return { store: new MemoryStore(db, settings.limits), close: () => db.close() };
}

/**
 * PGlite in a thread of its own: its WebAssembly loads itself by dynamic import, which Jest's sandbox does not run,
 * and its heap stays apart from the worker's. Plain JavaScript, run by Node as it is. Statements are answered in the
 * order sent; a transaction holds the others back until it ends.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.module);
const db = new PGlite(workerData.dir);
let chain = db.waitReady;
parentPort.on('message', ({ id, kind, text, params }) => {
  chain = chain.then(async () => {
    try {
      const out = kind === 'exec' ? await db.exec(text) : kind === 'close' ? await db.close() : await db.query(text, params);
      parentPort.postMessage({ id, rows: kind === 'query' ? out.rows : [] });
    } catch (err) {
      parentPort.postMessage({ id, error: String((err && err.message) || err) });
    }
  });
});
`;

class PgliteThread implements Sql {
  private readonly thread: Worker;
  private readonly waiting = new Map<number, { resolve(rows: unknown[]): void; reject(err: Error): void }>();
  private seq = 0;
  /** Held by a transaction: statements from outside it wait for it to end. */
  private held: Promise<unknown> = Promise.resolve();

  constructor(dir: string) {
    this.thread = new Worker(THREAD, {
      eval: true,
      workerData: { dir, module: require.resolve('@electric-sql/pglite') },
    });
    this.thread.on('message', ({ id, rows, error }: { id: number; rows: unknown[]; error?: string }) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error) waiter?.reject(new Error(`memory store: ${error}`));
      else waiter?.resolve(rows);
    });
    this.thread.on('error', (err) => {
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    });
  }

  private send(kind: 'query' | 'exec' | 'close', text = '', params: unknown[] = []): Promise<unknown[]> {
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.thread.postMessage({ id, kind, text, params });
    });
  }

  async query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }> {
    await this.held;
    return { rows: (await this.send('query', text, params)) as T[] };
  }

  async exec(text: string): Promise<unknown> {
    await this.held;
    return this.send('exec', text);
  }

  async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    await this.held;
    const tx: Sql = {
      query: async <R>(text: string, params?: unknown[]) => ({ rows: (await this.send('query', text, params)) as R[] }),
      exec: (text) => this.send('exec', text),
      transaction: () => Promise.reject(new Error('no transaction within a transaction')),
    };
    const run = (async () => {
      await this.send('exec', 'BEGIN');
      try {
        const out = await work(tx);
        await this.send('exec', 'COMMIT');
        return out;
      } catch (err) {
        await this.send('exec', 'ROLLBACK');
        throw err;
      }
    })();
    this.held = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.held;
    await this.send('close').catch(() => undefined);
    await this.thread.terminate();
  }
}
