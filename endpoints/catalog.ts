// Discovery: lists the tools of every enabled endpoint in parallel (per-endpoint timeout, pagination) and builds
// a catalog snapshot with a version hash. One failing endpoint is marked unavailable; the others still serve, and no
// turn waits on it again: it is retried in the background with backoff, and rejoins the catalog when it answers.
// Cheap when nothing changed: one stat of the registry file, and the cached catalog. The registry's HTTP APIs
// (`httpApis`, apis/) join the same catalog: their operations are tools beside the MCP servers' (one name space, one
// selector, one version), loaded by the ApiCatalog, which keeps a broken document's last good one.
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogSummary, EndpointStatus, McpSelection, ToolSpec } from '../core/types';
import { normaliseCategory, globMatch } from '../core/naming';
import { mcpToolSpec } from './mcp/mcp-tool-spec';
import { apiToolSpec, type ApiCall, type ApiCatalog, type ListedApi } from './http/api-catalog';
import type { ApiEntry } from './http/api-entry';
import type { McpPool } from './mcp/pool';
import type { OAuthAccess } from './mcp/oauth/oauth-access';
import { NeedsConnecting } from './mcp/oauth/provider';
import {
  isStdio,
  oauthOf,
  resolveEndpoint,
  type EndpointEntry,
  type RegistryFile,
  type ResolvedEndpoint,
} from './endpoint-registry';

export interface McpCatalog extends CatalogSummary {
  tools: ToolSpec[];
  /** Full MCP tool definitions by LLM name, for argument validation and calls. */
  definitions: Map<string, { endpoint: ResolvedEndpoint; tool: Tool }>;
  /** HTTP API operations by LLM name, with what calling them takes (apis/). */
  operations: Map<string, ApiCall>;
  /** Each MCP endpoint that answered, resolved: what reading its resources and prompts connects to. */
  resolved?: Map<string, ResolvedEndpoint>;
}

export interface DiscoveryOptions {
  registry: RegistryFile;
  pool: McpPool;
  env?: NodeJS.ProcessEnv;
  /** Per endpoint, for connecting and listing. */
  discoveryTimeoutMs?: number;
  /** Re-list after this long even without a change notification (servers that never send one). */
  ttlMs?: number;
  /** First background retry of an unavailable endpoint; doubles on each failure, up to five minutes. */
  retryUnavailableMs?: number;
  /** Told the secret values an endpoint's `${env:…}` references resolved to, so the worker can scrub them anywhere. */
  onSecrets?: (values: string[]) => void;
  /** Told each endpoint's status after every discovery (the worker's health metrics). */
  onDiscovered?: (endpoints: EndpointStatus[]) => void;
  /** Loads the registry's HTTP APIs (`httpApis`); absent, they are listed as unavailable. */
  apis?: ApiCatalog;
  /** OAuth endpoints (endpoints/mcp/oauth/): discovery lists their tools with one connected owner's grant. */
  oauth?: OAuthAccess;
}

/** An endpoint that failed: its failure stands in for it until a background retry succeeds. */
interface KnownBad {
  entryHash: string;
  status: EndpointStatus;
  failures: number;
  retryAt: number;
}

const MAX_RETRY_MS = 5 * 60_000;

export class McpDiscovery {
  private cached: { catalog: McpCatalog; registryHash: string; at: number; oauthStamp: string } | null = null;
  private inFlight: Promise<McpCatalog> | null = null;
  private invalidated = false;
  private readonly bad = new Map<string, KnownBad>();
  /** An OAuth endpoint's tools as last listed: still offered when nobody is connected any more, so a call says how
   * to connect rather than the tools vanishing. */
  private readonly lastListed = new Map<string, { entryHash: string; endpoint: ResolvedEndpoint; tools: Tool[] }>();

  constructor(private readonly opts: DiscoveryOptions) {}

  /** Marks the catalog stale: the next call re-lists (tools/list_changed from any server). */
  invalidate(): void {
    this.invalidated = true;
  }

  /** The last catalog, if any, without waiting: none yet starts a discovery in the background for next time. */
  peek(): McpCatalog | null {
    if (!this.cached) void this.catalog().catch(() => undefined);
    return this.cached?.catalog ?? null;
  }

  /** The last catalog without any discovery (a call needs the definitions a turn already saw), else a fresh one. */
  async current(): Promise<McpCatalog> {
    return this.cached?.catalog ?? this.catalog();
  }

