// Where memories are kept: PGlite (Postgres in WebAssembly) in MEMORY_DIR (DATA_DIR/memory), for one process that
// both works and answers (npm start); a PostgreSQL server at DATABASE_URL for several workers. Opened on first use,
// not at start: PGlite costs a few hundred MB and, the first time, seconds; a turn of an owner with no memories on a
// machine that never kept one opens nothing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { MemoryStore, type MemoryLimits } from './memory-store';
import { migrate, type Sql } from './migrations';
import { PgliteThread } from './pglite';
import { openPostgres, shownUrl } from './postgres';

export interface MemorySettings {
  /** MEMORY=off: no recall, no Remember/Forget. */
  enabled: boolean;
  /** MEMORY_DIR: the PGlite data folder. */
  dir: string;
  /** DATABASE_URL: a PostgreSQL server instead of PGlite (several workers share it). */
  databaseUrl?: string;
  /** MEMORY_RECALL_TOKENS: the most a turn is shown. */
  recallTokens: number;
  limits: MemoryLimits;
}

export const MEMORY_SETTING_NAMES = [
  'MEMORY',
  'MEMORY_DIR',
  'DATABASE_URL',
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
      const opening = open(this.settings);
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

async function open(settings: MemorySettings): Promise<{ store: MemoryStore; close(): Promise<void> }> {
  let db: (Sql & { close(): Promise<void> }) | undefined;
  try {
    db = settings.databaseUrl ? await openPostgres(settings.databaseUrl) : new PgliteThread(settings.dir);
    await migrate(db);
  } catch (err) {
    await db?.close().catch(() => undefined);
    const where = settings.databaseUrl ? shownUrl(settings.databaseUrl) : settings.dir;
    throw new Error(`The memory store at ${where} could not be opened: ${(err as Error).message}`);
  }
  return { store: new MemoryStore(db, settings.limits), close: () => db.close() };
}

function databaseUrl(v: string): string {
  if (!/^postgres(ql)?:\/\//.test(v))
    throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL, got "${shownUrl(v)}"`);
  return v;
}
