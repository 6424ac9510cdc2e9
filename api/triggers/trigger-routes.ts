// Signed webhooks start agent runs: `POST /api/triggers/<name>` with the trigger's signature (no API key: the
// signature is the proof). The delivery's signed key (Stripe's event id, the hash of GitHub's body) names the run's
// workflow (`trig-<name>.<key>`, never reused), so a sender's retry, a replay or two copies at once start one run: the
// later ones are answered with the first's id. The
// JSON body is kept whole in the blob store and attached to the run's prompt, never pasted into it.
import { createHash } from 'node:crypto';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, WorkflowNotFoundError } from '@temporalio/client';
import type { AgentClient } from '../../client/agent-client';
import { unattendedRuns } from '../../client/unattended-runs';
import { triggerRunId } from '../../core/run-starter';
import { unattendedInput } from '../../client/unattended';
import { LOCAL_OWNER } from '../../core/blobs';
import type { ApiEnv } from '../auth';
import { errors, json } from '../schemas';
import * as T from './trigger-schemas';
import { DeliveryRefused, SIGNATURE_HEADER, verifyDelivery, type SignedDelivery } from './signatures';
import type { TriggerEntry, TriggerFile } from './trigger-registry';

export interface TriggerDeps {
  triggers: TriggerFile;
  /** The largest body a delivery may have (TRIGGER_BODY_LIMIT). */
  maxBytes: number;
  /** Where `${env:NAME}` secrets are read. */
  env: NodeJS.ProcessEnv;
  /** Our clock (ms), for signed timestamps. */
  now: () => number;
}

/** Deliveries come without an API key, with their own body limit: the API's key check and limit leave them be. */
export const isTriggerDelivery = (method: string, path: string) =>
  method === 'POST' && /^\/api\/triggers\/[^/]+$/.test(path);

