// A builtin tool as the decider runs it: the workflow handles these itself. Some change only the conversation
// (ListAgents, ChangeGoal, …); AskAgent starts delegates as child workflows. Each is one file in this folder; index.ts
// lists them by tool name, with the builtins that run activities of their own (core/builtin-runs.ts: SearchTools,
// CreateAgent, …), and Conversation looks the tool up instead of branching.
import { invalidArgs } from '../../../core/check-args';
import type { Appliers, Effect, EffectKind } from '../../../core/effects';
import type { AgentSummary, Goal, ResolvedGoal, Settings, ToolCall, ToolOutcome, ToolSpec } from '../../../core/types';
import type { AgentGoalInput, DelegateEnvelope } from '../../../core/conversation-types';
import type { Delegations } from '../delegations';
import type { MessageLog } from '../message-log';
import type { TaskMode } from '../task-mode';
import type { ToolOffer } from '../tool-offer';

/** An effect to perform; null: wait for the user; undefined: decided here (an outcome recorded), look again. */
export type Decision = Effect | null | undefined;

export interface Builtin {
  /**
   * What one call needs done, in call order. Unset: the call is checked and put to the user for approval like any
   * tool that changes the world, then `run`.
   */
  decide?(call: ToolCall, spec: ToolSpec): Decision;
  /** The step's calls of this tool, before any other call of the step (AskAgent's run side by side); null: none. */
  beforeCalls?(calls: ToolCall[]): Decision | null;
  /** An effect that must come before the user is asked to approve (CreateAgent's draft check). */
  beforeApproval?(call: ToolCall, spec: ToolSpec): Effect | undefined;
  /** That effect's ok outcome: the call may be put to the user now (any other outcome is the call's). */
  checked?(call: ToolCall, outcome: ToolOutcome): void;
  /** Approved (or needing no approval): the effect that does it. */
  run?(call: ToolCall): Effect;
  /** What the user is shown when asked to approve; the spec's description is written for the LLM. */
  approvalText?: string | ((call: ToolCall) => string);
}

/** A builtin and how it takes in the results of the effects only it asks for. */
export type BuiltinWith<K extends EffectKind> = Builtin & { appliers: Pick<Appliers, K> };

/** What a builtin may read of the conversation and do to it (Conversation implements it). */
export interface BuiltinContext {
  readonly settings: Settings;
  readonly goal: Goal;
  readonly input: Partial<AgentGoalInput>;
  readonly taskMode: TaskMode;
  readonly offer: ToolOffer;
  readonly delegations: Delegations;
  readonly log: MessageLog;
  /** The agents the user can switch to (multi-goal mode), as last listed. */
  agents: AgentSummary[];
  /** The call is decided: its outcome goes into the transcript for the LLM. */
  record(call: ToolCall, outcome: ToolOutcome): void;
  /** An effect that continues the one just applied; it comes before anything else. */
  followWith(effect: Effect): void;
  /** The agent needs the user now. */
  pause(): void;
  /** The conversation is done (a delegate's parent gets an envelope of `status`). */
  finish(status: DelegateEnvelope['status'], summary?: string): void;
  switchGoal(resolved: ResolvedGoal, note: boolean): void;
  /** Multi-goal mode, on an agent other than the picker. */
  awayFromPicker(): boolean;
  /** A delegate's answer is its AskAgent call's result. */
  applyEnvelope(callId: string, envelope: DelegateEnvelope): void;
}

/** Whether the call's arguments fit its spec; when not, the problems are its outcome, recorded here. */
export function argsFit(convo: BuiltinContext, call: ToolCall, spec: ToolSpec): boolean {
  const problems = invalidArgs(spec.inputSchema, call.args);
  if (problems) convo.record(call, problems);
  return !problems;
}
