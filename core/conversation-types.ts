// A conversation as the rest of the product sees it: the workflow's input and result, what it carries into its next
// run, its state and replies, the approval it waits for, and the delegates it hands tasks to (AskAgent).
import type { ChatMessage, ToolCall, ToolSpec, Usage, WhileBusy } from './types';
import type { ToolQuestion } from './tool-questions';
import type { BlobRef } from './blobs';

/** What every delegated agent hands back (AskAgent's result): one shape, so outputs chain. */
export interface DelegateEnvelope {
  /** `needs_input`: it stopped for want of an answer or an approval nobody gave (the summary says what it needs). */
  status: 'ok' | 'error' | 'needs_input' | 'cancelled';
  summary: string;
  data?: unknown;
  usage: Usage;
}

/** A conversation run as a delegate (task mode): no greeting, the parent's task as its first prompt. */
export interface DelegateTask {
  task: string;
  /** The parent conversation's workflow id, and its AskAgent call: where questions and approvals go. Absent for a
   * run nobody started from a conversation (a schedule's: UnattendedRun). */
  parentId?: string;
  callId?: string;
  /** Files the task comes with (a webhook's body): the run's first prompt attaches them. */
  attachments?: BlobRef[];
  /** 1 for a user's conversation's delegate, 2 for its delegate's, … */
  depth: number;
}

/** What a delegate is waiting for from the user, as its parent shows it (DelegateReport). */
export type DelegateWait =
  | { kind: 'approval'; approval: PendingApproval }
  /** `agentName`: who asks, when it is not the delegate itself (a question passed up from deeper down). */
  | { kind: 'question'; question: string; callId: string; agentName?: string }
  /** One of its tools asks the user (an MCP server's elicitation or sampling request; core/tool-questions.ts). */
  | { kind: 'tool_question'; question: ToolQuestion };

/** A delegate tells its parent when it starts or stops waiting for the user (the delegateReport signal). */
export interface DelegateReport {
  /** The parent's AskAgent call this delegate answers. */
  callId: string;
  agentName?: string;
  waiting: DelegateWait | null;
}

/** One AskAgent call of a conversation, as the tree view shows it. */
export interface Delegation {
  callId: string;
  /** The delegate's workflow id: `<parent id>/<n>-<goal id>`. */
  childId: string;
  goalId: string;
  agentName: string;
  task: string;
  state: 'running' | 'awaiting_approval' | 'asking' | 'done';
  envelope?: DelegateEnvelope;
}

/** Where a conversation is: clients poll this instead of guessing. */
export type ConversationState = 'waiting_for_user' | 'working' | 'awaiting_approval' | 'ended';

/** What the status query answers. */
export interface ConversationStatus {
  state: ConversationState;
  lastReply: AgentReply | null;
  /** This run's AskAgent calls and their delegates' state (absent from runs before delegation). */
  delegations?: Delegation[];
  /** A fallback model answering for the goal's own since `since` (workflow time, ms); absent: its own model. */
  fallback?: FallbackInUse;
}

/** The fallback model in use (LLM_FALLBACK_MODELS), since its switch. */
export interface FallbackInUse {
  model: string;
  since: number;
}

/** A conversation and the delegates under it, as `agent tree` shows them. */
export interface DelegationNode {
  id: string;
  goalId: string;
  agentName: string;
  /** The conversation's own state for the root; a delegate's state as its parent sees it. */
  state: ConversationState | Delegation['state'];
  task?: string;
  envelope?: DelegateEnvelope;
  children: DelegationNode[];
}

/**
 * What a live view of the conversation needs in one query (the HTTP API's events and page): messages from `since`
 * on, each with its sequence number in the whole conversation (stable across continue-as-new), and the state.
 */
export interface ConversationFeed {
  goalId: string;
  /** Who the conversation is for (AgentGoalInput.owner), when the starter said. */
  owner: string | null;
  state: ConversationState;
  /** Sequence number of the oldest message still held: earlier ones live on only in the summary. */
  first: number;
  /** Sequence number the next message will get. */
  next: number;
  messages: { seq: number; message: ChatMessage }[];
  /** Prompts accepted and not yet taken up, oldest first; absent from older workers. */
  queued?: { promptId: number; ref?: string }[];
  pendingApproval: PendingApproval | null;
  /** The question a running tool asks the user (elicitation, sampling approval); absent from older workers. */
  question?: ToolQuestion | null;
  usage: Usage;
  /** What each goal's agent spent (costs from the worker's price table); absent from workers before cost tracking. */
  usageByGoal?: Record<string, Usage>;
  /** What each model's calls cost; absent from workers before fallback models. */
  usageByModel?: Record<string, Usage>;
  /** What a message sent while the agent works does, unless it says (goal.settings.whileBusy); absent from older
   * workers, whose conversations queue it. */
  whileBusy?: WhileBusy;
}

