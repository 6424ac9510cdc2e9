// Where memories are kept: PGlite (Postgres in WebAssembly) in MEMORY_DIR (DATA_DIR/memory), for one process that
// both works and answers (npm start); a PostgreSQL server at DATABASE_URL for several workers. Opened on first use,
// not at start: PGlite costs a few hundred MB and, the first time, seconds; a turn of an owner with no memories on a
// machine that never kept one opens nothing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MemoryStore, type MemoryLimits } from './memory-store';
import { migrate, VECTOR_COLUMNS, type Sql } from './migrations';
import { PgliteThread } from './pglite';
import { openPostgres, shownUrl } from './postgres';
import { MemoryVectors, type Embedder } from './vectors';

export interface MemorySettings {
  /** MEMORY=off: no recall, no Remember/Forget. */
  enabled: boolean;
  /** MEMORY_DIR: the PGlite data folder. */
  dir: string;
  /** DATABASE_URL: a PostgreSQL server instead of PGlite (several workers share it). */
  databaseUrl?: string;
  /** EMBEDDING_MODEL (`provider:model`): recall by meaning too (pgvector), its vectors made through the AI SDK. */
  embeddingModel?: string;
  /** MEMORY_RECALL_TOKENS: the most a turn is shown. */
  recallTokens: number;
  limits: MemoryLimits;
}

export const MEMORY_SETTING_NAMES = [
  'MEMORY',
  'MEMORY_DIR',
  'DATABASE_URL',
  'EMBEDDING_MODEL',
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
    ...(env.DATABASE_URL ? { databaseUrl: databaseUrl(env.DATABASE_URL) } : {}),
    ...(env.EMBEDDING_MODEL ? { embeddingModel: embeddingModel(env.EMBEDDING_MODEL) } : {}),
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

  constructor(
    readonly settings: MemorySettings,
    /** EMBEDDING_MODEL's (activities/llm/embedding-model.ts), and where its failures are told. */
    private readonly vectors: { embedder?: Embedder; warn?: (message: string) => void } = {},
  ) {}

  /** Whether any memory could be kept here yet: false until PGlite's first write made its folder (a server: true). */
  get started(): boolean {
    return (
      this.opening !== null ||
      this.settings.databaseUrl !== undefined ||
      existsSync(path.join(this.settings.dir, 'PG_VERSION'))
    );
  }

  store(): Promise<MemoryStore> {
    if (!this.opening) {
      const opening = open(this.settings, this.vectors);
      // A store that could not be opened (the server down) is tried again by the next call, not failed forever.
      opening.catch(() => {
        if (this.opening === opening) this.opening = null;
      });
      this.opening = opening;
    }
    return this.opening.then((o) => o.store);
  }

  async close(): Promise<void> {
    const open = this.opening;
    this.opening = null;
    if (open) await (await open).close();
  }
}

async function open(
  settings: MemorySettings,
  {
    embedder,
    warn = (m: string) => console.warn(`warning: ${m}`),
  }: { embedder?: Embedder; warn?: (m: string) => void },
): Promise<{ store: MemoryStore; close(): Promise<void> }> {
  let db: (Sql & { close(): Promise<void> }) | undefined;
  let vectorColumns = false;
  try {
    const vector = embedder !== undefined;
    db = settings.databaseUrl ? await openPostgres(settings.databaseUrl) : new PgliteThread(settings.dir);
    vectorColumns = (await migrate(db, { vector })).has(VECTOR_COLUMNS);
    // PGlite runs no autovacuum: statistics as of now, so its planner uses the owner's index (a server's are fresh).
    if (!settings.databaseUrl) await db.exec('ANALYZE memories');
  } catch (err) {
    await db?.close().catch(() => undefined);
    const where = settings.databaseUrl ? shownUrl(settings.databaseUrl) : settings.dir;
    throw new Error(`The memory store at ${where} could not be opened: ${(err as Error).message}`);
  }
  const vectors = embedder && new MemoryVectors(db, embedder, warn);
  // Memories kept before this model (or while it was down) get their vectors in the background.
  void vectors?.backfill();
  const store = new MemoryStore(db, settings.limits, { vectors, vectorColumns, warn });
  return {
    store,
    close: async () => {
      await vectors?.close();
      await store.uses.flush();
      await db.close();
    },
  };
}

/** Its form only: the provider and its key are checked where the embedder is made, at the worker's start. */
function embeddingModel(v: string): string {
  if (!/^[a-z-]+:.+/.test(v))
    throw new Error(`EMBEDDING_MODEL must be provider:model (e.g. openai:text-embedding-3-small), got "${v}"`);
  return v;
}

function databaseUrl(v: string): string {
  if (!/^postgres(ql)?:\/\//.test(v))
    throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL, got "${shownUrl(v)}"`);
  return v;
}
