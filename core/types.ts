// Shared, pure types: imported by the workflow (deterministic sandbox), activities, worker and client.
// Nothing here may import I/O code.

/** A JSON Schema object (draft 2020-12 / draft-07 subset) describing a tool's input. */
export type JsonSchema = Record<string, unknown>;

/** When a tool call waits for the user's approval. `default` follows the SHOW_CONFIRM setting. */
export type ApprovalPolicy = 'always' | 'never' | 'default';

/** What the LLM and the workflow know of a tool: data only, no handler. */
export interface ToolSpec {
  name: string;
  description: string;
  category: string;
  inputSchema: JsonSchema;
  approval: ApprovalPolicy;
  /** Changes nothing (native `readOnly`, MCP `readOnlyHint`); absent in specs recorded before it existed. */
  readOnly?: boolean;
  /** `builtin` tools are handled by the workflow itself (core/builtin-specs.ts: ListAgents, ChangeGoal, CompleteGoal,
   * AskAgent, AskUser, SearchTools, CreateAgent). */
  kind: 'native' | 'builtin' | 'mcp';
  /** For MCP tools: where the tool lives and how it may be retried. */
  mcp?: McpToolRef;
  /** For native tools served by another worker: the task queue their activities go to. */
  taskQueue?: string;
}

export interface McpToolRef {
  server: string;
  tool: string;
  /** From the MCP annotations: a call that is not idempotent is never silently re-run after it may have started. */
  idempotent: boolean;
  timeoutMs: number;
}

/** Which MCP tools a goal uses, beside its native tools. Any match selects a tool. */
export interface McpSelection {
  /** Endpoint names or globs; `*` is every enabled endpoint (a general-purpose agent). */
  servers?: string[];
  /** Endpoint categories from the registry: new servers of a category join the goal with no edit. */
  categories?: string[];
  /** Globs over `<server>/<tool>`. */
  tools?: string[];
}

/** What discovery saw of one endpoint, for clients and the LLM's benefit. */
export interface EndpointStatus {
  name: string;
  status: 'ok' | 'unavailable' | 'disabled';
  toolCount: number;
  transport: 'stdio' | 'http' | 'sse';
  categories: string[];
  description?: string;
  error?: string;
}

export interface CatalogSummary {
  /** Hash of the tools a goal sees: changes when tools appear, vanish or change. */
  version: string;
  endpoints: EndpointStatus[];
  registryError: string | null;
}

/** A goal: one agent's persona and the tools it may use. Goals are data. */
export interface Goal {
  id: string;
  category: string;
  agentName: string;
  /** Shown to users picking an agent. */
  agentFriendlyDescription: string;
  /** Told to the LLM: what the agent must achieve. */
  description: string;
  /** The first message the agent acts on, so it opens the conversation itself. */
  starterPrompt: string;
  /** A sample dialogue that shows the LLM the tone and the tool sequence. */
  exampleConversation: string;
  /** Tool names: native tools by name, or the builtins ListAgents / ChangeGoal. */
  tools: string[];
  /** MCP tools discovered at run time from the endpoint registry. */
  mcp?: McpSelection;
  /** Agents this one may hand a task to (the AskAgent tool): goal ids, globs over goal ids, or categories. */
  delegates?: string[];
  settings?: GoalSettings;
  /** A goal created in a chat (CreateAgent): which conversation and call, when, from which request. */
  provenance?: GoalProvenance;
}

export interface GoalProvenance {
  /** The conversation (workflow id) whose CreateAgent call wrote it. */
  createdBy: string;
  callId: string;
  createdAt: string;
  /** The user's words that asked for it. */
  request: string;
}

/** One tool SearchTools found: what the model needs to call it. */
export interface ToolMatch {
  name: string;
  description: string;
  server?: string;
  inputSchema: JsonSchema;
}

/** What CreateAgent's activities answer: the goal written, or why the draft cannot be one. */
export type GoalDraftResult = { goalId: string; file: string } | { problems: string[] };

/** Per-goal overrides of the worker's settings. */
export interface GoalSettings {
  /** `provider:model` for this agent (same LLM_KEY / LLM_BASE_URL as the worker's model). */
  model?: string;
  temperature?: number;
  /** LLM steps per user turn before the agent stops and asks. */
  maxToolSteps?: number;
  /** `always`: every tool call waits for the user; `never`: tools whose own policy is the default run at once. */
  approval?: 'always' | 'never';
  /** This agent's conversations stop at this spend instead of the worker's CONVERSATION_*_BUDGET. */
  budget?: Budget;
}

/** What a conversation may spend, delegates' spending included; either limit stops it. */
export interface Budget {
  tokens?: number;
  costUsd?: number;
}

export interface AgentSummary {
  goalId: string;
  agentName: string;
  description: string;
  category: string;
}

export interface ToolCall {
  id: string;
  tool: string;
  args: Record<string, unknown>;
}

/** What came of a tool call, handed to the LLM as JSON. A tool saying no is an observation, not a failure. */
export type ToolOutcome =
  | { status: 'ok'; result: unknown }
  | { status: 'invalid_input'; problems: string[]; missing: string[] }
  | { status: 'tool_error'; error: string }
  | { status: 'rejected'; reason: string };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** US dollars, from the worker's price table when the call was made; absent when no model used had a price. */
  costUsd?: number;
}

