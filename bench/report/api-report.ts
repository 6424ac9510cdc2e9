// The API benchmarks' tables and JSON: first token at an SSE client (issue 10's bar: ≤ the model's time to first
// token + 30 ms at p50), fan-out to many subscribers with the API's RSS, and the API's overhead on a text turn.
import type { ApiOptions } from '../options';
import type { FanoutResult } from '../scenarios/api-fanout';
import type { FirstTokenSample } from '../scenarios/api-first-token';
import type { CallScenario } from '../scenario';
import type { SessionRotation } from '../session-rotation';
import { formatMs, ratio, round, roundSummary, summarize, table, type Summary } from '../stats';
import { STREAMED_REPLY } from '../streaming-model';
import { judge } from '../verdict';

/** Issue 10: the first token at the client at most this long after the model wrote it (p50). */
export const FIRST_TOKEN_BAR_MS = 30;

export interface ApiBenchFacts {
  opts: ApiOptions;
  overhead: CallScenario<SessionRotation>[];
  firstToken: Map<string, FirstTokenSample[]>;
  fanouts: FanoutResult[];
  redisNote?: string;
  measureMs: number;
  /** Overhead, first token (set-up of the streaming stacks included), fan-out. */
  phasesMs: { overhead: number; firstToken: number; fanout: number };
}

const FIELDS = ['ttftMs', 'chunkToPublishMs', 'publishToClientMs', 'chunkToClientMs', 'sendToClientMs'] as const;
type Field = (typeof FIELDS)[number];

const statsOf = (samples: FirstTokenSample[]) =>
  Object.fromEntries(FIELDS.map((f) => [f, summarize(samples.map((s) => s[f]))])) as Record<Field, Summary>;
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const mb = (bytes: number) => (Number.isFinite(bytes) ? (bytes / 2 ** 20).toFixed(0) : '—');
/** CPU time of the API's process per token event delivered, µs; starred when that process also ran the turns. */
const perToken = (r: FanoutResult) =>
  r.received ? `${((r.cpuMs * 1000) / r.received).toFixed(0)}${r.alone ? '' : '*'}` : '—';
const chunks = STREAMED_REPLY.match(/\s*\S+\s*/g)!.length;

