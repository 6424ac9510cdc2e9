// A builtin whose call only runs an activity of its own: one file in core/ says what it is — the spec the model reads,
// the activity it runs with its timeouts and retries, the patch that brought it, the activity's input made from the
// call — and one line in builtin-runs.ts's table makes it a tool. Everything else reads that table: the
// builtins the decider offers and decides (workflows/decider/builtins/index.ts), how the workflow runs the call
// (workflows/tool-kinds.ts, a run_tool effect like any tool's), the activity stubs, the activity interface the worker
// implements, the run view's steps and the patch ids (workflows/versions.ts).
import type { ActivityOptions } from '@temporalio/common';
import type { BlobRef } from './blobs';
import type { ToolCall, ToolOutcome, ToolSpec } from './types';

/** What of the conversation a builtin may read to make its activity's input. */
export interface BuiltinRunContext {
  /** The files it holds. */
  files: { get(id: string): BlobRef | undefined; list(): BlobRef[] };
  /** The tools it offers now, builtins left out. */
  tools: ToolSpec[];
}

/** What a builtin's outcome may change in the conversation. */
export interface BuiltinRunHost {
  /** Tools found: offered to the model for the rest of the turn. */
  found(names: string[]): void;
}

export interface BuiltinRun<Activity extends string = string, Input = unknown, Answer = unknown> {
  spec: ToolSpec;
  /** The activity's name: its type in histories and in the run view. */
  activity: Activity;
  options: ActivityOptions;
  /** A local activity: run by the worker inside the workflow task that asks, its answer recorded as a marker. */
  local?: boolean;
  /** The patch (workflows/versions.ts) that brought it: a conversation recorded before it gets a tool error. */
  patch: string;
  /** Why a call with valid arguments is refused in the workflow, recorded as its tool error; undefined: run it. */
  refuse?(call: ToolCall, context: BuiltinRunContext): string | undefined;
  /** The activity's input, from a call its spec and `refuse` let through. */
  input(call: ToolCall, context: BuiltinRunContext): Input;
  /** The call's outcome from the activity's answer; unset, the answer is the outcome. */
  outcome?(answer: Answer, call: ToolCall): ToolOutcome;
  /** What an ok outcome changes in the conversation, before it is recorded. */
  took?(outcome: ToolOutcome & { status: 'ok' }, host: BuiltinRunHost): void;
}

/** Keeps the activity's name and the patch id as literal types, so the table's derived types know them. */
export function builtinRun<const Activity extends string, const Patch extends string, Input, Answer = ToolOutcome>(
  run: BuiltinRun<Activity, Input, Answer> & { patch: Patch },
): BuiltinRun<Activity, Input, Answer> & { patch: Patch } {
  return run;
}

/** The activity a builtin run schedules, as the worker implements it. */
export type BuiltinRunActivity<R> =
  R extends BuiltinRun<string, infer Input, infer Answer> ? (input: Input) => Promise<Answer> : never;
