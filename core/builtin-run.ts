// A builtin whose call runs activities of its own: one file in core/ says what it is — the spec the model reads,
// the activity it runs with its timeouts and retries, the patch that brought it, the activity's input made from the
// call, and for a call that changes the world the check the user is shown before approving — and one line in
// builtin-runs.ts's table makes it a tool. Everything else reads that table: the builtins the decider offers and
// decides (workflows/decider/builtins/index.ts), how the workflow runs the call (workflows/tool-kinds.ts, a run_tool
// effect like any tool's), the activity stubs, the activity interface the worker implements, the run view's steps and
// the patch ids (workflows/versions.ts).
import type { ActivityOptions } from '@temporalio/common';
import type { BlobRef } from './blobs';
import type { ToolCall, ToolOutcome, ToolSpec } from './types';

/** What of the conversation a builtin may read to make its activity's input. */
export interface BuiltinRunContext {
  /** The files it holds. */
  files: { get(id: string): BlobRef | undefined; list(): BlobRef[] };
  /** The tools it offers now, builtins left out. */
  tools: ToolSpec[];
  /** The user's latest words: what a new agent or tool was asked for. */
  request: string;
  /** Whose the conversation is (its owner, else the local user): whose memories it reads and writes. */
  owner: string;
  /** The agent it talks to now. */
  goalId: string;
}

/** What a builtin's answer may change in the conversation. */
export interface BuiltinRunHost {
  /** Tools found: offered to the model for the rest of the turn. */
  found(names: string[]): void;
  /** A tool made: offered to the model from now on. */
  made(spec: ToolSpec): void;
  /** An agent made: the agents the picker lists include it from the next step on. */
  agentMade(): void;
}

/** One activity a builtin runs: its call's run, or the check before the user is asked. */
export interface BuiltinStep<Activity extends string = string, Input = unknown> {
  /** The activity's name: its type in histories and in the run view. */
  activity: Activity;
  options: ActivityOptions;
  /** A local activity: run by the worker inside the workflow task that asks, its answer recorded as a marker. */
  local?: boolean;
  /** It heartbeats: its heartbeat timeout is the conversation's HEARTBEAT_TIMEOUT, so a lost worker is noticed soon. */
  heartbeats?: boolean;
  /** What the run view calls the step (after the tool's name); unset, the step is the tool's call itself. */
  label?: string;
  /** The activity's input, from a call its spec (and `refuse`) let through. */
  input(call: ToolCall, context: BuiltinRunContext): Input;
}

/** The check of a call that changes the world, before the user is asked to approve it (CreateAgent's draft). */
export interface BuiltinCheck<Activity extends string = string, Input = unknown, Answer = unknown> extends BuiltinStep<
  Activity,
  Input
> {
  /** Why the call cannot be run (back to the model as its invalid input), or what the user is shown beside the
   * approval text. */
  verdict(answer: Answer): { problems: string[] } | { shown: string[] };
}

export interface BuiltinRun<Activity extends string = string, Input = unknown, Answer = unknown> extends BuiltinStep<
  Activity,
  Input
> {
  spec: ToolSpec;
  /** The patch (workflows/versions.ts) that brought it: a conversation recorded before it gets a tool error. */
  patch: string;
  /** Why a call with valid arguments is refused in the workflow, recorded as its tool error; undefined: run it. (A
   * run with a `check` is refused by its check's verdict instead.) */
  refuse?(call: ToolCall, context: BuiltinRunContext): string | undefined;
  /** A call that changes the world: checked by this activity first (under the same patch), then put to the user
   * when the spec's approval asks, with `approvalText`. */
  check?: BuiltinCheck;
  /** What the user is shown when asked to approve; the spec's description is written for the model. */
  approvalText?: string;
  /** The call's tool error when the user cancelled its run in flight (core/failures.ts's cancelledCall says it);
   * unset, as any tool's. */
  cancelled?: string;
  /** The call's outcome from the activity's answer; unset, the answer is the outcome. */
  outcome?(answer: Answer, call: ToolCall): ToolOutcome;
  /** What the answer of a call whose outcome is ok changes in the conversation, before the outcome is recorded. */
  took?(answer: Answer, host: BuiltinRunHost): void;
}

/** Keeps the activities' names and the patch id as literal types, so the table's derived types know them. */
export function builtinRun<
  const Activity extends string,
  const Patch extends string,
  Input,
  Answer = ToolOutcome,
  const Check extends BuiltinCheck = never,
>(
  run: BuiltinRun<Activity, Input, Answer> & { patch: Patch; check?: Check },
): BuiltinRun<Activity, Input, Answer> & { patch: Patch; check?: Check } {
  return run;
}

/** A builtin check with its activity's name as a literal type. */
export function builtinCheck<const Activity extends string, Input, Answer>(
  check: BuiltinCheck<Activity, Input, Answer>,
): BuiltinCheck<Activity, Input, Answer> {
  return check;
}

/** The activity a builtin's step schedules (its run's, or its check's), as the worker implements it. */
export type BuiltinStepActivity<S> =
  S extends BuiltinCheck<string, infer Input, infer Answer>
    ? (input: Input) => Promise<Answer>
    : S extends BuiltinRun<string, infer Input, infer Answer>
      ? (input: Input) => Promise<Answer>
      : never;
