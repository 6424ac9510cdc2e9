// Memories through the API (docs/memory.md), answered by the worker that keeps them (AgentClient.memory): a key sees
// and changes its owner's only (another owner's memory is answered as unknown); an admin key sees every owner's and
// may name the owner (`?owner=`). Without API keys the caller is this machine's user, an admin.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AgentClient } from '../client/agent-client';
import { LOCAL_OWNER } from '../core/blobs';
import type { MemoryRequest } from '../core/memory';
import type { ApiEnv } from './auth';
import { body, errors, json } from './schemas';

const Id = z.object({
  id: z
    .string()
    .regex(/^mem_[0-9a-f]{16}$/)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'mem_0123456789abcdef' }),
});
const OwnerQuery = z.object({ owner: z.string().min(1).optional() });
const ListQuery = OwnerQuery.extend({
  q: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});
export const MemorySchema = z
  .object({
    id: z.string(),
    owner: z.string(),
    goalId: z.string().nullable(),
    text: z.string(),
    tags: z.array(z.string()),
    source: z.object({ kind: z.string() }).passthrough(),
    createdAt: z.string(),
    updatedAt: z.string(),
    proposed: z.literal(true).optional(),
  })
  .openapi('Memory');
export const MemoryUseSchema = z
  .object({ conversationId: z.string(), goalId: z.string(), firstAt: z.string(), lastAt: z.string() })
  .openapi('MemoryUse');
const NewMemory = z
  .strictObject({ text: z.string().min(1), tags: z.array(z.string()).optional(), goalId: z.string().optional() })
  .openapi('NewMemory');
const Change = z.strictObject({ text: z.string().min(1).optional(), tags: z.array(z.string()).optional() });
const Imported = z.strictObject({ memories: z.array(MemorySchema) });

export function addMemoryRoutes(app: OpenAPIHono<ApiEnv>, agents: AgentClient): void {
  /** Whose memories the request is about: the key's owner; an admin's choice (every owner's when none). */
  const scope = (c: Context<ApiEnv>, wanted: string | undefined, forWriting = false): string | null => {
    const caller = c.get('caller');
    if (!caller.admin) return caller.owner ?? LOCAL_OWNER;
    return wanted ?? (forWriting ? (caller.owner ?? LOCAL_OWNER) : null);
  };
  const ask = (req: MemoryRequest) => agents.memory(req);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/memories',
      summary: "The caller's memories, newest first, or those matching `q` (an admin's: every owner's)",
      request: { query: ListQuery },
      responses: { 200: json(z.object({ memories: z.array(MemorySchema) }), 'The memories'), ...errors },
    }),
    async (c) => {
      const { owner, q, limit, offset } = c.req.valid('query');
      const who = scope(c, owner);
      const answer = await ask(
        q ? { owner: who, op: 'search', query: q, limit } : { owner: who, op: 'list', limit, offset },
      );
      return c.json(answer as { memories: never[] }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/memories',
      summary: 'Keep a memory for the caller (an admin: for `?owner=`)',
      request: { query: OwnerQuery, ...body(NewMemory) },
      responses: { 201: json(z.object({ memory: MemorySchema }), 'Kept'), ...errors },
    }),
    async (c) => {
      const { text, tags, goalId } = c.req.valid('json') as z.infer<typeof NewMemory>;
      const who = scope(c, c.req.valid('query').owner, true);
      return c.json((await ask({ owner: who, op: 'add', text, tags, goalId, via: 'api' })) as never, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/memories/export',
      summary: 'Every memory of the caller (an admin: of `?owner=`), oldest first, for import',
      request: { query: OwnerQuery },
      responses: { 200: json(z.object({ memories: z.array(MemorySchema) }), 'The memories'), ...errors },
    }),
    async (c) => c.json((await ask({ owner: scope(c, c.req.valid('query').owner, true), op: 'export' })) as never, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/memories/import',
      summary: 'Memories exported before, kept for the caller (one already kept is not added twice)',
      request: { query: OwnerQuery, ...body(Imported) },
      responses: { 200: json(z.object({ imported: z.number() }), 'How many were added'), ...errors },
    }),
    async (c) => {
      const { memories } = c.req.valid('json') as z.infer<typeof Imported>;
      const who = scope(c, c.req.valid('query').owner, true);
      return c.json((await ask({ owner: who, op: 'import', memories: memories as never })) as never, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/memories/{id}',
      summary: 'One memory, and the conversations whose turns were shown it (latest first)',
      request: { params: Id },
      responses: {
        200: json(z.object({ memory: MemorySchema, uses: z.array(MemoryUseSchema) }), 'The memory'),
        ...errors,
      },
    }),
    async (c) =>
      c.json((await ask({ owner: scope(c, undefined), op: 'show', id: c.req.valid('param').id })) as never, 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/api/memories/{id}',
      summary: "Change a memory's words or tags",
      request: { params: Id, ...body(Change) },
      responses: { 200: json(z.object({ memory: MemorySchema }), 'Changed'), ...errors },
    }),
    async (c) => {
      const change = c.req.valid('json') as z.infer<typeof Change>;
      return c.json(
        (await ask({ owner: scope(c, undefined), op: 'edit', id: c.req.valid('param').id, ...change })) as never,
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/memories/{id}/keep',
      summary: "Keep a memory proposed at a conversation's end: recalled from now on (DELETE dismisses one)",
      request: { params: Id },
      responses: { 200: json(z.object({ memory: MemorySchema }), 'Kept'), ...errors },
    }),
    async (c) =>
      c.json((await ask({ owner: scope(c, undefined), op: 'keep', id: c.req.valid('param').id })) as never, 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/memories/{id}',
      summary: 'Forget a memory: gone from the store and from every later turn',
      request: { params: Id },
      responses: { 200: json(z.object({ deleted: z.string() }), 'Deleted'), ...errors },
    }),
    async (c) =>
      c.json((await ask({ owner: scope(c, undefined), op: 'delete', id: c.req.valid('param').id })) as never, 200),
  );
}
