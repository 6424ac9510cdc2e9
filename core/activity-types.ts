// The activity contract, as pure types: activities implement it, the workflow schedules it.
// Lives here so workflow code never imports the activities/ folder, not even for types.
import type { BlobRef } from './blobs';
import type {
  AgentSummary,
  CatalogSummary,
  ChatMessage,
  Goal,
  GoalProvenance,
  HttpToolRef,
  McpToolRef,
  ResolvedGoal,
  Settings,
  ToolCall,
  ToolSpec,
  Usage,
} from './types';
import type { MadeToolSummary } from './made-tools';
import type { HookDecision, HookedOutcome, PromptScreening } from './hooks';
import type { EndpointFeatures, PromptOpening, PromptRef, ResourceRead, ResourceRef } from './mcp-features';
import type { RunOutcome } from './conversation-types';
import type { MemoryAnswer, MemoryRequest, RecallFor } from './memory';

/** Settings and goals reach the workflow through activities, so a replay sees what the original run saw. */
export interface GoalActivities {
  loadSettings(): Promise<Settings>;
  listAgents(): Promise<AgentSummary[]>;
  /** For clients (`agent agents`, checking a goal id): what the worker offers, and the goal files it left out. */
  describeAgents(): Promise<AgentsDescription>;
  /** Fails with the non-retryable `UnknownGoal` for an id no goal has. With `known` (a catalog version) and no change
   * since, the answer says `unchanged` and carries no tools. */
  resolveGoal(goalId: string, known?: string): Promise<ResolvedGoal>;
  /** `agent goals`: the goals folder's files, with provenance; disable, enable or remove one. */
  describeGoalFiles(): Promise<GoalFileSummary[]>;
  manageGoal(input: { action: 'disable' | 'enable' | 'remove'; goalId: string }): Promise<GoalFileSummary>;
}

/** Worker versioning, as a conversation asks about it: whether to move to the build new conversations start on. */
export interface DeploymentActivities {
  /** Whether the deployment routes new conversations (current or ramping) to a build created after `buildId`: a
   * newer build to move to, not a rollback to stay clear of. */
  newerBuildRouted(version: { deployment: string; buildId: string }): Promise<boolean>;
}

export interface MemoryActivities {
  /** People's requests of their memories (`agent memory`, the API), through the worker that keeps them. */
  manageMemory(req: MemoryRequest): Promise<MemoryAnswer>;
}

export interface OutcomeActivities {
  /** POSTs an unattended run's outcome to its `notify` URL with `Idempotency-Key: <run>`; throws to be retried. */
  deliverOutcome(delivery: { url: string; outcome: RunOutcome }): Promise<void>;
}

export interface GoalFileSummary {
  goalId: string;
  file: string;
  disabled: boolean;
  provenance?: GoalProvenance;
}

export interface AgentsDescription {
  /** The agents a user can switch to, after the worker's GOAL_CATEGORIES filter. */
  agents: AgentSummary[];
  /** Every goal a conversation can start with, the picker included. */
  goalIds: string[];
  /** Remote A2A agents from the registry (`a2a:<name>`): delegates, not agents a conversation can start with. */
  remote?: AgentSummary[];
  /** Where each goal is defined: `code`, or its file in the goals folder. */
  sources: Record<string, string>;
  /** Goal files left out, and why. */
  problems: string[];
}

/** Model-written code, run in the worker's sandbox (tools/made/), and the made tools' registry. */
export interface CodeActivities {
  /** A made tool's call: version `version` of `name`, run in the sandbox. */
  runMadeTool(
    input: { name: string; version: number; args: Record<string, unknown> } & ToolCaller,
  ): Promise<HookedOutcome>;
  /** `agent tools --made`: every made tool file, broken and disabled ones too (their usage comes from Temporal's
   * histories, client/listings.ts). */
  describeMadeTools(): Promise<MadeToolSummary[]>;
  manageMadeTool(input: { action: 'disable' | 'enable' | 'remove'; name: string }): Promise<MadeToolSummary[]>;
}

/** Files kept whole outside history (core/blobs.ts): a window read for ReadFile. */
export interface LlmActivities {
  validatePrompt(input: ValidateRequest): Promise<PromptVerdict>;
  planTurn(input: PlanRequest): Promise<PlanResult>;
  /** validatePrompt and planTurn at once: one model wait; the plan comes back only when the prompt fits. */
  vetAndPlan(input: VetAndPlanRequest): Promise<PromptVerdict>;
  summarizeConversation(input: SummarizeRequest): Promise<string>;
  /** At the end of a conversation whose goal says `memory.extract`: facts the user said, kept as proposed memories
   * (never recalled until the owner keeps one). Keyed by the run that ended: run again, it writes nothing twice. */
  proposeMemories(input: ProposeMemoriesRequest): Promise<ProposedMemories>;
}

