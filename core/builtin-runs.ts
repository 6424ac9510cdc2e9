// The builtins whose call runs activities of their own: one line each. What reads this table is listed in
// builtin-run.ts; a new one is a file in core/, its line here, and its activities in the worker.
import type { ToolSpec } from './types';
import type { BuiltinRun, BuiltinStep, BuiltinStepActivity } from './builtin-run';
import { createAgent } from './create-agent';
import { createTool } from './create-tool';
import { readFile } from './read-file';
import { runCode } from './run-code';
import { searchTools } from './search-tools';
import { forget, remember } from './remember';

export const BUILTIN_RUNS = [searchTools, runCode, readFile, createAgent, createTool, remember, forget] as const;

type Run = (typeof BUILTIN_RUNS)[number];
/** Every activity of the table: each run's, and the checks of those that have one. */
type Step = Run | NonNullable<Run['check']>;

/** By tool name. */
export const BUILTIN_RUN_OF: Readonly<Record<string, BuiltinRun>> = Object.fromEntries(
  BUILTIN_RUNS.map((run) => [run.spec.name, run]),
);

/** Their specs by tool name, in the table's order (core/builtin-specs.ts lists them with the other builtins). */
export const BUILTIN_RUN_SPECS: Readonly<Record<string, ToolSpec>> = Object.fromEntries(
  BUILTIN_RUNS.map((run) => [run.spec.name, run.spec]),
);

/** Each run and each check, with the run it belongs to. */
const STEPS: { run: BuiltinRun; step: BuiltinStep }[] = BUILTIN_RUNS.flatMap((run: BuiltinRun) => [
  ...(run.check ? [{ run, step: run.check }] : []),
  { run, step: run },
]);

/** Their activities as the worker implements them (activities/ provides each; core/activity-steps.ts names them with
 * every other activity). */
export type BuiltinRunActivities = { [S in Step as S['activity']]: BuiltinStepActivity<S> };

/** Their patch ids, by the run's activity name (workflows/versions.ts lists them with the others); a check comes
 * under its run's patch. */
export const BUILTIN_RUN_PATCHES = Object.fromEntries(BUILTIN_RUNS.map((run) => [run.activity, run.patch])) as {
  readonly [R in Run as R['activity']]: R['patch'];
};

/** Their activities as steps of a run (core/activity-steps.ts): a labelled one is a step of its tool's call (a draft
 * checked or written), else it is the call. */
export const BUILTIN_RUN_STEPS = Object.fromEntries(
  STEPS.map(({ run, step }) => [
    step.activity,
    step.label ? { kind: 'draft', label: `${run.spec.name}: ${step.label}` } : { kind: 'builtin', tool: run.spec.name },
  ]),
) as { readonly [S in Step as S['activity']]: { kind: 'builtin'; tool: string } | { kind: 'draft'; label: string } };

export type { BuiltinRun, BuiltinRunContext, BuiltinRunHost, BuiltinStep } from './builtin-run';
