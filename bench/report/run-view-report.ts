// The run-view benchmark's tables and JSON: per row (run views or the plain events stream, over many conversations or
// one) and window (idle, turns), the requests the API made to Temporal per second per open view (by its own count
// and by the server's), the events each view got, the API's CPU, and the run view's lag; then what opening the views
// cost and whether the API stopped asking once they closed.
import type { ApiReading } from '../run-view-api';
import type { StreamKind, ViewsReading } from '../run-view-views';
import type { RunViewOptions } from '../options';
import { formatMs, ratio, round, roundSummary, summarize, table } from '../stats';

/** Everything read at one instant (views: what arrived since the reading before). */
export interface Reading {
  at: number;
  api: ApiReading;
  views: ViewsReading;
  /** The server's frontend requests by operation; null without its metrics. */
  server: Record<string, number> | null;
  turns: number;
}

type Span = [Reading, Reading];

export interface ShapeResult {
  stream: StreamKind;
  conversations: number;
  views: number;
  openMs: number;
  open: Span;
  /** Turns back to back; then the turns under way finishing (views still open); then nothing happening. */
  busy: Span;
  drain: Span;
  idle: Span;
  afterClose: Span;
}

export interface RunViewFacts {
  opts: RunViewOptions;
  shapes: ShapeResult[];
  /** The server's metrics endpoint, when found. */
  serverMetrics: string | null;
  setupMs: number;
  measureMs: number;
}

const HISTORY = 'GetWorkflowExecutionHistory';
const DESCRIBE = 'DescribeWorkflowExecution';
const QUERY = 'QueryWorkflow';
const VIEW_OPS = [HISTORY, DESCRIBE, QUERY];
/** The server names a history long poll (waitNewEvent) apart. */
const SERVER_OPS = [...VIEW_OPS, 'PollWorkflowExecutionHistory'];

/** A window's figures: counts are per second per open view unless named otherwise. */
function figures([a, b]: Span, views: number, got: ViewsReading = b.views) {
  const seconds = (b.at - a.at) / 1000;
  const started = (m: string) => (b.api.calls[m]?.started ?? 0) - (a.api.calls[m]?.started ?? 0);
  const methods = Object.keys(b.api.calls);
  const requests = methods.reduce((n, m) => n + started(m), 0);
  const perView = (n: number) => n / seconds / views;
  const turns = b.turns - a.turns;
  return {
    seconds,
    turns,
    turnsPerSecond: turns / seconds,
    requests,
    byMethod: Object.fromEntries(methods.map((m) => [m, started(m)]).filter(([, n]) => n)),
    /** The server's count of the three operations the views ask for (null: no metrics). */
    serverRequests:
      a.server && b.server ? SERVER_OPS.reduce((n, m) => n + (b.server![m] ?? 0) - (a.server![m] ?? 0), 0) : null,
    serverByOp:
      a.server && b.server
        ? Object.fromEntries(SERVER_OPS.map((m) => [m, (b.server![m] ?? 0) - (a.server![m] ?? 0)]))
        : null,
    /** The API's count of the same. */
    viewRequests: VIEW_OPS.reduce((n, m) => n + started(m), 0),
    requestsPerViewPerSecond: perView(requests),
    /** Every view's requests in the window over the turns the conversations took in it. */
    requestsPerTurn: turns ? requests / turns : NaN,
    historyPollsPerViewPerSecond: perView(b.api.counters.historyPolls - a.api.counters.historyPolls),
    describesPerViewPerSecond: perView(b.api.counters.describes - a.api.counters.describes),
    queriesPerViewPerSecond: perView(started(QUERY)),
    runViewsSent: b.api.counters.viewsSent - a.api.counters.viewsSent,
    events: got.events,
    eventsPerViewPerSecond: perView(got.events),
    bytesPerEvent: got.events ? got.bytes / got.events : NaN,
    apiCpuMsPerSecond: (b.api.cpuMs - a.api.cpuMs) / seconds,
    viewsCpuMsPerSecond: got.cpuMs / seconds,
    apiRssBytes: b.api.rssBytes,
    /** Requests still waiting for their answer at the window's end (long polls, mostly). */
    inFlight: methods.reduce((n, m) => n + b.api.calls[m]!.started - b.api.calls[m]!.finished, 0),
    stepLagsMs: got.stepLagsMs,
    turnLagsMs: got.turnLagsMs,
    errors: got.errors,
  };
}
type Figures = ReturnType<typeof figures>;

