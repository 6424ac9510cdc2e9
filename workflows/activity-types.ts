// The activity contract, as pure types: activities implement it, the workflow schedules it.
// Lives here so workflow code never imports the activities/ folder, not even for types.
import type {
  AgentSummary,
  CatalogSummary,
  McpToolRef,
  ToolSpec,
  ChatMessage,
  Goal,
  PlanRequest,
  PlanResult,
  PromptVerdict,
  ResolvedGoal,
  Settings,
  ToolOutcome,
} from './types';

export interface ConfigActivities {
  loadSettings(): Promise<Settings>;
  listAgents(): Promise<AgentSummary[]>;
  /** Fails with the non-retryable `UnknownGoal` for an id no goal has. */
  resolveGoal(goalId: string): Promise<ResolvedGoal>;
}

export interface LlmActivities {
  /** `agents`: in multi-goal mode, a request another agent can serve fits (the agent switches to it). */
  validatePrompt(input: { goal: Goal; messages: ChatMessage[]; prompt: string; agents?: AgentSummary[] }): Promise<PromptVerdict>;
  planTurn(input: PlanRequest): Promise<PlanResult>;
  summarizeConversation(input: { goal: Goal; previousSummary: string; messages: ChatMessage[] }): Promise<string>;
}

export interface McpActivities {
  /** Calls an MCP tool over the worker's pooled session; tool failures come back as outcomes. */
  callMcpTool(input: { name: string; ref: McpToolRef; args: Record<string, unknown> }): Promise<ToolOutcome>;
  /** The registry's endpoints and the catalog a goal sees (for clients: `agent endpoints`, `agent tools`). */
  describeCatalog(input: { goalId?: string }): Promise<{ catalog: CatalogSummary; tools: ToolSpec[] }>;
}

/** Native tools run as activities whose type is the tool's name; the worker's catch-all `default` runs them. */
export type ToolActivity = (args: Record<string, unknown>) => Promise<ToolOutcome>;

/** Failure types the activities raise, named once so retry policies and the workflow agree. */
export const FailureTypes = {
  LlmAuth: 'LlmAuth',
  LlmMisconfigured: 'LlmMisconfigured',
  LlmBadRequest: 'LlmBadRequest',
  LlmRateLimited: 'LlmRateLimited',
  LlmUnavailable: 'LlmUnavailable',
  UnknownGoal: 'UnknownGoal',
  UnknownTool: 'UnknownTool',
  ToolInputInvalid: 'ToolInputInvalid',
  Misconfigured: 'Misconfigured',
  McpUnavailable: 'McpUnavailable',
} as const;
