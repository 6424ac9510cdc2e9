// What an AG-UI run asks of a conversation: the answer to what it waits for (the protocol's `resume` entry for the
// interrupt the last run ended with, or `forwardedProps.approval` / `.answer` for clients without interrupts), and
// the user's new messages (the trailing user messages of `messages` that the conversation has not taken yet: the
// client resends the whole thread every run, and the conversation's own history is the workflow's). Answers are read
// with the REST routes' schemas, so an approval or an answer means the same whichever way it comes.
import type { z } from '@hono/zod-openapi';
import type { ResumeEntry, RunAgentInput, UserMessage } from '@ag-ui/core';
import type { ConversationFeed } from '../../core/conversation-types';
import { MAX_PROMPT_REF_CHARS } from '../../core/messages';
import { UserError } from '../../core/user-error';
import type { InputAnswer } from '../a2a/input-answers';
import { promptOfRef } from '../a2a/turn-tasks';
import { AnswerBody, ConfirmBody } from '../schemas';
import { APPROVAL_PREFIX, interruptsOf, QUESTION_PREFIX } from './run-state';

export interface RunAsk {
  answer: InputAnswer | null;
  /** What the answer's update is keyed by (the interrupt it answers, else the run), so a retried run sends it once. */
  answerKey: string;
  /** Oldest first; each is sent with its message id as the prompt's ref, so a run sent twice queues it once. */
  prompts: UserMessage[];
}

const APPROVAL_HINT = '{"approve": true, "args"?: {…}} or {"approve": false, "reason": "…"}';
const ANSWER_HINT = '{"action": "accept", "content"?: {…}} or {"action": "decline" | "cancel"}';

export function runAsk(input: RunAgentInput, feed: ConversationFeed): RunAsk {
  const trailing: UserMessage[] = [];
  for (let i = input.messages.length - 1; i >= 0 && input.messages[i]!.role === 'user'; i--)
    trailing.unshift(input.messages[i] as UserMessage);
  for (const [field, value] of [
    ['threadId', input.threadId],
    ['runId', input.runId],
    ...trailing.map((m, i) => [`messages.${input.messages.length - trailing.length + i}.id`, m.id] as const),
  ] as const)
    if (!value || value.length > MAX_PROMPT_REF_CHARS)
      throw new UserError(`${field}: give an id of 1 to ${MAX_PROMPT_REF_CHARS} characters.`);
  const interrupt = input.resume?.[0]?.interruptId;
  return {
    answer: answerOf(input, feed),
    answerKey: interrupt ? `answer-${interrupt}` : `answer-run-${input.runId}`,
    prompts: trailing.filter((m) => promptOfRef(feed, m.id) === undefined),
  };
}

function answerOf(input: RunAgentInput, feed: ConversationFeed): InputAnswer | null {
  const resume = input.resume ?? [];
  const props = isRecord(input.forwardedProps) ? input.forwardedProps : {};
  const given = [resume.length > 0, props.approval !== undefined, props.answer !== undefined].filter(Boolean);
  if (given.length > 1)
    throw new UserError('Answer with one of resume, forwardedProps.approval or forwardedProps.answer, not several.');
  if (resume.length > 1)
    throw new UserError(`resume: the conversation waits for one thing at a time; ${resume.length} entries were sent.`);
  if (resume[0]) return resumed(resume[0], feed);
  if (props.approval !== undefined)
    return { confirm: checked(ConfirmBody, props.approval, 'forwardedProps.approval', APPROVAL_HINT) };
  if (props.answer !== undefined) {
    const { questionId, ...answer } = checked(AnswerBody, props.answer, 'forwardedProps.answer', ANSWER_HINT);
    return { answer: { ...(questionId ? { questionId } : {}), answer } };
  }
  return null;
}

/**
 * A resume entry answers the interrupt the conversation is in now, by its id; `cancelled` rejects or cancels. One that
 * is no longer open (answered in the web chat, expired, or by this run sent before) is settled: the run goes on
 * without it, and its RUN_FINISHED clears the client's pending interrupts (a 409 would leave the thread stuck on them).
 */
function resumed(entry: ResumeEntry, feed: ConversationFeed): InputAnswer | null {
  const open = interruptsOf(feed)[0];
  if (entry.interruptId !== open?.id) return null;
  if (open.id.startsWith(APPROVAL_PREFIX)) {
    const callId = open.id.slice(APPROVAL_PREFIX.length);
    if (entry.status === 'cancelled')
      return { confirm: { approve: false, reason: 'Cancelled by the AG-UI client.', callId } };
    const decision = checked(ConfirmBody, entry.payload, 'resume.0.payload', APPROVAL_HINT);
    return { confirm: { ...decision, callId } };
  }
  const questionId = open.id.slice(QUESTION_PREFIX.length);
  if (entry.status === 'cancelled') return { answer: { questionId, answer: { action: 'cancel' } } };
  const { questionId: _ignored, ...answer } = checked(AnswerBody, entry.payload, 'resume.0.payload', ANSWER_HINT);
  return { answer: { questionId, answer } };
}

/** The value as the schema reads it, or a 400 naming the field and the shape expected. */
function checked<S extends z.ZodType>(schema: S, value: unknown, where: string, hint: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = [where, ...(issue?.path ?? [])].join('.');
  throw new UserError(`${field}: ${issue?.message ?? 'invalid'}; expected ${hint}.`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
