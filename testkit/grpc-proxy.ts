// A gRPC-aware proxy between a worker process and the Temporal server, for fault tests: it forwards every call,
// and on request holds calls of a given method (the worker's completion report, say) so a test can kill the worker
// at an exact point — after a tool acted, before Temporal heard of it — with no hook in the product's code.
import http2 from 'node:http2';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';

const { HTTP2_HEADER_PATH, HTTP2_HEADER_STATUS, NGHTTP2_FLAG_END_STREAM } = http2.constants;

export type Direction = 'request' | 'response';

interface Hold {
  method: string;
  direction: Direction;
  /** Only requests whose bytes this accepts are held (others go on); none: every call of the method. */
  match?: (body: Buffer) => boolean;
  seen: number;
  waiters: (() => void)[];
}

export class GrpcProxy {
  private readonly holds = new Map<string, Hold>();
  private readonly sessions = new Set<http2.ServerHttp2Session>();
  private upstream?: http2.ClientHttp2Session;

  private constructor(
    private readonly server: http2.Http2Server,
    private readonly target: string,
  ) {}

  static async start(target: string): Promise<GrpcProxy> {
    const server = http2.createServer();
    const proxy = new GrpcProxy(server, target);
    server.on('session', (s) => {
      proxy.sessions.add(s);
      s.on('close', () => proxy.sessions.delete(s));
    });
    server.on('stream', (stream, headers) => proxy.forward(stream, headers));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get address(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /**
   * From now on, calls of `method` (e.g. `RespondActivityTaskCompleted`) are held: the request is never sent on
   * (`request`), or it is sent and the answer never comes back (`response`). Resolves at the first held call.
   * `match` (requests only): hold just the requests whose bytes it accepts — the workflow task report that carries a
   * local activity's marker, say (protobuf keeps strings as they are).
   */
  hold(method: string, direction: Direction, match?: (body: Buffer) => boolean): Promise<void> {
    const hold: Hold = { method, direction, seen: 0, waiters: [], ...(match ? { match } : {}) };
    this.holds.set(method, hold);
    return new Promise((resolve) => hold.waiters.push(resolve));
  }

  /** Stops holding every method; calls already held stay held until their connection closes. */
  release(): void {
    this.holds.clear();
  }

  /** How many calls of `method` were held. */
  held(method: string): number {
    return this.holds.get(method)?.seen ?? 0;
  }

  async close(): Promise<void> {
    for (const s of this.sessions) s.destroy();
    this.upstream?.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private forward(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
    const method =
      String(headers[HTTP2_HEADER_PATH] ?? '')
        .split('/')
        .pop() ?? '';
    const hold = this.holds.get(method);
    if (hold?.direction === 'request' && hold.match) return this.holdIfMatching(hold, stream, headers);
    if (hold?.direction === 'request') return this.noteHeld(hold, stream);
    this.pass(stream, headers, method);
  }

  /** Reads the whole request, then holds it or passes it on. */
  private holdIfMatching(hold: Hold, stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const body = Buffer.concat(chunks);
      if (hold.match!(messagesOf(body))) return this.noteHeld(hold, stream);
      this.pass(stream, headers, hold.method, body);
    });
  }

  /** Forwards the call (`body`: its request, already read) and its answer. */
  private pass(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, method: string, body?: Buffer) {
    const request = this.session().request(outgoing(headers));
    if (body) request.end(body);
    else stream.pipe(request);
    let trailers: http2.IncomingHttpHeaders = {};
    request.on('response', (response, flags) => {
      // Looked up again: a long poll sent before the hold began is answered after it.
      const late = this.holds.get(method);
      if (late?.direction === 'response') return this.noteHeld(late, stream);
      // A trailers-only answer (an error status, no body) ends the stream with its headers.
      if (flags & NGHTTP2_FLAG_END_STREAM) return stream.respond(outgoing(response), { endStream: true });
      stream.respond(outgoing(response), { waitForTrailers: true });
      request.pipe(stream);
    });
    request.on('trailers', (t) => (trailers = t));
    stream.on('wantTrailers', () => stream.sendTrailers(outgoing(trailers)));
    request.on('error', () => stream.destroy());
    stream.on('error', () => request.destroy());
    stream.on('close', () => request.destroy());
  }

  private noteHeld(hold: Hold, stream: http2.ServerHttp2Stream): void {
    hold.seen++;
    // Keep the stream open and unanswered; it ends when the worker's connection does.
    stream.on('error', () => undefined);
    for (const w of hold.waiters.splice(0)) w();
  }

  private session(): http2.ClientHttp2Session {
    if (!this.upstream || this.upstream.closed || this.upstream.destroyed) {
      this.upstream = http2.connect(`http://${this.target}`);
      this.upstream.on('error', () => undefined);
    }
    return this.upstream;
  }
}

/** Headers to pass on: without the pseudo-headers node sets itself (`:status` is kept for responses). */
function outgoing(headers: http2.IncomingHttpHeaders): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) {
    if (k.startsWith(':') && k !== ':path' && k !== ':method' && k !== HTTP2_HEADER_STATUS) continue;
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The messages of a gRPC request body, uncompressed (a frame is a compressed flag, a length and the message). */
function messagesOf(body: Buffer): Buffer {
  const messages: Buffer[] = [];
  for (let at = 0; at + 5 <= body.length;) {
    const length = body.readUInt32BE(at + 1);
    const message = body.subarray(at + 5, at + 5 + length);
    messages.push(body[at] === 1 ? gunzipSync(message) : message);
    at += 5 + length;
  }
  return Buffer.concat(messages);
}
