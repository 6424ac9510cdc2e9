// Goals are data files in goals/catalog/; the registry is derived from them and checked at start-up.
import path from 'node:path';
import { loadModules } from '../tools/registry';
import { isBuiltinTool } from '../workflows/builtin-tools';
import type { AgentSummary, Goal } from '../workflows/types';

export const GOALS_DIR = path.join(__dirname, 'catalog');
export const PICKER_GOAL_ID = 'goal_choose_agent';

export class GoalRegistry {
  private readonly byId = new Map<string, Goal>();

  constructor(goals: Goal[]) {
    for (const goal of goals) {
      if (this.byId.has(goal.id)) throw new Error(`Two goals have the id "${goal.id}".`);
      this.byId.set(goal.id, goal);
    }
  }

  get(id: string): Goal | undefined {
    return this.byId.get(id);
  }

  all(): Goal[] {
    return [...this.byId.values()];
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** The agents a user can switch to: every goal but the picker, filtered by category when asked. */
  agents(categories: string[] = []): AgentSummary[] {
    const wanted = new Set(categories.map(normaliseCategory).filter(Boolean));
    return this.all()
      .filter((g) => g.id !== PICKER_GOAL_ID)
      .filter((g) => wanted.size === 0 || wanted.has(normaliseCategory(g.category)))
      .map((g) => ({ goalId: g.id, agentName: g.agentName, description: g.agentFriendlyDescription, category: g.category }));
  }

  /** Throws, naming the goal and the tool, when a goal lists a tool that does not exist. */
  checkTools(toolExists: (name: string) => boolean): void {
    const problems = this.all().flatMap((goal) =>
      goal.tools
        .filter((tool) => !isBuiltinTool(tool) && !toolExists(tool))
        .map((tool) => `goal "${goal.id}" lists the unknown tool "${tool}"`),
    );
    if (problems.length > 0) throw new Error(`Goal catalogue is inconsistent: ${problems.join('; ')}.`);
  }
}

export function normaliseCategory(category: string): string {
  return category.trim().toLowerCase().replace(/\s+/g, '-');
}

function isGoal(value: unknown): value is Goal {
  const g = value as Goal | undefined;
  return !!g && typeof g.id === 'string' && Array.isArray(g.tools) && typeof g.description === 'string';
}

export function loadGoals(dir = GOALS_DIR): GoalRegistry {
  return new GoalRegistry(loadModules(dir).filter(isGoal));
}
