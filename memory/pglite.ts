// PGlite (Postgres in WebAssembly) for the memory store: the default, its data in MEMORY_DIR, for one process that
// both works and answers (npm start).
import { Worker } from 'node:worker_threads';
import type { Sql } from './migrations';

/**
 * PGlite in a thread of its own: its WebAssembly loads itself by dynamic import, which Jest's sandbox does not run,
 * and its heap stays apart from the worker's. Plain JavaScript, run by Node as it is. Statements are answered in the
 * order sent; a transaction holds the others back until it ends.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.module);
const extensions = workerData.vector ? { vector: require(workerData.vector).vector } : {};
const db = new PGlite(workerData.dir, { extensions });
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

export class PgliteThread implements Sql {
  private readonly thread: Worker;
  private readonly waiting = new Map<number, { resolve(rows: unknown[]): void; reject(err: Error): void }>();
  private seq = 0;
  /** Held by a transaction: statements from outside it wait for it to end. */
  private held: Promise<unknown> = Promise.resolve();

  /** `vector`: with pgvector (EMBEDDING_MODEL is set). */
  constructor(dir: string, { vector = false } = {}) {
    this.thread = new Worker(THREAD, {
      eval: true,
      workerData: {
        dir,
        module: require.resolve('@electric-sql/pglite'),
        vector: vector ? require.resolve('@electric-sql/pglite/vector') : undefined,
      },
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

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    const tx: Sql = {
      query: async <R>(text: string, params?: unknown[]) => ({ rows: (await this.send('query', text, params)) as R[] }),
      exec: (text) => this.send('exec', text),
      transaction: () => Promise.reject(new Error('no transaction within a transaction')),
    };
    // Queued at once (not after an await): two transactions begun together run one after the other, never
    // interleaving their statements in the one session PGlite has.
    const run = this.held.then(async () => {
      await this.send('exec', 'BEGIN');
      try {
        const out = await work(tx);
        await this.send('exec', 'COMMIT');
        return out;
      } catch (err) {
        await this.send('exec', 'ROLLBACK');
        throw err;
      }
    });
    this.held = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.held;
    await this.send('close').catch(() => undefined);
    await this.thread.terminate();
  }
}
