// Recall quality on the held-out set: for each question, is its fact the first memory recalled (hit@1), among the
// first three (hit@3), and anywhere in what the turn's prompt would show (the worker's budget)? A ranking is one way
// of ordering an owner's memories for a question: full text (Postgres's, what recall runs) now; an embedding-ranked
// recall would be a second Ranking, measured by the same loop on the same owners.
import { RECALL_SET } from './recall-set';
import { recallAsWorker, type BenchStore, type Database } from './recall-stores';
import { PTO_GOAL } from './scripted-answers';

export interface Ranked {
  /** What the ranking found for the question, best first (texts). */
  found: string[];
  /** What the turn's prompt would show: the found first, then the newest, within the budget. */
  shown: string[];
}

export interface Ranking {
  name: string;
  rank(store: BenchStore, owner: string, question: string): Promise<Ranked>;
}

/** Recall as the worker runs it; found: those of its memories the question's words match (not the newest after). */
export const fullText: Ranking = {
  name: 'full text',
  async rank(store, owner, question) {
    const shown = (await recallAsWorker(store.lazy, owner, PTO_GOAL, question)).map((m) => m.text);
    // The same query recall's matches come from: what is in it was found, the rest is recall's newest.
    const matched = new Set((await (await store.lazy.store()).search(owner, question, 1000)).map((m) => m.text));
    return { found: shown.filter((t) => matched.has(t)), shown };
  },
};

/** The rankings the part measures. */
export const RANKINGS: readonly Ranking[] = [fullText];

export interface QualityRow {
  database: Database;
  ranking: string;
  /** The owner's memories besides the facts. */
  distractors: number;
  questions: number;
  hit1: number;
  hit3: number;
  /** The fact anywhere in what the prompt would show. */
  shown: number;
  /** Questions for which the ranking found anything. */
  foundAny: number;
  /** Questions whose fact was not in the first three, with what came first. */
  misses: { question: string; fact: string; first: string | null }[];
}

/** Asks every held-out question of `owner` (who holds the facts and `distractors` other memories). */
export async function measureQuality(
  store: BenchStore,
  ranking: Ranking,
  owner: string,
  distractors: number,
): Promise<QualityRow> {
  const row: QualityRow = {
    database: store.database,
    ranking: ranking.name,
    distractors,
    questions: RECALL_SET.length,
    hit1: 0,
    hit3: 0,
    shown: 0,
    foundAny: 0,
    misses: [],
  };
  for (const { fact, question } of RECALL_SET) {
    const { found, shown } = await ranking.rank(store, owner, question);
    const at = found.indexOf(fact);
    if (at === 0) row.hit1++;
    if (at >= 0 && at < 3) row.hit3++;
    else row.misses.push({ question, fact, first: found[0] ?? null });
    if (shown.includes(fact)) row.shown++;
    if (found.length) row.foundAny++;
  }
  return row;
}
