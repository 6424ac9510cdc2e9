// The webhook triggers' part of the API's contract (api/schemas.ts has the rest).
import { z } from '@hono/zod-openapi';
import { UNATTENDED_NAME } from '../../client/unattended';

/** A schedule's or a trigger's name in a path. */
export const NameParam = z.object({
  name: z
    .string()
    .regex(UNATTENDED_NAME)
    .openapi({ param: { name: 'name', in: 'path' }, example: 'payment-failed' }),
});

export const DeliveryAnswer = z
  .object({
    conversationId: z.string().optional(),
    trigger: z.string().optional(),
    deliveryId: z.string().optional(),
    started: z.boolean().optional(),
    duplicate: z.boolean().optional(),
    error: z.string().optional(),
  })
  .openapi('DeliveryAnswer');

export const UnattendedRunRecord = z
  .object({
    conversationId: z.string(),
    source: z.enum(['schedule', 'trigger']),
    name: z.string(),
    startedAt: z.string(),
    state: z.string(),
    status: z.string().optional(),
    summary: z.string().optional(),
    costUsd: z.number().optional(),
    delivered: z.boolean().optional(),
  })
  .openapi('UnattendedRun');

export const TriggerList = z
  .object({
    triggers: z.array(
      z.object({
        name: z.string(),
        goal: z.string(),
        signature: z.string(),
        enabled: z.boolean(),
        approvals: z.unknown(),
        description: z.string().optional(),
        owner: z.string().optional(),
        runs: z.array(UnattendedRunRecord),
      }),
    ),
    error: z.string().optional(),
  })
  .openapi('TriggerList');
