// An open Server-Sent Events stream, as the conversation's events and the run view serve it: events written one after
// another (one must not start before the one before it is written), a keep-alive comment so proxies leave an idle
// stream open, and the source's subscription ended when the client leaves or the source ends the stream.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';

/** How often an open event stream says it is alive, so proxies do not close an idle one. */
const KEEPALIVE_MS = 15_000;

export interface SseEventOut {
  event: string;
  data: string;
  id?: string;
}

/**
 * Serves a stream: `open` subscribes with `send` (one event) and `end` (the source is done: close once written), and
 * returns what unsubscribes. An `open` that throws ends the stream with an `error` event saying why.
 */
export function serveEvents(
  c: Context,
  open: (send: (e: SseEventOut) => void, end: () => void) => Promise<() => void>,
): Response {
  return streamSSE(c, async (stream) => {
    let close = () => {};
    const done = new Promise<void>((resolve) => {
      close = resolve;
      stream.onAbort(resolve);
    });
    let writing = Promise.resolve();
    const write = (text: () => Promise<unknown>) => (writing = writing.then(text).then(() => undefined, close));
    let unsubscribe: () => void;
    try {
      unsubscribe = await open(
        (e) => write(() => stream.writeSSE(e)),
        () => void writing.then(close),
      );
    } catch (err) {
      await stream.writeSSE({ event: 'error', data: JSON.stringify({ message: (err as Error).message }) });
      return;
    }
    const keepalive = setInterval(() => write(() => stream.write(': keepalive\n\n')), KEEPALIVE_MS);
    await done;
    clearInterval(keepalive);
    unsubscribe();
  });
}
