// A conversation's controls beside its messages: answer a running tool's question, stop the running turn, end it,
// switch its agent. Each answers once the conversation has taken it, and tells the live feeds to look at once.
import { createRoute, type OpenAPIHono, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AgentClient } from '../client/agent-client';
import type { ApiEnv } from './auth';
import * as S from './schemas';
import { body, errors, json } from './schemas';

export function addControlRoutes(
  app: OpenAPIHono<ApiEnv>,
  deps: {
    agents: AgentClient;
    /** Refuses a conversation the caller may not see (as unknown). */
    mine(c: Context<ApiEnv>, id: string): Promise<void>;
    /** The conversation has news: its live feeds look now. */
    touched(id: string): void;
  },
): void {
  const { agents, mine, touched } = deps;

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/answer',
      summary: "Answer the question a running tool asks (accept with the form's content, decline, cancel)",
      request: { params: S.ConversationIdParam, ...body(S.AnswerBody) },
      responses: { 200: json(S.AgentReply, 'The reply'), ...errors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { questionId, ...answer } = c.req.valid('json') as z.infer<typeof S.AnswerBody>;
      await mine(c, id);
      const reply = agents.answer(id, { ...(questionId ? { questionId } : {}), answer });
      touched(id);
      return c.json(await reply, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/cancel',
      summary: 'Stop the running turn',
      request: { params: S.ConversationIdParam },
      responses: { 200: json(S.AgentReply, 'Stopped'), ...errors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await mine(c, id);
      const reply = await agents.cancel(id);
      touched(id);
      return c.json(reply, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/end',
      summary: 'End the conversation',
      request: { params: S.ConversationIdParam },
      responses: { 200: json(S.Anything, 'Ended'), ...errors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await mine(c, id);
      await agents.end(id);
      touched(id);
      return c.json({ ended: true }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/goal',
      summary: 'Switch the conversation to another agent',
      request: { params: S.ConversationIdParam, ...body(S.GoalBody) },
      responses: { 202: json(S.Anything, 'Switching'), ...errors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { goalId } = c.req.valid('json') as z.infer<typeof S.GoalBody>;
      await mine(c, id);
      await agents.changeGoal(id, goalId);
      touched(id);
      return c.json({ goalId }, 202);
    },
  );
}
