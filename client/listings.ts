// The registry pages' rows: what the worker serves now (agents with their source, provenance, tools and delegates;
// tools by kind; endpoints with their status), each beside its usage read from Temporal (usage-stats.ts). An agent,
// tool or endpoint that ran in the window but is served no more is listed too, marked as gone.
import type {
  AgentRow,
  AgentListing,
  EndpointRow,
  EndpointListing,
  ToolRow,
  ToolRowKind,
  ToolListing,
} from '../core/listings';
import { NO_AGENT_STATS, type EndpointStats, type ToolStats } from '../core/usage-stats';
import { isBuiltinTool } from '../core/builtin-specs';
import type { MadeToolSummary } from '../core/made-tools';
import type { ToolSpec } from '../core/types';
import type { AgentClient } from './agent-client';
import { catalogSnapshot, delegatesOf, type CatalogSnapshot } from './catalog-doc';
import { DEFAULT_MAX_EXECUTIONS, UsageStatsReader } from '../views/usage-stats';
import { UserError } from '../core/user-error';

const NO_CALLS: Omit<ToolStats, 'name'> = {
  calls: 0,
  errors: 0,
  errorRate: 0,
  p50Ms: null,
  p95Ms: null,
  lastUsed: null,
};

export class Listings {
  constructor(
    private readonly client: AgentClient,
    private readonly stats: UsageStatsReader = new UsageStatsReader(client.client, { taskQueue: client.taskQueue }),
  ) {}

  async agents(since?: string): Promise<AgentListing> {
    const [snapshot, files] = await Promise.all([catalogSnapshot(this.client), this.client.goalFiles()]);
    const usage = await this.stats.read({ since, endpointOf: endpointMap(allSpecs(snapshot)) });
    const { agents, sources, goalIds, problems } = snapshot.agents;
    const used = new Map(usage.agents.map((a) => [a.goalId, a]));
    const file = new Map(files.map((f) => [f.goalId, f]));
    const ids = [...new Set([...agents.map((a) => a.goalId), ...goalIds, ...used.keys()])];
    const rows = ids.map((goalId): AgentRow => {
      const offered = agents.find((a) => a.goalId === goalId);
      const stats = used.get(goalId);
      const source = sources[goalId];
      const provenance = file.get(goalId)?.provenance;
      const tools = snapshot.toolsByGoal[goalId] ?? [];
      return {
        ...NO_AGENT_STATS,
        ...stats,
        goalId,
        agentName: offered?.agentName ?? stats?.agentName ?? goalId,
        description: offered?.description ?? '',
        category: offered?.category ?? '',
        source: !source ? 'gone' : source === 'code' ? 'code' : provenance ? 'chat' : 'file',
        ...(source && source !== 'code' ? { file: source } : {}),
        ...(provenance ? { provenance } : {}),
        tools: tools.map((t) => t.name),
        delegates: delegatesOf(tools),
      };
    });
    return { window: usage.window, agents: rows, problems, runsBy: usage.runsBy };
  }

