// Settings, agents and goals reach the workflow through activities, so a replay sees the values the original
// run saw, and a later worker can serve changed goals without touching running histories.
import { ApplicationFailure } from '@temporalio/activity';
import type { GoalRegistry } from '../goals/registry';
import { selectTools, versionOf, type McpDiscovery } from '../mcp/catalog';
import type { ToolRegistry } from '../tools/registry';
import { ASK_AGENT, askAgentSpec, BUILTIN_TOOLS, CHANGE_GOAL, COMPLETE_GOAL, LIST_AGENTS } from '../workflows/builtin-tools';
import { FailureTypes, type GoalActivities } from '../workflows/activity-types';
import type { Goal, ResolvedGoal, Settings, ToolSpec } from '../workflows/types';

export interface GoalDeps {
  settings: Settings;
  goals: GoalRegistry;
  tools: ToolRegistry;
  /** MCP discovery; absent, goals see native tools only. */
  discovery?: McpDiscovery;
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

export function createGoalActivities({ settings, goals, tools, discovery }: GoalDeps): GoalActivities {
  return {
    async loadSettings() {
      return { ...settings, goalCategories: [...settings.goalCategories] };
    },

    async listAgents() {
      return goals.agents(settings.goalCategories);
    },

    async describeAgents() {
      const ids = goals.ids();
      return { agents: goals.agents(settings.goalCategories), goalIds: ids, sources: Object.fromEntries(ids.map((id) => [id, goals.source(id)])), problems: goals.problems() };
    },

    async resolveGoal(goalId: string): Promise<ResolvedGoal> {
      const goal = goals.resolve(goalId);
      // Every agent can close its work (the picker's closing ends the conversation).
      const names = [...goal.tools, COMPLETE_GOAL];
      // In multi-goal mode every agent can list the others and hand over directly when the user already said
      // what they want ("I want to book a flight" in the finance agent), without a detour through the picker.
      if (settings.multiGoal) names.push(LIST_AGENTS, CHANGE_GOAL);
      // A goal with delegates can hand tasks to them; the tool's schema lists who they are now.
      if (goal.delegates) names.push(ASK_AGENT);
      const specs = [...new Set(names)].map((name): ToolSpec => {
        const spec = name === ASK_AGENT ? askAgentSpec(goals.delegatesOf(goal)) : (BUILTIN_TOOLS[name] ?? tools.spec(name));
        if (!spec) throw ApplicationFailure.nonRetryable(`Goal "${goalId}" lists the unknown tool "${name}".`, FailureTypes.Misconfigured);
        return spec;
      });
      // MCP tools are discovered now, so a server added to the registry is usable from the next turn on.
      const catalog = discovery && goal.mcp ? await discovery.catalog() : null;
      const mcpTools = catalog ? selectTools(catalog, goal.mcp) : [];
      const resolved = goals.source(goalId) === 'code' ? { goal, tools: [...specs, ...mcpTools] } : fileApprovalLimit(goal, [...specs, ...mcpTools]);
      return {
        ...resolved,
        catalog: {
          version: versionOf(mcpTools),
          endpoints: catalog?.endpoints ?? [],
          registryError: catalog?.registryError ?? null,
        },
      };
    },
  };
}
