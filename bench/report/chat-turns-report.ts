// The chat-turn results: client-observed latency per scenario against the floor, and where the time goes on the
// server (p50 over timed turns of each turn's breakdown, from the history timeline).
import type { BenchPart } from '../context';
import type { TurnOptions } from '../options';
import type { TurnScenario } from '../scenario';
import { PTO_GOAL } from '../scripted-answers';
import { round, roundSummary, summarize, table, type Summary } from '../stats';
import { turnBreakdown, type TurnBreakdown } from '../turn-breakdown';

type ChatTurnResult = ReturnType<typeof chatTurnResult>;

const conversationPolicy = (opts: TurnOptions) =>
  `a new conversation (floor: a new workflow) every ${opts.turnsPerConversation} turns, started and ended outside the timed window; ` +
  `default history budget (4000 events)`;

export function renderChatTurns(opts: TurnOptions, scenarios: TurnScenario[], measureMs: number): BenchPart {
  const results = chatTurnResults(scenarios);
  const continued = results.reduce((a, r) => a + r.conversationsThatContinuedAsNew, 0);
  const text = [
    '',
    `Chat turns. Model: ScriptedModel (no latency). Goal ${PTO_GOAL}. Scenarios interleaved round-robin; ${opts.warmup} warm-up turns each, discarded.`,
    `Conversations: ${conversationPolicy(opts)}.`,
    '',
    latencyTable(results),
    '',
    "Where the time goes: p50 over timed turns of per-turn sums (ms), from the server's history event timestamps.",
    '"on server": update\'s first workflow task scheduled → update completed; "other": on server minus the four sums.',
    breakdownTable(results),
    '',
    `History: max ${results.map((r) => `${r.maxHistoryLength}`).join(' / ')} events per workflow (in row order); ` +
      `continue-as-new: ${continued} conversations. Chat turns measuring ${(measureMs / 1000).toFixed(1)} s.`,
  ].join('\n');
  const json = {
    benchmark: 'chat-turn latency vs floor',
    iterations: opts.iterations,
    warmup: opts.warmup,
    turnsPerConversation: opts.turnsPerConversation,
    conversationPolicy: conversationPolicy(opts),
    order: 'interleaved round-robin, starting scenario rotated each iteration',
    percentileMethod: 'nearest rank',
    model: 'ScriptedModel, zero latency',
    goal: PTO_GOAL,
    measureMs: round(measureMs, 1),
    results,
  };
  return { text, figures: json };
}

function chatTurnResults(scenarios: TurnScenario[]): ChatTurnResult[] {
  const floor = summarize(scenarios[0]!.sampler.samples);
  return scenarios.map((s) => chatTurnResult(s, floor));
}

function chatTurnResult(s: TurnScenario, floor: Summary) {
  const stats = summarize(s.sampler.samples);
  const closed = s.sampler.closed;
  return {
    scenario: s.name,
    description: s.description,
    activitiesPerTurn: s.activitiesPerTurn,
    iterations: stats.n,
    conversations: closed.length,
    turnsPerConversation: closed.map((c) => c.turns),
    maxHistoryLength: Math.max(...closed.map((c) => c.historyLength)),
    conversationsThatContinuedAsNew: closed.filter((c) => c.runs > 1).length,
    ms: roundSummary(stats),
    overheadVsFloor: {
      p50Ms: round(stats.p50 - floor.p50),
      p50Ratio: round(stats.p50 / floor.p50),
      meanMs: round(stats.mean - floor.mean),
      meanRatio: round(stats.mean / floor.mean),
    },
    serverTimeline: serverTimeline(
      closed.flatMap((c) => c.timedTurns.map(turnBreakdown)),
      stats,
    ),
    samplesMs: s.sampler.samples.map((x) => round(x)),
  };
}

function serverTimeline(turns: TurnBreakdown[], client: Summary) {
  const p50 = (pick: (t: TurnBreakdown) => number) => (turns.length ? round(summarize(turns.map(pick)).p50) : null);
  const activityTypes = [...new Set(turns.flatMap((t) => Object.keys(t.byActivity)))];
  return {
    turns: turns.length,
    note: 'p50 over timed turns of per-turn sums, from the server history event timestamps',
    onServerP50Ms: p50((t) => t.onServer),
    clientMinusServerP50Ms: turns.length ? round(client.p50 - summarize(turns.map((t) => t.onServer)).p50) : null,
    wftsPerTurnP50: p50((t) => t.wfts),
    wftDispatchP50Ms: p50((t) => t.wftDispatch),
    wftDispatchAfterActivityP50Ms: p50((t) => t.wftDispatchAfterActivity),
    wftOnWorkerP50Ms: p50((t) => t.wftOnWorker),
    activitiesP50Ms: p50((t) => t.activities),
    activityDispatchP50Ms: p50((t) => t.activityDispatch),
    otherP50Ms: p50((t) => t.other),
    byActivityP50Ms: Object.fromEntries(activityTypes.map((n) => [n, p50((t) => t.byActivity[n] ?? 0)])),
  };
}

function latencyTable(results: ChatTurnResult[]): string {
  const overhead = (r: ChatTurnResult) => {
    const { p50Ratio, p50Ms } = r.overheadVsFloor;
    return `${p50Ratio.toFixed(2)}× (${p50Ms >= 0 ? '+' : '−'}${Math.abs(p50Ms).toFixed(2)} ms)`;
  };
  return table([
    ['scenario', 'activities', 'iterations', 'p50 ms', 'p95 ms', 'mean ms', 'p50 overhead vs floor'],
    ...results.map((r, i) => [
      r.scenario,
      r.activitiesPerTurn,
      String(r.iterations),
      r.ms.p50!.toFixed(2),
      r.ms.p95!.toFixed(2),
      r.ms.mean!.toFixed(2),
      i === 0 ? '—' : overhead(r),
    ]),
  ]);
}

function breakdownTable(results: ChatTurnResult[]): string {
  const ms = (x: number | null) => (x === null ? '—' : x.toFixed(1));
  return table([
    [
      'scenario',
      'client',
      'on server',
      'WFTs',
      'WFT dispatch',
      '(after activity)',
      'WFT on worker',
      'activity dispatch',
      'activities',
      'other',
    ],
    ...results.map((r) => {
      const t = r.serverTimeline;
      const byActivity = Object.entries(t.byActivityP50Ms).map(([n, v]) => `${n} ${ms(v)}`);
      return [
        r.scenario,
        r.ms.p50!.toFixed(1),
        ms(t.onServerP50Ms),
        String(t.wftsPerTurnP50 ?? '—'),
        ms(t.wftDispatchP50Ms),
        ms(t.wftDispatchAfterActivityP50Ms),
        ms(t.wftOnWorkerP50Ms),
        ms(t.activityDispatchP50Ms),
        `${ms(t.activitiesP50Ms)} (${byActivity.join(', ')})`,
        ms(t.otherP50Ms),
      ];
    }),
  ]);
}
