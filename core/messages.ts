// Signals, queries and updates of AgentGoalWorkflow, declared once and shared by the workflow, the client and the
// activities that query a conversation (the transcript). Definitions only: no workflow code runs here.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AgentSummary, CatalogSummary, ChatMessage, Goal, ToolSpec, Usage, WhileBusy } from './types';
import type {
  AgentReply,
  ConfirmDecision,
  ConversationFeed,
  ConversationStatus,
  DelegateReport,
  Delegation,
  PendingApproval,
} from './conversation-types';
import type { AnsweredQuestion, QuestionAnswer, ToolQuestion } from './tool-questions';
import type { BlobRef } from './blobs';

/** A prompt: the user's words, and the files they attached (stored first: AgentClient.attach, POST /api/files). */
/** A prompt: its words, files stored before, and `ref`, the client's own id for the message (an A2A message id), kept
 * with it so the client can find the turn it started. */
export type PromptInput =
  | string
  | {
      text: string;
      attachments?: BlobRef[];
      ref?: string;
      /** Instead of the goal's `whileBusy`. */ whileBusy?: WhileBusy;
    };

/** What the agent says when its turn was stopped: clients read a turn that ends so as cancelled (api/a2a). */
export const STOPPED_REPLY = 'Stopped, as you asked. What would you like to do next?';

export const userPromptSignal = defineSignal<[PromptInput]>('userPrompt');
export const confirmSignal = defineSignal<[ConfirmDecision]>('confirm');
export const endChatSignal = defineSignal('endChat');
export const changeGoalSignal = defineSignal<[string]>('changeGoal');
/** Stops the running turn: the model call or tool in flight is cancelled and the agent waits for the next prompt. */
export const cancelTurnSignal = defineSignal('cancelTurn');

/** A parent passes its user's answer down to the delegate whose tool asks (or whose own delegate's does). */
export const answerToolQuestionSignal = defineSignal<[AnsweredQuestion]>('answerToolQuestion');

/** A delegate tells its parent what it waits for from the user (an approval, a question), or that it waits no more. */
export const delegateReportSignal = defineSignal<[DelegateReport]>('delegateReport');

/** Sends a prompt and returns the agent's reply once it next needs the user. */
export const promptUpdate = defineUpdate<AgentReply, [PromptInput]>('prompt');
/** Approves or rejects the pending tool call and returns the agent's reply once it next needs the user. */
export const confirmUpdate = defineUpdate<AgentReply, [ConfirmDecision]>('confirmAndWait');
/** Stops the running turn and returns the agent's reply once it has stopped; refused when nothing is running. */
export const cancelTurnUpdate = defineUpdate<AgentReply, []>('cancelTurnAndWait');
/** Answers the question a tool is asking and returns the agent's reply once it next needs the user. */
export const answerQuestionUpdate = defineUpdate<AgentReply, [AnsweredQuestion]>('answerQuestion');
/** From a tool call's activity: asks the user (update id = question id) and returns the answer once given, or a
 * decline when nobody answered in time, or a cancel when the call ended first. */
export const toolQuestionUpdate = defineUpdate<QuestionAnswer, [ToolQuestion]>('toolQuestion');

export const historyQuery = defineQuery<ChatMessage[]>('history');
/** The goal and tools a run sent its model calls as `version` (PlanContextRef); null once it no longer keeps it. */
export const planContextQuery = defineQuery<{ goal: Goal; tools: ToolSpec[] } | null, [number]>('planContext');
export const currentGoalQuery = defineQuery<Goal | null>('currentGoal');
export const pendingToolCallQuery = defineQuery<PendingApproval | null>('pendingToolCall');
export const agentsQuery = defineQuery<AgentSummary[]>('agents');
export const usageQuery = defineQuery<{
  total: Usage;
  turns: number;
  runs: number;
  byGoal?: Record<string, Usage>;
  /** Absent from workers before fallback models. */
  byModel?: Record<string, Usage>;
}>('usage');
export const toolsQuery = defineQuery<ToolSpec[]>('tools');
/** The MCP endpoints' state as of the last discovery, and a broken registry edit if there is one. */
export const catalogQuery = defineQuery<CatalogSummary | null>('catalog');
/** Whether the agent is waiting for the user, working, or done: lets clients poll without guessing. */
export const statusQuery = defineQuery<ConversationStatus>('status');

/** This conversation's AskAgent calls: each delegate's id, agent, task, state and (once done) envelope. */
export const delegationsQuery = defineQuery<Delegation[]>('delegations');

/** Messages from a sequence number on, with state, approval and usage: one query per look of a live view. */
export const feedQuery = defineQuery<ConversationFeed, [number]>('feed');

/** Largest prompt accepted, in characters; protects the history from oversized payloads. */
export const MAX_PROMPT_CHARS = 16_000;

/** Most files one prompt may carry. */
export const MAX_ATTACHMENTS = 10;
/** A client's id for a message (PromptInput.ref): an A2A message id is a UUID, well within this. */
export const MAX_PROMPT_REF_CHARS = 200;
