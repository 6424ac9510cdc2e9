// The MCP sessions of /mcp, held in this API process: each is one McpServer and its Streamable HTTP transport, bound
// to the caller that opened it. Sessions are stateful because an approval asked through elicitation is our request to
// the client in the middle of a tool call, and the client's answer (a POST of its own) must reach the server instance
// that waits for it. Nothing durable lives here: a session lost with the process loses no conversation (that is a
// workflow); the client opens a new session and goes on with the same conversation id.
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Caller } from '../auth';
import { SessionEventLog } from './event-log';

const RETRY_MS = 1_000;

export interface McpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  caller: Caller;
  lastUsed: number;
}

export interface SessionLimits {
  /** A session nobody used for this long is closed when the next one opens (clients reconnect on the 404). */
  idleMs: number;
  /** Past this many, opening one closes the least recently used. */
  maxSessions: number;
  /** Largest request body the transport reads (the API's API_BODY_LIMIT). */
  maxBodyBytes: number;
}

export class McpSessions {
  private readonly open = new Map<string, McpSession>();

  constructor(
    private readonly limits: SessionLimits,
    private readonly serverFor: (caller: Caller) => McpServer,
  ) {}

  /** The session a request names, if it is open and the same owner opened it; another key's session is unknown. */
  find(id: string, caller: Caller): McpSession | undefined {
    const session = this.open.get(id);
    if (!session || session.caller.owner !== caller.owner || session.caller.admin !== caller.admin) return undefined;
    session.lastUsed = Date.now();
    return session;
  }

  /**
   * Handles a request that names no session: the transport accepts only an initialize request there, and a session
   * exists from then on; anything else it refuses, and that transport is dropped.
   */
  async initialize(caller: Caller, request: Request): Promise<Response> {
    this.prune();
    const server = this.serverFor(caller);
    const session: McpSession = { server, caller, lastUsed: Date.now(), transport: undefined as never };
    session.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.open.set(id, session),
      onsessionclosed: (id) => void this.open.delete(id),
      maxRequestBodySize: this.limits.maxBodyBytes,
      // Resumable streams: a client that loses its connection mid-turn reconnects for the rest, after a second.
      eventStore: new SessionEventLog(),
      retryInterval: RETRY_MS,
    });
    await server.connect(session.transport);
    const response = await session.transport.handleRequest(request);
    if (!session.transport.sessionId) await server.close();
    return response;
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.open.values()];
    this.open.clear();
    await Promise.all(sessions.map((s) => s.server.close().catch(() => undefined)));
  }

  get size(): number {
    return this.open.size;
  }

  /** Closes idle sessions, and the least recently used ones past the cap. */
  private prune(): void {
    const now = Date.now();
    const byUse = [...this.open.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    let excess = this.open.size + 1 - this.limits.maxSessions;
    for (const [id, session] of byUse) {
      if (excess <= 0 && now - session.lastUsed < this.limits.idleMs) break;
      excess--;
      this.open.delete(id);
      void session.server.close().catch(() => undefined);
    }
  }
}
