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
const db = new PGlite(workerData.dir, { extensions: { vector: require(workerData.vector).vector } });
const why = (err) => String((err && err.message) || err);
// A folder PGlite cannot open: every statement is answered with why.
let broken = null;
let chain = db.waitReady.catch((err) => (broken = 'could not open: ' + why(err)));
parentPort.on('message', ({ id, kind, text, params }) => {
  chain = chain.then(async () => {
    if (broken) return parentPort.postMessage({ id, error: broken });
    try {
      const out = kind === 'exec' ? await db.exec(text) : kind === 'close' ? await db.close() : await db.query(text, params);
      parentPort.postMessage({ id, rows: kind === 'query' ? out.rows : [] });
    } catch (err) {
      parentPort.postMessage({ id, error: why(err) });
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

  /** Why the thread is gone (it failed, or exited): every statement from then on is refused with it. */
  private dead: Error | null = null;

  constructor(dir: string) {
    this.thread = new Worker(THREAD, {
      eval: true,
      workerData: {
        dir,
        module: require.resolve('@electric-sql/pglite'),
        // Always: a folder that once had EMBEDDING_MODEL has vector columns, which even ANALYZE cannot read without.
        vector: require.resolve('@electric-sql/pglite/vector'),
      },
    });
    this.thread.on('message', ({ id, rows, error }: { id: number; rows: unknown[]; error?: string }) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error) waiter?.reject(new Error(`memory store: ${error}`));
      else waiter?.resolve(rows);
    });
    const gone = (err: Error) => {
      this.dead ??= new Error(`memory store: PGlite's thread ${err.message}`);
      for (const w of this.waiting.values()) w.reject(this.dead);
      this.waiting.clear();
    };
    this.thread.on('error', (err) => gone(new Error(`failed: ${err.message}`)));
    this.thread.on('exit', (code) => gone(new Error(`exited (${code})`)));
  }

  private send(kind: 'query' | 'exec' | 'close', text = '', params: unknown[] = []): Promise<unknown[]> {
    if (this.dead) return Promise.reject(this.dead);
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
    if (!this.dead) await this.send('close').catch(() => undefined);
    await this.thread.terminate();
  }
}
