// The builtins whose call runs an activity of their own: one line each. What reads this table is listed in
// builtin-run.ts; a new one is a file in core/, its line here, and its activity in the worker.
import type { ToolSpec } from './types';
import type { BuiltinRun, BuiltinRunActivity } from './builtin-run';
import { readFile } from './read-file';
import { runCode } from './run-code';
import { searchTools } from './search-tools';

export const BUILTIN_RUNS = [searchTools, runCode, readFile] as const;

type Run = (typeof BUILTIN_RUNS)[number];

/** By tool name. */
export const BUILTIN_RUN_OF: Readonly<Record<string, BuiltinRun>> = Object.fromEntries(
  BUILTIN_RUNS.map((run) => [run.spec.name, run]),
);

/** Their specs by tool name, in the table's order (core/builtin-specs.ts lists them with the other builtins). */
export const BUILTIN_RUN_SPECS: Readonly<Record<string, ToolSpec>> = Object.fromEntries(
  BUILTIN_RUNS.map((run) => [run.spec.name, run.spec]),
);

/** Their activities as the worker implements them (activities/ provides each; core/activity-steps.ts names them with
 * every other activity). */
export type BuiltinRunActivities = { [R in Run as R['activity']]: BuiltinRunActivity<R> };

/** Their patch ids, by activity name (workflows/versions.ts lists them with the others). */
export const BUILTIN_RUN_PATCHES = Object.fromEntries(BUILTIN_RUNS.map((run) => [run.activity, run.patch])) as {
  readonly [R in Run as R['activity']]: R['patch'];
};

/** Their activities as steps of a run: each is its tool's call (core/activity-steps.ts). */
export const BUILTIN_RUN_STEPS = Object.fromEntries(
  BUILTIN_RUNS.map((run) => [run.activity, { kind: 'builtin', tool: run.spec.name }]),
) as { readonly [R in Run as R['activity']]: { kind: 'builtin'; tool: string } };

export type { BuiltinRun, BuiltinRunContext, BuiltinRunHost } from './builtin-run';
