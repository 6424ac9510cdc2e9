// The delegation tables: per model latency, the four-delegate plan side by side and one by one (with the model
// waits each must make in a row, the floor no orchestration can beat), then one delegation against the same tool run
// by the lead itself, and their difference.
import type { DelegationOptions } from '../options';
import { formatMs, ratio, round, roundSummary, summarize, table, type Summary } from '../stats';

/** One timed path of the delegation benchmark. */
export interface DelegationSeries {
  /** parallel | sequential (the plans), direct | delegated (one delegation's cost). */
  key: string;
  latencyMs: number;
  samples: number[];
}

/** Model waits in a row: side by side, lead plans, every delegate plans then answers at once, lead answers; one by
 * one, the lead's first plan, then per delegate its plan, its answer and the lead's next step. */
const MODEL_WAITS = { parallel: 4, sequential: 1 + 4 * 3 };

interface Plan {
  latencyMs: number;
  parallel: Summary;
  sequential: Summary;
  series: { parallel: DelegationSeries; sequential: DelegationSeries };
}

function plansOf(series: DelegationSeries[]): Plan[] {
  const latencies = [...new Set(series.map((s) => s.latencyMs))];
  return latencies.map((latencyMs) => {
    const pick = (key: string) => series.find((s) => s.latencyMs === latencyMs && s.key === key)!;
    const parallel = pick('parallel');
    const sequential = pick('sequential');
    return {
      latencyMs,
      parallel: summarize(parallel.samples),
      sequential: summarize(sequential.samples),
      series: { parallel, sequential },
    };
  });
}

function overheadOf(series: DelegationSeries[]) {
  const direct = series.find((s) => s.key === 'direct')!;
  const delegated = series.find((s) => s.key === 'delegated')!;
  const d = summarize(direct.samples);
  const g = summarize(delegated.samples);
  return { direct, delegated, d, g, diffP50: g.p50 - d.p50, diffP95: g.p95 - d.p95 };
}

const signed = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${formatMs(Math.abs(x))}` : '—');

export function delegationText(
  opts: DelegationOptions,
  planSeries: DelegationSeries[],
  overheadSeries: DelegationSeries[],
): string {
  const plans = plansOf(planSeries);
  const o = overheadOf(overheadSeries);
  const planRows = plans.flatMap((p) => [
    [
      '4 AskAgent in one step (side by side)',
      `${p.latencyMs} ms`,
      formatMs(p.parallel.p50),
      formatMs(p.parallel.p95),
      `${MODEL_WAITS.parallel * p.latencyMs}`,
      `${ratio(p.parallel.p50, p.sequential.p50)} / ${ratio(p.parallel.p95, p.sequential.p95)}`,
    ],
    [
      'one AskAgent per step, 4 steps (one by one)',
      `${p.latencyMs} ms`,
      formatMs(p.sequential.p50),
      formatMs(p.sequential.p95),
      `${MODEL_WAITS.sequential * p.latencyMs}`,
      '',
    ],
  ]);
  return [
    '',
    `Delegation: a lead agent's plan of 4 delegates (each plans, runs CurrentPTO, answers), in-process worker, VALIDATE_PROMPTS off; ` +
      `${opts.iterations} timed turns per row (${opts.warmup} warm-up), interleaved; wall time of the turn at the client.`,
    `"model floor": the model waits in a row × the latency (${MODEL_WAITS.parallel} side by side, ${MODEL_WAITS.sequential} one by one).`,
    table([
      ['plan', 'model', 'p50 ms', 'p95 ms', 'model floor ms', 'side by side / one by one (p50 / p95)'],
      ...planRows,
    ]),
    '',
    `One delegation's cost: CurrentPTO in the lead vs through a delegate (AskAgent → child conversation → CurrentPTO), ` +
      `zero-latency model, ${opts.overheadIterations} timed turns each (${opts.warmup} warm-up), interleaved.`,
    table([
      ['path', 'p50 ms', 'p95 ms'],
      ['CurrentPTO in the lead (2 model calls)', formatMs(o.d.p50), formatMs(o.d.p95)],
      ['CurrentPTO through a delegate (4 model calls, 1 child)', formatMs(o.g.p50), formatMs(o.g.p95)],
      ['difference', signed(o.diffP50), signed(o.diffP95)],
    ]),
  ].join('\n');
}

export function delegationJson(
  opts: DelegationOptions,
  planSeries: DelegationSeries[],
  overheadSeries: DelegationSeries[],
): Record<string, unknown> {
  const o = overheadOf(overheadSeries);
  const r = (x: number, y: number) => (Number.isFinite(x / y) ? round(x / y) : null);
  const samples = (s: DelegationSeries) => s.samples.map((x) => round(x));
  return {
    benchmark: 'delegation: 4 delegates side by side vs one by one; one delegation vs the same tool in the lead',
    options: opts,
    measure:
      'wall time of the turn at the client (prompt update sent → reply), ms; VALIDATE_PROMPTS off; in-process worker',
    plans: plansOf(planSeries).map((p) => ({
      latencyMs: p.latencyMs,
      parallel: roundSummary(p.parallel),
      sequential: roundSummary(p.sequential),
      modelFloorMs: { parallel: MODEL_WAITS.parallel * p.latencyMs, sequential: MODEL_WAITS.sequential * p.latencyMs },
      ratioParallelToSequentialP50: r(p.parallel.p50, p.sequential.p50),
      ratioParallelToSequentialP95: r(p.parallel.p95, p.sequential.p95),
      samplesMs: { parallel: samples(p.series.parallel), sequential: samples(p.series.sequential) },
    })),
    overhead: {
      latencyMs: 0,
      direct: roundSummary(o.d),
      delegated: roundSummary(o.g),
      differenceP50Ms: round(o.diffP50),
      differenceP95Ms: round(o.diffP95),
      samplesMs: { direct: samples(o.direct), delegated: samples(o.delegated) },
    },
  };
}
