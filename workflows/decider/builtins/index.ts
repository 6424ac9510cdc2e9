// Every builtin tool, by name. A builtin the workflow decides itself is a file here, its entry in the table (and its
// appliers) below, and its spec in core/builtin-specs.ts. One that runs activities of its own is a file in core/ and
// its line in core/builtin-runs.ts, nothing here: it is decided as any call (its arguments checked, its refusals
// recorded, or its check and the user's approval) and run as a run_tool effect. test/unit/builtin-lists.test.ts
// checks the specs and the docs' lists against these tables.
import { ASK_AGENT, ASK_USER, CHANGE_GOAL, COMPLETE_GOAL, LIST_AGENTS } from '../../../core/builtin-specs';
import { askAgent } from './ask-agent';
import { askUser } from './ask-user';
import { BUILTIN_RUNS, type BuiltinRun, type BuiltinRunContext } from '../../../core/builtin-runs';
import type { ToolCall, ToolOutcome, ToolSpec } from '../../../core/types';
import { argsFit, type Builtin, type BuiltinContext } from './builtin';
import { changeGoal } from './change-goal';
import { LOCAL_OWNER } from '../../../core/blobs';
import { completeGoal } from './complete-goal';
import { listAgents } from './list-agents';

/** A conversation's builtins (each may keep state of its own), and how they take in their effects' results. */
export function createBuiltins(convo: BuiltinContext) {
  const list = listAgents(convo);
  const ask = askAgent(convo);
  const table: Record<string, Builtin> = {
    [LIST_AGENTS]: list,
    [CHANGE_GOAL]: changeGoal(),
    [COMPLETE_GOAL]: completeGoal(convo),
    [ASK_AGENT]: ask,
    [ASK_USER]: askUser(convo),
    ...Object.fromEntries(
      BUILTIN_RUNS.map((run: BuiltinRun) => [run.spec.name, run.check ? approvedRun(run) : decidedAsRun(convo, run)]),
    ),
  };
  return { table, appliers: { ...list.appliers, ...ask.appliers } };
}

/** A builtin that runs an activity of its own with no check: its arguments checked, then its refusal or its run. */
function decidedAsRun(convo: BuiltinContext, run: BuiltinRun): Builtin {
  return {
    decide: (call: ToolCall, spec: ToolSpec) => {
      if (!argsFit(convo, call, spec)) return undefined;
      const refused = run.refuse?.(call, builtinRunContext(convo));
      if (refused === undefined) return { kind: 'run_tool', call, spec };
      convo.record(call, { status: 'tool_error', error: refused });
      return undefined;
    },
  };
}

/**
 * A builtin run that changes the world (CreateAgent, CreateTool): decided as any such call (its arguments checked, put
 * to the user when its spec asks, then run), with its check first, so the user is only asked about calls that pass,
 * and shown what the check showed.
 */
function approvedRun(run: BuiltinRun): Builtin {
  /** Calls whose check passed, with what the user is shown beside the approval text. */
  const passed = new Map<string, string[]>();
  return {
    beforeApproval: (call: ToolCall, spec: ToolSpec) =>
      passed.has(call.id) ? undefined : { kind: 'run_tool', call, spec, check: true },
    checked: (call: ToolCall, outcome: ToolOutcome) => {
      passed.set(call.id, (outcome as { result: { shown: string[] } }).result.shown);
    },
    approvalText: (call: ToolCall) =>
      [run.approvalText ?? run.spec.description, ...(passed.get(call.id) ?? [])].join('\n'),
  };
}

/** What of the conversation a builtin run reads to make its activity's input (core/builtin-run.ts). */
export function builtinRunContext(convo: Pick<BuiltinContext, 'log' | 'offer' | 'input' | 'goal'>): BuiltinRunContext {
  // Read when a builtin's input asks, not for every call decided.
  return {
    files: convo.log.files,
    owner: convo.input.owner ?? LOCAL_OWNER,
    goalId: convo.goal.id,
    get tools() {
      return convo.offer.tools.filter((t) => t.kind !== 'builtin');
    },
    get request() {
      return convo.log.lastUserText();
    },
  };
}

/** The appliers of the effects only builtins ask for. */
export type BuiltinAppliers = ReturnType<typeof createBuiltins>['appliers'];
