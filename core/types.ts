// Shared, pure types: imported by the workflow (deterministic sandbox), activities, worker and client.
// Nothing here may import I/O code.
import type { BlobRef } from './blobs';
import type { HookDecision, HookPoint } from './hook-points';
import type { GoalMemory } from './memory';

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
  /** `builtin` tools are handled by the workflow itself (their specs: core/builtin-specs.ts BUILTIN_TOOLS; what the
   * workflow does with each: workflows/decider/builtins/); `made` tools are pure functions CreateTool made, run in the
   * worker's sandbox. */
  kind: 'native' | 'builtin' | 'mcp' | 'made' | 'http' | 'a2a';
  /** For made tools: the version of the tool this spec is (a conversation keeps the version it was given). */
  made?: { version: number };
  /** For MCP tools: where the tool lives and how it may be retried. */
  mcp?: McpToolRef;
  /** For HTTP API tools (an operation of an `httpApis` entry): where it lives and how it may be retried. */
  http?: HttpToolRef;
  /** For an AskAgent call to a remote A2A agent (decided by the workflow, never offered as such): which one. */
  a2a?: { agent: string; contextId?: string };
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

export interface HttpToolRef {
  api: string;
  /** The operationId (or `METHOD /path`); `call` for a single-endpoint entry. */
  operation: string;
  method: string;
  /** GET, HEAD, OPTIONS: retried. Every other method gets one attempt once the request may have been sent. */
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
  /** `needs_connecting`: an OAuth endpoint nobody (or, in an owner's view, this owner) has connected yet. */
  status: 'ok' | 'unavailable' | 'disabled' | 'needs_connecting';
  toolCount: number;
  /** `oauth`: each owner connects it once (`agent endpoints connect`, Connect in the web chat). */
  auth?: 'oauth';
  /** `openapi`: an HTTP API by its document; `endpoint`: an HTTP API of one endpoint (`httpApis` entries). */
  transport: 'stdio' | 'http' | 'sse' | 'openapi' | 'endpoint';
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
  /** Its use of the owner's memories: recalled before planning (default), and whether Remember asks (default). */
  memory?: GoalMemory;
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
export type AgentDraftResult = { goalId: string; file: string } | { problems: string[] };

/** Per-goal overrides of the worker's settings. */
export interface GoalSettings {
  /** `provider:model` for this agent (LLM_KEY when it is LLM_MODEL's provider, else the provider's own key variable). */
  model?: string;
  /** Models to answer for this agent, in order, when its own keeps failing (instead of LLM_FALLBACK_MODELS). */
  fallbackModels?: string[];
  temperature?: number;
  /** The most tokens one of this agent's model answers may take (the provider's max_tokens). */
  maxOutputTokens?: number;
  /** LLM steps per user turn before the agent stops and asks. */
  maxToolSteps?: number;
  /** `always`: every tool call waits for the user; `never`: tools whose own policy is the default run at once. */
  approval?: 'always' | 'never';
  /** This agent's conversations stop at this spend instead of the worker's CONVERSATION_*_BUDGET. */
  budget?: Budget;
  /** What a message sent while a turn runs does (WHILE_BUSY; a message may say otherwise); `enqueue` by default. */
  whileBusy?: WhileBusy;
}

/**
 * What a user's message does when it arrives while the agent is working on a turn: `enqueue` waits for the turn to
 * end and starts the next; `interrupt` joins the running turn (a model call in flight is cancelled and its streamed
 * text discarded; a tool running or approved finishes first), so the next plan sees both messages; `reject` refuses it.
 */
export const WHILE_BUSY = ['enqueue', 'interrupt', 'reject'] as const;
export type WhileBusy = (typeof WHILE_BUSY)[number];

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
  /** The model's arguments were not JSON: why, in words for the model. The call is answered invalid_input at once,
   * without running, so the model can send it again (absent from calls before this existed). */
  malformed?: string;
}

/** What came of a tool call, handed to the LLM as JSON. A tool saying no is an observation, not a failure. */
export type ToolOutcome =
  | {
      status: 'ok';
      result: unknown;
      /** What an MCP tool answered beyond text (images, audio, resources, annotations), in its order, text included;
       * absent when it was text alone (and in histories from before). `result` keeps the text for older readers. */
      content?: ToolContent[];
      /** With `content`: `result` is the tool's structured content (MCP `structuredContent`, checked against its
       * outputSchema), and `content` the parts beside it; without, `result` is the parts' text. */
      structured?: true;
      /** A result too big for history, kept whole in the blob store: `result` is then its preview and how to read it. */
      stored?: BlobRef;
    }
  | { status: 'invalid_input'; problems: string[]; missing: string[] }
  | { status: 'tool_error'; error: string }
  | { status: 'rejected'; reason: string };

