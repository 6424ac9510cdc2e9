// A Server-Sent Events reader over fetch, as a browser's EventSource reads the stream: events with their ids, a
// Last-Event-ID to resume from, and waits on what has arrived.
import { waitUntil } from './wait-until';

export interface SseEvent {
  event: string;
  id: string | undefined;
  data: unknown;
  /** When it arrived (ms since the epoch): streaming tests compare arrival times. */
  at: number;
}

export interface SseStream {
  events: SseEvent[];
  /** Resolves with the first event (from `from` on) that matches, failing after `timeoutMs`. */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number, from?: number): Promise<SseEvent>;
  /** The id of the last event received (what a reconnect sends as Last-Event-ID). */
  lastId(): string | undefined;
  /** Whether the server ended the stream. */
  ended(): boolean;
  close(): void;
}

export async function openEvents(
  url: string,
  opts: { lastEventId?: string; headers?: Record<string, string> } = {},
): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: {
      accept: 'text/event-stream',
      ...(opts.lastEventId ? { 'last-event-id': opts.lastEventId } : {}),
      ...opts.headers,
    },
    signal: abort.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`events: HTTP ${res.status} ${await res.text()}`);
  const events: SseEvent[] = [];
  let ended = false;
  let last: string | undefined = opts.lastEventId;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const e = parseBlock(block);
          if (!e) continue;
          if (e.id !== undefined) last = e.id;
          events.push(e);
        }
      }
    } catch {
      // aborted by close()
    }
    ended = true;
  })();
  return {
    events,
    async next(match, timeoutMs = 30_000, from = 0) {
      let found: SseEvent | undefined;
      await waitUntil(async () => (found = events.slice(from).find(match)) !== undefined || ended, timeoutMs);
      if (!found) throw new Error(`events ended without a match; got ${events.map((e) => e.event).join(', ')}`);
      return found;
    },
    lastId: () => last,
    ended: () => ended,
    close: () => abort.abort(),
  };
}

/** One event block's fields as sent (data lines joined); null for a comment or keep-alive. */
export function parseSseFields(block: string): { event: string; id: string | undefined; data: string } | null {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { event, id, data: data.join('\n') } : null;
}

function parseBlock(block: string): SseEvent | null {
  const fields = parseSseFields(block);
  if (!fields) return null;
  let parsed: unknown = fields.data;
  try {
    parsed = JSON.parse(fields.data);
  } catch {
    // not JSON: kept as text
  }
  return { event: fields.event, id: fields.id, data: parsed, at: Date.now() };
}
