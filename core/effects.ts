// What Conversation asks the workflow to do (an effect) and what each effect answers. One entry per kind in
// EffectInputs and EffectResults keeps both halves checked by the compiler: perform(effect) must return the
// result of that effect's kind, and Conversation.apply(effect, result) receives exactly that type, with no casts.
import type { BlobRef } from './blobs';
import type { AgentSummary, ResolvedGoal, ToolCall, ToolSpec, Usage } from './types';
import type { AgentGoalInput, ConfirmDecision } from './conversation-types';
import type { AnsweredQuestion } from './tool-questions';
import type { PlanRequest, PlanResult, PromptVerdict, ValidateRequest, VetAndPlanRequest } from './activity-types';
import type { HookedOutcome } from './hooks';

export interface QueuedPrompt {
  id: number;
  text: string;
  /** Files attached to it (blob refs). */
  attachments?: BlobRef[];
  /** The goal's starter prompt: the agent opens the conversation itself; never validated. */
  starter?: boolean;
  /** The client's id for the message (PromptInput.ref). */
  ref?: string;
  /** Sent to interrupt the turn running when it came (WhileBusy): it joins that turn at its next plan. */
  steer?: true;
}

/** An effect that failed after its retries: the reason, shown to the user or the LLM. */
export interface StepFailure {
  failed: string;
}

/** Why a goal is resolved; a builtin tool's resolution carries the call whose outcome it decides. */
export type GoalReason =
  /** Before a turn: MCP servers may have appeared or gone since the last one; `known`, the catalog version it has. */
  | { why: 'refresh'; promptId: number; known?: string }
  /** A client's changeGoal signal. */
  | { why: 'switch' }
  /** ChangeGoal, ListAgents back to the picker, CompleteGoal back to the picker. */
  | { why: 'change_goal' | 'list_agents' | 'complete_goal'; call: ToolCall };

interface EffectInputs {
  validate: { prompt: QueuedPrompt; request: ValidateRequest };
  /** Validation and planning in one activity (PATCHES.oneModelWait); the prompt is already in the transcript. */
  vet_and_plan: { prompt: QueuedPrompt; request: VetAndPlanRequest };
  plan: { request: PlanRequest };
  /** A tool call of any kind (native, MCP, HTTP API, made, and the builtins that run activities of their own):
   * workflows/tool-kinds.ts runs it by its kind. `check`: a builtin's check before the user is asked to approve the
   * call (core/builtin-run.ts), whose ok outcome is what the user is shown, not the call's result. */
  run_tool: { call: ToolCall; spec: ToolSpec; check?: true };
  /** For the ListAgents call, or (no call) the list a multi-goal run starts with. */
  list_agents: { call?: ToolCall };
  /** Whether this run takes a versioned path (a PATCHES id): patched() answers, and a replayed older run says false. */
  check_version: { patchId: string; call: ToolCall };
  resolve_goal: { goalId: string } & GoalReason;
  /** AskAgent calls of one step, each started as a child conversation; they run side by side. */
  start_delegates: { delegates: DelegateStart[] };
  /** The user's answer to a delegate's approval or question, sent down to it. */
  answer_delegate: { childId: string; answer: DelegateAnswer };
}

export interface DelegateStart {
  call: ToolCall;
  childId: string;
  input: AgentGoalInput;
}

export type DelegateAnswer = { confirm: ConfirmDecision } | { reply: string } | { question: AnsweredQuestion };

/** Per call: started, or why not. */
export type DelegateStarted = { callId: string } & ({ started: true } | StepFailure);

export interface EffectResults {
  validate: PromptVerdict | StepFailure;
  vet_and_plan: PromptVerdict | StepFailure;
  plan: PlanResult | StepFailure;
  /** `spent`: what the tool's use of our model cost (an MCP server's sampling), counted in the conversation's usage;
   * `hooks`: what hooks decided about the call, recorded in the transcript; `answer`: a builtin run's activity
   * answer, for what it changes in the conversation (its `took`). */
  run_tool: HookedOutcome & { spent?: Usage; answer?: unknown };
  list_agents: AgentSummary[] | StepFailure;
  check_version: boolean;
  resolve_goal: ResolvedGoal | StepFailure;
  start_delegates: DelegateStarted[];
  /** Whether the signal reached the delegate (it may have ended meanwhile). */
  answer_delegate: true | StepFailure;
}

export type EffectKind = keyof EffectInputs;
export type Effect<K extends EffectKind = EffectKind> = { [P in K]: { kind: P } & EffectInputs[P] }[K];
export type ResultOf<K extends EffectKind> = EffectResults[K];

/** One function per effect kind: the workflow's way of carrying effects out. */
export type Performers = { [K in EffectKind]: (effect: Effect<K>) => Promise<ResultOf<K>> };
/** One function per effect kind: Conversation's way of taking in their results. */
export type Appliers = { [K in EffectKind]: (effect: Effect<K>, result: ResultOf<K>) => void };
