// Goals are data files in goals/catalog/ (checked at start-up), plus JSON goals from a folder that can change while
// the worker runs (checked when read: a bad one is left out and reported, never served).
import path from 'node:path';
import { loadModules } from '../tools/registry';
import { isBuiltinTool } from '../workflows/builtin-tools';
import type { AgentSummary, Goal } from '../workflows/types';
import { GoalFolder } from './goal-folder';

export const GOALS_DIR = path.join(__dirname, 'catalog');
export const PICKER_GOAL_ID = 'goal_choose_agent';

export class GoalRegistry {
  private readonly byId = new Map<string, Goal>();

  constructor(
    goals: Goal[],
    private readonly folder?: GoalFolder,
    private readonly toolExists: (name: string) => boolean = () => true,
  ) {
    for (const goal of goals) {
      if (this.byId.has(goal.id)) throw new Error(`Two goals have the id "${goal.id}".`);
      this.byId.set(goal.id, goal);
    }
  }

  get(id: string): Goal | undefined {
    return this.current().get(id);
  }

  all(): Goal[] {
    return [...this.current().values()];
  }

  ids(): string[] {
    return [...this.current().keys()];
  }

  /** Why goals of the folder were left out: invalid files, duplicate ids, unknown tools. */
  problems(): string[] {
    return [...(this.folder?.problems() ?? []), ...this.folderGoals().problems];
  }

  private current(): Map<string, Goal> {
    const { goals } = this.folderGoals();
    if (goals.length === 0) return this.byId;
    return new Map([...this.byId, ...goals.map((g): [string, Goal] => [g.id, g])]);
  }

  private folderGoals(): { goals: Goal[]; problems: string[] } {
    const goals: Goal[] = [];
    const problems: string[] = [];
    for (const goal of this.folder?.read() ?? []) {
      const unknown = goal.tools.filter((t) => !isBuiltinTool(t) && !this.toolExists(t));
      if (this.byId.has(goal.id)) problems.push(`goal "${goal.id}" is already defined in goals/catalog`);
      else if (unknown.length) problems.push(`goal "${goal.id}" lists unknown tool(s): ${unknown.join(', ')}`);
      else goals.push(goal);
    }
    return { goals, problems };
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

export const DEFAULT_GOALS_FOLDER = path.join(__dirname, '..', 'config', 'goals');

/** The built-in goals, plus the JSON goals of `folder` when given. */
export function loadGoals(opts: { dir?: string; folder?: string; toolExists?: (name: string) => boolean } = {}): GoalRegistry {
  return new GoalRegistry(loadModules(opts.dir ?? GOALS_DIR).filter(isGoal), opts.folder ? new GoalFolder(opts.folder) : undefined, opts.toolExists);
}
