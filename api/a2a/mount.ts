// `/a2a/agents/<goal id>`: each of our agents as an A2A server on the API's port, JSON-RPC at that address and
// HTTP+JSON under `/rest`, its card at `/.well-known/agent-card.json` below it; the deployment's card at the root's
// `/.well-known/agent-card.json`. The SDK's transports (express) speak the wire; agent-handler.ts answers. The
// caller is found by the API's own keys, before the request reaches them; cards need no key.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import express from 'express';
import type { AgentClient } from '../../client/agent-client';
import { HTTP_STATUS, UserError } from '../../core/user-error';
import { a2a, a2aExpress, type AgentCard, type ServerCallContext } from '../../endpoints/a2a/sdk';
import { LOCAL_CALLER, type ApiEnv, type ApiKeys, type Caller } from '../auth';
import type { LiveFeeds } from '../live-feed';
import { agentHandler } from './agent-handler';
import { A2A_PATH, agentBase, agentCard, CARD_FILE, directoryCard } from './cards';

export interface A2aDeps {
  agents: AgentClient;
  feeds: LiveFeeds;
  keys: ApiKeys | null;
  defaultGoal: string;
  /** API_PUBLIC_URL: the address cards give; absent, the request's own origin. */
  publicUrl?: string;
  touched: (id: string) => void;
}

/** How long a card is reused: it is read from the worker (the agent and its tools), and asked for on every call. */
const CARD_TTL_MS = 10_000;

/** The caller of a request, set before the SDK's transports see it, and a signal for its client leaving. */
const callers = new WeakMap<IncomingMessage, { caller: Caller; gone: AbortSignal }>();

/** With API keys, a request that reached the transports without a caller sees nothing (no owner has this name). */
const NOBODY: Caller = { owner: ' nobody', admin: false };

/** Cards and handlers are kept per agent and address; without API_PUBLIC_URL the address is the request's Host. */
const MAX_KEPT = 100;

export class CallerUser {
  constructor(
    readonly caller: Caller,
    /** Aborted when the client goes away: a stream following a task stops. */
    readonly gone?: AbortSignal,
  ) {}
  get isAuthenticated(): boolean {
    return this.caller !== LOCAL_CALLER;
  }
  get userName(): string {
    return this.caller.owner ?? 'local';
  }
}

export function mountA2a(app: OpenAPIHono<ApiEnv>, deps: A2aDeps): void {
  const { agents } = deps;
  const sdk = a2aExpress();
  const userBuilder = async (req: express.Request) => {
    const known = callers.get(req);
    return new CallerUser(known?.caller ?? (deps.keys ? NOBODY : LOCAL_CALLER), known?.gone);
  };
  const callerOf = (context: ServerCallContext) => (context.user as CallerUser | undefined)?.caller ?? LOCAL_CALLER;
  const cards = new Map<string, { card: Promise<AgentCard>; at: number }>();
  const cardOf = (goalId: string, origin: string): Promise<AgentCard> => {
    const cached = cards.get(`${origin} ${goalId}`);
    if (cached && Date.now() - cached.at < CARD_TTL_MS) return cached.card;
    if (cards.size > MAX_KEPT) cards.clear();
    const card = agentCard(agents, goalId, { origin, keys: !!deps.keys });
    cards.set(`${origin} ${goalId}`, { card, at: Date.now() });
    card.catch(() => cards.delete(`${origin} ${goalId}`));
    return card;
  };
  const handlers = new Map<string, { rpc: express.RequestHandler; rest: express.RequestHandler }>();
  const handlersOf = (goalId: string, origin: string) => {
    const key = `${origin} ${goalId}`;
    let found = handlers.get(key);
    if (!found) {
      if (handlers.size > MAX_KEPT) handlers.clear();
      const requestHandler = agentHandler({
        agents,
        goalId,
        card: () => cardOf(goalId, origin),
        callerOf,
        goneOf: (context) => (context.user as CallerUser | undefined)?.gone,
        events: { agents, feeds: deps.feeds },
        touched: deps.touched,
      });
      found = {
        rpc: sdk.jsonRpcHandler({ requestHandler, userBuilder }),
        rest: sdk.restHandler({ requestHandler, userBuilder }),
      };
      handlers.set(key, found);
    }
    return found;
  };

  const server = express();
  server.disable('x-powered-by');
  const originOf = (req: express.Request) => deps.publicUrl ?? `${req.protocol}://${req.get('host')}`;
  server.get(`/${CARD_FILE}`, (req, res, next) => {
    directoryCard(agents, deps.defaultGoal, { origin: originOf(req), keys: !!deps.keys })
      .then((card) => res.json(a2a.AgentCard.toJSON(card)))
      .catch(next);
  });
  server.get(A2A_PATH, (req, res, next) => {
    agents
      .agents()
      .then(({ agents: all }) =>
        res.json({
          agents: all.map((a) => ({
            goalId: a.goalId,
            name: a.agentName,
            card: `${agentBase(originOf(req), a.goalId)}/${CARD_FILE}`,
          })),
        }),
      )
      .catch(next);
  });
  server.use(`${A2A_PATH}/:goalId`, (req, res, next) => {
    const goalId = req.params.goalId!;
    agents
      .requireGoal(goalId)
      .then(() => {
        const origin = originOf(req);
        if (req.method === 'GET' && req.path === `/${CARD_FILE}`) {
          return cardOf(goalId, origin).then((card) => void res.json(a2a.AgentCard.toJSON(card)));
        }
        const { rpc, rest } = handlersOf(goalId, origin);
        if (req.path === '/rest' || req.path.startsWith('/rest/')) {
          req.url = req.url.slice('/rest'.length) || '/';
          return rest(req, res, next);
        }
        return rpc(req, res, next);
      })
      .catch(next);
  });
  server.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (err instanceof UserError) return void res.status(HTTP_STATUS[err.kind]).json({ error: err.message });
    console.error(err);
    res.status(500).json({ error: 'Internal error; the API log has the details.' });
  });

  const pass = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    server(incoming, outgoing);
    return RESPONSE_ALREADY_SENT;
  };
  app.get(`/${CARD_FILE}`, (c) => pass((c.env as HttpBindings).incoming, (c.env as HttpBindings).outgoing));
  app.all(`${A2A_PATH}/*`, (c) => {
    const { incoming, outgoing } = c.env as HttpBindings;
    const isCard = c.req.method === 'GET' && c.req.path.endsWith(`/${CARD_FILE}`);
    if (deps.keys && isCard) {
      // Cards need no key; anything else that reaches the transports under this path sees nothing.
      callers.set(incoming, { caller: NOBODY, gone: goneSignal(outgoing) });
    } else if (deps.keys) {
      const header = c.req.header('authorization');
      const caller = deps.keys.callerOf(header);
      if (!caller)
        return c.json(
          { error: header ? 'Unknown API key.' : 'A2A calls need Authorization: Bearer <key> (API_KEYS).' },
          401,
        );
      callers.set(incoming, { caller, gone: goneSignal(outgoing) });
    } else {
      callers.set(incoming, { caller: LOCAL_CALLER, gone: goneSignal(outgoing) });
    }
    return pass(incoming, outgoing);
  });
  app.get(A2A_PATH, (c) => pass((c.env as HttpBindings).incoming, (c.env as HttpBindings).outgoing));
}

/** Aborted when the response closes before it ended: the client left (a stream it followed stops). */
function goneSignal(outgoing: ServerResponse): AbortSignal {
  const gone = new AbortController();
  outgoing.once('close', () => gone.abort());
  return gone.signal;
}
