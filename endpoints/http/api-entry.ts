// An HTTP API in the endpoint registry (`httpApis` beside `mcpServers` in config/mcp_endpoints.json): an OpenAPI 3.x or
// Swagger 2.0 document whose operations become tools, or a single endpoint described in the entry itself. Secrets
// stay `${env:NAME}` references until the worker resolves them, just before a call or a document fetch.
import { z } from 'zod';

/** Who may skip approval: `writes` (the default) asks for every method but GET, HEAD and OPTIONS. */
export const apiApproval = z.enum(['always', 'never', 'writes']);

const auth = z.union([
  z.object({ bearer: z.string().min(1) }).strict(),
  z
    .object({
      apiKey: z.object({ in: z.enum(['header', 'query']), name: z.string().min(1), value: z.string().min(1) }).strict(),
    })
    .strict(),
  z.object({ basic: z.object({ username: z.string(), password: z.string() }).strict() }).strict(),
]);

const common = {
  enabled: z.boolean().default(true),
  description: z.string().optional(),
  categories: z.array(z.string()).default([]),
  /** Per request; a hung API is given up after this long. */
  timeoutMs: z.number().int().positive().max(600_000).default(30_000),
  requireApproval: apiApproval.default('writes'),
  /** The API honours the Idempotency-Key header (Stripe, GitHub's and most payment APIs): a write whose attempt was
   * lost (a 5xx, a timeout, a dead worker) is sent again with the same key, as a read is, and done once. */
  idempotencyKeys: z.boolean().default(false),
  /** Sent with every request (`${env:…}` allowed). */
  headers: z.record(z.string(), z.string()).default({}),
  auth: auth.optional(),
};

export const documentApiEntry = z
  .object({
    /** The OpenAPI (3.x) or Swagger (2.0) document: a path (relative to the project folder) or an http(s) URL. */
    openapi: z.string().min(1),
    /** Where requests go; default: the document's first server. */
    baseUrl: z.string().url().optional(),
    /** Globs over operationId, `METHOD /path` and tags: which operations become tools. */
    includeOperations: z.array(z.string()).default(['*']),
    excludeOperations: z.array(z.string()).default([]),
    ...common,
  })
  .strict();

export const singleApiEntry = z
  .object({
    url: z.string().url(),
    method: z.enum(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
    /** The JSON body's schema (GET: the query parameters'). */
    inputSchema: z.record(z.string(), z.unknown()).default({ type: 'object' }),
    ...common,
    /** What the call does, for the model. */
    description: z.string().min(1),
  })
  .strict();

export type DocumentApiEntry = z.infer<typeof documentApiEntry>;
export type SingleApiEntry = z.infer<typeof singleApiEntry>;
export type ApiEntry = DocumentApiEntry | SingleApiEntry;

export function isDocumentApi(entry: ApiEntry): entry is DocumentApiEntry {
  return 'openapi' in entry;
}

/** Parses one `httpApis` entry; problems come back as `field: message`. */
export function parseApiEntry(value: unknown): { entry: ApiEntry } | { problems: string[] } {
  const schema = typeof value === 'object' && value !== null && 'openapi' in value ? documentApiEntry : singleApiEntry;
  const parsed = schema.safeParse(value);
  if (parsed.success) return { entry: parsed.data };
  return {
    problems: parsed.error.issues.map((issue) => {
      const field = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'entry');
      return `${field}: ${issue.message}`;
    }),
  };
}
