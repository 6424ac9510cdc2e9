// Owners' memories (issue 42), in three measures on one PGlite store and one PostgreSQL database (testkit's server,
// through DATABASE_URL; skipped with a note when it cannot start), each new:
// 1. what recall adds to a text turn, the owner holding about a hundred memories (recall-turn.ts), first, while the
//    stores hold nothing else;
// 2. recall latency as the planning activity pays it, for owners of each size (recall-latency.ts), and the fill;
// 3. recall quality on the held-out set (recall-quality.ts): the 50 facts alone, and among the largest owner's notes.
import type { BenchContext, BenchPart } from './context';
import type { RecallOptions } from './part-options';
import { measureRecallLatency } from './recall-latency';
import { generatedNotes } from './recall-notes';
import { measureQuality, RANKINGS, type QualityRow } from './recall-quality';
import { RECALL_SET } from './recall-set';
import { fill, memoriesOf, openStores } from './recall-stores';
import { measureRecallTurns } from './recall-turn';
import { renderRecall } from './report/recall-report';

const FACTS = RECALL_SET.map((f) => f.fact);
const TURN_OWNER = 'recall-turn';
const FACTS_OWNER = 'recall-facts';

export async function runRecallBench(ctx: BenchContext, opts: RecallOptions): Promise<BenchPart> {
  process.stderr.write('bench (recall): opening the memory stores (PGlite, PostgreSQL)\n');
  const { stores, skipped } = await openStores(ctx.runId);
  if (skipped) process.stderr.write(`bench (recall): ${skipped}\n`);
  // Every owner's memories were kept a second apart from here on, the oldest first.
  const since = Date.now() - 86_400_000;
  try {
    // The held-out facts and as many notes, taking turns in time: about a hundred.
    const turnTexts = generatedNotes(FACTS.length, 7).flatMap((note, i) => [note, FACTS[i]!]);
    for (const s of stores) await fill(s, TURN_OWNER, memoriesOf(TURN_OWNER, turnTexts, since));
    const turns = await measureRecallTurns(ctx, stores, {
      owner: TURN_OWNER,
      warmup: opts.turnWarmup,
      iterations: opts.turns,
      turnsPerConversation: opts.turnsPerConversation,
    });

    const latency = await measureRecallLatency(stores, opts.sizes, {
      since,
      warmup: opts.warmup,
      recalls: opts.recalls,
      interrupts: ctx.interrupts,
    });

    const largest = Math.max(...opts.sizes);
    const quality: QualityRow[] = [];
    for (const s of stores) {
      ctx.interrupts.check();
      process.stderr.write(`bench (recall): ${s.database}, the held-out questions\n`);
      await fill(s, FACTS_OWNER, memoriesOf(FACTS_OWNER, FACTS, since));
      // Spread evenly among the notes in time, so that neither they nor the notes are recall's newest.
      const spacing = (largest * 1000) / FACTS.length;
      const among = `latency-${largest}`;
      await fill(s, among, memoriesOf(among, FACTS, since + spacing / 2, spacing));
      for (const ranking of RANKINGS) {
        quality.push(await measureQuality(s, ranking, FACTS_OWNER, 0));
        quality.push(await measureQuality(s, ranking, among, largest));
      }
    }
    return renderRecall({ opts, stores, skipped, turnMemories: turnTexts.length, turns, latency, quality });
  } finally {
    for (const s of stores) await s.close();
  }
}
