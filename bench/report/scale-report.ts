// The scale tables: per phase, operations, wall time, throughput, latency percentiles and the CPU time of the dev
// server, the worker processes and the load (this process); then the 2-worker / 1-worker throughput ratio, and where
// the CPU went, in cores used over the phase's wall time.
import type { ScaleOptions } from '../options';
import { round, roundSummary, summarize, table } from '../stats';
import { judge } from '../verdict';

export interface Phase {
  wallMs: number;
  operations: number;
  /** Per operation, in ms: a turn, or a start plus its first turn. */
  latenciesMs: number[];
  /** CPU ms over the phase: `server`, `workers`, `load`. */
  cpuMs: Record<string, number>;
  /** The starts phase: the turn alone, in ms. */
  turnMs?: number[];
}

export interface ScaleFacts {
  opts: ScaleOptions;
  serverPid?: number;
  cpus: number;
}

const perSecond = (p: Phase) => p.operations / (p.wallMs / 1000);
const cores = (p: Phase, part: string) => (p.cpuMs[part] ?? NaN) / p.wallMs;
const fixed = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

function row(label: string, unit: string, p: Phase): string[] {
  const s = summarize(p.latenciesMs);
  const cpu = (part: string) => fixed(cores(p, part), 2);
  return [
    label,
    String(p.operations),
    fixed(p.wallMs / 1000),
    `${fixed(perSecond(p))} ${unit}/s`,
    fixed(s.p50, 0),
    fixed(s.p95, 0),
    fixed(s.max, 0),
    cpu('server'),
    cpu('workers'),
    cpu('load'),
  ];
}

/** One line saying which process used most of the CPU, and whether the box was saturated. */
function verdict(p: Phase, cpus: number): string {
  const parts = ['server', 'workers', 'load'].map((k) => [k, cores(p, k)] as const);
  const total = parts.reduce((a, [, c]) => a + (Number.isFinite(c) ? c : 0), 0);
  const [top, topCores] = [...parts].sort((a, b) => b[1] - a[1])[0]!;
  const name = {
    server: 'the dev server',
    workers: 'the worker process(es)',
    load: 'the load (clients, this process)',
  }[top];
  const perOp = (k: string) => fixed((p.cpuMs[k] ?? NaN) / p.operations, 1);
  return (
    `${fixed(total, 2)} of ${cpus} cores busy (${fixed((100 * total) / cpus, 0)}%); ${name} used most: ${fixed(topCores, 2)} cores, ` +
    `${fixed((100 * topCores) / total, 0)}% of the CPU used. CPU ms per operation: server ${perOp('server')}, workers ${perOp('workers')}, load ${perOp('load')}.`
  );
}

type Paced = { thinkMs: number; phase: Phase };

/** The issue's bar: 100 active conversations, p95 turn time (all overhead: the model answers at once) ≤ 200 ms. */
const PACED_P95_TARGET_MS = 200;

const HEADER = [
  'phase',
  'operations',
  'wall s',
  'throughput',
  'p50 ms',
  'p95 ms',
  'max ms',
  'server cores',
  'worker cores',
  'load cores',
];

export function scaleText(facts: ScaleFacts, paced: Paced[], active: Phase, starts: Phase): string {
  const { opts } = facts;
  const pacedVerdicts = paced.map(({ thinkMs, phase }) => {
    const p95 = summarize(phase.latenciesMs).p95;
    return `  ${opts.active} conversations, think ~${fixed(thinkMs / 1000)} s: p95 ${fixed(p95, 0)} ms (bar ≤ ${PACED_P95_TARGET_MS} ms: ${judge(`scale: ${opts.active} conversations, think ~${fixed(thinkMs / 1000)} s, p95`, p95, PACED_P95_TARGET_MS, { unit: 'ms' })}); ${verdict(phase, facts.cpus)}`;
  });
  const main = table([
    HEADER,
    ...paced.map(({ thinkMs, phase }) =>
      row(`${opts.active} conversations, a turn every ~${fixed(thinkMs / 1000)} s each, 1 worker`, 'turns', phase),
    ),
    row(`${opts.active} conversations × ${opts.turns} turns at once, 1 worker (ms: a turn)`, 'turns', active),
    row(`${opts.starts} started + 1 turn each, ${opts.startConcurrency} at a time (ms: start + turn)`, 'conv', starts),
  ]);
  const startTurn = summarize(starts.turnMs ?? []);
  return [
    '',
    `Scale: worker processes (bench/scale-worker.ts, the worker of worker/main.ts from source; scripted model, no latency; VALIDATE_PROMPTS=false), load from this process through AgentClient ` +
      `(start waits for the greeting; a turn is the prompt update until its reply). "cores": CPU time / wall time of the dev server` +
      `${facts.serverPid ? ` (pid ${facts.serverPid})` : ' (external: not measured)'}, the worker process(es), this process.`,
    main,
    ...pacedVerdicts,
    `  Back to back, the box saturates at ${fixed(perSecond(active))} turns/s; a turn then waits its place: ${opts.active} conversations / that throughput ≈ ${fixed((opts.active / perSecond(active)) * 1000, 0)} ms.`,
    `  ${opts.starts} conversations: ${fixed(starts.wallMs / 1000)} s in all; their first turn alone p50 ${fixed(startTurn.p50, 0)} ms, p95 ${fixed(startTurn.p95, 0)} ms.`,
    `  Active: ${verdict(active, facts.cpus)}`,
    `  Starts: ${verdict(starts, facts.cpus)}`,
  ].join('\n');
}

export function scaleJson(facts: ScaleFacts, paced: Paced[], active: Phase, starts: Phase): Record<string, unknown> {
  const phase = (p: Phase) => ({
    operations: p.operations,
    wallMs: round(p.wallMs, 1),
    perSecond: round(perSecond(p), 2),
    latencyMs: roundSummary(summarize(p.latenciesMs)),
    cpuMs: Object.fromEntries(Object.entries(p.cpuMs).map(([k, v]) => [k, Number.isFinite(v) ? round(v, 0) : null])),
    cores: Object.fromEntries(
      Object.keys(p.cpuMs).map((k) => [k, Number.isFinite(cores(p, k)) ? round(cores(p, k), 3) : null]),
    ),
  });
  return {
    benchmark: 'scale on one box: concurrent conversations, 1,000 starts',
    options: facts.opts,
    cpus: facts.cpus,
    paced: paced.map(({ thinkMs, phase: p }) => ({
      thinkMs,
      ...phase(p),
      p95TargetMs: PACED_P95_TARGET_MS,
      met: summarize(p.latenciesMs).p95 <= PACED_P95_TARGET_MS,
    })),
    active: phase(active),
    starts: { ...phase(starts), firstTurnMs: roundSummary(summarize(starts.turnMs ?? [])) },
  };
}
