// Recall latency as a turn pays it: the planning activity's recall (recallAsWorker) timed from the caller, for owners
// holding each count of generated notes, in each database, the held-out questions asked in turn. Interleaved
// (round-robin over database × size), so drift on a shared machine falls on every row alike. Each owner is filled
// first through the store's import, timed.
import type { Interrupts } from './interrupts';
import { RECALL_SET } from './recall-set';
import { generatedNotes } from './recall-notes';
import { fill, memoriesOf, recallAsWorker, type BenchStore, type Database } from './recall-stores';
import { roundRobin, type Sampler } from './round-robin';
import { PTO_GOAL } from './scripted-answers';
import { timeIt } from './stats';

export interface LatencyRow {
  database: Database;
  /** Not a recall: a lookup by an id nobody has, the least any query through the store costs. */
  floor?: true;
  /** The owner's memories when timed. */
  memories: number;
  owner: string;
  /** ms each thousand of the fill took, in order. */
  fillChunksMs: number[];
  /** Timed recalls, ms. */
  samples: number[];
  /** Rows matching a question (full-text), mean over the questions. */
  matchingMean: number;
  /** Memories a recall returned (within the worker's budget), mean. */
  shownMean: number;
}

export interface LatencyRun {
  /** When the owners' first memory was kept (ms since the epoch); the rest a second apart after it. */
  since: number;
  warmup: number;
  recalls: number;
  interrupts: Interrupts;
}

const empty = () => ({ fillChunksMs: [], samples: [], matchingMean: NaN, shownMean: NaN });
const NO_ID = 'mem_0000000000000000';

/** Fills an owner per store and size, then times recalls over all of them interleaved. */
export async function measureRecallLatency(
  stores: BenchStore[],
  sizes: number[],
  run: LatencyRun,
): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  for (const store of stores) {
    rows.push({ ...empty(), database: store.database, floor: true, memories: 0, owner: 'nobody' });
    for (const size of sizes) {
      run.interrupts.check();
      const owner = `latency-${size}`;
      process.stderr.write(`bench (recall): ${store.database}, filling an owner with ${size} memories\n`);
      const notes = memoriesOf(owner, generatedNotes(size), run.since);
      const fillChunksMs = await fill(store, owner, notes);
      rows.push({ ...empty(), database: store.database, memories: size, owner, fillChunksMs });
    }
  }
  const shown: number[][] = rows.map(() => []);
  const samplers: Sampler[] = rows.map((row, r) => {
    const store = stores.find((s) => s.database === row.database)!;
    let next = 0;
    return {
      samples: row.samples,
      async sample() {
        const question = RECALL_SET[next++ % RECALL_SET.length]!.question;
        let got = 0;
        const ms = await timeIt(async () => {
          if (row.floor) await (await store.lazy.store()).get(row.owner, NO_ID);
          else got = (await recallAsWorker(store.lazy, row.owner, PTO_GOAL, question)).length;
        });
        shown[r]!.push(got);
        return ms;
      },
    };
  });
  process.stderr.write(`bench (recall): ${run.warmup} + ${run.recalls} recalls per owner, interleaved\n`);
  await roundRobin(samplers, {
    ...run,
    iterations: run.recalls,
    progress: { unit: 'recalls each', every: Math.max(1, Math.round((run.warmup + run.recalls) / 4)) },
  });
  for (const [r, row] of rows.entries()) {
    if (row.floor) continue;
    const store = stores.find((s) => s.database === row.database)!;
    row.shownMean = mean(shown[r]!);
    const counts: number[] = [];
    for (const q of RECALL_SET) counts.push(await matching(store, row.owner, q.question));
    row.matchingMean = mean(counts);
  }
  return rows;
}

/** How many of the owner's memories the question's words match (untimed). */
async function matching(store: BenchStore, owner: string, question: string): Promise<number> {
  return (await (await store.lazy.store()).search(owner, question, 1_000_000)).length;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
