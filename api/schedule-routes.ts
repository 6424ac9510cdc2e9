// Scheduled agent runs through the API (client/schedules.ts does the work): create, list, read with the latest runs
// and their outcomes, pause/unpause, trigger, backfill, delete. A schedule's runs are its owner's: a key sees and
// changes only the schedules it owns (another owner's is answered as unknown); an admin key sees them all.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Schedules, ScheduleSummary } from '../client/schedules';
import { UserError } from '../core/user-error';
import { unknownGoalMessage } from '../goals/unknown-goal';
import type { ApiEnv } from './auth';
import { body, errors, json } from './schemas';
import * as T from './triggers/trigger-schemas';
import { APPROVALS } from './triggers/trigger-registry';

export const CreateBody = z
  .strictObject({
    name: z.string(),
    goalId: z.string().min(1),
    prompt: z.string().min(1).max(16_000),
    cron: z.string().optional(),
    every: z.string().optional(),
    timezone: z.string().optional(),
    overlap: z.enum(['skip', 'buffer-one', 'allow-all']).optional(),
    catchup: z.string().optional(),
    jitter: z.string().optional(),
    approvals: APPROVALS.optional(),
    notify: z.string().optional(),
    note: z.string().optional(),
    owner: z.string().optional().openapi({ description: "An admin key's only: whose the runs are" }),
  })
  .openapi('ScheduleRequest');
export const Summary = z
  .object({
    name: z.string(),
    goalId: z.string(),
    prompt: z.string(),
    owner: z.string().optional(),
    approvals: APPROVALS,
    notify: z.string().optional(),
    paused: z.boolean(),
    note: z.string().optional(),
    nextRuns: z.array(z.string()),
    recentRuns: z.array(z.object({ scheduledAt: z.string(), conversationId: z.string() })),
    runs: z.array(T.UnattendedRunRecord).optional(),
  })
  .openapi('Schedule');
const Note = z.strictObject({ note: z.string().optional() });
const Window = z.strictObject({ from: z.iso.datetime(), to: z.iso.datetime() });

export function addScheduleRoutes(
  app: OpenAPIHono<ApiEnv>,
  schedules: Schedules,
  /** The goals the workers offer: a schedule naming another is refused now, not at its first run. */
  goalIds: () => Promise<readonly string[]>,
): void {
  /** The schedule, if the caller may see it: another owner's is answered as unknown. */
  async function mine(c: Context<ApiEnv>, name: string): Promise<ScheduleSummary> {
    const one = await schedules.describe(name);
    const caller = c.get('caller');
    if (!caller.admin && one.owner !== caller.owner) throw new UserError(`No schedule ${name}.`, 'not_found');
    return one;
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/schedules',
      summary: 'Create a schedule of agent runs (Temporal Schedules)',
      request: body(CreateBody),
      responses: { 201: json(Summary, 'Created'), ...errors },
    }),
    async (c) => {
      const req = c.req.valid('json') as z.infer<typeof CreateBody>;
      const caller = c.get('caller');
      if (req.owner && !caller.admin) throw new UserError('owner: only an admin key names the owner', 'invalid');
      // Outcomes are POSTed from the workers, inside the deployment's network: only an admin chooses where.
      if (req.notify && !caller.admin)
        throw new UserError('notify: only an admin key sets where outcomes go', 'invalid');
      const unknown = unknownGoalMessage(req.goalId, await goalIds());
      if (unknown) return c.json({ error: unknown, field: 'goalId' }, 400);
      const owner = caller.admin ? (req.owner ?? caller.owner ?? undefined) : caller.owner!;
      return c.json(await schedules.create({ ...req, ...(owner ? { owner } : {}) }), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/schedules',
      summary: "The caller's schedules (an admin's: all)",
      responses: { 200: json(z.object({ schedules: z.array(Summary) }), 'The schedules'), ...errors },
    }),
    async (c) => {
      const caller = c.get('caller');
      const all = await schedules.list();
      return c.json({ schedules: all.filter((s) => caller.admin || s.owner === caller.owner) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/schedules/{name}',
      summary: 'A schedule: next runs, and its latest runs with their outcomes',
      request: { params: T.NameParam },
      responses: { 200: json(Summary, 'The schedule'), ...errors },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      const one = await mine(c, name);
      return c.json({ ...one, runs: await schedules.runs(name, 10, one) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/api/schedules/{name}',
      summary: 'Delete a schedule (its runs stay readable)',
      request: { params: T.NameParam },
      responses: { 200: json(z.object({ name: z.string(), deleted: z.boolean() }), 'Deleted'), ...errors },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      await mine(c, name);
      await schedules.delete(name);
      return c.json({ name, deleted: true }, 200);
    },
  );

  for (const action of ['pause', 'unpause'] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/api/schedules/{name}/${action}`,
        summary: `${action === 'pause' ? 'Pause' : 'Unpause'} a schedule, with a note`,
        request: { params: T.NameParam, ...body(Note) },
        responses: { 200: json(Summary, 'The schedule now'), ...errors },
      }),
      async (c) => {
        const { name } = c.req.valid('param');
        const { note } = c.req.valid('json') as z.infer<typeof Note>;
        await mine(c, name);
        await schedules[action](name, note);
        return c.json(await schedules.describe(name), 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/schedules/{name}/trigger',
      summary: 'A run now (the overlap policy still applies)',
      request: { params: T.NameParam },
      responses: { 202: json(z.object({ name: z.string(), triggered: z.boolean() }), 'A run starts'), ...errors },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      await mine(c, name);
      await schedules.trigger(name);
      return c.json({ name, triggered: true }, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/schedules/{name}/backfill',
      summary: 'The runs the schedule would have made between from and to, started now',
      request: { params: T.NameParam, ...body(Window) },
      responses: { 202: json(z.object({ name: z.string(), from: z.string(), to: z.string() }), 'Started'), ...errors },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      const { from, to } = c.req.valid('json') as z.infer<typeof Window>;
      await mine(c, name);
      await schedules.backfill(name, new Date(from), new Date(to));
      return c.json({ name, from, to }, 202);
    },
  );
}
