// How the workflow runs a tool call of each kind: the one place a kind's activity is chosen (perform.ts's run_tool
// looks the kind up here instead of branching). Each kind keeps the patch that brought it, checked where it always
// was, so a recorded conversation replays the commands it scheduled. A builtin that runs activities of its own
// (core/builtin-runs.ts) is run from its entry there: its call, and its check before approval, are run_tool effects
// like any other tool's.
import { patched, workflowInfo } from '@temporalio/workflow';
import type { ResultOf } from '../core/effects';
import { BUILTIN_RUN_OF } from '../core/builtin-runs';
import { invalid } from '../core/check-args';
import type { ToolCall, ToolOutcome, ToolSpec } from '../core/types';
import { runBuiltin, runMadeTool, runsLocally, runTool, type ToolCallContext } from './activity-stubs';
import type { Conversation } from './decider/conversation';
import { builtinRunContext } from './decider/builtins';
import { DEFAULT_DELEGATION_LIMITS, userConversationOf } from './decider/delegations';
import { failSoft, toolError } from './failures';
import { PATCHES, type PatchId } from './versions';

export type ToolKind = 'native' | 'mcp' | 'http' | 'made' | 'builtin' | 'a2a';

/** One call to run: what it is, and the conversation that makes it. */
export interface ToolRun {
  call: ToolCall;
  spec: ToolSpec;
  convo: Conversation;
  /** A builtin's check before the user is asked to approve the call, not its run (core/builtin-run.ts). */
  check?: true;
  /** A cancelled call is waited for until it stops (PATCHES.cancelAndExpire). */
  waitWhenCancelled: boolean;
}

type Runner = (run: ToolRun) => Promise<ResultOf<'run_tool'>>;

/** A call's kind: by the spec's kind, and for endpoints by the reference it carries, as runs have always told them. */
export function kindOf(spec: ToolSpec): ToolKind {
  if (spec.kind === 'builtin' || spec.kind === 'made' || spec.kind === 'a2a') return spec.kind;
  if (spec.mcp) return 'mcp';
  if (spec.http) return 'http';
  return 'native';
}

/** Who calls: the conversation's owner and goal, its budget, its place in a delegation tree, its timeouts. */
function callerOf(convo: Conversation): ToolCallContext {
  const { task } = convo.input;
  return {
    owner: convo.input.owner,
    goalId: convo.goal.id,
    questionSeconds: convo.settings.toolQuestionTimeoutSeconds,
    overBudget: convo.budget.overBudget(convo.goal, convo.settings) ?? undefined,
    userConversation: task ? userConversationOf(workflowInfo().workflowId, task.depth) : undefined,
    heartbeatSeconds: convo.settings.heartbeatTimeoutSeconds,
    delegateSeconds: (convo.settings.delegation ?? DEFAULT_DELEGATION_LIMITS).timeoutSeconds,
  };
}

const endpointOrNative: Runner = ({ call, spec, convo, waitWhenCancelled }) => {
  // Checked only where it could change the command: other tools' histories get no marker.
  const local = runsLocally(spec) && patched(PATCHES.localNativeTools);
  return runTool(spec, call.args, waitWhenCancelled, callerOf(convo), local).catch((err) => toolError(err, spec));
};

export const TOOL_KINDS: Record<ToolKind, Runner> = {
  native: endpointOrNative,
  mcp: endpointOrNative,
  http: async (run) => {
    if (!patched(PATCHES.httpApis))
      return { status: 'tool_error', error: 'this conversation started before HTTP API tools existed' };
    return endpointOrNative(run);
  },
  a2a: async (run) => {
    if (!patched(PATCHES.a2aDelegates))
      return { status: 'tool_error', error: 'this conversation started before remote A2A agents existed' };
    return endpointOrNative(run);
  },
  made: async ({ call, spec, convo }) => {
    const caller = { owner: convo.input.owner, goalId: convo.goal.id };
    return outcomeOf(await versioned(PATCHES.createTool, () => runMadeTool(spec, call.args, caller)));
  },
  builtin: async ({ call, spec, check, convo }) => {
    const builtin = BUILTIN_RUN_OF[spec.name];
    const step = check ? builtin?.check : builtin;
    if (!builtin || !step) return { status: 'tool_error', error: `${spec.name} is not run as a tool call` };
    // The builtin's refusals were checked when its call was decided (workflows/decider/builtins/index.ts).
    const input = step.input(call, builtinRunContext(convo));
    // The patch id is one of PATCHES (test/unit/builtin-lists.test.ts); the answer becomes the call's outcome (or the
    // check's verdict) as the builtin's file says, inside the run, so a failure and an answer end the same way. The
    // answer goes with it, for what it changes in the conversation (the builtin's `took`).
    const run = async () => {
      const answer = await runBuiltin(step, input, convo.settings.heartbeatTimeoutSeconds);
      const outcome =
        check && builtin.check
          ? checked(builtin.check.verdict(answer))
          : (builtin.outcome?.(answer, call) ?? (answer as ToolOutcome));
      return { ...outcome, answer };
    };
    return outcomeOf(await versioned(builtin.patch as PatchId, run));
  },
};

/** A check's verdict as an outcome: its problems are the call's invalid input; ok, what the user is shown. */
function checked(verdict: { problems: string[] } | { shown: string[] }): ToolOutcome {
  return 'problems' in verdict ? invalid(verdict.problems) : { status: 'ok', result: { shown: verdict.shown } };
}

function outcomeOf<T extends ToolOutcome>(outcome: T | { failed: string }): T | ToolOutcome {
  return 'failed' in outcome ? { status: 'tool_error', error: outcome.failed } : outcome;
}

/** A new command path, behind its patch; a run recorded before it says so instead of running it. */
export function versioned<T>(patchId: PatchId, run: () => Promise<T>): Promise<T | { failed: string }> {
  if (!patched(patchId)) return Promise.resolve({ failed: 'this conversation started before this tool existed' });
  return failSoft(run);
}
