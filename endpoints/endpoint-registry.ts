// The endpoint registry (config/mcp_endpoints.json): the `mcpServers` shape Claude Desktop and Cursor write, plus our
// extension fields, and `httpApis` (HTTP APIs whose operations become tools: apis/). Parsed with zod; errors name the server and the field. Secrets stay `${env:NAME}`
// references until resolveEndpoint() runs, inside the worker, just before connecting.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseApiEntry, type ApiEntry } from './http/api-entry';
import { envResolver } from './env-refs';
import { LiveFile } from './live-file';
import { parseA2aAgentEntry, type A2aAgentEntry } from './a2a/agent-entry';

const approval = z.enum(['always', 'never', 'destructive']);

const common = {
  enabled: z.boolean().default(true),
  description: z.string().optional(),
  categories: z.array(z.string()).default([]),
  includeTools: z.array(z.string()).default(['*']),
  excludeTools: z.array(z.string()).default([]),
  timeoutMs: z.number().int().positive().max(600_000).default(30_000),
  requireApproval: approval.optional(),
  /** When the server asks our model for a completion (sampling): ask the user first (default), allow, or deny. */
  sampling: z.enum(['ask', 'allow', 'deny']).default('ask'),
};

const stdioEntry = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    ...common,
  })
  .strict();

/** OAuth 2.1 for a remote server (endpoints/mcp/oauth/): without `clientId` the client registers itself (dynamic registration);
 * `clientSecret` is best a `${env:…}` reference, resolved in the process that presents it. */
const oauthAuth = z
  .object({
    type: z.literal('oauth'),
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    scopes: z.array(z.string().min(1)).optional(),
  })
  .strict();

const remoteEntry = z
  .object({
    type: z.enum(['http', 'streamable-http', 'sse']).optional(),
    url: z.string().min(1),
    headers: z.record(z.string(), z.string()).default({}),
    auth: oauthAuth.optional(),
    ...common,
  })
  .strict();

export const registrySchema = z
  .object({
    mcpServers: z.record(z.string(), z.unknown()),
    /** HTTP APIs whose operations become tools (endpoints/http/api-entry.ts); names share one space with the MCP servers. */
    httpApis: z.record(z.string(), z.unknown()).optional(),
    /** Remote A2A agents our agents may delegate to (endpoints/a2a/agent-entry.ts); names share the same space. */
    a2aAgents: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export type StdioEntry = z.infer<typeof stdioEntry>;
export type RemoteEntry = z.infer<typeof remoteEntry>;
export type OAuthEntry = z.infer<typeof oauthAuth>;
export type EndpointEntry = StdioEntry | RemoteEntry;

export interface Registry {
  endpoints: Record<string, EndpointEntry>;
  apis: Record<string, ApiEntry>;
  agents: Record<string, A2aAgentEntry>;
  /** Content hash of the file: changes when the registry does. */
  hash: string;
}

export const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

export function isStdio(entry: EndpointEntry): entry is StdioEntry {
  return 'command' in entry;
}

/** The entry's OAuth settings, when it is a remote server that needs OAuth. */
export function oauthOf(entry: EndpointEntry): OAuthEntry | undefined {
  return isStdio(entry) ? undefined : entry.auth;
}

/** Parses registry text; throws one error listing every problem as `server "x": field: message`. */
export function parseRegistry(text: string): Registry {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`not valid JSON: ${(err as Error).message}`);
  }
  const top = registrySchema.safeParse(raw);
  if (!top.success)
    throw new Error(
      `expected { "mcpServers": { … }, "httpApis"?: { … }, "a2aAgents"?: { … } }: ${top.error.issues.map((i) => i.message).join('; ')}`,
    );
  const endpoints: Record<string, EndpointEntry> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(top.data.mcpServers)) {
    if (!SERVER_NAME.test(name)) {
      problems.push(`server "${name}": the name must be letters, digits, - or _ (at most 48)`);
      continue;
    }
    const isRemote = typeof value === 'object' && value !== null && 'url' in value;
    const parsed = (isRemote ? remoteEntry : stdioEntry).safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'entry');
        problems.push(`server "${name}": ${field}: ${issue.message}`);
      }
      continue;
    }
    endpoints[name] = parsed.data;
  }
  const apis: Record<string, ApiEntry> = {};
  for (const [name, value] of Object.entries(top.data.httpApis ?? {})) {
    if (!SERVER_NAME.test(name)) problems.push(`API "${name}": the name must be letters, digits, - or _ (at most 48)`);
    else if (name in endpoints || top.data.mcpServers[name] !== undefined)
      problems.push(`API "${name}": an MCP server has this name; endpoint names are shared`);
    else {
      const parsed = parseApiEntry(value);
      if ('problems' in parsed) problems.push(...parsed.problems.map((p) => `API "${name}": ${p}`));
      else apis[name] = parsed.entry;
    }
  }
  const agents: Record<string, A2aAgentEntry> = {};
  for (const [name, value] of Object.entries(top.data.a2aAgents ?? {})) {
    if (!SERVER_NAME.test(name))
      problems.push(`A2A agent "${name}": the name must be letters, digits, - or _ (at most 48)`);
    else if (top.data.mcpServers[name] !== undefined || top.data.httpApis?.[name] !== undefined)
      problems.push(`A2A agent "${name}": an MCP server or HTTP API has this name; endpoint names are shared`);
    else {
      const parsed = parseA2aAgentEntry(value);
      if ('problems' in parsed) problems.push(...parsed.problems.map((p) => `A2A agent "${name}": ${p}`));
      else agents[name] = parsed.entry;
    }
  }
  if (problems.length > 0) throw new Error(problems.join('; '));
  return { endpoints, apis, agents, hash: createHash('sha256').update(text).digest('hex').slice(0, 16) };
}