  async catalog(): Promise<McpCatalog> {
    const { registry, error } = this.opts.registry.read();
    this.retryDue(registry.endpoints);
    const c = this.cached;
    const age = c ? Date.now() - c.at : Infinity;
    // An owner connecting (or a grant refused) changes the stamp: OAuth endpoints are listed again with it.
    const oauthStamp = this.opts.oauth?.stamp() ?? '';
    const fresh =
      c &&
      !this.invalidated &&
      c.registryHash === registry.hash &&
      c.oauthStamp === oauthStamp &&
      age < (this.opts.ttlMs ?? 60_000);
    if (fresh) return { ...c.catalog, registryError: error };
    // Concurrent turns share one discovery.
    this.inFlight ??= this.discover(registry.endpoints, registry.apis, registry.hash, error, oauthStamp).finally(
      () => (this.inFlight = null),
    );
    return this.inFlight;
  }

  private async discover(
    endpoints: Record<string, EndpointEntry>,
    apis: Record<string, ApiEntry>,
    registryHash: string,
    registryError: string | null,
    oauthStamp: string,
  ): Promise<McpCatalog> {
    this.invalidated = false;
    const started = Date.now();
    const names = Object.keys(endpoints).sort();
    const apiNames = Object.keys(apis).sort();
    const [listed, apiListed] = await Promise.all([
      Promise.all(
        names.map((name) => this.knownBad(name, endpoints[name]!) ?? this.listAndRemember(name, endpoints[name]!)),
      ),
      Promise.all(apiNames.map((name) => this.listApi(name, apis[name]!))),
    ]);
    // Named in a fixed order (servers, then APIs, each by name), so a collision's suffix is the same every time.
    const taken = new Set<string>();
    const tools: ToolSpec[] = [];
    const definitions: McpCatalog['definitions'] = new Map();
    const resolved: McpCatalog['resolved'] = new Map();
    for (const { status, endpoint, tools: found } of listed) {
      if (endpoint && status.status === 'ok') resolved.set(status.name, endpoint);
      for (const tool of found) {
        const spec = mcpToolSpec(status.name, endpoints[status.name]!, tool, taken);
        tools.push(spec);
        definitions.set(spec.name, { endpoint: endpoint!, tool });
      }
    }
    const operations: McpCatalog['operations'] = new Map();
    for (const { status, calls } of apiListed) {
      for (const call of calls) {
        const spec = apiToolSpec(status.name, apis[status.name]!, call.operation, taken);
        tools.push(spec);
        operations.set(spec.name, call);
      }
    }
    const endpointStatuses = [...listed, ...apiListed].map((l) => l.status);
    const catalog: McpCatalog = {
      version: versionOf(tools, endpointStatuses),
      endpoints: endpointStatuses,
      registryError,
      tools,
      definitions,
      operations,
      resolved,
    };
    this.cached = { catalog, registryHash, at: started, oauthStamp };
    this.opts.onDiscovered?.(endpointStatuses);
    return catalog;
  }

  private async listApi(name: string, entry: ApiEntry): Promise<ListedApi> {
    if (this.opts.apis) return this.opts.apis.list(name, entry);
    const status: EndpointStatus = {
      ...{ name, toolCount: 0, categories: entry.categories, transport: 'openapi' },
      status: 'unavailable',
      error: 'this worker does not load HTTP APIs',
    };
    return { status, calls: [] };
  }

  /** The standing failure of an endpoint known bad with this same definition: never waited on. */
  private knownBad(
    name: string,
    entry: EndpointEntry,
  ): { status: EndpointStatus; endpoint?: ResolvedEndpoint; tools: Tool[] } | undefined {
    const known = this.bad.get(name);
    return known && known.entryHash === hashOf(entry) ? { status: known.status, tools: [] } : undefined;
  }

  private async listAndRemember(name: string, entry: EndpointEntry) {
    const listed = await this.listEndpoint(name, entry);
    const known = this.bad.get(name);
    if (listed.status.status !== 'unavailable') this.bad.delete(name);
    else {
      const failures = (known?.entryHash === hashOf(entry) ? known.failures : 0) + 1;
      const delay = Math.min((this.opts.retryUnavailableMs ?? 5_000) * 2 ** (failures - 1), MAX_RETRY_MS);
      this.bad.set(name, { entryHash: hashOf(entry), status: listed.status, failures, retryAt: Date.now() + delay });
    }
    return listed;
  }

  /** Starts a background retry of each known-bad endpoint whose time has come; one that answers rejoins. */
  private retryDue(endpoints: Record<string, EndpointEntry>): void {
    for (const [name, known] of this.bad) {
      const entry = endpoints[name];
      if (!entry || known.entryHash !== hashOf(entry)) {
        this.bad.delete(name); // gone or changed: the next discovery lists it afresh
        continue;
      }
      if (Date.now() < known.retryAt) continue;
      known.retryAt = Infinity; // one retry at a time
      void this.listAndRemember(name, entry).then((listed) => {
        if (listed.status.status !== 'unavailable') this.invalidate();
      });
    }
  }

