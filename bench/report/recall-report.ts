// The recall part's tables and JSON: what recall adds to a text turn (issue 42's bar: ≤ 5 ms at p50 with full-text
// recall on PGlite) and where that time goes, recall latency with the fill that made each owner, and recall quality
// on the held-out set.
import type { RecallOptions } from '../part-options';
import type { LatencyRow } from '../recall-latency';
import type { QualityRow } from '../recall-quality';
import type { BenchStore } from '../recall-stores';
import type { TurnSteps, TurnWay } from '../recall-turn';
import { formatMs, round, roundSummary, seconds, summarize, table } from '../stats';
import { judge } from '../verdict';

/** Issue 42: what full-text recall on PGlite may add to a turn, p50. */
export const ADDED_BAR_MS = 5;

export interface RecallFacts {
  opts: RecallOptions;
  stores: BenchStore[];
  skipped?: string;
  /** The turn's owner's memories. */
  turnMemories: number;
  turns: TurnWay[];
  latency: LatencyRow[];
  quality: QualityRow[];
}

const p = (xs: number[], q: 'p50' | 'p95') => summarize(xs)[q];
/** A difference: its sign always shown, its size as formatMs has it. */
const signed = (x: number) => (Number.isFinite(x) ? `${x < 0 ? '−' : '+'}${formatMs(Math.abs(x))}` : '—');
const pct = (n: number, of: number) => `${Math.round((100 * n) / of)} %`;
const count = (n: number) => n.toLocaleString('en-US');
const STEPS: [keyof TurnSteps, string][] = [
  ['onServer', 'on server'],
  ['wftDispatch', 'WFT dispatch'],
  ['wftOnWorker', 'WFT on worker'],
  ['wftAfterPlan', 'of which after plan'],
  ['activityDispatch', 'activity dispatch'],
  ['activity', 'activity'],
  ['beforeModel', 'before model'],
  ['model', 'model'],
  ['afterModel', 'after model'],
  ['other', 'other'],
];

