// Issue 10's first bar: the first token reaches a client of the API within the model's time to first token + 30 ms.
// One conversation per stack, an SSE client on it, text turns sent through the API (wait=true); the stacks take
// turns, so drift hits them alike. Per turn: when the model wrote its first text chunk (model side), when the worker
// published it to the bus, when the client read the first `token` event; and the model's own time to first token.
import type { Interrupts } from '../interrupts';
import { endConversation, eventsUrl, sendMessage, startConversation, type ApiStack } from '../api-stack';
import { PTO_GOAL } from '../scripted-answers';
import { monoMs, openSse, type SseConnection, type TokenData } from '../sse-reader';
import { STREAMED_REPLY, type StreamingModel } from '../streaming-model';

export interface FirstTokenSample {
  /** The model's time to first token: request received → first text chunk written. */
  ttftMs: number;
  /** First text chunk written → the worker published it (provider, AI SDK, activity). */
  chunkToPublishMs: number;
  /** Published → the SSE client read the `token` event (bus, API, HTTP). */
  publishToClientMs: number;
  /** First text chunk written → the client read it: what the bar is about. */
  chunkToClientMs: number;
  /** The client sent the message → it read the first token (Temporal, the model's TTFT, all of the above). */
  sendToClientMs: number;
}

interface Watched {
  stack: ApiStack;
  conversationId: string;
  tokens: { data: TokenData; at: number }[];
  sse: SseConnection;
  samples: FirstTokenSample[];
}

export async function firstTokenTurns(
  stacks: ApiStack[],
  model: StreamingModel,
  opts: { warmup: number; iterations: number; runId: string; interrupts: Interrupts },
): Promise<Map<string, FirstTokenSample[]>> {
  const watched: Watched[] = [];
  try {
    for (const stack of stacks)
      watched.push(await watch(stack, `bench-first-token-${stack.label.toLowerCase()}-${opts.runId}`));
    const total = opts.warmup + opts.iterations;
    for (let i = 0; i < total; i++) {
      for (let k = 0; k < watched.length; k++) {
        opts.interrupts.check();
        const w = watched[(i + k) % watched.length]!;
        const sample = await turn(w, model, `bench: first token ${w.stack.label} ${i}`);
        if (i >= opts.warmup) w.samples.push(sample);
      }
      if ((i + 1) % 10 === 0 || i + 1 === total)
        process.stderr.write(
          `  ${i + 1}/${total} first-token turns per bus (${i >= opts.warmup ? 'timed' : 'warm-up'})\n`,
        );
    }
    return new Map(watched.map((w) => [w.stack.label, w.samples]));
  } finally {
    for (const w of watched) {
      w.sse.close();
      await endConversation(w.stack, w.conversationId);
    }
  }
}

async function watch(stack: ApiStack, conversationId: string): Promise<Watched> {
  await startConversation(stack, conversationId, PTO_GOAL);
  const tokens: Watched['tokens'] = [];
  let opened: () => void = () => {};
  const firstEvent = new Promise<void>((resolve) => (opened = resolve));
  const sse = await openSse(eventsUrl(stack, conversationId), (e) => {
    opened();
    if (e.event === 'token') tokens.push({ data: JSON.parse(e.data) as TokenData, at: e.at });
  });
  // The view exists once the server sent its first event (the state): only then is a turn's first token certain to reach it.
  await firstEvent;
  return { stack, conversationId, tokens, sse, samples: [] };
}

async function turn(w: Watched, model: StreamingModel, prompt: string): Promise<FirstTokenSample> {
  const sentAt = monoMs();
  const reply = await sendMessage(w.stack, w.conversationId, prompt);
  if (reply.reply !== STREAMED_REPLY)
    throw new Error(`first token (${w.stack.label}): unexpected reply ${JSON.stringify(reply)}`);
  const first = await firstTokenAfter(w, sentAt);
  const m = model.turns.get(prompt);
  const published = w.stack.bus.delta(first.data.attempt, 0);
  if (!m?.firstChunkAt || !published)
    throw new Error(`first token (${w.stack.label}): no model or bus record of "${prompt}"`);
  return {
    ttftMs: m.firstChunkAt - m.receivedAt,
    chunkToPublishMs: published.at - m.firstChunkAt,
    publishToClientMs: first.at - published.at,
    chunkToClientMs: first.at - m.firstChunkAt,
    sendToClientMs: first.at - sentAt,
  };
}

/** The first token of a new attempt read after `since` (through Redis it may trail the reply by a little). */
async function firstTokenAfter(w: Watched, since: number): Promise<Watched['tokens'][number]> {
  const deadline = monoMs() + 5_000;
  for (;;) {
    const found = w.tokens.find((t) => t.at >= since && t.data.offset === 0);
    if (found) return found;
    if (monoMs() > deadline) throw new Error(`first token (${w.stack.label}): the client got no token for the turn`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
