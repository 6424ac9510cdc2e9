// The goal and tools this run's model calls were sent, numbered (PlanContextRef): a request carries them whole only
// when they differ from the last ones sent, and a worker that missed them asks for them by number (planContextQuery).
import type { PlanContext, PlanContextInput } from '../../core/activity-types';
import type { Goal, ToolSpec } from '../../core/types';

/** How many past versions a run keeps for workers that ask (a retry of an older request, on another worker). */
const KEPT = 8;

export class PlanContexts {
  private readonly sent = new Map<number, PlanContext>();
  private version = 0;

  /** The pair as a request carries it: by number when it is the one sent last, else whole with its new number. */
  input(goal: Goal, tools: ToolSpec[]): PlanContextInput {
    const last = this.sent.get(this.version);
    if (last && same(last.goal, goal) && sameList(last.tools, tools)) return { context: { version: this.version } };
    this.version++;
    this.sent.set(this.version, { goal, tools });
    this.sent.delete(this.version - KEPT);
    return { goal, tools, context: { version: this.version } };
  }

  /** What was sent as `version`, while the run keeps it. */
  get(version: number): PlanContext | null {
    return this.sent.get(version) ?? null;
  }
}

function sameList(a: ToolSpec[], b: ToolSpec[]): boolean {
  return a.length === b.length && a.every((t, i) => same(t, b[i]));
}

/** The goal and specs are usually the very objects sent before (interned.ts); else their content decides. */
function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