export function renderApiBench(f: ApiBenchFacts): { text: string; json: Record<string, unknown> } {
  const { opts } = f;
  const first = [...f.firstToken].map(([bus, samples]) => ({
    bus,
    n: samples.length,
    stats: statsOf(samples),
    samples,
  }));
  const verdictOf = new Map(
    first.map(({ bus, stats: s }) => [
      bus,
      judge(
        `first token at the client over the ${bus} bus, chunk → client p50`,
        s.chunkToClientMs.p50,
        FIRST_TOKEN_BAR_MS,
        {
          unit: 'ms',
        },
      ),
    ]),
  );
  const firstTable = table([
    [
      'bus',
      'n',
      'model TTFT p50',
      'chunk→client p50',
      'p95',
      'max',
      'chunk→publish p50',
      'publish→client p50',
      'send→token p50',
      `≤ TTFT + ${FIRST_TOKEN_BAR_MS} ms`,
    ],
    ...first.map(({ bus, n, stats: s }) => [
      bus,
      String(n),
      formatMs(s.ttftMs.p50),
      formatMs(s.chunkToClientMs.p50),
      formatMs(s.chunkToClientMs.p95),
      formatMs(s.chunkToClientMs.max),
      formatMs(s.chunkToPublishMs.p50),
      formatMs(s.publishToClientMs.p50),
      formatMs(s.sendToClientMs.p50),
      verdictOf.get(bus)!,
    ]),
  ]);

  const fan = f.fanouts.map((r) => ({ ...r, stats: summarize(r.latenciesMs) }));
  const fanTable = table([
    [
      'bus',
      'conversations',
      'subscribers',
      'tokens got/expected',
      'p50 ms',
      'p95 ms',
      'max ms',
      'RSS before MB',
      'connected MB',
      'after turns MB',
      'CPU µs/token',
    ],
    ...fan.map((r) => [
      r.bus,
      String(r.conversations),
      String(r.subscribers),
      `${r.received}/${r.expected}`,
      formatMs(r.stats.p50),
      formatMs(r.stats.p95),
      formatMs(r.stats.max),
      mb(r.rssBytes.before),
      mb(r.rssBytes.connected),
      mb(r.rssBytes.afterTurns),
      perToken(r),
    ]),
  ]);

  const over = f.overhead.map((s) => ({
    key: s.key,
    name: s.name,
    description: s.description,
    stats: summarize(s.sampler.samples),
    samples: s.sampler.samples,
  }));
  const api = over.find((o) => o.key === 'api')!.stats;
  const say = over.find((o) => o.key === 'say')!.stats;
  const overTable = table([
    ['API overhead on a text turn', 'n', 'p50 ms', 'p95 ms', 'mean ms'],
    ...over.map((o) => [
      o.name,
      String(o.stats.n),
      formatMs(o.stats.p50),
      formatMs(o.stats.p95),
      formatMs(o.stats.mean),
    ]),
  ]);
  const gap = api.p50 - say.p50;

  const rssNotes = [...new Map(fan.map((r) => [r.bus, r.rssOf])).entries()]
    .map(([bus, of]) => `${bus}: ${of}`)
    .join('; ');
  const text = [
    '',
    `HTTP API (issue 10). Streaming model: a local Chat Completions server, time to first token ${opts.ttftMs} ms, then ${chunks} text chunks ` +
      `${opts.chunkMs} ms apart; VALIDATE_PROMPTS=false. In-process: API and worker in this process sharing a MemoryStreamBus (as npm start); ` +
      "Redis: the worker here publishing to a throwaway redis-server, the API alone in its own process (api/main.ts). Clocks: the host's monotonic clock in every process.",
    ...(f.redisNote ? [f.redisNote] : []),
    '',
    `First token: the model's first text chunk written (model side) → the first SSE \`token\` event read by a client of the API, ms; ` +
      `${opts.firstTokenTurns} timed turns per bus, interleaved, ${opts.warmup} warm-up. chunk→publish: provider + AI SDK + activity; ` +
      'publish→client: bus + API + HTTP; send→token: from POST …/messages, Temporal and the model included.',
    firstTable,
    `Bar (issue 10): first token at the client ≤ the model's TTFT + ${FIRST_TOKEN_BAR_MS} ms at p50, i.e. chunk→client p50 ≤ ${FIRST_TOKEN_BAR_MS} ms: ` +
      first
        .map(({ bus, stats: s }) => `${bus} ${verdictOf.get(bus)!} (${formatMs(s.chunkToClientMs.p50)} ms)`)
        .join(', ') +
      '.',
    '',
    `Fan-out: SSE subscribers held by a separate process on one API process; each conversation takes ${opts.fanoutTurns} turns (all conversations at once); ` +
      'latency: the worker publishing a text delta → a subscriber reading its `token` event, over every delta × subscriber.',
    fanTable,
    `RSS and CPU of — ${rssNotes}. CPU µs/token: that process's CPU time from the first turn until the last token arrived, ` +
      `per token event delivered (* the worker running the turns counts too: over ${opts.conversations} conversations, ${opts.conversations} times the turns); ` +
      `the subscribers' process: ${fan.map((r) => (r.received ? ((r.subscribersCpuMs * 1000) / r.received).toFixed(0) : '—')).join(' / ')} µs/token (rows in order).`,
    '',
    `${overTable}`,
    `API / say: p50 ${ratio(api.p50, say.p50)} (${gap >= 0 ? '+' : '−'}${formatMs(Math.abs(gap))} ms), p95 ${ratio(api.p95, say.p95)}; ` +
      `scripted model (no latency), interleaved round-robin, ${opts.warmup} warm-up turns each; a new conversation every ${opts.turnsPerConversation} turns.`,
    `API measuring ${seconds(f.measureMs)} s (overhead ${seconds(f.phasesMs.overhead)} s, first token ${seconds(f.phasesMs.firstToken)} s, ` +
      `fan-out ${seconds(f.phasesMs.fanout)} s).`,
  ].join('\n');

  const json = {
    benchmark: 'HTTP API: first token over SSE, SSE fan-out, API overhead on a turn',
    options: opts,
    percentileMethod: 'nearest rank',
    clock: 'process.hrtime (CLOCK_MONOTONIC), comparable across processes on one host',
    model: {
      kind: 'local Chat Completions server, streamed',
      ttftMs: opts.ttftMs,
      chunkMs: opts.chunkMs,
      chunks,
      reply: STREAMED_REPLY,
    },
    redisNote: f.redisNote,
    firstToken: {
      barMs: FIRST_TOKEN_BAR_MS,
      rows: first.map(({ bus, n, stats: s, samples }) => ({
        bus,
        turns: n,
        met: verdictOf.get(bus) === 'met',
        ms: Object.fromEntries(FIELDS.map((k) => [k, roundSummary(s[k])])),
        samples: samples.map((x) => Object.fromEntries(FIELDS.map((k) => [k, round(x[k])]))),
      })),
    },
    fanout: fan.map((r) => ({
      bus: r.bus,
      rssOf: r.rssOf,
      conversations: r.conversations,
      subscribers: r.subscribers,
      turnsPerConversation: r.turnsPerConversation,
      tokensExpected: r.expected,
      tokensReceived: r.received,
      latencyMs: roundSummary(r.stats),
      rssBytes: r.rssBytes,
      connectMs: round(r.connectMs, 1),
      turnsMs: round(r.turnsMs, 1),
      cpuMs: round(r.cpuMs, 1),
      cpuMicrosPerToken: r.received ? round((r.cpuMs * 1000) / r.received, 1) : null,
      subscribersCpuMs: round(r.subscribersCpuMs, 1),
    })),
    overhead: {
      order: 'interleaved round-robin, starting path rotated each iteration',
      results: over.map((o) => ({
        key: o.key,
        path: o.name,
        description: o.description,
        turns: o.stats.n,
        ms: roundSummary(o.stats),
        samplesMs: o.samples.map((x) => round(x)),
      })),
      ratio: { p50: round(api.p50 / say.p50, 4), p95: round(api.p95 / say.p95, 4) },
      apiMinusSayP50Ms: round(gap),
    },
    measureMs: round(f.measureMs, 1),
    phasesMs: Object.fromEntries(Object.entries(f.phasesMs).map(([k, v]) => [k, round(v, 1)])),
  };
  return { text, json };
}