/** The agent's state when it next needs the user: the answer to a `prompt` or `confirm` update. */
export interface AgentReply {
  promptId: number;
  /** The agent's latest words, or '' when it only proposes a tool call. */
  reply: string;
  pendingToolCall: PendingApproval | null;
  /** A running tool's question for the user: answer it with the answerQuestion update. Absent from older workers. */
  question?: ToolQuestion | null;
  ended: boolean;
}

export interface PendingApproval {
  call: ToolCall;
  tool: string;
  description: string;
  /** Set when the call is a delegate's: the user answers it here, and the answer goes down to that agent. */
  delegate?: { agentName: string; childId: string };
}

export type ConfirmDecision =
  | { approve: true; args?: Record<string, unknown>; callId?: string }
  | { approve: false; reason: string; callId?: string };

/** What one run carries into the next on continue-as-new. */
export interface CarriedState {
  summary: string;
  messages: ChatMessage[];
  pendingPrompts: { id: number; text: string; attachments?: BlobRef[] }[];
  usage: Usage;
  promptSeq: number;
  runs: number;
  /** The sequence number of `messages[0]` in the whole conversation (earlier runs' older messages were summarised). */
  firstSeq?: number;
  /** Delegates started so far (child ids stay unique across runs); absent in runs from before delegation. */
  delegations?: number;
  /** Usage by goal so far; absent in runs from before cost tracking. */
  usageByGoal?: Record<string, Usage>;
  /** Usage by model so far, and the fallback answering (workflows/decider/models.ts); absent in runs from before. */
  usageByModel?: Record<string, Usage>;
  fallback?: FallbackInUse;
  /** Tools this conversation made (CreateTool); absent in runs from before made tools. */
  madeTools?: MadeHere[];
  /** The files it holds (attachments, results kept whole): ReadFile reads them; absent in runs from before files. */
  files?: BlobRef[];
}

/** A tool made in a conversation, and the goal whose agent made it (and keeps it). */
export interface MadeHere {
  goalId: string;
  spec: ToolSpec;
}

export interface AgentGoalInput {
  goalId: string;
  /** Who the conversation is for (a user id of the caller's choosing): searchable as AgentOwner. */
  owner?: string;
  /** Overrides the settings' history budget; tests use a low one to force continue-as-new. */
  historyEventBudget?: number;
  carried?: CarriedState;
  /** Set when this conversation is another agent's delegate (AskAgent), or a scheduled run (its one task). */
  task?: DelegateTask;
  /** Set when a schedule started this conversation: nobody is there to approve a tool call, so `approvals` says. */
  run?: UnattendedRun;
}

/**
 * How a run nobody watches treats a tool call that needs approval: `deny` (the model is told it may not, and says
 * what it would have done), `ask` (it waits for the owner's approval, within APPROVAL_TIMEOUT), or `auto` for the
 * tools named only. No policy loosens a tool's or a goal's `always`.
 */
export type UnattendedApprovals = 'deny' | 'ask' | { auto: string[] };

export interface UnattendedRun {
  source: 'schedule' | 'trigger';
  /** The schedule's or the trigger's name. */
  name: string;
  approvals: UnattendedApprovals;
  /** Where the run's outcome is POSTed when it ends (retried with backoff, one Idempotency-Key per run). */
  notify?: string;
}

/** A run's outcome as it is delivered to its `notify` URL, its Idempotency-Key header `key`. */
export interface RunOutcome {
  /** The run's conversation id. */
  run: string;
  /** The same for every attempt to deliver this run's outcome, and only this run's (`<run>/<its first run id>`: a
   * schedule may reuse a conversation id after a backfill over a time that already ran). */
  key: string;
  source: UnattendedRun['source'];
  name: string;
  goalId: string;
  status: DelegateEnvelope['status'];
  summary: string;
  usage: Usage;
}

/** Whether a run's outcome reached its `notify` URL; `error`: why it was given up. */
export interface OutcomeDelivery {
  url: string;
  delivered: boolean;
  error?: string;
}

export interface Transcript {
  goalId: string;
  /** `idle`: nobody wrote for IDLE_TIMEOUT. */
  endedBy: 'user' | 'goal_complete' | 'idle' | 'budget';
  summary: string;
  messages: ChatMessage[];
  usage: Usage;
  /** What each model's calls cost, its delegates' included; absent from workers before fallback models. */
  usageByModel?: Record<string, Usage>;
  /** A delegate's answer to its parent (task mode). */
  envelope?: DelegateEnvelope;
  /** An unattended run's outcome sent to its `notify` URL. */
  delivery?: OutcomeDelivery;
}

/** A conversation as lists show it (`agent list`, the API, the web chat). */
export interface ConversationSummary {
  id: string;
  goal: string | null;
  state: ConversationState;
  owner: string | null;
  /** The first prompt (memo), when the user has said something. */
  title: string | null;
  startedAt: string;
}