export function renderRecall(f: RecallFacts): { text: string; figures: Record<string, unknown> } {
  const off = f.turns.find((t) => t.key === 'off')!;
  const turnRows = f.turns.map((t) => ({
    ...t,
    addedP50: p(t.samples, 'p50') - p(off.samples, 'p50'),
    addedP95: p(t.samples, 'p95') - p(off.samples, 'p95'),
    verdict:
      t.database === 'PGlite'
        ? judge(
            'recall: a text turn, memory on (PGlite) − MEMORY=off, p50',
            p(t.samples, 'p50') - p(off.samples, 'p50'),
            ADDED_BAR_MS,
            { unit: 'ms' },
          )
        : undefined,
  }));
  const steps = (t: TurnWay) =>
    Object.fromEntries(
      STEPS.map(([k]) => [
        k,
        p(
          t.steps.map((s) => s[k]),
          'p50',
        ),
      ]),
    );
  const offSteps = steps(off);
  const storesLine = f.stores
    .map((s) => `${s.database} opened (created, migrated) in ${formatMs(s.openMs)} ms`)
    .join('; ');
  const text = [
    '',
    `Recall of owners' memories (issue 42): ${storesLine}; the worker's recall budget (MEMORY_RECALL_TOKENS ` +
      `${f.stores[0]?.lazy.settings.recallTokens}).`,
    ...(f.skipped ? [f.skipped] : []),
    '',
    `A text turn (scripted model, validation off) with memory on, its owner holding ${count(f.turnMemories)} memories (the ` +
      `held-out facts and as many notes), against MEMORY=off; ${f.opts.turnWarmup} warm-up + ${f.opts.turns} interleaved ` +
      `turns per way; recall: its query inside the planning activity; shown: memories in each model request.`,
    table([
      [
        'way',
        'n',
        'p50 ms',
        'p95 ms',
        'added p50',
        'added p95',
        'recall p50',
        'recall p95',
        'shown',
        `≤ ${ADDED_BAR_MS} ms`,
      ],
      ...turnRows.map((t) => [
        t.name,
        String(t.samples.length),
        formatMs(p(t.samples, 'p50')),
        formatMs(p(t.samples, 'p95')),
        t.key === 'off' ? '' : signed(t.addedP50),
        t.key === 'off' ? '' : signed(t.addedP95),
        t.recallMs.length ? formatMs(p(t.recallMs, 'p50')) : '',
        t.recallMs.length ? formatMs(p(t.recallMs, 'p95')) : '',
        String(p(t.shown, 'p50')),
        t.verdict ?? '',
      ]),
    ]),
    ...turnRows
      .filter((t) => t.usedMs.length)
      .map(
        (t) =>
          `${t.name}: the note of which memories a turn was shown (store.used, after the recall, not awaited) took ` +
          `${formatMs(p(t.usedMs, 'p50'))} ms p50, ${formatMs(p(t.usedMs, 'p95'))} ms p95.`,
      ),
    '',
    'Where the turn goes (p50 of each interval, ms; "before model": the planning activity started → its model request, where recall runs):',
    table([
      ['way', ...STEPS.map(([, name]) => name)],
      ...f.turns.map((t) => {
        const s = steps(t);
        return [t.name, ...STEPS.map(([k]) => formatMs(s[k]!))];
      }),
      ...f.turns
        .filter((t) => t !== off)
        .map((t) => {
          const s = steps(t);
          return [`  ${t.database} − off`, ...STEPS.map(([k]) => signed(s[k]! - offSteps[k]!))];
        }),
    ]),
    '',
    `Recall latency as the planning activity pays it (the held-out questions in turn; ${f.opts.warmup} warm-up + ` +
      `${f.opts.recalls} interleaved recalls per row); each owner filled first through the store's import, a ` +
      `thousand at a time.`,
    table([
      [
        'database',
        'memories',
        'fill s',
        'ms/memory, first → last 1,000',
        'matching',
        'shown',
        'p50 ms',
        'p95 ms',
        'max ms',
      ],
      ...f.latency.map((r) => {
        const s = summarize(r.samples);
        const timed = [formatMs(s.p50), formatMs(s.p95), formatMs(s.max)];
        if (r.floor) return [r.database, 'floor: a lookup by id', '', '', '', '', ...timed];
        const fillMs = r.fillChunksMs.reduce((a, b) => a + b, 0);
        const per = (ms: number, i: number) => ms / Math.min(1000, r.memories - i * 1000);
        const first = per(r.fillChunksMs[0]!, 0);
        const last = per(r.fillChunksMs.at(-1)!, r.fillChunksMs.length - 1);
        return [
          r.database,
          count(r.memories),
          seconds(fillMs),
          r.fillChunksMs.length > 1 ? `${formatMs(first)} → ${formatMs(last)}` : formatMs(first),
          r.matchingMean.toFixed(1),
          r.shownMean.toFixed(1),
          ...timed,
        ];
      }),
    ]),
    '',
    `Recall quality on the held-out set (${f.quality[0]?.questions ?? 0} questions, each for one fact in other words): ` +
      'hit@1 / hit@3, its fact first / among the first three the ranking found; in the prompt: anywhere in what the ' +
      'turn would show (within the budget); found any: the ranking found something for the question.',
    table([
      ['database', 'ranking', 'owner holds', 'hit@1', 'hit@3', 'in the prompt', 'found any'],
      ...f.quality.map((q) => [
        q.database,
        q.ranking,
        q.distractors ? `the facts + ${count(q.distractors)} notes` : 'the facts alone',
        pct(q.hit1, q.questions),
        pct(q.hit3, q.questions),
        pct(q.shown, q.questions),
        pct(q.foundAny, q.questions),
      ]),
    ]),
  ].join('\n');

  const figures = {
    benchmark: "Recall of owners' memories: what it adds to a text turn, its latency, its quality on a held-out set",
    options: f.opts,
    stores: f.stores.map((s) => ({ database: s.database, openMs: round(s.openMs) })),
    ...(f.skipped ? { skipped: f.skipped } : {}),
    addedBarMs: ADDED_BAR_MS,
    turns: turnRows.map((t) => ({
      key: t.key,
      way: t.name,
      ms: roundSummary(summarize(t.samples)),
      addedP50Ms: t.key === 'off' ? null : round(t.addedP50),
      addedP95Ms: t.key === 'off' ? null : round(t.addedP95),
      ...(t.verdict ? { met: t.verdict === 'met' } : {}),
      recallMs: t.recallMs.length ? roundSummary(summarize(t.recallMs)) : null,
      usedMs: t.usedMs.length ? roundSummary(summarize(t.usedMs)) : null,
      memoriesShown: roundSummary(summarize(t.shown)),
      stepsP50Ms: Object.fromEntries(Object.entries(steps(t)).map(([k, v]) => [k, round(v!)])),
      samplesMs: t.samples.map((x) => round(x)),
    })),
    latency: f.latency.map((r) => ({
      database: r.database,
      ...(r.floor ? { floor: true } : {}),
      memories: r.memories,
      fillMs: round(r.fillChunksMs.reduce((a, b) => a + b, 0)),
      fillChunksMs: r.fillChunksMs.map((x) => round(x)),
      matchingMean: round(r.matchingMean),
      shownMean: round(r.shownMean),
      ms: roundSummary(summarize(r.samples)),
      samplesMs: r.samples.map((x) => round(x)),
    })),
    quality: f.quality,
  };
  return { text, figures };
}