/** The registry file, read live (endpoints/live-file.ts): an edit that breaks it keeps the last good registry. */
export class RegistryFile {
  private readonly live: LiveFile<Registry>;

  constructor(readonly file: string) {
    this.live = new LiveFile(
      file,
      parseRegistry,
      { endpoints: {}, apis: {}, agents: {}, hash: 'none' },
      '{"mcpServers": {}}',
    );
  }

  read(): { registry: Registry; error: string | null } {
    const { value, error } = this.live.current();
    return { registry: value, error };
  }
}

// ---- secrets: resolved in the worker, at connection time -------------------------------------------------

export interface ResolvedEndpoint {
  name: string;
  entry: EndpointEntry;
  /** The entry with ${env:…} replaced: never leaves the worker. */
  resolved: EndpointEntry;
  /** Secret values substituted in, to scrub from any error message. */
  secrets: string[];
  /** Identity of the resolved definition: a pooled session is reused only for an identical definition. */
  key: string;
}

export function resolveEndpoint(name: string, entry: EndpointEntry, env: NodeJS.ProcessEnv): ResolvedEndpoint {
  const { sub, subRecord, secrets, check } = envResolver(env);
  const resolved: EndpointEntry = isStdio(entry)
    ? {
        ...entry,
        command: sub(entry.command),
        args: entry.args.map(sub),
        env: subRecord(entry.env),
        cwd: entry.cwd && sub(entry.cwd),
      }
    : {
        ...entry,
        url: sub(entry.url),
        headers: subRecord(entry.headers),
        ...(entry.auth ? { auth: resolveAuth(entry.auth, sub) } : {}),
      };
  check();
  const key = createHash('sha256')
    .update(JSON.stringify([name, resolved]))
    .digest('hex')
    .slice(0, 16);
  return { name, entry, resolved, secrets, key };
}

function resolveAuth(auth: OAuthEntry, sub: (s: string) => string): OAuthEntry {
  return {
    ...auth,
    ...(auth.clientId ? { clientId: sub(auth.clientId) } : {}),
    ...(auth.clientSecret ? { clientSecret: sub(auth.clientSecret) } : {}),
  };
}
