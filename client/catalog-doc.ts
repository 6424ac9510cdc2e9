// The catalog as a document (`agent tools --markdown`, GET /api/catalog.md): every agent with its description and
// tools, every tool with its arguments (from its schema), source and approval policy, every endpoint with its status.
// Generated from what the worker serves now, so it cannot drift from the code, the goals folder or the registry.
import type { AgentsDescription } from '../core/activity-types';
import { ASK_AGENT } from '../core/builtin-specs';
import type { CatalogSummary, JsonSchema, ToolSpec } from '../core/types';
import type { AgentClient } from './agent-client';

export interface CatalogSnapshot {
  agents: AgentsDescription;
  /** Each agent's tools, by goal id, as a conversation with it would get them. */
  toolsByGoal: Record<string, ToolSpec[]>;
  /** Every MCP tool of the registry (selected by a goal or not). */
  mcpTools: ToolSpec[];
  catalog: CatalogSummary;
}

/** Questions to the worker's describe workflow at once: Temporal refuses more than 10 updates in flight on one
 * workflow (every client's together), and a refused one is retried after a pause, so a burst of 20 took seconds. */
const PARALLEL_QUESTIONS = 3;

/** Asks the worker, as `agent agents` and `agent tools` do: one question for the agents, one per agent for its tools. */
export async function catalogSnapshot(client: AgentClient): Promise<CatalogSnapshot> {
  const agents = await client.agents();
  const all = client.catalog();
  const perGoal: Awaited<ReturnType<AgentClient['catalog']>>[] = [];
  let next = 0;
  const ask = async () => {
    for (let i = next++; i < agents.agents.length; i = next++)
      perGoal[i] = await client.catalog(agents.agents[i]!.goalId);
  };
  await Promise.all(Array.from({ length: PARALLEL_QUESTIONS - 1 }, ask));
  const { tools, catalog } = await all;
  return {
    agents,
    toolsByGoal: Object.fromEntries(agents.agents.map((a, i) => [a.goalId, perGoal[i]!.tools])),
    mcpTools: tools,
    catalog,
  };
}

export function catalogMarkdown(snapshot: CatalogSnapshot, about: { taskQueue: string; generatedAt: Date }): string {
  const { agents, toolsByGoal, mcpTools, catalog } = snapshot;
  const tools = new Map<string, ToolSpec>();
  for (const t of [...Object.values(toolsByGoal).flat(), ...mcpTools]) if (!tools.has(t.name)) tools.set(t.name, t);
  const usedBy = (name: string) =>
    agents.agents.filter((a) => toolsByGoal[a.goalId]?.some((t) => t.name === name)).map((a) => `\`${a.goalId}\``);
  const lines = [
    '# Agent catalog',
    '',
    `Generated ${about.generatedAt.toISOString()} from the live catalog of task queue \`${about.taskQueue}\` ` +
      `(\`agent tools --markdown\`): ${agents.agents.length} agents, ${tools.size} tools, ${catalog.endpoints.length} MCP endpoints.`,
    '',
    '## Agents',
  ];
  for (const a of agents.agents) {
    const source = agents.sources[a.goalId];
    lines.push(
      '',
      `### ${a.agentName} (\`${a.goalId}\`)`,
      '',
      a.description,
      '',
      `- category: ${a.category}${source && source !== 'code' ? `; defined in \`${source}\`` : ''}`,
      `- tools: ${(toolsByGoal[a.goalId] ?? []).map((t) => `\`${t.name}\``).join(', ') || '(none)'}`,
    );
    // Each agent's AskAgent lists its own delegates (the tool section below shows one agent's schema).
    const delegates = delegatesOf(toolsByGoal[a.goalId] ?? []);
    if (delegates.length) lines.push(`- delegates (AskAgent): ${delegates.map((d) => `\`${d}\``).join(', ')}`);
  }
  if (agents.problems.length) lines.push('', 'Goal files left out:', '', ...agents.problems.map((p) => `- ${p}`));
  lines.push('', '## Tools');
  for (const t of [...tools.values()].sort((x, y) => x.name.localeCompare(y.name))) {
    const users = usedBy(t.name);
    lines.push(
      '',
      `### \`${t.name}\``,
      '',
      t.description,
      '',
      `- source: ${sourceOf(t)}`,
      `- approval: ${approvalOf(t)}`,
      `- used by: ${users.join(', ') || '(no agent)'}`,
      '',
      ...argumentTable(t.inputSchema),
    );
  }
  lines.push('', '## MCP endpoints', '');
  if (catalog.endpoints.length === 0) lines.push('(none in the registry)');
  else {
    lines.push(
      '| endpoint | status | transport | tools | categories | error |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const e of catalog.endpoints) {
      lines.push(
        `| \`${e.name}\` | ${e.status} | ${e.transport} | ${e.toolCount} | ${e.categories.join(', ')} | ${cell(e.error ?? '')} |`,
      );
    }
  }
  if (catalog.registryError) lines.push('', `Registry error: ${catalog.registryError}`);
  return `${lines.join('\n')}\n`;
}

/** The goal ids a goal's AskAgent may delegate to: the enum of its `goalId` argument. */
export function delegatesOf(tools: ToolSpec[]): string[] {
  const delegateArg = (
    tools.find((t) => t.name === ASK_AGENT)?.inputSchema.properties as Record<string, JsonSchema> | undefined
  )?.goalId;
  return Array.isArray(delegateArg?.enum) ? delegateArg.enum.map(String) : [];
}

function sourceOf(t: ToolSpec): string {
  if (t.mcp)
    return `MCP server \`${t.mcp.server}\`, tool \`${t.mcp.tool}\`${t.mcp.idempotent ? '' : ' (not idempotent: never re-sent once it may have run)'}`;
  if (t.http)
    return `HTTP API \`${t.http.api}\`, operation \`${t.http.operation}\` (${t.http.method})${t.http.idempotent ? '' : ' (a write: never re-sent once it may have run)'}`;
  if (t.made) return `made tool, version ${t.made.version} (a pure function run in the sandbox)`;
  if (t.kind === 'builtin') return 'builtin (the workflow handles it)';
  return `native${t.taskQueue ? ` (runs on task queue \`${t.taskQueue}\`)` : ''}`;
}

function approvalOf(t: ToolSpec): string {
  const policy = t.approval === 'default' ? 'default (asks when SHOW_CONFIRM is on)' : t.approval;
  return `${policy}${t.readOnly ? '; read-only' : ''}`;
}

/** The arguments, from the tool's JSON Schema: name, type, whether required, description. */
function argumentTable(schema: JsonSchema): string[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys(properties);
  if (names.length === 0) return ['No arguments.'];
  return [
    '| argument | type | required | description |',
    '| --- | --- | --- | --- |',
    ...names.map((n) => {
      const p = properties[n]!;
      const type = Array.isArray(p.enum)
        ? `one of ${p.enum.map((v) => `\`${String(v)}\``).join(', ')}`
        : String(p.type ?? 'any');
      return `| \`${n}\` | ${cell(type)} | ${required.has(n) ? 'yes' : 'no'} | ${cell(String(p.description ?? ''))} |`;
    }),
  ];
}

/** Text safe inside a table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}
