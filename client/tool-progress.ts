// A running tool's progress and log messages in a terminal (the stream bus's progress chunks): one line each, so
// a long call shows that it moves. Printed only where the chat already follows the bus (npm start, REDIS_URL).
import type { StreamBus, ToolProgressChunk } from '../stream/bus';

/** Prints each progress chunk of the conversation as a line; returns the function that stops. */
export function printToolProgress(bus: StreamBus, conversationId: string, write: (s: string) => void): () => void {
  return bus.subscribe(conversationId, (chunk) => {
    if (chunk.kind === 'progress') write(`${formatProgress(chunk)}\n`);
  });
}

/** `  … everything__x: 2/4 (50%) step 2` or, for a log message, `  … everything__x [info] message`. */
export function formatProgress(p: Omit<ToolProgressChunk, 'kind' | 'attempt'>): string {
  const share =
    p.progress === undefined
      ? ''
      : p.total
        ? ` ${p.progress}/${p.total} (${Math.round((100 * p.progress) / p.total)}%)`
        : ` ${p.progress}`;
  const level = p.level ? ` [${p.level}]` : share ? ':' : '';
  return `  … ${p.tool}${level}${share}${p.message ? ` ${p.message}` : ''}`;
}
