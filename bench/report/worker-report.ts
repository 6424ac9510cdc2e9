// The lean-worker tables (issue 11): targets against what was measured, tsx / compiled ratios, and the cache rows.
import { formatMs, p50Of, ratio, round, table } from '../stats';
import type { WorkerMode } from '../worker-process';
import { judge } from '../verdict';

export interface WorkerStart {
  mode: WorkerMode;
  /** ms from spawn to the "worker on" line. */
  logMs: number;
  /** ms from spawn to the first poll the server lists. */
  pollMs: number;
  /** Bytes, once idle: the worker's own process, and the process tree (npm, tsx, esbuild for tsx). */
  rssWorker: number;
  rssTree: number;
}

export interface ConversationsRun {
  cache: number;
  /** Tracing on (OTLP endpoint set): the worker runs the traced workflow bundle. */
  traced: boolean;
  conversations: number;
  /** Bytes (process tree) before the conversations, with them open and idle, and the most seen while starting them. */
  rssIdle: number;
  rssOpen: number;
  rssPeak: number;
  startMs: number;
  /** A text turn on one of the oldest conversations (evicted when the cache is smaller) and on one of the newest. */
  turnEvictedMs: number[];
  turnCachedMs: number[];
}

type StartFigure = 'logMs' | 'pollMs' | 'rssWorker' | 'rssTree';

const MB = 2 ** 20;
const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / MB).toFixed(0)} MB` : '—');
const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '—');

export function renderWorkerBench(r: {
  starts: WorkerStart[];
  runs: ConversationsRun[];
  sdkDefaultCache: number;
  settleMs: number;
}) {
  const of = (mode: WorkerMode, key: StartFigure) => p50Of(r.starts.filter((s) => s.mode === mode).map((s) => s[key]));
  const shipped = r.runs.find((run) => !run.traced);
  /** A row comparing the two workers' p50s; `bar`: the compiled worker's target, with its label. */
  const compare = (label: string, key: StartFigure, format: (x: number) => string, bar?: [string, number]) => [
    label,
    bar?.[0] ?? '',
    format(of('tsx', key)),
    format(of('compiled', key)),
    ratio(of('tsx', key), of('compiled', key)),
    bar ? judge(`compiled worker: ${label}`, of('compiled', key), bar[1]) : '',
  ];
  const rows: string[][] = [
    ['', 'target', 'npm run worker (tsx)', 'node dist/worker/main.js', 'tsx / compiled', 'target met'],
    compare('idle RSS, process tree', 'rssTree', mb, ['≤ 250 MB', 250 * MB]),
    compare('idle RSS, worker process', 'rssWorker', mb),
    compare('spawn → "worker on" line', 'logMs', seconds),
    compare('spawn → first poll (server)', 'pollMs', seconds, ['≤ 2 s', 2000]),
  ];
  if (shipped) {
    rows.push([
      `${shipped.conversations} idle open conversations, RSS`,
      '≤ 500 MB',
      '',
      mb(shipped.rssOpen),
      '',
      judge(`compiled worker: ${shipped.conversations} idle open conversations, RSS`, shipped.rssOpen / MB, 500, {
        unit: 'MB',
      }),
    ]);
  }
  const cacheRows: string[][] = [
    [
      'cache size',
      'RSS idle',
      `RSS, ${shipped?.conversations ?? 0} open`,
      'peak while starting',
      'per conversation',
      'start all',
      'turn p50, evicted',
      'turn p50, cached',
    ],
    ...r.runs.map((run) => [
      `${run.cache}${run === shipped ? ' (shipped)' : run.traced ? ' (shipped), traces on' : run.cache === r.sdkDefaultCache ? ' (SDK default)' : ''}`,
      mb(run.rssIdle),
      mb(run.rssOpen),
      mb(run.rssPeak),
      `${((((run.rssOpen - run.rssIdle) / run.conversations) * 1024) / MB).toFixed(0)} KB`,
      seconds(run.startMs),
      run.turnEvictedMs.length ? `${formatMs(p50Of(run.turnEvictedMs))} ms` : '—',
      run.turnCachedMs.length ? `${formatMs(p50Of(run.turnCachedMs))} ms` : '—',
    ]),
  ];
  const text = [
    '',
    'Lean worker (issue 11): the worker in a process of its own, the zero-latency scripted model, no MCP endpoints. p50 of',
    `${r.starts.length / 2} starts each, alternating; RSS ${r.settleMs / 1000} s after the first poll. Process tree: npm, sh, tsx and esbuild for tsx.`,
    table(rows),
    '',
    'The compiled worker holding idle conversations (greeted, waiting for the user), by cache size (WORKER_MAX_CACHED_WORKFLOWS),',
    'and with traces on (OTEL_EXPORTER_OTLP_ENDPOINT set: the traced workflow bundle, spans sent to a receiver that drops them):',
    table(cacheRows),
  ].join('\n');
  const json = {
    starts: r.starts.map((s) => ({ ...s, logMs: round(s.logMs, 1), pollMs: round(s.pollMs, 1) })),
    p50: Object.fromEntries(
      (['tsx', 'compiled'] as const).map((m) => [
        m,
        {
          logMs: round(of(m, 'logMs'), 1),
          pollMs: round(of(m, 'pollMs'), 1),
          rssWorker: of(m, 'rssWorker'),
          rssTree: of(m, 'rssTree'),
        },
      ]),
    ),
    conversations: r.runs.map((run) => ({
      ...run,
      startMs: round(run.startMs, 1),
      turnEvictedMs: run.turnEvictedMs.map((x) => round(x, 2)),
      turnCachedMs: run.turnCachedMs.map((x) => round(x, 2)),
    })),
    sdkDefaultCache: r.sdkDefaultCache,
    settleMs: r.settleMs,
  };
  return { text, json };
}
