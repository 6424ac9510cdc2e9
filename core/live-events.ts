// The events of a conversation's live stream (GET /api/conversations/{id}/events, SSE): what the API sends
// (api/live-feed.ts) and the web chat reads (web/api.ts), one type for both.
import type { ConversationState, PendingApproval } from './conversation-types';
import type { ToolProgress, ToolQuestion } from './tool-questions';
import type { ChatMessage } from './types';

/** A durable message and its place in the conversation. */
export interface SeqMessage {
  seq: number;
  message: ChatMessage;
}

export type LiveEvent =
  | { event: 'message'; data: SeqMessage }
  | { event: 'token'; data: { attempt: string; offset: number; text: string } }
  | { event: 'discard'; data: { attempt: string } }
  | { event: 'approval'; data: { pending: PendingApproval | null } }
  | { event: 'question'; data: { question: ToolQuestion | null } }
  | { event: 'tool_progress'; data: ToolProgress }
  | { event: 'state'; data: { state: ConversationState; goalId: string } }
  | { event: 'error'; data: { message: string } };
