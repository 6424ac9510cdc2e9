// The package's public client entry (`temporal-agent-orchestrator/client`): what code outside this repository needs
// to start and drive conversations — the AgentClient, and for callers using a Temporal Client directly, the workflow,
// its messages and the shapes they carry. Everything else in the repository is internal and may change.
export { AgentClient, newConversationId } from './agent-client';
export { DEFAULT_TASK_QUEUE } from '../runtime/connection';
export type { ConversationFilter } from './conversation-list';
export type { ServerWait } from './server-outage';
export { startTracing, type Tracing } from '../runtime/tracing';
export { UserError } from '../core/user-error';
export { AgentGoalWorkflow } from '../workflows';
export { Schedules, scheduleId, type Overlap, type ScheduleRequest, type ScheduleSummary } from './schedules';
export { unattendedRuns, type UnattendedRunRecord } from './unattended-runs';
export type { Memory, MemoryAnswer, MemoryRequest, MemorySource } from '../core/memory';
export * from '../core/messages';
export type { AgentsDescription } from '../core/activity-types';
export type { CatalogDescription } from '../workflows/describe-workflows';
export type {
  EndpointFeatures,
  PromptOpening,
  PromptRef,
  PromptSummary,
  ResourceRead,
  ResourceRef,
  ResourceSummary,
  ResourceTemplateSummary,
} from '../core/mcp-features';
export { openingState, withAttachment } from '../core/mcp-features';
export { splitAttachment } from '../core/attachment';
export type { MadeToolSummary, MadeToolUsage, ToolExample, ToolProvenance } from '../core/made-tools';
export type {
  AgentSummary,
  CatalogSummary,
  ChatMessage,
  ContentAnnotations,
  EndpointStatus,
  Goal,
  ToolCall,
  ToolContent,
  ToolOutcome,
  ToolSpec,
  Usage,
} from '../core/types';
export type {
  AgentGoalInput,
  AgentReply,
  ConfirmDecision,
  ConversationState,
  ConversationStatus,
  ConversationSummary,
  PendingApproval,
  Transcript,
} from '../core/conversation-types';
