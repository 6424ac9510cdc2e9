// Many SSE subscribers on one API process: a separate process opens them all (on one conversation, or spread over
// several), then each conversation takes a few turns, all conversations at once. Every text delta the worker
// published is matched with its `token` event at every subscriber: latency = publish → receipt, and none may be
// missing. The RSS of the API's process is read before the subscribers connect, once they have, and after the turns;
// its CPU time over the turns, per token event delivered, is the figure the machine's load disturbs least.
import type { Interrupts } from '../interrupts';
import { endConversation, eventsUrl, sendMessage, startConversation, type ApiStack } from '../api-stack';
import { PTO_GOAL } from '../scripted-answers';
import { monoMs } from '../sse-reader';
import { startSubscribers, type Subscribers } from '../sse-subscribers';
import { STREAMED_REPLY } from '../streaming-model';

export interface FanoutResult {
  bus: string;
  rssOf: string;
  /** The API's process runs nothing else (its CPU per token is the API's own). */
  alone: boolean;
  subscribers: number;
  conversations: number;
  turnsPerConversation: number;
  /** Publish → receipt, one per delta per subscriber, ms. */
  latenciesMs: number[];
  /** Deltas × subscribers of their conversation, and how many tokens arrived. */
  expected: number;
  received: number;
  connectMs: number;
  turnsMs: number;
  /** CPU time of the API's process from the first turn until every token arrived. */
  cpuMs: number;
  /** CPU time of the subscribers' process over the same span (roughly: from their streams being open). */
  subscribersCpuMs: number;
  rssBytes: { before: number; connected: number; afterTurns: number };
}

export async function fanout(
  stack: ApiStack,
  shape: { subscribers: number; conversations: number; turns: number },
  opts: { runId: string; interrupts: Interrupts },
): Promise<FanoutResult> {
  const ids = Array.from(
    { length: shape.conversations },
    (_, k) => `bench-fanout-${stack.label.toLowerCase()}-${shape.conversations}-${opts.runId}-${k}`,
  );
  let subs: Subscribers | undefined;
  try {
    for (let k = 0; k < ids.length; k += 5)
      await Promise.all(ids.slice(k, k + 5).map((id) => startConversation(stack, id, PTO_GOAL)));
    const urls = Array.from({ length: shape.subscribers }, (_, s) => eventsUrl(stack, ids[s % ids.length]!));
    const perConversation = new Map(ids.map((id, k) => [id, urls.filter((_, s) => s % ids.length === k).length]));
    const before = stack.rss();
    subs = startSubscribers(urls);
    const connectMs = await subs.ready;
    const connected = stack.rss();
    const since = monoMs();
    const cpuBefore = stack.cpuMs();
    for (let t = 0; t < shape.turns; t++) {
      opts.interrupts.check();
      await Promise.all(
        ids.map(async (id, k) => {
          const reply = await sendMessage(stack, id, `bench: fan-out ${k} ${t}`);
          if (reply.reply !== STREAMED_REPLY) throw new Error(`fan-out: unexpected reply ${JSON.stringify(reply)}`);
        }),
      );
    }
    const turnsMs = monoMs() - since;
    const afterTurns = stack.rss();
    const deltas = stack.bus.deltasOf(new Set(ids)).filter((d) => d.at >= since);
    const expected = deltas.reduce((n, d) => n + perConversation.get(d.conversationId)!, 0);
    const { tokens, cpuMs: subscribersCpuMs } = await subs.collect(expected);
    subs = undefined;
    const cpuMs = stack.cpuMs() - cpuBefore;
    const latenciesMs: number[] = [];
    for (const [, attempt, offset, at] of tokens) {
      const d = stack.bus.delta(attempt, offset);
      if (d && d.at >= since) latenciesMs.push(at - d.at);
    }
    return {
      bus: stack.label,
      rssOf: stack.rssOf,
      alone: stack.alone,
      subscribers: shape.subscribers,
      conversations: shape.conversations,
      turnsPerConversation: shape.turns,
      latenciesMs,
      expected,
      received: latenciesMs.length,
      connectMs,
      turnsMs,
      cpuMs,
      subscribersCpuMs,
      rssBytes: { before, connected, afterTurns },
    };
  } finally {
    subs?.kill();
    for (const id of ids) await endConversation(stack, id);
  }
}
