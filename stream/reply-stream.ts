// One attempt of the planning activity as it writes to the bus: first a `discard` of the attempt before it (whatever
// of its text reached a screen is void), then its deltas up to the reply's cap, then `done` or `discard`, once.
import { attemptKey, type AttemptId, type StreamBus } from './bus';

export interface ReplyStream {
  write(text: string): void;
  done(): void;
  discard(): void;
}

/** Where an attempt streams: its conversation (the workflow id) and which attempt it is. */
export type StreamTarget = AttemptId & { conversationId: string };

const SILENT: ReplyStream = { write() {}, done() {}, discard() {} };

/** Publishes nothing without a bus or a target (a model call outside an activity: unit tests, benchmarks). */
export function replyStream(
  bus: StreamBus | undefined,
  target: StreamTarget | undefined,
  maxChars = Infinity,
): ReplyStream {
  if (!bus || !target) return SILENT;
  const { conversationId } = target;
  const attempt = attemptKey(target);
  if (target.attempt > 1)
    bus.publish(conversationId, { kind: 'discard', attempt: attemptKey({ ...target, attempt: target.attempt - 1 }) });
  let written = 0;
  let ended = false;
  const end = (kind: 'done' | 'discard') => {
    if (ended) return;
    ended = true;
    bus.publish(conversationId, { kind, attempt });
  };
  return {
    write(text) {
      // Past the cap the reply is cut in history too: streaming more would show text that never lands.
      if (ended || !text || written >= maxChars) return;
      const kept = text.slice(0, maxChars - written);
      written += kept.length;
      bus.publish(conversationId, { kind: 'delta', attempt, text: kept });
    },
    done: () => end('done'),
    discard: () => end('discard'),
  };
}
