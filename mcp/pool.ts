// A worker-wide pool of MCP client sessions: one per endpoint definition, connected lazily, reconnected after a
// failure, evicted when idle, closed on worker shutdown. Sessions survive across turns and conversations, so a
// tool call costs one request, not a process spawn and a handshake. A stdio session is a resident server process,
// so their number is capped: the least recently used idle one makes room (it respawns when next needed), and a
// session in use is never closed under its user.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isStdio, type ResolvedEndpoint } from './endpoint-registry';

export interface PoolOptions {
  /** Working directory for stdio servers whose entry has no `cwd` (the project root). */
  baseDir: string;
  idleMs?: number;
  /** Resident stdio server processes (MCP_MAX_STDIO_PROCESSES), exceeded only while all are in use; absent, no cap. */
  maxStdioProcesses?: number;
  /** Called when a server says its tool list changed. */
  onToolsChanged?: (endpoint: string) => void;
  clientInfo?: { name: string; version: string };
}

/** A session held for one use (a call, a tool listing): neither evicted nor idled out until released. */
export interface Lease {
  client: Client;
  release(): void;
  /** The session failed under this use: no later use gets it, and it closes once its last user releases it (a
   * call that timed out must not kill the other calls on the session, nor a newer session of the endpoint). */
  discard(): void;
}

interface Session {
  key: string;
  /** A server process of ours, counted against the cap. */
  stdio: boolean;
  client: Client;
  connected: Promise<Client>;
  lastUsed: number;
  /** Leases not yet released. */
  inUse: number;
  /** Discarded: closes when the last lease is released. */
  retired: boolean;
  stderr: string;
}

