// What a goal is, as a zod schema: code goals (goals/code/*.ts) and JSON goals (the goals folder) are parsed by
// this one schema, so both kinds are held to the same rules and errors name the field.
import { z } from 'zod';
import { WHILE_BUSY, type Goal } from '../core/types';

export const goalSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]{2,63}$/, 'lowercase letters, digits and _, e.g. goal_travel'),
    category: z.string().min(1),
    agentName: z.string().min(1),
    agentFriendlyDescription: z.string().min(1),
    description: z.string().min(1),
    starterPrompt: z.string().min(1),
    exampleConversation: z.string().default(''),
    tools: z.array(z.string()).default([]),
    mcp: z
      .object({
        servers: z.array(z.string()).optional(),
        categories: z.array(z.string()).optional(),
        tools: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
    delegates: z.array(z.string().min(1)).min(1).optional(),
    memory: z
      .object({
        read: z.boolean().optional(),
        write: z.enum(['ask', 'auto', 'never']).optional(),
        extract: z.boolean().optional(),
      })
      .strict()
      .optional(),
    provenance: z
      .object({ createdBy: z.string(), callId: z.string(), createdAt: z.string(), request: z.string() })
      .strict()
      .optional(),
    settings: z
      .object({
        model: z.string().optional(),
        fallbackModels: z.array(z.string().regex(/^[a-z-]+:.+/, 'each must be provider:model')).optional(),
        temperature: z.number().min(0).max(2).optional(),
        maxOutputTokens: z.number().int().min(1).max(1_000_000).optional(),
        maxToolSteps: z.number().int().min(1).max(50).optional(),
        approval: z.enum(['always', 'never']).optional(),
        whileBusy: z.enum(WHILE_BUSY).optional(),
        budget: z
          .object({ tokens: z.number().int().min(1).optional(), costUsd: z.number().positive().optional() })
          .strict()
          .refine((b) => b.tokens !== undefined || b.costUsd !== undefined, 'give tokens, costUsd or both')
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict() satisfies z.ZodType<Goal>;

export function goalProblems(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'goal'}: ${i.message}`).join('; ');
}