/** What the views got over consecutive readings. */
function together(readings: ViewsReading[]): ViewsReading {
  return {
    events: readings.reduce((n, r) => n + r.events, 0),
    bytes: readings.reduce((n, r) => n + r.bytes, 0),
    stepLagsMs: readings.flatMap((r) => r.stepLagsMs),
    turnLagsMs: readings.flatMap((r) => r.turnLagsMs),
    errors: readings.flatMap((r) => r.errors),
    cpuMs: readings.reduce((n, r) => n + r.cpuMs, 0),
  };
}

const rate = (x: number | null) => (x === null || !Number.isFinite(x) ? '—' : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const kb = (bytes: number) => (Number.isFinite(bytes) ? (bytes / 1024).toFixed(1) : '—');
const label = (s: ShapeResult) => `${s.stream === 'run' ? 'run view' : 'events'}, ${s.views} over ${s.conversations}`;

export function renderRunViewBench(f: RunViewFacts): { text: string; json: Record<string, unknown> } {
  const { opts } = f;
  const rows = f.shapes.map((s) => ({
    shape: s,
    whole: figures([s.open[0], s.afterClose[1]], s.views),
    open: figures(s.open, s.views),
    idle: figures(s.idle, s.views),
    // From the first turn until every turn begun in the window is done (no new one begun after the window).
    busy: figures([s.busy[0], s.drain[1]], s.views, together([s.busy[1].views, s.drain[1].views])),
    afterClose: figures(s.afterClose, s.views),
  }));

  const costRow = (s: ShapeResult, window: string, w: Figures) => {
    const lags = summarize(w.stepLagsMs);
    return [
      label(s),
      window,
      rate(w.turnsPerSecond),
      rate(w.requestsPerViewPerSecond),
      s.stream === 'run'
        ? `${rate(w.historyPollsPerViewPerSecond)} / ${rate(w.describesPerViewPerSecond)}`
        : `${rate(w.queriesPerViewPerSecond)} q`,
      rate(w.requestsPerTurn),
      rate(w.eventsPerViewPerSecond),
      kb(w.bytesPerEvent),
      w.apiCpuMsPerSecond.toFixed(0),
      s.stream === 'run' && lags.n ? formatMs(lags.p50) : '',
      s.stream === 'run' && lags.n ? formatMs(lags.p95) : '',
      s.stream === 'run' && lags.n ? String(lags.n) : '',
    ];
  };
  const costTable = table([
    [
      'views, over conversations',
      'window',
      'turns/s',
      'req/s per view',
      'polls / describes',
      'req/turn',
      'events/s per view',
      'KB/event',
      'API CPU ms/s',
      'lag p50 ms',
      'p95',
      'steps',
    ],
    ...rows.flatMap((r) => [
      costRow(r.shape, `turns ${r.busy.seconds.toFixed(0)} s`, r.busy),
      costRow(r.shape, `idle ${r.idle.seconds.toFixed(0)} s`, r.idle),
    ]),
  ]);

  const openTable = table([
    [
      'views, over conversations',
      'open all (ms)',
      'requests to open, per view',
      'requests open at idle, per conversation',
      'after close: requests started',
      'still open',
      'whole row: API asked / server counted',
    ],
    ...rows.map((r) => [
      label(r.shape),
      r.shape.openMs.toFixed(0),
      rate(r.open.requests / r.shape.views),
      rate(r.idle.inFlight / r.shape.conversations),
      `${r.afterClose.requests} in ${r.afterClose.seconds.toFixed(1)} s`,
      String(r.afterClose.inFlight),
      `${r.whole.viewRequests} / ${r.whole.serverRequests ?? '—'}`,
    ]),
  ]);

  const turnLags = rows
    .filter((r) => r.shape.stream === 'run')
    .map((r) => [label(r.shape), summarize(r.busy.turnLagsMs)] as const);
  const compare = (conversations: number) => {
    const of = (stream: StreamKind) =>
      rows.find((r) => r.shape.stream === stream && r.shape.conversations === conversations);
    const run = of('run');
    const events = of('events');
    if (!run || !events) return null;
    const pair = (w: 'idle' | 'busy') =>
      `${w === 'idle' ? 'idle' : 'taking turns'} ${rate(run[w].requestsPerViewPerSecond)} vs ${rate(events[w].requestsPerViewPerSecond)} req/s per view (${ratio(run[w].requestsPerViewPerSecond, events[w].requestsPerViewPerSecond)})`;
    return `${run.shape.views} views over ${conversations}: run view vs events, ${pair('idle')}, ${pair('busy')}`;
  };
  const errors = rows.flatMap((r) => [...r.open.errors, ...r.idle.errors, ...r.busy.errors]);
  const last = f.shapes.at(-1)?.afterClose[1].api.unhandled;

  const text = [
    '',
    `Run view (issue 26): ${opts.views} open views on one API process (alone in its own process), the conversations' boss ` +
      `delegating to two agents at once, model ${opts.latencyMs} ms per call; ${opts.busySeconds} s of turns back to ` +
      `back, then (those under way finished) ${opts.idleSeconds} s idle` +
      (opts.longIdleSeconds > opts.idleSeconds
        ? ` (the first row ${opts.longIdleSeconds} s: longer than the server's 20 s long poll, which an idle watch renews)`
        : '') +
      `. Requests: the API's to Temporal (its own count), per second per ` +
      `open view (run view: history long polls / describes; events: feed queries); req/turn: all views' requests over ` +
      `the turns taken. The turns' window runs until the last turn begun in it is done.`,
    costTable,
    '',
    "Lag: a step's close in its history (the server's clock) → the first `run` event at a view showing it closed, over " +
      "every step of the tree (delegates' too) that closed in the turns' window. A turn's own close: " +
      turnLags.map(([l, s]) => `${l} p50 ${formatMs(s.p50)} ms, p95 ${formatMs(s.p95)} ms (${s.n})`).join('; ') +
      '.',
    [...new Set([opts.conversations, 1])].map(compare).filter(Boolean).join('\n'),
    '',
    openTable,
    f.serverMetrics
      ? "Whole row: from just before the views opened to after they closed, the API's count of GetWorkflowExecutionHistory, " +
        "DescribeWorkflowExecution and QueryWorkflow and the dev server's (its frontend's service_requests, where a " +
        'long poll is PollWorkflowExecutionHistory; its ' +
        'metrics lag up to a second, so only a whole row, quiet at both ends, compares).'
      : "Whole row: the server's own count is missing (its metrics endpoint was not found).",
    ...(errors.length ? ['', `error events at the views: ${errors.slice(0, 3).join('; ')}`] : []),
    ...(last?.count
      ? [
          '',
          `UNHANDLED REJECTIONS in the API: ${last.count} (each would have ended an API process run as npm start ` +
            `runs it, its worker with it); first: ${last.first.join(' | ')}`,
        ]
      : []),
    '',
    `(set-up ${(f.setupMs / 1000).toFixed(1)} s, whole part ${(f.measureMs / 1000).toFixed(1)} s)`,
  ].join('\n');

  const windowJson = (w: Figures) => {
    const { stepLagsMs, turnLagsMs, errors: errs, ...rest } = w;
    return {
      ...Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, typeof v === 'number' ? round(v, 3) : v])),
      stepLagMs: stepLagsMs.length ? roundSummary(summarize(stepLagsMs), 1) : null,
      turnLagMs: turnLagsMs.length ? roundSummary(summarize(turnLagsMs), 1) : null,
      samples: { stepLagsMs: stepLagsMs.map((x) => round(x, 1)), turnLagsMs: turnLagsMs.map((x) => round(x, 1)) },
      ...(errs.length ? { errors: errs } : {}),
    };
  };
  return {
    text,
    json: {
      options: opts,
      serverMetrics: f.serverMetrics,
      unhandledRejections: last ?? null,
      setupMs: round(f.setupMs, 1),
      measureMs: round(f.measureMs, 1),
      rows: rows.map((r) => ({
        stream: r.shape.stream,
        views: r.shape.views,
        conversations: r.shape.conversations,
        openMs: round(r.shape.openMs, 1),
        server: r.whole.serverByOp,
        failed: Object.fromEntries(
          Object.entries(r.shape.afterClose[1].api.calls)
            .map(([m, c]) => [m, c.failed])
            .filter(([, f]) => Object.keys(f as object).length),
        ),
        open: { requests: r.open.requests, byMethod: r.open.byMethod, seconds: round(r.open.seconds, 3) },
        idle: windowJson(r.idle),
        busy: windowJson(r.busy),
        apiCpuMsPerTurn: r.busy.turns ? round((r.busy.apiCpuMsPerSecond * r.busy.seconds) / r.busy.turns, 1) : null,
        afterClose: {
          seconds: round(r.afterClose.seconds, 3),
          requests: r.afterClose.requests,
          byMethod: r.afterClose.byMethod,
          inFlight: r.afterClose.inFlight,
        },
      })),
    },
  };
}