export interface McpActivities {
  /** Calls an MCP tool over the worker's pooled session; tool failures come back as outcomes. What the server asks
   * during the call goes to the conversation (core/tool-questions.ts); `spent`: what its sampling cost. */
  callMcpTool(input: McpCallRequest): Promise<HookedOutcome & { spent?: Usage }>;
  /** Calls an HTTP API operation (`httpApis`); 4xx answers and non-idempotent failures come back as outcomes. */
  callHttpTool(
    input: { name: string; ref: HttpToolRef; args: Record<string, unknown> } & ToolCaller,
  ): Promise<HookedOutcome>;
  /** The registry's endpoints and every MCP tool (for clients: `agent endpoints`, `agent tools`). */
  describeCatalog(): Promise<{ catalog: CatalogSummary; tools: ToolSpec[] }>;
  /** An endpoint's resources, resource templates and prompts (`agent endpoints <name>`, the API). */
  describeEndpointFeatures(input: { endpoint: string; owner?: string }): Promise<EndpointFeatures>;
  /** Reads a resource for a client to attach to a message; within the tool result cap. */
  readResource(input: ResourceRef): Promise<ResourceRead>;
  /** A server prompt's messages, for a client to open a conversation with. */
  getPrompt(input: PromptRef): Promise<PromptOpening>;
}

/** Who calls a tool, as every kind's activity is told (the tool pipeline's claim check and hooks): absent in calls
 * scheduled before that kind said it. */
export interface ToolCaller {
  /** Whose conversation calls (AgentGoalInput.owner): a result kept whole is theirs. */
  owner?: string;
  /** The calling conversation's goal. */
  goalId?: string;
}

export interface McpCallRequest extends ToolCaller {
  /** `<server>__<tool>`. */
  name: string;
  ref: McpToolRef;
  args: Record<string, unknown>;
  /** Set when the conversation's budget is used (what was spent, against what): the server's sampling is refused. */
  overBudget?: string;
  /** A delegate's call: the user's conversation at the top of its tree, where the tool's progress shows too. */
  userConversation?: string;
}

/** An AskAgent call to a remote A2A agent (`a2a:<name>` from the registry): one task of that agent, run to its end. */
export interface A2aCallRequest extends ToolCaller {
  /** The tool the model called (AskAgent). */
  name: string;
  /** The registry name of the remote agent. */
  agent: string;
  /** The remote agent's context to go on with (its last task for this conversation). */
  contextId?: string;
  args: Record<string, unknown>;
  /** A delegate's call: the user's conversation at the top of its tree. */
  userConversation?: string;
}

export interface A2aActivities {
  askRemoteAgent(input: A2aCallRequest): Promise<HookedOutcome>;
}

/** Native tools run as activities whose type is the tool's name; the worker's catch-all `default` runs them. */
export type ToolActivity = (args: Record<string, unknown>, call?: NativeToolCall) => Promise<HookedOutcome>;

/** What a native tool's call says besides its arguments (local activities: PATCHES.localNativeTools). */
export interface NativeToolCall {
  /** Whose conversation calls: a result kept whole is kept for them. A local activity runs inside its workflow's
   * task, so it cannot ask the workflow (a query would wait for that very task); absent in calls scheduled before
   * every kind said it, the conversation is asked. */
  owner?: string;
  /** The calling conversation's goal, for the hooks; absent in calls scheduled before every kind said it. */
  goalId?: string;
}

export { FailureTypes } from './failure-types';

// ---- the model's requests and answers ----------------------------------------------------------------------

/** The planner's answer for one LLM step. */
export interface PlanResult {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** The model that answered (`provider:model`); absent from workers before the run view. */
  model?: string;
  /** A reply longer than MAX_REPLY_CHARS, kept whole in the blob store: `text` is its start. */
  stored?: BlobRef;
  /** What hooks decided about this model call (core/hooks.ts); one that stopped it leaves no words and no calls. */
  hooks?: HookDecision[];
  /** The turn's prompt, rewritten or blocked by a hook: no model was asked; the workflow records it, then asks. */
  screened?: PromptScreening;
  /** The memories the model was shown (their ids), when it was shown any. */
  memories?: string[];
}

