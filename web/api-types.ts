// The API's answers as the web chat reads them: core's types, and the few response shapes core has no name for.
// Type-only and free of the DOM, so test/unit/web-api-types.test.ts can hold them against the API's own schemas.
import type { AgentsDescription } from '../core/activity-types';
import type { BlobRef } from '../core/blobs';
import type { LiveEvent, SeqMessage } from '../core/live-events';
import type { MadeToolSummary } from '../core/made-tools';
import type { AgentListing, EndpointListing, ToolListing } from '../core/listings';
import type { CatalogSummary, ChatMessage, ToolCall, ToolOutcome, ToolSpec, Usage } from '../core/types';
import type { QuestionAnswer, QuestionField, ToolProgress, ToolQuestion } from '../core/tool-questions';
import type {
  AgentReply,
  ConfirmDecision,
  ConversationState,
  PendingApproval,
  ConversationSummary,
} from '../core/conversation-types';

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
}

export interface Started {
  conversationId: string;
  goalId: string;
  greeting?: AgentReply | null;
}

/** The events of GET /api/conversations/{id}/events: the API's own type (core/live-events.ts). */
export type { LiveEvent, SeqMessage };
