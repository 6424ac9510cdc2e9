// What the chat view knows of one conversation, and how the API's answers and live events change it (a pure
// reducer). Messages are kept by sequence number, so a message seen twice (a reload, a reconnect) shows once.
import type { WhileBusy } from '../core/types';
import type {
  Conversation,
  ConversationState,
  LiveEvent,
  PendingApproval,
  SeqMessage,
  ToolProgress,
  ToolQuestion,
  Usage,
} from './api';

export interface ChatState {
  goalId: string | null;
  state: ConversationState | null;
  messages: SeqMessage[];
  pending: PendingApproval | null;
  /** The question a running tool asks the user. */
  question: ToolQuestion | null;
  /** The latest progress of the tool running now; gone with its result. */
  progress: ToolProgress | null;
  usage: Usage | null;
  /** Text of the reply being written, per model attempt; the agent's durable message replaces it. */
  partial: { attempt: string; text: string } | null;
  /** What a message sent while the agent works does, unless the message says (the goal's whileBusy). */
  whileBusy: WhileBusy;
  /** The server's last `error` event, cleared by the next state. */
  problem: string | null;
}

export type ChatAction =
  { type: 'loaded'; conversation: Conversation } | { type: 'usage'; usage: Usage } | { type: 'event'; e: LiveEvent };

export const EMPTY: ChatState = {
  goalId: null,
  state: null,
  messages: [],
  pending: null,
  question: null,
  progress: null,
  usage: null,
  partial: null,
  whileBusy: 'enqueue',
  problem: null,
};

export function reduce(s: ChatState, a: ChatAction): ChatState {
  switch (a.type) {
    case 'loaded': {
      const c = a.conversation;
      // The event stream opened next sends the partial text again, from its start.
      return {
        ...s,
        goalId: c.goalId,
        state: c.state,
        messages: merge(s.messages, c.messages),
        pending: c.pendingApproval,
        question: c.question ?? null,
        usage: c.usage,
        partial: null,
        whileBusy: c.whileBusy ?? 'enqueue',
      };
    }
    case 'usage':
      return { ...s, usage: a.usage };
    case 'event':
      return onEvent(s, a.e);
  }
}

function onEvent(s: ChatState, e: LiveEvent): ChatState {
  switch (e.event) {
    case 'message':
      return {
        ...s,
        messages: merge(s.messages, [e.data]),
        partial: e.data.message.kind === 'agent' ? null : s.partial,
        progress: e.data.message.kind === 'tool' ? null : s.progress,
        problem: null,
      };
    case 'token': {
      const before = s.partial?.attempt === e.data.attempt ? s.partial.text.slice(0, e.data.offset) : '';
      return { ...s, partial: { attempt: e.data.attempt, text: before + e.data.text } };
    }
    case 'discard':
      return s.partial?.attempt === e.data.attempt ? { ...s, partial: null } : s;
    case 'approval':
      return { ...s, pending: e.data.pending };
    case 'question':
      return { ...s, question: e.data.question };
    case 'tool_progress':
      return { ...s, progress: e.data };
    case 'state':
      return {
        ...s,
        state: e.data.state,
        goalId: e.data.goalId,
        partial: e.data.state === 'working' ? s.partial : null,
        // Kept while the user answers the tool's question (its state is waiting_for_user); the tool's result clears it.
        progress: e.data.state === 'ended' ? null : s.progress,
        problem: null,
      };
    case 'error':
      return { ...s, problem: e.data.message };
  }
}

function merge(have: SeqMessage[], add: SeqMessage[]): SeqMessage[] {
  const seen = new Set(have.map((m) => m.seq));
  const fresh = add.filter((m) => !seen.has(m.seq));
  if (fresh.length === 0) return have;
  return [...have, ...fresh].sort((a, b) => a.seq - b.seq);
}

/**
 * Whether a message is the goal's starter prompt: the instruction that makes the agent open the conversation, not
 * the user's words, so the chat does not show it. A new conversation's first message (seq 0) is always one.
 */
export function isStarter({ seq, message }: SeqMessage): boolean {
  // Conversations from before the flag existed: their first message is the starter prompt.
  return message.kind === 'user' && (message.starter === true || seq === 0);
}

/** The sequence number of the first message not yet held (what `since` asks the event stream for). */
export function nextSeq(messages: SeqMessage[]): number {
  return messages.length ? messages[messages.length - 1]!.seq + 1 : 0;
}
