// The API benchmark's table and JSON: first token at an SSE client (issue 10's bar: ≤ the model's time to first
// token + 30 ms at p50).
import type { ApiOptions } from '../options';
import type { FirstTokenSample } from '../scenarios/api-first-token';
import { formatMs, round, roundSummary, seconds, summarize, type Summary, table } from '../stats';
import { STREAMED_REPLY } from '../streaming-model';
import { judge } from '../verdict';

/** Issue 10: the first token at the client at most this long after the model wrote it (p50). */
export const FIRST_TOKEN_BAR_MS = 30;

export interface ApiBenchFacts {
  opts: ApiOptions;
  firstToken: Map<string, FirstTokenSample[]>;
  redisNote?: string;
  measureMs: number;
}

const FIELDS = ['ttftMs', 'chunkToPublishMs', 'publishToClientMs', 'chunkToClientMs', 'sendToClientMs'] as const;
type Field = (typeof FIELDS)[number];

const statsOf = (samples: FirstTokenSample[]) =>
  Object.fromEntries(FIELDS.map((f) => [f, summarize(samples.map((s) => s[f]))])) as Record<Field, Summary>;
const chunks = STREAMED_REPLY.match(/\s*\S+\s*/g)!.length;

export function renderApiBench(f: ApiBenchFacts): { text: string; figures: Record<string, unknown> } {
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
    `API measuring ${seconds(f.measureMs)} s (the streaming stacks' set-up included).`,
  ].join('\n');

  const json = {
    benchmark: 'HTTP API: first token over SSE',
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
    measureMs: round(f.measureMs, 1),
  };
  return { text, figures: json };
}
