// The worker deployment, for operators (admin keys): which builds new conversations start on, which still run open
// ones, promote a build (or ramp it), roll back. The same operations as `agent deploy` (client/deployments.ts).
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Deployments } from '../client/deployments';
import type { ApiEnv } from './auth';
import * as S from './schemas';
import { body, errors, json } from './schemas';

const Promote = z
  .object({
    buildId: z.string().min(1),
    rampPercent: z.number().int().min(1).max(99).optional(),
  })
  .openapi('DeployPromote');

/** Deploys change where every user's conversations start: one user's key must not. */
function requireAdmin(c: Context<ApiEnv>): void {
  if (!c.get('caller').admin)
    throw new HTTPException(403, { message: 'Only an admin key (API_ADMIN_KEYS) may read or change deployments.' });
}

export function addDeployRoutes(app: OpenAPIHono<ApiEnv>, deployments: Deployments): void {
  const forbidden = { 403: json(S.ErrorBody, 'Not an admin key') };
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/deploy',
      summary: "The worker deployment's builds: current, ramping, draining, drained, open conversations, may stop",
      responses: { 200: json(S.Anything, 'DeploymentStatus'), ...errors, ...forbidden },
    }),
    async (c) => {
      requireAdmin(c);
      return c.json(await deployments.status(), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/deploy/promote',
      summary: 'New conversations start on this build (with rampPercent, that share of them)',
      request: body(Promote),
      responses: { 200: json(S.Anything, 'The deployment after'), ...errors, ...forbidden },
    }),
    async (c) => {
      requireAdmin(c);
      const { buildId, rampPercent } = c.req.valid('json') as z.infer<typeof Promote>;
      await deployments.promote(buildId, { rampPercent });
      return c.json(await deployments.status(), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/deploy/rollback',
      summary: 'During a ramp, the ramp ends; otherwise the build current before this one is current again',
      responses: { 200: json(S.Anything, '{ from, to }'), ...errors, ...forbidden },
    }),
    async (c) => {
      requireAdmin(c);
      return c.json(await deployments.rollback(), 200);
    },
  );
}