/** Who a piece of content is for, and how much it matters (MCP annotations). */
export interface ContentAnnotations {
  audience?: ('user' | 'assistant')[];
  /** 0 (least) to 1 (most important). */
  priority?: number;
  lastModified?: string;
}

/**
 * One part of a tool's answer as the conversation keeps it (from MCP content blocks). Media carries its bytes
 * (base64) only when small enough for history (core/tool-content.ts): a larger one keeps its type and size alone,
 * and is described to the model and the user instead of shown.
 */
export type ToolContent =
  | { type: 'text'; text: string; annotations?: ContentAnnotations }
  | { type: 'image' | 'audio'; mimeType: string; bytes: number; data?: string; annotations?: ContentAnnotations }
  | {
      type: 'resource_link';
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      annotations?: ContentAnnotations;
    }
  | {
      /** An embedded resource: its text, or its bytes (base64) when binary and small enough. */
      type: 'resource';
      uri: string;
      mimeType?: string;
      text?: string;
      data?: string;
      bytes?: number;
      annotations?: ContentAnnotations;
    };

export interface Usage {
  /** Every input token, cached or not (what the provider counts as the prompt). */
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Of `inputTokens`, those read from the provider's prompt cache (priced at `cachedInput`); absent: none reported. */
  cachedInputTokens?: number;
  /** US dollars, from the worker's price table when the call was made; absent when no model used had a price. */
  costUsd?: number;
}

export type ChatMessage =
  | {
      kind: 'user';
      text: string;
      promptId: number;
      /** The goal's starter prompt, not the user's words. */ starter?: true;
      /** Files the user attached, kept in the blob store (core/blobs.ts); absent in messages from before files. */
      attachments?: BlobRef[];
      /** The client's id for the message (an A2A message id), when it gave one. */
      ref?: string;
    }
  | {
      kind: 'agent';
      text: string;
      toolCalls: ToolCall[];
      usage?: Usage;
      /** A reply too long for history, kept whole in the blob store: `text` is its start. */
      stored?: BlobRef;
    }
  | { kind: 'tool'; call: ToolCall; outcome: ToolOutcome }
  /** `forUser`: for the user only (a model switch), never sent to the model. `hook`: a hook's decision (for the user too),
   * `text` its line (core/hooks.ts: hookLine). */
  | { kind: 'note'; text: string; forUser?: true; hook?: HookDecision };

/** Behaviour flags, read once per run through an activity so replays see the same values. */
export interface Settings {
  /** MEMORY: the worker keeps owners' memories (recall, Remember, Forget); absent in histories from before memory. */
  memory?: boolean;
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
  /** The worker's model (LLM_MODEL as `provider:model`): what a fallback says it stood in for. Absent in older runs. */
  model?: string;
  /** Models tried in order when the one in use keeps failing in a way another could fix (LLM_FALLBACK_MODELS). */
  fallbackModels?: string[];
  /** How long a model with a fallback after it may keep failing before the next is asked (LLM_FALLBACK_AFTER). */
  fallbackAfterSeconds?: number;
  /** How long a conversation stays on a fallback before its own model is asked again (LLM_FALLBACK_COOLDOWN). */
  fallbackCooldownSeconds?: number;
  /** Tools the operator lets run without approval (APPROVAL_EXEMPT_TOOLS; a tool whose code says `always` still asks). */
  approvalExemptTools?: string[];
  /** Where this worker's hooks run (HOOKS, core/hooks.ts); absent in older runs and without hooks. */
  hooks?: HookPoint[];
  /** The server knows the search attributes (workflows/search-attributes.ts): the workflow may upsert them. */
  searchAttributes?: boolean;
  /** A tool call waiting this long for approval is declined (APPROVAL_TIMEOUT); absent in older runs. */
  approvalTimeoutSeconds?: number;
  /** A conversation waiting this long for the user ends, keeping its transcript (IDLE_TIMEOUT); absent in older runs. */
  idleTimeoutSeconds?: number;
  /** A tool's question (MCP elicitation, a sampling approval) nobody answers within this is declined
   * (TOOL_QUESTION_TIMEOUT); absent in older runs. */
  toolQuestionTimeoutSeconds?: number;
  /** More tools than this and the LLM is offered SearchTools instead of them all (TOOL_SEARCH_THRESHOLD; 0 or absent: never). */
  toolSearchThreshold?: number;
  /** A call whose worker stops heartbeating (it died) is given to another worker after this long
   * (HEARTBEAT_TIMEOUT); absent in older runs, which keep 10 s. */
  heartbeatTimeoutSeconds?: number;
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

export interface ResolvedGoal {
  goal: Goal;
  tools: ToolSpec[];
  /** Absent in histories recorded before MCP discovery existed. */
  catalog?: CatalogSummary;
  /** The per-turn look found the catalog version the conversation already has: `tools` is left empty (a large
   * catalog's specs are recorded in history once, not on every turn). */
  unchanged?: boolean;
}
