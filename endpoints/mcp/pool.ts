// A worker-wide pool of MCP client sessions, connected lazily, reconnected after a failure, evicted when idle, closed
// on worker shutdown. Sessions survive across turns and conversations, so a tool call costs one request, not a
// process spawn and a handshake. A tool call holds its session alone: what the server asks during the call
// (elicitation, sampling, log messages) can only be the call's, so it goes to the call's host (call-host.ts); calls
// that overlap on one endpoint open more sessions of it (up to `maxSessionsPerEndpoint`, then they wait), while
// listings share any. A stdio session is a resident server process, so their number is capped: the least recently
// used idle one makes room (it respawns when next needed), and a session in use is never closed under its user.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { clientWithHost, type CallHost } from './call-host';
import { isStdio, oauthOf, type ResolvedEndpoint } from '../endpoint-registry';
import type { OAuthAccess } from './oauth/oauth-access';
import { NeedsConnecting } from './oauth/provider';
import { DEFAULT_OWNER } from './oauth/oauth-settings';

export interface PoolOptions {
  /** Working directory for stdio servers whose entry has no `cwd` (the project root). */
  baseDir: string;
  idleMs?: number;
  /** Resident stdio server processes (MCP_MAX_STDIO_PROCESSES), exceeded only while all are in use; absent, no cap. */
  maxStdioProcesses?: number;
  /** Sessions one endpoint may have at once, i.e. its calls in flight on this worker (MCP_SESSIONS_PER_ENDPOINT);
   * more calls wait for one to be free. Default 8. */
  maxSessionsPerEndpoint?: number;
  /** Called when a server says its tool list changed. */
  onToolsChanged?: (endpoint: string) => void;
  clientInfo?: { name: string; version: string };
  /** Remote endpoints that need OAuth (oauth/): their sessions are per owner, each presenting its owner's token. */
  oauth?: OAuthAccess;
}

/** A session held for one use (a call, a tool listing): neither evicted nor idled out until released. */
export interface Lease {
  client: Client;
  release(): void;
  /** The session failed under this use: no later use gets it, and it closes once its last user releases it (a
   * call that timed out must not kill the other users of the session, nor a newer session of the endpoint). */
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
  /** The call holding the session (its server requests go to this host); null when no call holds it. */
  host: CallHost | null;
  /** Discarded: closes when the last lease is released. */
  retired: boolean;
  stderr: string;
}

/** Between an OAuth endpoint's name and the owner in a session slot: a character no endpoint name has. */
const OWNER_SEP = '\u0000';

