// Settings, agents and goals reach the workflow through activities, so a replay sees the values the original
// run saw, and a later worker can serve changed goals without touching running histories.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { GoalDrafts } from '../goals/goal-drafts';
import { ToolIndexCache } from './tool-search';
import type { GoalRegistry } from '../goals/goal-registry';
import { selectTools, versionOf, type McpDiscovery } from '../mcp/catalog';
import type { ToolRegistry } from '../tools/tool-registry';
import {
  ASK_AGENT,
  askAgentSpec,
  BUILTIN_TOOLS,
  CHANGE_GOAL,
  COMPLETE_GOAL,
  CREATE_AGENT,
  createAgentSpec,
  LIST_AGENTS,
} from '../core/builtin-specs';
import { FailureTypes, type GoalActivities } from '../core/activity-types';
import type { Goal, ResolvedGoal, Settings, ToolSpec } from '../core/types';

export interface GoalDeps {
  settings: Settings;
  goals: GoalRegistry;
  tools: ToolRegistry;
  /** MCP discovery; absent, goals see native tools only. */
  discovery?: McpDiscovery;
  /** Where CreateAgent writes goals (GOALS_DIR); absent, creating agents is refused. */
  goalsFolder?: string;
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

export function createGoalActivities({ settings, goals, tools, discovery, goalsFolder }: GoalDeps): GoalActivities {
  const drafts = goalsFolder
    ? new GoalDrafts(goals, goalsFolder, (name) => tools.spec(name) !== undefined, discovery)
    : null;
  const noFolder = () =>
    ApplicationFailure.nonRetryable(
      'This worker has no goals folder (GOALS_DIR) to write agents to.',
      FailureTypes.Misconfigured,
    );
  const indexes = new ToolIndexCache();
  return {
    async searchTools({ tools: catalog, query, limit }) {
      return indexes.search(catalog, query, limit);
    },

    async checkGoalDraft(draft) {
      if (!drafts) throw noFolder();
      return { problems: (await drafts.check(draft)).problems };
    },

    async createGoal({ draft, request, callId }) {
      if (!drafts) throw noFolder();
      const createdBy = Context.current().info.workflowExecution?.workflowId ?? 'unknown';
      return drafts.create(draft, { createdBy, callId, createdAt: new Date().toISOString(), request });
    },

    async describeGoalFiles() {
      return drafts?.list() ?? [];
    },

    async manageGoal({ action, goalId }) {
      if (!drafts) throw noFolder();
      try {
        return drafts.manage(action, goalId);
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, FailureTypes.UnknownGoal);
      }
    },

    async loadSettings() {
      return { ...settings, goalCategories: [...settings.goalCategories] };
    },

    async listAgents() {
      return goals.agents(settings.goalCategories);
    },

    async describeAgents() {
      const ids = goals.ids();
      return {
        agents: goals.agents(settings.goalCategories),
        goalIds: ids,
        sources: Object.fromEntries(ids.map((id) => [id, goals.source(id)])),
        problems: goals.problems(),
      };
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
      // What a new agent can be made of, for CreateAgent's description. The MCP servers as last discovered: a goal
      // without MCP tools (the picker) never waits for a discovery, nor for an endpoint that hangs.
      const buildable = () => {
        const catalog = discovery?.peek() ?? null;
        const native = tools.names().map((n) => `${n} (${tools.spec(n)!.category})`);
        const servers = !catalog
          ? ['(being discovered: see agent endpoints)']
          : catalog.endpoints
              .filter((e) => e.status === 'ok')
              .map((e) => `${e.name} [${e.categories.join(', ')}] (${e.toolCount} tools)`);
        const agents = goals.agents().map((a) => `${a.goalId} (${a.category})`);
        return [
          `Native tools: ${native.join(', ')}.`,
          `MCP servers: ${servers.join(', ') || 'none'}.`,
          `Agents: ${agents.join(', ')}.`,
        ].join('\n');
      };
      const builder = names.includes(CREATE_AGENT) ? createAgentSpec(buildable()) : null;
      const specs = [...new Set(names)].map((name): ToolSpec => {
        const spec =
          name === ASK_AGENT
            ? askAgentSpec(goals.delegatesOf(goal))
            : name === CREATE_AGENT
              ? builder
              : (BUILTIN_TOOLS[name] ?? tools.spec(name));
        if (!spec)
          throw ApplicationFailure.nonRetryable(
            `Goal "${goalId}" lists the unknown tool "${name}".`,
            FailureTypes.Misconfigured,
          );
        return spec;
      });
      // MCP tools are discovered now, so a server added to the registry is usable from the next turn on.
      const catalog = discovery && goal.mcp ? await discovery.catalog() : null;
      const mcpTools = catalog ? selectTools(catalog, goal.mcp) : [];
      const resolved =
        goals.source(goalId) === 'code'
          ? { goal, tools: [...specs, ...mcpTools] }
          : fileApprovalLimit(goal, [...specs, ...mcpTools]);
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
