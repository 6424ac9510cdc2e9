// The recall part's memory stores, opened as the worker opens its own (LazyMemoryStore, the worker's settings read
// from the environment it would have): PGlite in its thread in a folder of its own, and a PostgreSQL server
// (testkit's, started here) through DATABASE_URL, each database new. Owners are filled through the store's own
// import (what `agent memory import` runs), a thousand at a time so that the fill's cost per memory as the owner
// grows can be seen.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Memory } from '../core/memory';
import { LazyMemoryStore, readMemorySettings } from '../memory/open-store';
import { startPostgres, type RunningPostgres } from '../testkit/postgres-server';

export type Database = 'PGlite' | 'PostgreSQL';

export interface BenchStore {
  database: Database;
  lazy: LazyMemoryStore;
  /** Opening it the first time: creating and migrating the database. */
  openMs: number;
  close(): Promise<void>;
}

/** PGlite always; PostgreSQL when its server could start (else `skipped` says why). */
export async function openStores(runId: string): Promise<{ stores: BenchStore[]; skipped?: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-recall-'));
  const stores = [await openStore('PGlite', { MEMORY_DIR: path.join(dir, 'memory') }, () => rm(dir))];
  let server: RunningPostgres;
  try {
    server = await startPostgres();
  } catch (err) {
    return { stores, skipped: `PostgreSQL rows skipped: ${(err as Error).message.split('\n')[0]}` };
  }
  try {
    const url = await server.database(`recall_${runId.replace(/\W/g, '_')}`);
    stores.push(await openStore('PostgreSQL', { DATABASE_URL: url }, () => server.stop()));
  } catch (err) {
    await server.stop();
    await stores[0]!.close();
    throw err;
  }
  return { stores };
}

async function openStore(database: Database, env: NodeJS.ProcessEnv, after: () => Promise<void>): Promise<BenchStore> {
  // The worker's defaults otherwise (MEMORY_RECALL_TOKENS 500); no owner limit in the way of 10,000.
  const lazy = new LazyMemoryStore(readMemorySettings({ ...env, MEMORY_MAX_PER_OWNER: '1000000' }, os.tmpdir()));
  const began = performance.now();
  try {
    await lazy.store();
  } catch (err) {
    await after();
    throw err;
  }
  const openMs = performance.now() - began;
  return {
    database,
    lazy,
    openMs,
    async close() {
      await lazy.close();
      await after();
    },
  };
}

const rm = async (dir: string) => rmSync(dir, { recursive: true, force: true });

/** Memories for `owner` as the export/import format has them, `spacingMs` apart in time from `firstAt` on. */
export function memoriesOf(owner: string, texts: string[], firstAt: number, spacingMs = 1000): Memory[] {
  return texts.map((text, i) => {
    const at = new Date(firstAt + i * spacingMs).toISOString();
    // Ids of the owner's own: an id another owner's copy has would be replaced at import.
    const id = `mem_${createHash('sha256').update(`${owner}/${text}`).digest('hex').slice(0, 16)}`;
    return { id, owner, goalId: null, text, tags: [], source: { kind: 'import' }, createdAt: at, updatedAt: at };
  });
}

/** Imports `memories` for `owner` a thousand at a time: the ms each thousand took. */
export async function fill(store: BenchStore, owner: string, memories: Memory[]): Promise<number[]> {
  const s = await store.lazy.store();
  const chunks: number[] = [];
  for (let i = 0; i < memories.length; i += 1000) {
    const chunk = memories.slice(i, i + 1000);
    const began = performance.now();
    const added = await s.importAll(owner, chunk);
    chunks.push(performance.now() - began);
    if (added !== chunk.length) throw new Error(`recall: ${store.database} imported ${added} of ${chunk.length}`);
  }
  return chunks;
}

/** A turn's recall as the planning activity does it (activities/llm/llm-activities.ts): none where the store was
 * never started, else the owner's memories for the question within the worker's budget. */
export async function recallAsWorker(lazy: LazyMemoryStore, owner: string, goalId: string, query: string) {
  if (!lazy.started) return [];
  return (await lazy.store()).recall(owner, goalId, query, lazy.settings.recallTokens);
}
