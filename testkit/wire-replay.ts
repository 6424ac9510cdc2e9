// A local server that replays recorded provider answers over real HTTP, so the AI SDK's real provider code parses
// them: test/fixtures/wire/<provider>/<case>.sse is a 200 event stream sent byte for byte, <case>.json an HTTP
// answer ({status, headers, body}: an error, say). The server checks each request went to the provider's endpoint,
// records it (method, path, headers, body as sent), and answers with the cases queued for it, in order.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

export const WIRE_FIXTURES = path.join(__dirname, '..', 'test', 'fixtures', 'wire');

/** The providers the fixtures are recorded for: where each one's model posts, and the base URL it is given. */
export const WIRE_PROVIDERS = {
  'openai-chat': { basePath: '/v1', endpoint: /^\/v1\/chat\/completions$/ },
  openai: { basePath: '/v1', endpoint: /^\/v1\/responses$/ },
  anthropic: { basePath: '/v1', endpoint: /^\/v1\/messages$/ },
  google: { basePath: '/v1beta', endpoint: /^\/v1beta\/models\/[^/:]+:streamGenerateContent\?alt=sse$/ },
} as const;
export type WireProvider = keyof typeof WIRE_PROVIDERS;

/**
 * How the connection ends after the recorded bytes: `end` as an HTTP response ends (a stream recorded short of its
 * last events is then a stream closed cleanly before it finished: a proxy's idle timeout, a redeploy); `reset`
 * dropped, the response unfinished (the provider or a proxy died mid-reply).
 */
export type WireEnd = 'end' | 'reset';

export interface WireRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as the provider sent it. */
  raw: string;
  body: Record<string, unknown>;
}

export interface WireReplay {
  /** The base URL to give the provider (LLM_BASE_URL). */
  baseUrl: string;
  /** Every request received, in order. */
  requests: WireRequest[];
  /** Queues the cases the next requests are answered with, in order. */
  play(...cases: (string | { name: string; end: WireEnd })[]): void;
  /** Cases queued and not yet asked for. */
  pending(): number;
  close(): Promise<void>;
}

type Answer = { status: number; headers: Record<string, string>; body: Buffer };

/** The recorded answer of `provider`'s case `name`. */
export function readCase(provider: WireProvider, name: string): Answer {
  const base = path.join(WIRE_FIXTURES, provider, name);
  try {
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: readFileSync(`${base}.sse`),
    };
  } catch {
    const recorded = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as {
      status: number;
      headers?: Record<string, string>;
      body: unknown;
    };
    return {
      status: recorded.status,
      headers: { 'content-type': 'application/json', ...recorded.headers },
      body: Buffer.from(JSON.stringify(recorded.body)),
    };
  }
}

export async function startWireReplay(provider: WireProvider): Promise<WireReplay> {
  const { basePath, endpoint } = WIRE_PROVIDERS[provider];
  const requests: WireRequest[] = [];
  const queue: { name: string; end: WireEnd }[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const url = req.url ?? '';
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // recorded as sent; the provider sends JSON
      }
      requests.push({ method: req.method ?? '', path: url, headers: req.headers, raw, body });
      const fail = (message: string) => {
        res.writeHead(599, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `wire replay: ${message}` } }));
      };
      if (req.method !== 'POST' || !endpoint.test(url)) return fail(`unexpected ${req.method} ${url} for ${provider}`);
      const next = queue.shift();
      if (!next) return fail('no case queued for this request');
      const answer = readCase(provider, next.name);
      res.writeHead(answer.status, answer.headers);
      if (next.end === 'end') return res.end(answer.body);
      res.write(answer.body, () => res.socket?.resetAndDestroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    requests,
    play: (...cases) => queue.push(...cases.map((c) => (typeof c === 'string' ? { name: c, end: 'end' as const } : c))),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