  private async listEndpoint(
    name: string,
    entry: EndpointEntry,
  ): Promise<{ status: EndpointStatus; endpoint?: ResolvedEndpoint; tools: Tool[] }> {
    const status: EndpointStatus = {
      name,
      status: 'ok',
      toolCount: 0,
      transport: isStdio(entry) ? 'stdio' : entry.type === 'sse' ? 'sse' : 'http',
      categories: entry.categories,
      description: entry.description,
      ...(oauthOf(entry) ? { auth: 'oauth' as const } : {}),
    };
    if (!entry.enabled) return { status: { ...status, status: 'disabled' }, tools: [] };
    let endpoint: ResolvedEndpoint | undefined;
    let owner: string | undefined;
    try {
      endpoint = resolveEndpoint(name, entry, this.opts.env ?? process.env);
      this.opts.onSecrets?.(endpoint.secrets);
      if (oauthOf(entry)) {
        const who = this.opts.oauth?.discoveryOwner(name) ?? { why: 'this worker does not keep OAuth tokens' };
        if ('why' in who) return this.notConnected(name, entry, status, endpoint, who.why);
        owner = who.owner;
      }
      const timeoutMs = Math.min(entry.timeoutMs, this.opts.discoveryTimeoutMs ?? 15_000);
      const tools = await withTimeout(
        this.listAll(endpoint, timeoutMs, owner),
        timeoutMs,
        `listing tools took over ${timeoutMs} ms`,
      );
      const selected = tools.filter(
        (t) =>
          entry.includeTools.some((g) => globMatch(g, t.name)) && !entry.excludeTools.some((g) => globMatch(g, t.name)),
      );
      if (owner) this.lastListed.set(name, { entryHash: hashOf(entry), endpoint, tools: selected });
      return { status: { ...status, toolCount: selected.length }, endpoint, tools: selected };
    } catch (err) {
      // The grant discovery borrowed was refused meanwhile (it is gone now): the endpoint needs connecting.
      if (err instanceof NeedsConnecting && endpoint)
        return this.notConnected(name, entry, status, endpoint, err.message);
      // A hung or broken session must not serve the next call either.
      await this.opts.pool.drop(name);
      const message = (err as Error).message;
      return { status: { ...status, status: 'unavailable', error: message }, endpoint, tools: [] };
    }
  }

  /** An OAuth endpoint no owner can list with: its last listed tools, if any, each call of which says to connect. */
  private notConnected(
    name: string,
    entry: EndpointEntry,
    status: EndpointStatus,
    endpoint: ResolvedEndpoint,
    why: string,
  ): { status: EndpointStatus; endpoint?: ResolvedEndpoint; tools: Tool[] } {
    const last = this.lastListed.get(name);
    const tools = last?.entryHash === hashOf(entry) ? last.tools : [];
    const needs = { ...status, status: 'needs_connecting' as const, toolCount: tools.length, error: why };
    return { status: needs, endpoint: last?.endpoint ?? endpoint, tools };
  }

  private async listAll(endpoint: ResolvedEndpoint, timeoutMs: number, owner?: string): Promise<Tool[]> {
    const { client, release } = await this.opts.pool.acquire(endpoint, timeoutMs, undefined, owner);
    try {
      const tools: Tool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 100; page++) {
        const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
        tools.push(...result.tools);
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      return tools;
    } finally {
      release();
    }
  }
}

/** The catalog's tools a goal selects: by endpoint name (or `*`), endpoint category, or `<server>/<tool>` glob. */
export function selectTools(catalog: McpCatalog, selection: McpSelection | undefined): ToolSpec[] {
  if (!selection) return [];
  const categories = new Set((selection.categories ?? []).map(normaliseCategory));
  const byServer = new Map(catalog.endpoints.map((e) => [e.name, e]));
  return catalog.tools.filter((t) => {
    // An MCP server's tool or an HTTP API's operation: one selector for both kinds of endpoint.
    const server = t.mcp?.server ?? t.http!.api;
    const tool = t.mcp?.tool ?? t.http!.operation;
    const endpoint = byServer.get(server);
    return (
      (selection.servers ?? []).some((g) => globMatch(g, server)) ||
      (endpoint?.categories ?? []).some((c) => categories.has(normaliseCategory(c))) ||
      (selection.tools ?? []).some((g) => globMatch(g, `${server}/${tool}`))
    );
  });
}

/** Hash of what an LLM sees of these tools: changes exactly when tools appear, vanish or change. */
export function versionOf(tools: ToolSpec[], endpoints: EndpointStatus[] = []): string {
  const shape = tools.map((t) => [t.name, t.description, t.inputSchema, t.approval]);
  const up = endpoints.map((e) => [e.name, e.status]);
  return createHash('sha256')
    .update(JSON.stringify([shape, up]))
    .digest('hex')
    .slice(0, 12);
}

function hashOf(entry: EndpointEntry): string {
  return createHash('sha256').update(JSON.stringify(entry)).digest('hex').slice(0, 16);
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
