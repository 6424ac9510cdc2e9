// A builtin whose call only runs an activity of its own: one file in core/ says what it is — the spec the model reads,
// the activity it runs with its timeouts and retries, the patch that brought it, the activity's input made from the
// call — and one line in builtin-runs.ts's table makes it a tool. Everything else reads that table: the
// builtins the decider offers and decides (workflows/decider/builtins/index.ts), how the workflow runs the call
// (workflows/tool-kinds.ts, a run_tool effect like any tool's), the activity stubs, the activity interface the worker
// implements, the run view's steps and the patch ids (workflows/versions.ts).
import type { ActivityOptions } from '@temporalio/common';
import type { BlobRef } from './blobs';
import type { ToolCall, ToolOutcome, ToolSpec } from './types';

/** The files the conversation holds, as a builtin may read them. */
export interface HeldFileRefs {
  get(id: string): BlobRef | undefined;
  list(): BlobRef[];
}

export interface BuiltinRun<Activity extends string = string, Input = unknown> {
  spec: ToolSpec;
  /** The activity's name: its type in histories and in the run view. */
  activity: Activity;
  options: ActivityOptions;
  /** The patch (workflows/versions.ts) that brought it: a conversation recorded before it gets a tool error. */
  patch: string;
  /** Why a call with valid arguments is refused in the workflow, recorded as its tool error; undefined: run it. */
  refuse?(call: ToolCall, files: HeldFileRefs): string | undefined;
  /** The activity's input, from a call its spec and `refuse` let through. */
  input(call: ToolCall, files: HeldFileRefs): Input;
}

/** Keeps the activity's name and the patch id as literal types, so the table's derived types know them. */
export function builtinRun<const Activity extends string, const Patch extends string, Input>(
  run: BuiltinRun<Activity, Input> & { patch: Patch },
): BuiltinRun<Activity, Input> & { patch: Patch } {
  return run;
}

/** The activity a builtin run schedules, as the worker implements it. */
export type BuiltinRunActivity<R extends BuiltinRun> = (input: ReturnType<R['input']>) => Promise<ToolOutcome>;
