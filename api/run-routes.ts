// The run view's routes: a conversation's run (its turns, steps and delegates, read from the workflows' histories)
// once, or as a live stream that sends the whole tree again whenever something in it changes.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { serveEvents } from './event-stream';
import type { AgentClient } from '../client/agent-client';
import { inConversation } from '../client/conversation-updates';
import type { TemporalUi } from '../views/run-view/run-reader';
import type { ApiEnv } from './auth';
import type { RunWatches } from './run-watch';
import * as S from './schemas';
import { errors, json } from './schemas';

export function addRunRoutes(
  app: OpenAPIHono<ApiEnv>,
  deps: {
    agents: AgentClient;
    watches: RunWatches;
    temporalUi?: TemporalUi;
    /** Refuses a conversation the caller may not see (as unknown). */
    mine(c: Context<ApiEnv>, id: string): Promise<void>;
  },
): void {
  const { agents, watches, temporalUi, mine } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}/run',
      summary: 'The run: turns, model and tool calls, waits, delegates with theirs, totals (from the histories)',
      request: { params: S.ConversationIdParam },
      responses: { 200: json(S.Anything, 'RunView'), ...errors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await mine(c, id);
      return c.json(await agents.run(id, temporalUi), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}/run/events',
      summary:
        'Server-Sent Events: `run` (the whole RunView) on open and on every change; ends when the tree has ended',
      request: { params: S.ConversationIdParam },
      responses: {
        200: { content: { 'text/event-stream': { schema: z.string() } }, description: 'The event stream' },
        ...errors,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await mine(c, id);
      await known(agents, id);
      return serveEvents(c, (send, end) => watches.open(id, (json) => send({ event: 'run', data: json }), end));
    },
  );
}

/** Answers an unknown conversation's stream with 404 before the stream opens. */
async function known(agents: AgentClient, id: string): Promise<void> {
  await inConversation(id, () => agents.client.workflow.getHandle(id).describe());
}