  async tools(since?: string): Promise<ToolListing> {
    const [snapshot, made] = await Promise.all([catalogSnapshot(this.client), madeToolsOrNone(this.client)]);
    const specs = allSpecs(snapshot);
    const usage = await this.stats.read({ since, endpointOf: endpointMap(specs) });
    const http = new Set(
      snapshot.catalog.endpoints
        .filter((e) => e.transport === 'openapi' || e.transport === 'endpoint')
        .map((e) => e.name),
    );
    const current = new Map(made.filter((t) => t.current).map((t) => [t.name, t]));
    const used = new Map(usage.tools.map((t) => [t.name, t]));
    const names = [...new Set([...specs.keys(), ...current.keys(), ...used.keys()])];
    const rows = names.map((name): ToolRow => {
      const spec = specs.get(name);
      const stats = used.get(name);
      const file = current.get(name);
      const endpoint = spec?.mcp?.server ?? spec?.http?.api ?? stats?.endpoint;
      const kind: ToolRowKind =
        spec?.kind ??
        (file || stats?.madeVersion
          ? 'made'
          : endpoint
            ? http.has(endpoint)
              ? 'http'
              : 'mcp'
            : isBuiltinTool(name.split(':')[0]!)
              ? 'builtin'
              : 'unknown');
      const version = file?.version ?? spec?.made?.version;
      return {
        ...NO_CALLS,
        ...stats,
        name,
        kind,
        description: spec?.description ?? file?.description ?? '',
        ...(endpoint ? { endpoint } : {}),
        agents: Object.entries(snapshot.toolsByGoal)
          .filter(([, tools]) => tools.some((t) => t.name === name))
          .map(([goalId]) => goalId),
        ...(version ? { version } : {}),
        ...(file?.provenance ? { provenance: file.provenance } : {}),
      };
    });
    return { window: usage.window, tools: rows.sort((a, b) => a.name.localeCompare(b.name)) };
  }

  /** The made tools' files (every version), each with its name's usage over the window. */
  async madeTools(since?: string): Promise<MadeToolSummary[]> {
    const made = await this.client.madeTools();
    const usage = new Map((await this.stats.read({ since })).tools.map((t) => [t.name, t]));
    return made.map((t) => {
      const { calls, errors, p50Ms, p95Ms, lastUsed } = usage.get(t.name) ?? { ...NO_CALLS };
      return { ...t, usage: { calls, errors, p50Ms, p95Ms, lastUsed } };
    });
  }

  async endpoints(since?: string): Promise<EndpointListing> {
    const { catalog, tools } = await this.client.catalog();
    const usage = await this.stats.read({ since, endpointOf: endpointMap(new Map(tools.map((t) => [t.name, t]))) });
    const used = new Map(usage.endpoints.map((e) => [e.name, e]));
    const none: Omit<EndpointStats, 'name'> = { ...NO_CALLS, hours: [] };
    const rows: EndpointRow[] = catalog.endpoints.map((e) => ({ ...none, ...used.get(e.name), ...e }));
    for (const e of usage.endpoints)
      if (!catalog.endpoints.some((c) => c.name === e.name)) rows.push({ ...e, gone: true });
    return { window: usage.window, endpoints: rows, registryError: catalog.registryError };
  }
}

/** Every tool the worker serves now, by name: each agent's, and every MCP and HTTP API tool. */
function allSpecs(snapshot: CatalogSnapshot): Map<string, ToolSpec> {
  const specs = new Map<string, ToolSpec>();
  for (const t of [...Object.values(snapshot.toolsByGoal).flat(), ...snapshot.mcpTools])
    if (!specs.has(t.name)) specs.set(t.name, t);
  return specs;
}

function endpointMap(specs: Map<string, ToolSpec>): (tool: string) => string | undefined {
  return (tool) => {
    const spec = specs.get(tool);
    return spec?.mcp?.server ?? spec?.http?.api;
  };
}

/** A worker without a tools folder has no made tools: the registry lists the rest. */
async function madeToolsOrNone(client: AgentClient): Promise<MadeToolSummary[]> {
  try {
    return await client.madeTools();
  } catch (err) {
    if (err instanceof UserError) return [];
    throw err;
  }
}

/** The CLI's listings: REGISTRY_MAX_EXECUTIONS from its environment, read once here at the edge. */
export function listingsOf(client: AgentClient, env: NodeJS.ProcessEnv): Listings {
  const cap = Number(env.REGISTRY_MAX_EXECUTIONS || DEFAULT_MAX_EXECUTIONS);
  if (!Number.isInteger(cap) || cap < 1)
    throw new UserError(
      `REGISTRY_MAX_EXECUTIONS must be a whole number of 1 or more, got "${env.REGISTRY_MAX_EXECUTIONS}"`,
    );
  return new Listings(client, new UsageStatsReader(client.client, { maxExecutions: cap, taskQueue: client.taskQueue }));
}
