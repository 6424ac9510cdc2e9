// The one place a goal becomes what a conversation runs with: the goal, the specs of its tools (its own, the
// builtins its mode adds, the MCP tools it selects) and the catalog they came from. The workflow asks through the
// resolveGoal activity, so a replay sees the tools the original run saw and a later turn sees a changed registry.
import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../core/activity-types';
import {
  ASK_AGENT,
  askAgentSpec,
  BUILTIN_TOOLS,
  CHANGE_GOAL,
  COMPLETE_GOAL,
  LIST_AGENTS,
  remoteAgentOf,
} from '../core/builtin-specs';
import { remoteGoal } from './remote-goal';
import { CREATE_AGENT, createAgentSpec } from '../core/create-agent';
import { CREATE_TOOL } from '../core/create-tool';
import type { AgentSummary, Goal, ResolvedGoal, Settings, ToolSpec } from '../core/types';
import { selectTools, versionOf, type McpDiscovery } from '../endpoints/catalog';
import type { ToolRegistry } from '../tools/tool-registry';
import { delegateMatches, type GoalRegistry } from './goal-registry';
import type { RemoteAgents } from '../endpoints/a2a/remote-agents';
import { memorySpecs } from '../core/remember';

export interface ResolveGoalDeps {
  settings: Pick<Settings, 'multiGoal' | 'memory'>;
  goals: GoalRegistry;
  tools: ToolRegistry;
  /** MCP discovery; absent, goals see native tools only. */
  discovery?: McpDiscovery;
  /** The registry's remote A2A agents: delegates like our own agents. */
  remote?: RemoteAgents;
}

/**
 * The goal with this id and every tool it may call. Fails with the non-retryable `UnknownGoal` for an id no goal has,
 * and `Misconfigured` for a goal naming a tool nobody defines (a code goal cannot: the worker checks at start-up).
 */
export async function resolveGoal(goalId: string, deps: ResolveGoalDeps): Promise<ResolvedGoal> {
  const { goals, discovery } = deps;
  const goal = remoteAgentOf(goalId) === undefined ? goals.resolve(goalId) : await remoteGoalOf(goalId, deps);
  // Remote agents are offered as delegates from the registry as it is now: one added there is asked on the next turn.
  const remote =
    goal.delegates && deps.remote ? (await deps.remote.summaries()).filter((a) => delegateMatches(goal, a)) : [];
  const specs = toolSpecs(goal, deps, remote);
  // MCP tools are discovered now, so a server added to the registry is usable from the next turn on.
  const catalog = discovery && goal.mcp ? await discovery.catalog() : null;
  const mcpTools = catalog ? selectTools(catalog, goal.mcp) : [];
  // A remote agent's relay goal is ours, as code is: no goal file's limits apply.
  const resolved =
    remoteAgentOf(goalId) !== undefined || goals.source(goalId) === 'code'
      ? { goal, tools: [...specs, ...mcpTools] }
      : fileApprovalLimit(goal, [...specs, ...mcpTools]);
  return {
    ...resolved,
    catalog: {
      // Remote agents count as tools here: one added to (or gone from) the registry is news for the next turn.
      version: versionOf(remote.length ? [...mcpTools, askAgentSpec(remote)] : mcpTools),
      endpoints: catalog?.endpoints ?? [],
      registryError: catalog?.registryError ?? null,
    },
  };
}

/** The relay goal of a remote A2A agent in the registry (`a2a:<name>`); UnknownGoal when the registry has none. */
async function remoteGoalOf(goalId: string, deps: ResolveGoalDeps): Promise<Goal> {
  const agent = (await deps.remote?.summaries())?.find((a) => a.goalId === goalId);
  if (!agent)
    throw ApplicationFailure.nonRetryable(
      `No remote A2A agent ${goalId} in the registry (a2aAgents).`,
      FailureTypes.UnknownGoal,
    );
  return remoteGoal(agent);
}

/** The goal's own tools and the builtins its mode adds, once each, in that order. */
function toolSpecs(
  goal: Goal,
  { settings, goals, tools, discovery }: ResolveGoalDeps,
  remote: AgentSummary[],
): ToolSpec[] {
  // Every agent can close its work (the picker's closing ends the conversation).
  const names = [...goal.tools, COMPLETE_GOAL];
  // In multi-goal mode every agent can list the others and hand over directly when the user already said
  // what they want ("I want to book a flight" in the finance agent), without a detour through the picker.
  if (settings.multiGoal) names.push(LIST_AGENTS, CHANGE_GOAL);
  // A goal with delegates can hand tasks to them; the tool's schema lists who they are now.
  if (goal.delegates) names.push(ASK_AGENT);
  // Where agents are made, tools can be made too: a new agent may need a computation no tool has.
  if (names.includes(CREATE_AGENT)) names.push(CREATE_TOOL);
  const builder = names.includes(CREATE_AGENT) ? createAgentSpec(buildingBlocks(goals, tools, discovery)) : null;
  // Remember and Forget, as the goal's `memory.write` has them asked (or not offered), where the worker keeps memories.
  const memory = settings.memory ? memorySpecs(goal.memory) : [];
  const specs = [...new Set(names)].map((name): ToolSpec => {
    const spec =
      name === ASK_AGENT
        ? askAgentSpec([...goals.delegatesOf(goal), ...remote])
        : name === CREATE_AGENT
          ? builder
          : (BUILTIN_TOOLS[name] ?? tools.spec(name));
    if (!spec)
      throw ApplicationFailure.nonRetryable(
        `Goal "${goal.id}" lists the unknown tool "${name}".`,
        FailureTypes.Misconfigured,
      );
    return spec;
  });
  return [...specs, ...memory.filter((m) => !names.includes(m.name))];
}

/**
 * What a new agent can be made of, for CreateAgent's description. The MCP servers as last discovered: a goal without
 * MCP tools (the picker) never waits for a discovery, nor for an endpoint that hangs.
 */
function buildingBlocks(goals: GoalRegistry, tools: ToolRegistry, discovery: McpDiscovery | undefined): string {
  const catalog = discovery?.peek() ?? null;
  const native = tools.names().map((n) => `${n} (${tools.spec(n)!.category})`);
  const made = tools.madeNames();
  const servers = !catalog
    ? ['(being discovered: see agent endpoints)']
    : catalog.endpoints
        .filter((e) => e.status === 'ok')
        .map((e) => `${e.name} [${e.categories.join(', ')}] (${e.toolCount} tools)`);
  const agents = goals.agents().map((a) => `${a.goalId} (${a.category})`);
  return [
    `Native tools: ${native.join(', ')}.`,
    `Made tools (CreateTool; list them in tools like native ones): ${made.join(', ') || 'none yet'}.`,
    `MCP servers: ${servers.join(', ') || 'none'}.`,
    `Agents: ${agents.join(', ')}.`,
  ].join('\n');
}

/**
 * A goal file may tighten approval, never loosen it: its `approval: "never"` lets read-only tools run without asking
 * and leaves every tool that changes state to its own policy and SHOW_CONFIRM. Only code (goals/code/) can do more.
 * The workflow sees the result as data, so nothing in a file's text (a description saying "no approval needed")
 * reaches the decision.
 */
function fileApprovalLimit(goal: Goal, tools: ToolSpec[]): { goal: Goal; tools: ToolSpec[] } {
  if (goal.settings?.approval !== 'never') return { goal, tools };
  const settings = { ...goal.settings };
  delete settings.approval;
  return {
    goal: { ...goal, settings },
    tools: tools.map((t) => (t.readOnly && t.approval === 'default' ? { ...t, approval: 'never' } : t)),
  };
}
