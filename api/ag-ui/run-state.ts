// What an AG-UI client sees of a conversation besides its messages: the shared state (STATE_SNAPSHOT, STATE_DELTA)
// under one key, so an application's own state keys survive our snapshots; the interrupts a run ends with (the tool
// call waiting for approval, the question a running tool asks); and whether the turn a run follows is over. All read
// from the conversation's feed, so any API process answers the same.
import type { Interrupt, JsonPatchOperation, RunFinishedOutcome } from '@ag-ui/core';
import type { ConversationFeed, ConversationState, PendingApproval } from '../../core/conversation-types';
import type { ToolQuestion } from '../../core/tool-questions';
import { z } from 'zod';
import { STOPPED_REPLY } from '../../core/messages';
import { ConfirmBody } from '../schemas';

/** An approval's resume payload is read as /confirm's body (run-input.ts; its callId is the interrupt's, whatever is
 * sent): that body's schema, as the interrupt tells the client. */
const APPROVAL_RESPONSE_SCHEMA = z.toJSONSchema(ConfirmBody, { io: 'input' });

/** The key of the client's state that holds ours. */
export const STATE_KEY = 'conversation';

export interface ConversationView {
  id: string;
  goalId: string;
  state: ConversationState;
  /** The tool call waiting for approval: answer it with the interrupt `approval:<callId>`. */
  pendingApproval: {
    callId: string;
    tool: string;
    args: Record<string, unknown>;
    description: string;
    agent?: string;
  } | null;
  /** The question a running tool asks: answer it with the interrupt `question:<id>`. */
  question: ToolQuestion | null;
}

export function viewOf(
  id: string,
  feed: Pick<ConversationFeed, 'goalId' | 'state' | 'pendingApproval' | 'question'>,
): ConversationView {
  return {
    id,
    goalId: feed.goalId,
    state: feed.state,
    pendingApproval: approvalOf(feed.pendingApproval),
    question: feed.question ?? null,
  };
}

function approvalOf(pending: PendingApproval | null): ConversationView['pendingApproval'] {
  if (!pending) return null;
  const { call, tool, description, delegate } = pending;
  return { callId: call.id, tool, args: call.args, description, ...(delegate ? { agent: delegate.agentName } : {}) };
}

/** The snapshot keeps the client's own state beside ours (a snapshot replaces the client's whole state). */
export function snapshotOf(clientState: unknown, view: ConversationView): Record<string, unknown> {
  const own = clientState && typeof clientState === 'object' && !Array.isArray(clientState) ? clientState : {};
  return { ...own, [STATE_KEY]: view };
}

/** JSON Patch from one view to the next: a replace per field that changed (every field is always present). */
export function deltaOf(before: ConversationView, after: ConversationView): JsonPatchOperation[] {
  return (Object.keys(after) as (keyof ConversationView)[])
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((k) => ({ op: 'replace', path: `/${STATE_KEY}/${k}`, value: after[k] }));
}

export const APPROVAL_PREFIX = 'approval:';
export const QUESTION_PREFIX = 'question:';

/** What the conversation waits for, as AG-UI interrupts (none when it waits for nothing). */
export function interruptsOf(feed: Pick<ConversationFeed, 'pendingApproval' | 'question'>): Interrupt[] {
  const question = feed.question;
  if (question)
    return [
      {
        id: `${QUESTION_PREFIX}${question.id}`,
        reason: 'tool_question',
        message: `${question.tool} asks: ${question.message}`,
        ...(question.callId ? { toolCallId: question.callId } : {}),
        responseSchema: {
          type: 'object',
          properties: {
            action: { enum: ['accept', 'decline', 'cancel'] },
            ...(question.schema ? { content: question.schema } : {}),
          },
          required: ['action'],
        },
      },
    ];
  const pending = feed.pendingApproval;
  if (!pending) return [];
  const { call, tool, description } = pending;
  return [
    {
      id: `${APPROVAL_PREFIX}${call.id}`,
      reason: 'tool_approval',
      message: `Approve ${tool} ${JSON.stringify(call.args)}?${description ? ` (${description})` : ''}`,
      toolCallId: call.id,
      responseSchema: APPROVAL_RESPONSE_SCHEMA,
    },
  ];
}

/**
 * Where the turn of prompt `promptId` is: still `working` (queued or running), `waiting` for the user (an approval or
 * a question), or `done` (answered, stopped, or the conversation ended).
 */
export function turnState(feed: ConversationFeed, promptId: number): 'working' | 'waiting' | 'done' {
  const start = feed.messages.findIndex(({ message: m }) => m.kind === 'user' && m.promptId === promptId);
  if (start < 0) {
    if (!feed.queued?.some((q) => q.promptId === promptId) || feed.state === 'ended') return 'done';
    // Queued behind a running tool's question: not taken up until the question is answered.
    return feed.question && feed.state === 'waiting_for_user' ? 'waiting' : 'working';
  }
  const later = feed.messages.some((l, i) => i > start && l.message.kind === 'user');
  if (later || feed.state === 'ended') return 'done';
  if (feed.pendingApproval || feed.question) return 'waiting';
  return feed.state === 'waiting_for_user' ? 'done' : 'working';
}

/** How a run that followed a turn ends: interrupted while the conversation waits, cancelled when it was stopped. */
export function outcomeOf(feed: ConversationFeed, promptId: number): RunFinishedOutcome {
  const interrupts = interruptsOf(feed);
  if (turnState(feed, promptId) === 'waiting' && interrupts.length) return { type: 'interrupt', interrupts };
  const start = feed.messages.findIndex(({ message: m }) => m.kind === 'user' && m.promptId === promptId);
  const texts = feed.messages.slice(Math.max(start, 0)).filter(({ message: m }) => m.kind === 'agent' && !!m.text);
  const last = texts.at(-1);
  return last?.message.kind === 'agent' && last.message.text === STOPPED_REPLY
    ? { type: 'cancelled' }
    : { type: 'success' };
}
