// What many conversations of a worker hold alike — a goal, its tool specs (a 504-tool MCP server's are ~0.33 MB per
// conversation), its catalog — held once per worker instead of once per conversation. Each conversation gets them
// from an activity, as its own copy; interned(x) gives back the one object the worker holds for x's content, frozen,
// and the conversation's copy is garbage.
//
// The table is the one piece of state the workflow code keeps at module level, on purpose: the workflow modules are
// loaded once per worker and shared by its conversations (worker/workflow-code.ts). It stays deterministic: what a
// conversation gets is equal in content to what it gave, whichever conversation gave it first, so replay and the
// original run see the same values; frozen, it cannot carry one conversation's change to another (a write throws).
import type { ResolvedGoal } from '../core/types';

/** Content (as JSON) → the object held for it. */
const table = new Map<string, object>();
/** Past this many entries the table starts again (tools that keep changing would otherwise grow it without end). */
const MAX_ENTRIES = 20_000;

/** The object the worker holds for `value`'s content: `value` itself, frozen, the first time. */
export function interned<T extends object>(value: T): T {
  const key = JSON.stringify(value);
  const known = table.get(key);
  if (known) return known as T;
  if (table.size >= MAX_ENTRIES) table.clear();
  table.set(key, deepFreeze(value));
  return value;
}

/** A resolved goal whose goal, tool specs and catalog are the worker's. */
export function internedGoal(resolved: ResolvedGoal): ResolvedGoal {
  return {
    ...resolved,
    goal: interned(resolved.goal),
    tools: resolved.tools.map(interned),
    ...(resolved.catalog ? { catalog: interned(resolved.catalog) } : {}),
  };
}

/** How many contents the worker holds (for tests). */
export function internedCount(): number {
  return table.size;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
