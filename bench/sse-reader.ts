// A lean Server-Sent Events reader for the API benchmarks: node:http (no fetch machinery between the socket and the
// parser), each event stamped with the monotonic clock when its bytes arrived. The clock is the system's
// (CLOCK_MONOTONIC, what process.hrtime reads), so stamps taken in different processes on one host compare.
// Not testkit/sse.ts's reader (fetch, wall-clock stamps, JSON-parsed data): only its block parser is shared.
import http from 'node:http';
import { parseSseFields } from '../testkit/sse';

/** Milliseconds on the host's monotonic clock, comparable across processes on the same machine. */
export const monoMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export interface SseEvent {
  event: string;
  /** The data lines joined, unparsed. */
  data: string;
  /** monoMs() when the chunk holding the event's end arrived. */
  at: number;
}

export interface SseConnection {
  close(): void;
}

/** Opens the stream; resolves once the server answered 200 (events then go to `onEvent` as they arrive). */
export function openSse(url: string, onEvent: (e: SseEvent) => void): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    // agent: false, a socket of its own: hundreds of streams must not queue behind a pool's limit.
    const req = http.get(url, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => reject(new Error(`events: HTTP ${res.statusCode} ${body}`)));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const at = monoMs();
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const e = parseBlock(buffer.slice(0, cut), at);
          buffer = buffer.slice(cut + 2);
          if (e) onEvent(e);
        }
      });
      res.on('error', () => undefined); // closed by close()
      resolve({ close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

function parseBlock(block: string, at: number): SseEvent | null {
  const fields = parseSseFields(block);
  return fields ? { event: fields.event, data: fields.data, at } : null;
}

/** A `token` event's data (the API's contract). */
export interface TokenData {
  attempt: string;
  offset: number;
  text: string;
}
