// The API's answers as the web chat reads them: core's types, and the few response shapes core has no name for.
// Type-only and free of the DOM, so test/unit/web-api-types.test.ts can hold them against the API's own schemas.
import type { AgentsDescription } from '../core/activity-types';
import type { BlobRef } from '../core/blobs';
import type { LiveEvent, SeqMessage } from '../core/live-events';
import type { MadeToolSummary } from '../core/made-tools';
import type { AgentListing, EndpointListing, ToolListing } from '../core/listings';
import type { CatalogSummary, ChatMessage, ToolCall, ToolOutcome, ToolSpec, Usage, WhileBusy } from '../core/types';
import type { QuestionAnswer, QuestionField, ToolProgress, ToolQuestion } from '../core/tool-questions';
import type {
  AgentReply,
  ConfirmDecision,
  ConversationState,
  PendingApproval,
  ConversationSummary,
  UnattendedApprovals,
} from '../core/conversation-types';
import type { RunStarter, StarterStats } from '../core/run-starter';
import type { Memory, MemorySource, MemoryUse } from '../core/memory';

export type {
  AgentListing,
  EndpointListing,
  ToolListing,
  AgentsDescription,
  AgentReply,
  BlobRef,
  CatalogSummary,
  ChatMessage,
  ConfirmDecision,
  ConversationState,
  ConversationSummary,
  MadeToolSummary,
  PendingApproval,
  QuestionAnswer,
  QuestionField,
  ToolCall,
  ToolOutcome,
  ToolProgress,
  ToolQuestion,
  ToolSpec,
  Usage,
  RunStarter,
  StarterStats,
  UnattendedApprovals,
  Memory,
  MemorySource,
  MemoryUse,
};

/** GET /api/conversations/{id}. */
export interface Conversation {
  id: string;
  goalId: string;
  owner: string | null;
  state: ConversationState;
  messages: SeqMessage[];
  pendingApproval: PendingApproval | null;
  /** The question a running tool asks the user (absent from APIs before tool questions). */
  question?: ToolQuestion | null;
  usage: Usage;
  /** What a message sent while the agent works does (absent from APIs before steering: it waits). */
  whileBusy?: WhileBusy;
}

export interface Started {
  conversationId: string;
  goalId: string;
  greeting?: AgentReply | null;
}

/** The events of GET /api/conversations/{id}/events: the API's own type (core/live-events.ts). */
export type { LiveEvent, SeqMessage };

/** A run a schedule or a webhook trigger started, with its outcome once it has ended (client/unattended-runs.ts). */
export interface UnattendedRunRecord extends RunStarter {
  conversationId: string;
  startedAt: string;
  /** The workflow's: running, completed, failed, cancelled, terminated, timed_out. */
  state: string;
  /** Once it has ended: the agent's answer's status (ok, error, needs_input, cancelled) and words. */
  status?: string;
  summary?: string;
  costUsd?: number;
  delivered?: boolean;
}

/** POST /api/schedules: `cron` or `every`, one of them. */
export interface ScheduleRequest {
  name: string;
  goalId: string;
  prompt: string;
  cron?: string;
  every?: string;
  timezone?: string;
  overlap?: 'skip' | 'buffer-one' | 'allow-all';
  approvals?: UnattendedApprovals;
  note?: string;
}

/** GET /api/schedules (each), GET /api/schedules/{name} (with `runs`). */
export interface Schedule {
  name: string;
  goalId: string;
  prompt: string;
  owner?: string;
  approvals: UnattendedApprovals;
  notify?: string;
  paused: boolean;
  note?: string;
  /** When its spec next comes due, ISO. */
  nextRuns: string[];
  runs?: UnattendedRunRecord[];
}

/** GET /api/triggers: the registry file's webhook triggers, each with its latest runs (those the caller may see). */
export interface TriggerList {
  triggers: {
    name: string;
    goal: string;
    signature: string;
    enabled: boolean;
    description?: string;
    owner?: string;
    runs: UnattendedRunRecord[];
  }[];
  /** The registry file could not be read: why. */
  error?: string;
}

/** GET /api/memories/{id}: the memory, and the conversations whose turns were shown it, latest first (a worker from
 * before it kept them answers without `uses`). */
export interface MemoryDetail {
  memory: Memory;
  uses?: MemoryUse[];
}
