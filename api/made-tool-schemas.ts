// The HTTP API's schemas of made tools (core/made-tools.ts: MadeToolSummary), as `agent tools --made` lists them and
// the worker routes manage them; re-exported by schemas.ts with the rest.
import { z } from '@hono/zod-openapi';

const MADE_TOOL_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const ToolProvenance = z
  .object({
    createdBy: z.string().openapi({ description: 'The conversation (workflow id) whose CreateTool call wrote it' }),
    callId: z.string(),
    createdAt: z.string(),
    request: z.string().openapi({ description: "The user's words that asked for it" }),
    model: z.string().optional().openapi({ description: 'The model that drafted it (provider:model)' }),
  })
  .openapi('ToolProvenance');
const MadeToolUsage = z
  .object({
    calls: z.number(),
    errors: z.number(),
    p50Ms: z.number().nullable(),
    p95Ms: z.number().nullable(),
    lastUsed: z.string().nullable(),
  })
  .openapi('MadeToolUsage', {
    description: "Every call of the tool, whatever its version, in the last 30 days (from Temporal's histories)",
  });
export const MadeTool = z
  .object({
    name: z.string(),
    version: z.number(),
    file: z.string().openapi({ description: 'Its file on the worker (TOOLS_DIR)' }),
    disabled: z.boolean(),
    current: z.boolean().openapi({ description: 'The newest working, enabled version: the one goals get' }),
    problems: z.array(z.string()).optional().openapi({ description: 'Why the file is not offered (a broken one)' }),
    description: z.string().optional(),
    code: z.string().optional().openapi({ description: 'The body of function (input) { … }' }),
    examples: z.array(z.object({ input: z.record(z.string(), z.unknown()), output: z.unknown() })).optional(),
    provenance: ToolProvenance.optional(),
    usage: MadeToolUsage.optional(),
  })
  .openapi('MadeTool');
export const MadeToolsQuery = z.object({
  usage: z
    .enum(['true', 'false'])
    .default('false')
    .openapi({ description: "true: each tool with its usage over 30 days, from Temporal's histories" }),
});
export const MadeToolAction = z.object({
  name: z
    .string()
    .regex(MADE_TOOL_NAME)
    .openapi({ param: { name: 'name', in: 'path' }, example: 'extract_urls' }),
  action: z.enum(['disable', 'enable', 'remove']).openapi({ param: { name: 'action', in: 'path' } }),
});
export const MadeToolManaged = z
  .object({
    name: z.string(),
    action: z.enum(['disable', 'enable', 'remove']),
    versions: z.array(MadeTool).openapi({ description: 'The versions left (none after remove)' }),
  })
  .openapi('MadeToolManaged');
