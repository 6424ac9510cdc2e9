// Settings, agents and goals reach the workflow through activities, so a replay sees the values the original
// run saw, and a later worker can serve changed goals without touching running histories.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { AgentDrafts } from '../goals/agent-drafts';
import { ToolIndexCache } from './tool-search';
import type { GoalRegistry } from '../goals/goal-registry';
import { resolveGoal } from '../goals/resolve';
import type { RemoteAgents } from '../endpoints/a2a/remote-agents';
import { inCategories } from '../goals/remote-goal';
import type { McpDiscovery } from '../endpoints/catalog';
import type { ToolRegistry } from '../tools/tool-registry';
import type { MadeTools } from '../tools/made/made-tools';
import { FailureTypes, type GoalActivities } from '../core/activity-types';
import type { BuiltinRunActivities } from '../core/builtin-runs';
import type { Settings } from '../core/types';

export interface GoalDeps {
  settings: Settings;
  goals: GoalRegistry;
  tools: ToolRegistry;
  /** MCP discovery; absent, goals see native tools only. */
  discovery?: McpDiscovery;
  /** The registry's remote A2A agents (delegates). */
  remote?: RemoteAgents;
  /** Where CreateAgent writes goals (GOALS_DIR); absent, creating agents is refused. */
  goalsFolder?: string;
  /** Made tools (TOOLS_DIR), attached to `tools`: looked at again before goals are resolved or drafts checked. */
  made?: MadeTools;
}

export function createGoalActivities({
  settings,
  goals,
  tools,
  discovery,
  remote,
  goalsFolder,
  made,
}: GoalDeps): GoalActivities & Pick<BuiltinRunActivities, 'searchTools' | 'checkGoalDraft' | 'createGoal'> {
  // A tool made (or dropped in the folder) since the last look is known before a goal or a draft names it.
  const fresh = async () => made?.refresh();
  const drafts = goalsFolder
    ? new AgentDrafts(goals, goalsFolder, (name) => tools.spec(name) !== undefined, discovery)
    : null;
  const noFolder = () =>
    ApplicationFailure.nonRetryable(
      'This worker has no goals folder (GOALS_DIR) to write agents to.',
      FailureTypes.Misconfigured,
    );
  const indexes = new ToolIndexCache();
  /** The registry's remote A2A agents under GOAL_CATEGORIES: agents to switch to, as our own are. */
  const remoteAgents = async () =>
    remote ? (await remote.summaries()).filter((a) => inCategories(a, settings.goalCategories)) : [];

  return {
    /** SearchTools: the best `limit` of `tools` for `query` (a local activity: its answer is recorded, never
     * recomputed). */
    async searchTools({ tools: catalog, query, limit }) {
      return indexes.search(catalog, query, limit);
    },

    // CreateAgent's check before the user sees the draft (why it cannot be a goal; none: it can), and its write once
    // approved (checked again, with its provenance).
    async checkGoalDraft(draft) {
      if (!drafts) throw noFolder();
      await fresh();
      return { problems: (await drafts.check(draft)).problems };
    },

    async createGoal({ draft, request, callId }) {
      if (!drafts) throw noFolder();
      await fresh();
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
      await fresh();
      return [...goals.agents(settings.goalCategories), ...(await remoteAgents())];
    },

    async describeAgents() {
      await fresh();
      const ids = goals.ids();
      // Read once: the registry (and the cards) as they are now, the same in every field below.
      const remoteAll = remote ? await remote.summaries() : [];
      return {
        agents: [
          ...goals.agents(settings.goalCategories),
          ...remoteAll.filter((a) => inCategories(a, settings.goalCategories)),
        ],
        goalIds: [...ids, ...remoteAll.map((a) => a.goalId)],
        sources: Object.fromEntries([
          ...ids.map((id) => [id, goals.source(id)]),
          ...remoteAll.map((a) => [a.goalId, 'a2aAgents']),
        ]),
        problems: goals.problems(),
        ...(remote ? { remote: remoteAll } : {}),
      };
    },

    async resolveGoal(goalId, known) {
      await fresh();
      const resolved = await resolveGoal(goalId, { settings, goals, tools, discovery, remote });
      // Nothing changed since the conversation's last look: no need to record every spec again.
      return known && resolved.catalog?.version === known ? { ...resolved, tools: [], unchanged: true } : resolved;
    },
  };
}