export class McpPool {
  /** Each endpoint's sessions, all of its current definition. */
  private readonly sessions = new Map<string, Session[]>();
  /** Calls waiting for one of the endpoint's sessions to be free. */
  private readonly waiting = new Map<string, (() => void)[]>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly opts: PoolOptions) {
    this.timer = setInterval(() => this.evictIdle(), Math.min(opts.idleMs ?? 300_000, 60_000));
    this.timer.unref();
  }

  /**
   * A connected session of the endpoint, held until released; a changed definition replaces the old sessions. With
   * a `host` (a tool call) the session is the call's alone until released; without (a listing) it may be shared.
   */
  async acquire(endpoint: ResolvedEndpoint, connectTimeoutMs: number, host?: CallHost, owner?: string): Promise<Lease> {
    endpoint = this.slotOf(endpoint, owner ?? DEFAULT_OWNER);
    const session = host ? await this.free(endpoint, connectTimeoutMs, host) : this.any(endpoint, connectTimeoutMs);
    session.inUse++;
    session.lastUsed = Date.now();
    let released = false;
    const release = () => {
      if (!released) this.release(endpoint.name, session, !!host);
      released = true;
    };
    const discard = () => {
      session.retired = true;
      this.forget(endpoint.name, session);
    };
    try {
      return { client: await session.connected, release, discard };
    } catch (err) {
      release();
      throw err;
    }
  }

  /** Forgets an endpoint's sessions (every owner's) after a transport failure, so the next use reconnects. */
  async drop(name: string): Promise<void> {
    const slots = [...this.sessions.keys()].filter((slot) => slot === name || slot.startsWith(`${name}${OWNER_SEP}`));
    const sessions = slots.flatMap((slot) => this.sessions.get(slot) ?? []);
    for (const slot of slots) this.sessions.delete(slot);
    await Promise.all(sessions.map((s) => s.client.close().catch(() => undefined)));
  }

  /**
   * An OAuth endpoint's sessions are kept apart per owner (under `name`, owner): each presents its owner's token.
   * An owner with no grant is refused here, before anything is sent (NeedsConnecting).
   */
  private slotOf(
    endpoint: ResolvedEndpoint,
    owner: string,
  ): ResolvedEndpoint & { owner?: string; endpointName?: string } {
    if (!oauthOf(endpoint.resolved)) return endpoint;
    if (!this.opts.oauth) throw new NeedsConnecting(endpoint.name, 'this worker does not keep OAuth tokens');
    this.opts.oauth.check(endpoint.name, owner);
    return { ...endpoint, name: `${endpoint.name}${OWNER_SEP}${owner}`, owner, endpointName: endpoint.name };
  }

  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.sessions.keys()].map((name) => this.drop(name)));
  }

  /** The endpoint's live sessions of this definition; others (an edited entry) are dropped. */
  private current(endpoint: ResolvedEndpoint): Session[] {
    const sessions = this.sessions.get(endpoint.name) ?? [];
    if (sessions.some((s) => s.key !== endpoint.key)) {
      void this.drop(endpoint.name);
      return [];
    }
    return sessions;
  }

  /** For a listing: the least busy session, or a new one. */
  private any(endpoint: ResolvedEndpoint, connectTimeoutMs: number): Session {
    const sessions = this.current(endpoint);
    return [...sessions].sort((a, b) => a.inUse - b.inUse)[0] ?? this.start(endpoint, connectTimeoutMs);
  }

  /** For a call: a session no call holds (a new one if there is room), else the next one released. */
  private async free(endpoint: ResolvedEndpoint, connectTimeoutMs: number, host: CallHost): Promise<Session> {
    // Taken in the same tick it is found (`host` set before any await), so two calls never take one session.
    const take = (session: Session) => ((session.host = host), session);
    for (;;) {
      const sessions = this.current(endpoint);
      const idle = sessions.filter((s) => !s.host).sort((a, b) => a.inUse - b.inUse)[0];
      if (idle) return take(idle);
      if (sessions.length < (this.opts.maxSessionsPerEndpoint ?? 8))
        return take(this.start(endpoint, connectTimeoutMs));
      await new Promise<void>((wake) =>
        this.waiting.set(endpoint.name, [...(this.waiting.get(endpoint.name) ?? []), wake]),
      );
    }
  }

  /** A new session of the endpoint, beside its others, making room under the cap. */
  private start(endpoint: ResolvedEndpoint, connectTimeoutMs: number): Session {
    const room = isStdio(endpoint.resolved) ? this.evictOverCap(1) : Promise.resolve();
    const session = this.open(endpoint, connectTimeoutMs, room);
    this.sessions.set(endpoint.name, [...(this.sessions.get(endpoint.name) ?? []), session]);
    return session;
  }

  private release(name: string, session: Session, heldByCall: boolean): void {
    session.inUse--;
    session.lastUsed = Date.now();
    if (heldByCall) {
      session.host = null;
      this.waiting.get(name)?.shift()?.();
    }
    if (session.retired && session.inUse === 0) void session.client.close().catch(() => undefined);
    // Over the cap because every session was in use: this one finishing may make room.
    void this.evictOverCap(0);
  }

  private forget(name: string, session: Session): void {
    const rest = (this.sessions.get(name) ?? []).filter((s) => s !== session);
    if (rest.length) this.sessions.set(name, rest);
    else this.sessions.delete(name);
    // A call waiting for a session may now open one.
    this.waiting.get(name)?.shift()?.();
  }

  private owned(name: string, session: Session): boolean {
    return (this.sessions.get(name) ?? []).includes(session);
  }

  /** Connects once `room` has resolved: the processes making room for this one have exited. */
  private open(endpoint: ResolvedEndpoint, connectTimeoutMs: number, room: Promise<unknown>): Session {
    const session: Session = {
      key: endpoint.key,
      stdio: isStdio(endpoint.resolved),
      client: undefined as never,
      connected: undefined as never,
      lastUsed: Date.now(),
      inUse: 0,
      host: null,
      retired: false,
      stderr: '',
    };
    session.client = this.newClient(endpoint.name, session);
    const owned = () => this.owned(endpoint.name, session);
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
        session.client = this.newClient(endpoint.name, session);
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
        if (owned()) this.forget(endpoint.name, session);
      };
      return session.client;
    })();
    session.connected.catch(async () => {
      if (owned()) this.forget(endpoint.name, session);
      await session.client.close().catch(() => undefined);
    });
    return session;
  }

  private newClient(name: string, session: Session): Client {
    return clientWithHost(
      this.opts.clientInfo ?? { name: 'temporal-agent-orchestrator', version: '0.1.0' },
      () => session.host,
      () => this.opts.onToolsChanged?.(name),
    );
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
    if (err instanceof NeedsConnecting) return err; // the user's to fix, said as it is
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
    const { owner, endpointName } = endpoint as ReturnType<McpPool['slotOf']>;
    const oauth = entry.auth && owner && endpointName && this.opts.oauth;
    const authProvider = oauth ? oauth.provider(endpointName, owner, entry.url, entry.auth!) : undefined;
    const fetch = oauth ? oauth.fetchFor(endpointName, owner, url.href) : undefined;
    return entry.type === 'sse'
      ? new SSEClientTransport(url, { requestInit, authProvider, fetch })
      : new StreamableHTTPClientTransport(url, { requestInit, authProvider, fetch });
  }

  private evictIdle(): void {
    const idleMs = this.opts.idleMs ?? 300_000;
    for (const [name, sessions] of this.sessions) {
      for (const session of sessions) {
        if (session.inUse === 0 && Date.now() - session.lastUsed > idleMs) this.close(name, session);
      }
    }
  }

  private close(name: string, session: Session): Promise<unknown> {
    this.forget(name, session);
    return session.client.close().catch(() => undefined);
  }

  /**
   * Closes least recently used idle stdio sessions until `incoming` more fit under the cap; resolves once their
   * processes have exited. Sessions in use are spared, so the cap may stay exceeded until they are released.
   */
  private evictOverCap(incoming: number): Promise<unknown> {
    const stdio = [...this.sessions].flatMap(([name, sessions]) =>
      sessions.filter((s) => s.stdio).map((s) => [name, s] as const),
    );
    const excess = stdio.length + incoming - (this.opts.maxStdioProcesses ?? Infinity);
    if (excess <= 0) return Promise.resolve();
    const idle = stdio.filter(([, s]) => s.inUse === 0).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    return Promise.all(idle.slice(0, excess).map(([name, s]) => this.close(name, s)));
  }
}
