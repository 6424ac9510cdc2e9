// Waits for the user that end on their own (APPROVAL_TIMEOUT, IDLE_TIMEOUT): how long the coming wait may last, and
// what is said and declined when it runs out. The workflow sets the timer; these decide.
import { formatDuration } from '../../core/format';
import type { Conversation } from './conversation';

/** A wait for the user that ends on its own: how long, and what runs out. */
export interface WaitLimit {
  seconds: number;
  expires: 'approval' | 'idle';
}

/** How long the coming wait for the user may last before it expires; null: no limit (or an older run). */
export function waitLimit(convo: Conversation): WaitLimit | null {
  if (!convo.expiringWaits) return null;
  const approval = convo.settings.approvalTimeoutSeconds;
  // A delegate's own question expires as an approval does.
  if (convo.taskMode.asking()) return approval ? { seconds: approval, expires: 'approval' } : null;
  // A delegate's approval or question shown here expires in the delegate.
  if (!convo.approvals.awaiting() && convo.delegations.waitShown() !== null) return null;
  const state = convo.status();
  if (state === 'awaiting_approval') return approval ? { seconds: approval, expires: 'approval' } : null;
  const idle = convo.settings.idleTimeoutSeconds;
  return state === 'waiting_for_user' && idle ? { seconds: idle, expires: 'idle' } : null;
}

/** A wait ran out: an unanswered approval or question is declined; an idle conversation ends, keeping its
 * transcript. */
export function expire(convo: Conversation, limit: WaitLimit): void {
  const waited = formatDuration(limit.seconds);
  if (limit.expires === 'idle') {
    convo.log.note(`The conversation ended after ${waited} without a message (IDLE_TIMEOUT).`);
    return convo.end('idle');
  }
  // Said as it stood before the decline below settles the question or the call.
  const question = convo.taskMode.asking() ? convo.taskMode.questionText() : null;
  const tool = convo.approvals.call?.tool ?? 'the tool';
  convo.step.decline(`nobody answered within ${waited} (APPROVAL_TIMEOUT)`);
  convo.log.say(
    question !== null
      ? `I need an answer to go on: ${question}`
      : `The request to run ${tool} expired: nobody answered within ${waited}, so it did not run. Ask again if you still want it.`,
  );
  convo.endTurn('needs_input');
}