export type ChatMessage =
  | {
      kind: 'user';
      text: string;
      promptId: number;
      /** The goal's starter prompt, not the user's words. */ starter?: true;
    }
  | { kind: 'agent'; text: string; toolCalls: ToolCall[]; usage?: Usage }
  | { kind: 'tool'; call: ToolCall; outcome: ToolOutcome }
  | { kind: 'note'; text: string };

/** Behaviour flags, read once per run through an activity so replays see the same values. */
export interface Settings {
  showConfirm: boolean;
  multiGoal: boolean;
  pickerGoalId: string;
  /** Agent categories offered in multi-goal mode; empty means all. */
  goalCategories: string[];
  validatePrompts: boolean;
  maxToolStepsPerTurn: number;
  /** Continue-as-new once the run's history has this many events. */
  historyEventBudget: number;
  /** Messages kept verbatim across continue-as-new; older ones are summarised. */
  recentMessagesKept: number;
  /** How long a model call may keep failing (retries included) before the user is told; absent in older runs. */
  modelGiveUpSeconds?: number;
  /** Tools the operator lets run without approval (APPROVAL_EXEMPT_TOOLS; a tool whose code says `always` still asks). */
  approvalExemptTools?: string[];
  /** The server knows the search attributes (workflows/search-attributes.ts): the workflow may upsert them. */
  searchAttributes?: boolean;
  /** A tool call waiting this long for approval is declined (APPROVAL_TIMEOUT); absent in older runs. */
  approvalTimeoutSeconds?: number;
  /** A conversation waiting this long for the user ends, keeping its transcript (IDLE_TIMEOUT); absent in older runs. */
  idleTimeoutSeconds?: number;
  /** More tools than this and the LLM is offered SearchTools instead of them all (TOOL_SEARCH_THRESHOLD; 0 or absent: never). */
  toolSearchThreshold?: number;
  /** Delegation limits (DELEGATE_MAX_DEPTH, DELEGATE_MAX_PARALLEL, DELEGATE_TIMEOUT); absent in older runs. */
  delegation?: DelegationLimits;
  /** What a conversation may spend (CONVERSATION_TOKEN_BUDGET, CONVERSATION_COST_BUDGET); a goal's own budget wins. */
  budget?: Budget;
}

export interface DelegationLimits {
  /** How deep delegation may nest: a conversation started by a user is depth 0, its delegates depth 1. */
  maxDepth: number;
  /** AskAgent calls one LLM step may run at once; the rest are refused with a tool error. */
  maxParallel: number;
  /** A delegate still working after this long is stopped, and its envelope says so. */
  timeoutSeconds: number;
}

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
  /** The parent conversation's workflow id, and its AskAgent call: where questions and approvals go. */
  parentId: string;
  callId: string;
  /** 1 for a user's conversation's delegate, 2 for its delegate's, … */
  depth: number;
}

/** What a delegate is waiting for from the user, as its parent shows it (DelegateReport). */
export type DelegateWait =
  | { kind: 'approval'; approval: PendingApproval }
  /** `agentName`: who asks, when it is not the delegate itself (a question passed up from deeper down). */
  | { kind: 'question'; question: string; callId: string; agentName?: string };

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

export interface ResolvedGoal {
  goal: Goal;
  tools: ToolSpec[];
  /** Absent in histories recorded before MCP discovery existed. */
  catalog?: CatalogSummary;
}

/** Where a conversation is: clients poll this instead of guessing. */
export type ConversationState = 'waiting_for_user' | 'working' | 'awaiting_approval' | 'ended';

/** What the status query answers. */
export interface ConversationStatus {
  state: ConversationState;
  lastReply: AgentReply | null;
  /** This run's AskAgent calls and their delegates' state (absent from runs before delegation). */
  delegations?: Delegation[];
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
  pendingApproval: PendingApproval | null;
  usage: Usage;
  /** What each goal's agent spent (costs from the worker's price table); absent from workers before cost tracking. */
  usageByGoal?: Record<string, Usage>;
}

/** The agent's state when it next needs the user: the answer to a `prompt` or `confirm` update. */
export interface AgentReply {
  promptId: number;
  /** The agent's latest words, or '' when it only proposes a tool call. */
  reply: string;
  pendingToolCall: PendingApproval | null;
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
  pendingPrompts: { id: number; text: string }[];
  usage: Usage;
  promptSeq: number;
  runs: number;
  /** The sequence number of `messages[0]` in the whole conversation (earlier runs' older messages were summarised). */
  firstSeq?: number;
  /** Delegates started so far (child ids stay unique across runs); absent in runs from before delegation. */
  delegations?: number;
  /** Usage by goal so far; absent in runs from before cost tracking. */
  usageByGoal?: Record<string, Usage>;
}

export interface AgentGoalInput {
  goalId: string;
  /** Who the conversation is for (a user id of the caller's choosing): searchable as AgentOwner. */
  owner?: string;
  /** Overrides the settings' history budget; tests use a low one to force continue-as-new. */
  historyEventBudget?: number;
  carried?: CarriedState;
  /** Set when this conversation is another agent's delegate (AskAgent). */
  task?: DelegateTask;
}

export interface Transcript {
  goalId: string;
  /** `idle`: nobody wrote for IDLE_TIMEOUT. */
  endedBy: 'user' | 'goal_complete' | 'idle' | 'budget';
  summary: string;
  messages: ChatMessage[];
  usage: Usage;
  /** A delegate's answer to its parent (task mode). */
  envelope?: DelegateEnvelope;
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
