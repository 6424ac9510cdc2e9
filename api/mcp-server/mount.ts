// `/mcp`: our agents as a Streamable HTTP MCP server on the API's port, for Claude Desktop, Cursor, the MCP
// Inspector or another deployment's worker. The same API keys and owners as the REST routes; the protocol is the MCP
// SDK's own (its web-standard transport takes Hono's Request and answers a Response, SSE streams included).
import type { Hono } from 'hono';
import type { AgentClient } from '../../client/agent-client';
import { LOCAL_CALLER, type ApiKeys, type ApiEnv, type Caller } from '../auth';
import { createAgentsMcpServer } from './agents-server';
import { McpSessions } from './sessions';
import type { StreamBus } from '../../stream/bus';
import { rebindingRefusal } from './rebinding';

export const MCP_PATH = '/mcp';

export interface McpMountDeps {
  agents: AgentClient;
  keys: ApiKeys | null;
  /** The goal start_conversation uses when it names none (the worker's AGENT_GOAL). */
  defaultGoal: string;
  maxBodyBytes: number;
  /** Told each time a tool sends a conversation something (the API's live feeds look at once). */
  touched?: (id: string) => void;
  /** The reply as it is written, passed on as progress to clients that ask for it. */
  bus?: StreamBus;
}

/** Half an hour: a client that comes back later gets a 404 for its session and opens a new one, as the spec says. */
const IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 1_000;

export function mountMcpServer(app: Hono<ApiEnv>, deps: McpMountDeps): McpSessions {
  const sessions = new McpSessions(
    { idleMs: IDLE_MS, maxSessions: MAX_SESSIONS, maxBodyBytes: deps.maxBodyBytes },
    (caller) => createAgentsMcpServer({ ...deps, caller }),
  );

  app.all(MCP_PATH, async (c) => {
    const request = c.req.raw;
    // Without keys the API is this machine's alone: a page elsewhere must not reach it through a rebound DNS name.
    const refusal = deps.keys ? null : rebindingRefusal(request.headers);
    if (refusal) return c.json({ error: refusal }, 403);

    const caller = callerOf(deps.keys, c.req.header('authorization'));
    if (!caller) {
      const error = c.req.header('authorization')
        ? 'Unknown API key.'
        : 'This MCP server needs Authorization: Bearer <key> (API_KEYS).';
      return c.json({ error }, 401, { 'WWW-Authenticate': 'Bearer realm="agents"' });
    }

    const sessionId = c.req.header('mcp-session-id');
    if (!sessionId) return sessions.initialize(caller, request);
    const session = sessions.find(sessionId, caller);
    // 404 tells a client to open a new session (the spec's answer to an expired one).
    if (!session) return c.json(rpcError(-32001, 'Session not found; initialize a new one.'), 404);
    return session.transport.handleRequest(request);
  });
  return sessions;
}

function callerOf(keys: ApiKeys | null, authorization: string | undefined): Caller | null {
  return keys ? keys.callerOf(authorization) : LOCAL_CALLER;
}

function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
