// The goal and tools this run's model calls were sent, numbered (PlanContextRef): a request carries them whole only
// when they differ from the last ones sent, and a worker that missed them asks for them by number (planContextQuery).
import type { PlanContext, PlanContextInput, PlanContextRef } from '../../core/activity-types';
import type { Goal, ToolSpec } from '../../core/types';

/** How many past versions a run keeps for workers that ask (a retry of an older request, on another worker). */
const KEPT = 8;

export class PlanContexts {
  private readonly sent = new Map<number, PlanContext>();
  private last: PlanContextRef | null = null;

  /** The pair as a request carries it: by number when it is the one sent last, else whole with its new number. */
  input(goal: Goal, tools: ToolSpec[]): PlanContextInput {
    const before = this.last && this.sent.get(this.last.version);
    if (this.last && before && same(before.goal, goal) && sameList(before.tools, tools)) return { context: this.last };
    const version = (this.last?.version ?? 0) + 1;
    this.last = { version, fingerprint: fingerprint(JSON.stringify([goal, tools])) };
    this.sent.set(version, { goal, tools });
    this.sent.delete(version - KEPT);
    return { goal, tools, context: this.last };
  }

  /** What was sent as `version`, while the run keeps it. */
  get(version: number): PlanContext | null {
    return this.sent.get(version) ?? null;
  }
}

/** A 53-bit hash of `text` (cyrb53): deterministic, cheap, and computed once per version. */
export function fingerprint(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function sameList(a: ToolSpec[], b: ToolSpec[]): boolean {
  return a.length === b.length && a.every((t, i) => same(t, b[i]));
}

/** The goal and specs are usually the very objects sent before (interned.ts); else their content decides. */
function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