export class McpPool {
  private readonly sessions = new Map<string, Session>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly opts: PoolOptions) {
    this.timer = setInterval(() => this.evictIdle(), Math.min(opts.idleMs ?? 300_000, 60_000));
    this.timer.unref();
  }

  /** The endpoint's session, connected and held until released; a changed definition replaces the old session. */
  async acquire(endpoint: ResolvedEndpoint, connectTimeoutMs: number): Promise<Lease> {
    const existing = this.sessions.get(endpoint.name);
    const session = existing?.key === endpoint.key ? existing : this.start(endpoint, connectTimeoutMs);
    session.inUse++;
    session.lastUsed = Date.now();
    let released = false;
    const release = () => {
      if (!released) this.release(session);
      released = true;
    };
    const discard = () => {
      session.retired = true;
      if (this.sessions.get(endpoint.name) === session) this.sessions.delete(endpoint.name);
    };
    try {
      return { client: await session.connected, release, discard };
    } catch (err) {
      release();
      throw err;
    }
  }

  /** Forgets a session after a transport failure, so the next call reconnects. */
  async drop(name: string): Promise<void> {
    const session = this.sessions.get(name);
    if (!session) return;
    this.sessions.delete(name);
    await session.client.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.sessions.keys()].map((name) => this.drop(name)));
  }

  /** A session in place of the endpoint's old one (none, broken, or another definition), making room under the cap. */
  private start(endpoint: ResolvedEndpoint, connectTimeoutMs: number): Session {
    const replaced = this.drop(endpoint.name);
    const room = isStdio(endpoint.resolved) ? this.evictOverCap(1) : Promise.resolve();
    const session = this.open(endpoint, connectTimeoutMs, Promise.all([replaced, room]));
    this.sessions.set(endpoint.name, session);
    return session;
  }

  private release(session: Session): void {
    session.inUse--;
    session.lastUsed = Date.now();
    if (session.retired && session.inUse === 0) void session.client.close().catch(() => undefined);
    // Over the cap because every session was in use: this one finishing may make room.
    void this.evictOverCap(0);
  }

  /** Connects once `room` has resolved: the processes making room for this one have exited. */
  private open(endpoint: ResolvedEndpoint, connectTimeoutMs: number, room: Promise<unknown>): Session {
    const session: Session = {
      key: endpoint.key,
      stdio: isStdio(endpoint.resolved),
      client: this.newClient(endpoint.name),
      connected: undefined as never,
      lastUsed: Date.now(),
      inUse: 0,
      retired: false,
      stderr: '',
    };
    const owned = () => this.sessions.get(endpoint.name) === session;
    session.connected = (async () => {
      await room;
      // Dropped while waiting (a discovery timeout, shutdown): a process spawned now would belong to nobody.
      if (!owned()) throw new Error('closed before it connected');
      try {
        await this.connect(session, this.transport(endpoint, session), connectTimeoutMs);
      } catch (err) {
        const entry = endpoint.resolved;
        // A remote entry with no `type`: Streamable HTTP first, then legacy SSE if the server refused it (4xx).
        const status = err instanceof StreamableHTTPError ? (err.code ?? 0) : 0;
        if (isStdio(entry) || entry.type || status < 400 || status >= 500) throw this.failure(endpoint, session, err);
        await session.client.close().catch(() => undefined);
        session.client = this.newClient(endpoint.name);
        try {
          await this.connect(
            session,
            new SSEClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }),
            connectTimeoutMs,
          );
        } catch (sseErr) {
          throw this.failure(endpoint, session, sseErr);
        }
      }
      session.client.onclose = () => {
        if (owned()) this.sessions.delete(endpoint.name);
      };
      return session.client;
    })();
    session.connected.catch(async () => {
      if (owned()) this.sessions.delete(endpoint.name);
      await session.client.close().catch(() => undefined);
    });
    return session;
  }

  private newClient(name: string): Client {
    return new Client(this.opts.clientInfo ?? { name: 'temporal-agent-orchestrator', version: '0.1.0' }, {
      // tools/list_changed only invalidates the catalog; discovery re-lists (and paginates) itself.
      listChanged: { tools: { onChanged: () => this.opts.onToolsChanged?.(name), autoRefresh: false, debounceMs: 0 } },
    });
  }

  private async connect(session: Session, transport: Transport, timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        session.client.connect(transport),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no MCP handshake within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private failure(endpoint: ResolvedEndpoint, session: Session, err: unknown): Error {
    const stderr = session.stderr.trim().split('\n').slice(-3).join(' | ');
    return new Error(`cannot connect: ${(err as Error).message}${stderr ? ` (stderr: ${stderr})` : ''}`);
  }

  private transport(endpoint: ResolvedEndpoint, session: Session): Transport {
    const entry = endpoint.resolved;
    if (isStdio(entry)) {
      // A minimal environment (HOME, PATH, …) plus what the entry declares: the worker's own secrets stay out.
      const transport = new StdioClientTransport({
        command: entry.command,
        args: entry.args,
        env: { ...getDefaultEnvironment(), ...entry.env },
        cwd: entry.cwd ?? this.opts.baseDir,
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (d: Buffer) => (session.stderr = (session.stderr + d.toString()).slice(-2000)));
      return transport;
    }
    const url = new URL(entry.url);
    const requestInit = { headers: entry.headers };
    return entry.type === 'sse'
      ? new SSEClientTransport(url, { requestInit })
      : new StreamableHTTPClientTransport(url, { requestInit });
  }

  private evictIdle(): void {
    const idleMs = this.opts.idleMs ?? 300_000;
    for (const [name, session] of this.sessions) {
      if (session.inUse === 0 && Date.now() - session.lastUsed > idleMs) void this.drop(name);
    }
  }

  /**
   * Closes least recently used idle stdio sessions until `incoming` more fit under the cap; resolves once their
   * processes have exited. Sessions in use are spared, so the cap may stay exceeded until they are released.
   */
  private evictOverCap(incoming: number): Promise<unknown> {
    const stdio = [...this.sessions].filter(([, s]) => s.stdio);
    const excess = stdio.length + incoming - (this.opts.maxStdioProcesses ?? Infinity);
    if (excess <= 0) return Promise.resolve();
    const idle = stdio.filter(([, s]) => s.inUse === 0).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    return Promise.all(idle.slice(0, excess).map(([name]) => this.drop(name)));
  }
}
