// The one goal registry: code goals (goals/code/*.ts, checked at start-up: a bad one stops the worker) and JSON
// goals from a folder that can change while the worker runs (checked when read: a bad one is left out and
// reported, never served). Both are parsed by the same schema; `resolve` is the one way to look a goal up.
import path from 'node:path';
import { globMatch, normaliseCategory } from '../core/naming';
import { PROJECT_ROOT } from '../tools/project-root';
import { loadModules } from '../tools/tool-registry';
import { isBuiltinTool } from '../core/builtin-specs';
import type { AgentSummary, Goal } from '../core/types';
import { GoalFolder } from './goal-folder';
import { goalProblems, goalSchema } from './goal-schema';
import { unknownGoalFailure, unknownGoalMessage } from './unknown-goal';

/** Goals shipped as code, one file each. */
export const CODE_GOALS_DIR = path.join(__dirname, 'code');
/** The goals folder's default (the GOALS_DIR setting): JSON goals, re-read when it changes. */
export const DEFAULT_GOALS_FOLDER = path.join(PROJECT_ROOT, 'config', 'goals');
export const PICKER_GOAL_ID = 'goal_choose_agent';

type ToolExists = (name: string) => boolean;

export class GoalRegistry {
  private readonly code = new Map<string, Goal>();

  /** Throws, naming the goal, on duplicate ids and on code goals that list a tool that does not exist. */
  constructor(
    codeGoals: Goal[],
    private readonly folder?: GoalFolder,
    private readonly toolExists: ToolExists = () => true,
  ) {
    for (const goal of codeGoals) {
      if (this.code.has(goal.id)) throw new Error(`Two goals have the id "${goal.id}".`);
      this.code.set(goal.id, goal);
    }
    const problems = codeGoals.flatMap((g) =>
      this.unknownTools(g).map((tool) => `goal "${g.id}" lists the unknown tool "${tool}"`),
    );
    if (problems.length > 0) throw new Error(`Goals are inconsistent: ${problems.join('; ')}.`);
  }

  /** The goal with this id; otherwise the non-retryable `UnknownGoal` failure, listing the known ids. */
  resolve(id: string): Goal {
    const goals = this.current();
    const unknown = unknownGoalMessage(id, [...goals.keys()]);
    if (unknown) throw unknownGoalFailure(unknown);
    return goals.get(id)!;
  }

  all(): Goal[] {
    return [...this.current().values()];
  }

  ids(): string[] {
    return [...this.current().keys()];
  }

  /** Where a goal is defined: `code` (goals/code/), or the path of its file in the goals folder. */
  source(id: string): string {
    if (this.code.has(id)) return 'code';
    return this.folder?.file(id) ?? 'code';
  }

  /** Why goals of the folder were left out: invalid files, duplicate ids, unknown tools. */
  problems(): string[] {
    return [...(this.folder?.problems() ?? []), ...this.folderGoals().problems];
  }

  /** The agents a user can switch to: every goal but the picker, filtered by category when asked. */
  agents(categories: string[] = []): AgentSummary[] {
    const wanted = new Set(categories.map(normaliseCategory).filter(Boolean));
    return this.all()
      .filter((g) => g.id !== PICKER_GOAL_ID)
      .filter((g) => wanted.size === 0 || wanted.has(normaliseCategory(g.category)))
      .map((g) => ({
        goalId: g.id,
        agentName: g.agentName,
        description: g.agentFriendlyDescription,
        category: g.category,
      }));
  }

  /** The agents `goal` may delegate to: each entry of its `delegates` is a goal id, a glob over ids, or a category.
   * Never itself or the picker; entries that match nothing are skipped (a goal file may name an agent to come). */
  delegatesOf(goal: Goal): AgentSummary[] {
    return this.agents().filter(
      (a) =>
        a.goalId !== goal.id && delegateMatches(goal, { goalId: a.goalId, category: this.resolve(a.goalId).category }),
    );
  }

  private current(): Map<string, Goal> {
    const { goals } = this.folderGoals();
    if (goals.length === 0) return this.code;
    return new Map([...this.code, ...goals.map((g): [string, Goal] => [g.id, g])]);
  }

  private folderGoals(): { goals: Goal[]; problems: string[] } {
    const goals: Goal[] = [];
    const problems: string[] = [];
    for (const goal of this.folder?.read() ?? []) {
      const unknown = this.unknownTools(goal);
      if (this.code.has(goal.id)) problems.push(`goal "${goal.id}" is already defined in goals/code`);
      else if (unknown.length) problems.push(`goal "${goal.id}" lists unknown tool(s): ${unknown.join(', ')}`);
      else goals.push(goal);
    }
    return { goals, problems };
  }

  private unknownTools(goal: Goal): string[] {
    return goal.tools.filter((t) => !isBuiltinTool(t) && !this.toolExists(t));
  }
}

/** The code goals, plus the JSON goals of `folder` when given; a code goal the schema rejects stops the start. */
export function loadGoals(opts: { dir?: string; folder?: string; toolExists?: ToolExists } = {}): GoalRegistry {
  const dir = opts.dir ?? CODE_GOALS_DIR;
  const codeGoals = loadModules(dir).map(({ file, value }) => {
    const parsed = goalSchema.safeParse(value);
    if (!parsed.success)
      throw new Error(`The goal in ${path.relative(process.cwd(), file)} is invalid: ${goalProblems(parsed.error)}`);
    return parsed.data;
  });
  return new GoalRegistry(codeGoals, opts.folder ? new GoalFolder(opts.folder) : undefined, opts.toolExists);
}

/** Whether an agent (one of ours, or a remote one: `a2a:<name>`) is among `goal`'s delegates: an entry of its
 * `delegates` is the agent's id, a glob over ids, or its category. */
export function delegateMatches(goal: Goal, agent: Pick<AgentSummary, 'goalId' | 'category'>): boolean {
  return (goal.delegates ?? []).some(
    (w) =>
      w === agent.goalId ||
      (/[*?]/.test(w) && globMatch(w, agent.goalId)) ||
      normaliseCategory(w) === normaliseCategory(agent.category),
  );
}