export function addTriggerRoutes(app: OpenAPIHono<ApiEnv>, agents: AgentClient, deps: TriggerDeps): void {
  const limit = bodyLimit({
    maxSize: deps.maxBytes,
    onError: (c) => c.json({ error: `The delivery is over ${deps.maxBytes} bytes (TRIGGER_BODY_LIMIT).` }, 413),
  });
  // Nothing of an unsigned or unknown delivery is read: its body could be anybody's.
  app.use('/api/triggers/:name', async (c, next) => {
    if (!isTriggerDelivery(c.req.method, c.req.path)) return next();
    const trigger = deps.triggers.get(c.req.param('name'));
    if (!trigger) return c.json({ error: `No trigger ${c.req.param('name')}.` }, 404);
    const header = SIGNATURE_HEADER[trigger.signature];
    if (!c.req.header(header)) return c.json({ error: `The delivery is not signed (${header}).` }, 401);
    return limit(c, next);
  });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/triggers/{name}',
      summary: "A webhook delivery: starts the trigger's run (signed; no API key)",
      request: { params: T.NameParam },
      responses: {
        202: json(T.DeliveryAnswer, 'A run started'),
        200: json(T.DeliveryAnswer, 'This delivery started a run before: no other run'),
        503: json(T.DeliveryAnswer, "The trigger's secret is not set here"),
        ...errors,
      },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      // Known and signed (the middleware above); the registry may have changed since, so it is read again.
      const trigger = deps.triggers.get(name);
      if (!trigger) return c.json({ error: `No trigger ${name}.` }, 404);
      const secret = secretOf(trigger, deps.env);
      if ('missing' in secret) {
        // The sender is told the trigger is not ready, not which variable is missing: the API's log says.
        console.warn(`trigger ${name}: its secret names ${secret.missing}, which the API's environment lacks`);
        return c.json({ error: `Trigger ${name} is not set up on this API (its secret is missing).` }, 503);
      }
      const raw = new Uint8Array(await c.req.arrayBuffer());
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(raw).toString('utf8'));
      } catch {
        return c.json({ error: 'The delivery is not JSON.' }, 400);
      }
      let signed: SignedDelivery;
      try {
        signed = verifyDelivery(trigger.signature, secret.value, {
          header: (h) => c.req.header(h),
          raw,
          body: parsed,
          now: deps.now(),
        });
      } catch (err) {
        if (err instanceof DeliveryRefused) return c.json({ error: err.message }, err.status);
        throw err;
      }
      const conversationId = triggerRunId(name, idPart(signed.key));
      const answer = { conversationId, trigger: name, deliveryId: signed.deliveryId };
      if (await exists(agents, conversationId)) return c.json({ ...answer, duplicate: true }, 200);
      const owner = trigger.owner ?? LOCAL_OWNER;
      const body = await agents.files.put(raw, {
        name: `${name}-${idPart(signed.deliveryId)}.json`,
        owner,
        conversationId,
      });
      const input = unattendedInput({
        goalId: trigger.goal,
        prompt: promptOf(trigger, name, signed),
        ...(trigger.owner ? { owner: trigger.owner } : {}),
        run: {
          source: 'trigger',
          name,
          approvals: trigger.approvals,
          ...(trigger.notify ? { notify: trigger.notify } : {}),
        },
        attachments: [body],
      });
      try {
        await agents.client.workflow.start('AgentGoalWorkflow', {
          taskQueue: agents.taskQueue,
          workflowId: conversationId,
          args: [input],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError) return c.json({ ...answer, duplicate: true }, 200);
        throw err;
      }
      return c.json({ ...answer, started: true }, 202);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/triggers',
      summary: 'The webhook triggers (the registry file), each with its latest runs',
      responses: { 200: json(T.TriggerList, 'The triggers'), ...errors },
    }),
    async (c) => {
      const { triggers, error } = deps.triggers.all();
      const caller = c.get('caller');
      const list = await Promise.all(
        Object.entries(triggers).map(async ([name, t]) => ({
          name,
          goal: t.goal,
          signature: t.signature,
          enabled: t.enabled,
          approvals: t.approvals,
          ...(t.description ? { description: t.description } : {}),
          ...(t.owner ? { owner: t.owner } : {}),
          runs:
            caller.admin || caller.owner === t.owner
              ? await unattendedRuns(agents.client, 'trigger', { name, limit: 5, owner: t.owner ?? null })
              : [],
        })),
      );
      return c.json({ triggers: list, ...(error ? { error } : {}) }, 200);
    },
  );
}

/** The secret its `${env:NAME}` names, or that name when this process lacks it. */
function secretOf(trigger: TriggerEntry, env: NodeJS.ProcessEnv): { value: string } | { missing: string } {
  const variable = /^\$\{env:(\w+)\}$/.exec(trigger.secret)![1]!;
  const value = env[variable];
  return value ? { value } : { missing: variable };
}

/** `{{event}}`, `{{delivery}}` and `{{trigger}}` filled in, each cut to safe characters: never the body's contents. */
function promptOf(trigger: TriggerEntry, name: string, signed: SignedDelivery): string {
  const safe = (s: string | undefined) => (s ?? '').replace(/[^\w.:/@-]/g, '').slice(0, 100);
  return trigger.prompt
    .replaceAll('{{event}}', safe(signed.event) || 'unnamed event')
    .replaceAll('{{delivery}}', safe(signed.deliveryId))
    .replaceAll('{{trigger}}', name);
}

/** A delivery id as part of a workflow id: kept when it is a plain word, else its hash. */
function idPart(deliveryId: string): string {
  return /^[A-Za-z0-9_-]{1,100}$/.test(deliveryId)
    ? deliveryId
    : createHash('sha256').update(deliveryId).digest('hex').slice(0, 40);
}

async function exists(agents: AgentClient, workflowId: string): Promise<boolean> {
  try {
    await agents.client.workflow.getHandle(workflowId).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
