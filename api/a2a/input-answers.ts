// A client's message to a task in TASK_STATE_INPUT_REQUIRED, read as the answer to what the agent waits for: an
// approval (approve, or reject with a reason) or a running tool's question (accept a form, decline, cancel). Words
// or a data part, as the status message asked (turn-tasks.ts: asking).
import type { ConfirmDecision, PendingApproval } from '../../core/conversation-types';
import type { AnsweredQuestion, QuestionAnswer, ToolQuestion } from '../../core/tool-questions';
import { UserError } from '../../core/user-error';
import { textOf, type Message } from '../../endpoints/a2a/sdk';
import { dataOf } from './turn-tasks';

const YES = /^\s*(approve[ds]?|yes|y|ok|okay|go ahead|confirm(ed)?)\b[.!\s]*$/i;
const NO = /^\s*(reject(ed)?|no|n|deny|denied|decline[ds]?)\b[\s:,.-]*(.*)$/is;

export type InputAnswer = { confirm: ConfirmDecision } | { answer: AnsweredQuestion };

export function answerOf(
  message: Message,
  pending: { approval: PendingApproval | null; question: ToolQuestion | null },
): InputAnswer {
  const data = dataOf(message)[0];
  const words = textOf(message).trim();
  if (pending.question) return { answer: { questionId: pending.question.id, answer: questionAnswer(data, words) } };
  const call = pending.approval?.call;
  if (!call)
    throw new UserError('The task waits for nothing: send a new message with its contextId instead.', 'refused');
  if (data && typeof data.approve === 'boolean') {
    if (data.approve) {
      const args = data.args && typeof data.args === 'object' ? (data.args as Record<string, unknown>) : undefined;
      return { confirm: { approve: true, callId: call.id, ...(args ? { args } : {}) } };
    }
    return { confirm: { approve: false, callId: call.id, reason: reasonOf(data.reason) } };
  }
  if (YES.test(words)) return { confirm: { approve: true, callId: call.id } };
  const no = NO.exec(words);
  if (no) return { confirm: { approve: false, callId: call.id, reason: reasonOf(no[3]) } };
  throw new UserError(
    `The task waits for an approval of ${pending.approval!.tool}: reply "approve", or "reject: <reason>" (or a data part {"approve": true|false, "reason"?, "args"?}).`,
    'invalid',
  );
}

function questionAnswer(data: Record<string, unknown> | undefined, words: string): QuestionAnswer {
  const action = typeof data?.action === 'string' ? data.action : words.toLowerCase();
  if (action === 'decline' || action === 'cancel') return { action };
  if (action === 'accept') {
    const content = data?.content;
    return content && typeof content === 'object'
      ? { action, content: content as Extract<QuestionAnswer, { action: 'accept' }>['content'] }
      : { action };
  }
  throw new UserError(
    'The task waits for the answer to a question: send a data part {"action": "accept", "content": {…}}, or say decline or cancel.',
    'invalid',
  );
}

function reasonOf(given: unknown): string {
  const reason = typeof given === 'string' ? given.trim() : '';
  return reason || 'Rejected by the A2A client.';
}
