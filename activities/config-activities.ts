// Settings, agents and goals reach the workflow through activities, so a replay sees the values the original
// run saw, and a later worker can serve changed goals without touching running histories.
import { ApplicationFailure } from '@temporalio/activity';
import type { GoalRegistry } from '../goals/registry';
import type { ToolRegistry } from '../tools/registry';
import { BUILTIN_TOOLS, COMPLETE_GOAL, LIST_AGENTS } from '../workflows/builtin-tools';
import { FailureTypes, type ConfigActivities } from '../workflows/activity-types';
import type { ResolvedGoal, Settings, ToolSpec } from '../workflows/types';

export interface ConfigDeps {
  settings: Settings;
  goals: GoalRegistry;
  tools: ToolRegistry;
}

export function createConfigActivities({ settings, goals, tools }: ConfigDeps): ConfigActivities {
  return {
    async loadSettings() {
      return { ...settings, goalCategories: [...settings.goalCategories] };
    },

    async listAgents() {
      return goals.agents(settings.goalCategories);
    },

    async resolveGoal(goalId: string): Promise<ResolvedGoal> {
      const goal = goals.get(goalId);
      if (!goal) {
        throw ApplicationFailure.nonRetryable(
          `Unknown goal "${goalId}". Known goals: ${goals.ids().join(', ')}.`,
          FailureTypes.UnknownGoal,
        );
      }
      // Every agent can close its work (the picker's closing ends the conversation); in multi-goal mode every
      // agent can also list the others.
      const names = [...goal.tools, COMPLETE_GOAL];
      if (settings.multiGoal) names.push(LIST_AGENTS);
      const specs = [...new Set(names)].map((name): ToolSpec => {
        const spec = BUILTIN_TOOLS[name] ?? tools.spec(name);
        if (!spec) throw ApplicationFailure.nonRetryable(`Goal "${goalId}" lists the unknown tool "${name}".`, FailureTypes.Misconfigured);
        return spec;
      });
      return { goal, tools: specs };
    },
  };
}