export interface PromptVerdict {
  valid: boolean;
  /** When invalid: what the agent says to steer the user back to the goal. */
  reply: string;
  usage: Usage;
  /** The model that checked the prompt; absent from workers before the run view. */
  model?: string;
  /** From vetAndPlan, when the prompt fits: the turn's plan, made while the prompt was being checked. */
  plan?: PlanResult;
  /** What hooks decided about the check's model call. */
  hooks?: HookDecision[];
  /** The prompt, rewritten or blocked by a hook: neither check nor plan was made. */
  screened?: PromptScreening;
}

/**
 * Which messages an LLM activity reads, without the whole transcript in every activity's input (which would make
 * history grow with the square of the conversation's length, and a few large messages exceed the payload limit):
 * the first `count` of the workflow's messages, of which only the last ones, `tail`, are sent. The worker keeps
 * the rest from earlier calls of the same run, or reads them with the workflow's history query.
 */
export interface TranscriptRef {
  count: number;
  tail: ChatMessage[];
}

/** The transcript, by reference (`transcript`) or in full (`messages`: runs recorded before, tests, benchmarks). */
export type TranscriptInput =
  { transcript: TranscriptRef; messages?: undefined } | { messages: ChatMessage[]; transcript?: undefined };

/** The goal a model call serves and the tools it is offered. */
export interface PlanContext {
  goal: Goal;
  tools: ToolSpec[];
}

/**
 * Which goal and tools a model call has, without them in every request (a goal and six tools' specs are ~4 KB of each
 * turn's history, sent again unchanged): each distinct pair a run sends is numbered, `version`; the first request
 * with it carries it whole, later ones only the number. The worker keeps what it was sent, or reads it with the
 * workflow's planContext query. Without `context` (runs recorded before, tests, benchmarks) the pair is given whole.
 */
export interface PlanContextRef {
  version: number;
  /** A hash of the pair's content: a worker holding other content under this number (kept from a request that a
   * build numbering differently sent) asks the run instead of using it. */
  fingerprint: string;
}

export type PlanContextInput =
  (PlanContext & { context?: PlanContextRef }) | { context: PlanContextRef; goal?: undefined; tools?: undefined };

export type PlanRequest = {
  summary: string;
  agents: AgentSummary[];
  /** The turn's first model call: the userMessage hooks see its prompt (the transcript's last user message) first. */
  screenPrompt?: true;
  /** Recall this owner's memories for this agent before planning (the goal reads memory). */
  memory?: RecallFor;
} & PlanContextInput &
  TranscriptInput &
  ModelChoice;

export type ValidateRequest = {
  goal: Goal;
  prompt: string;
  /** In multi-goal mode, a request another agent can serve fits (the agent switches to it). */
  agents?: AgentSummary[];
  /** The userMessage hooks see `prompt` first. */
  screenPrompt?: true;
} & TranscriptInput &
  ModelChoice;

/** A fallback the workflow chose (workflows/fallback.ts); absent: the goal's own model, else the worker's. */
export interface ModelChoice {
  /** `provider:model` to ask instead. */
  model?: string;
  /** The model it stands in for, for metrics and traces. */
  fallbackFrom?: string;
  /** The setting that bounds this call's retries, named when it gives up: LLM_FALLBACK_AFTER while a fallback comes
   * after it; absent: MODEL_GIVE_UP. */
  giveUpSetting?: string;
}

/** Checking a prompt and planning its turn at once (one model wait): the transcript ends with `prompt`. */
export type VetAndPlanRequest = PlanRequest & { prompt: string };

/** A conversation that ended, for its memories to be proposed: the goal that asked, whose they would be, and the
 * transcript the model reads (the words of the user and the agent, never tools' results or files). */
export type ProposeMemoriesRequest = {
  goal: Goal;
  owner: string;
} & TranscriptInput &
  ModelChoice;

export interface ProposedMemories {
  /** The ids of the memories proposed: this attempt's, or those an earlier attempt of the same conversation wrote. */
  proposed: string[];
  /** Facts the owner had already, in the same words: not proposed again. */
  known: number;
  /** Facts not written for a limit (MEMORY_MAX_PER_OWNER, MEMORY_MAX_BYTES), in words naming it. */
  refused?: string[];
  /** What the model call cost (nothing when no model was asked). */
  usage: Usage;
  model?: string;
}

export type SummarizeRequest = {
  goal: Goal;
  previousSummary: string;
} & TranscriptInput;
