// Waits for the user that end on their own (APPROVAL_TIMEOUT, IDLE_TIMEOUT): how long the coming wait may last, and
// what is said and declined when it runs out.
import { formatDuration } from '../../core/format';
import type { ConversationState, Settings } from '../../core/types';

/** A wait for the user that ends on its own: how long, and what runs out. */
export interface WaitLimit {
  seconds: number;
  expires: 'approval' | 'idle';
}

/** The limit of the coming wait; null: none. `asking`: a delegate's own question (it expires as an approval does). */
export function waitLimitOf(
  settings: Settings,
  state: ConversationState,
  waits: { asking: boolean; delegateWaitShown: boolean },
): WaitLimit | null {
  const approval = settings.approvalTimeoutSeconds;
  if (waits.asking) return approval ? { seconds: approval, expires: 'approval' } : null;
  // A delegate's approval or question shown here expires in the delegate.
  if (waits.delegateWaitShown) return null;
  if (state === 'awaiting_approval') return approval ? { seconds: approval, expires: 'approval' } : null;
  const idle = settings.idleTimeoutSeconds;
  return state === 'waiting_for_user' && idle ? { seconds: idle, expires: 'idle' } : null;
}

/** What happens when a wait runs out: an idle conversation ends with a note; a question or approval is declined. */
export function expiryOf(
  limit: WaitLimit,
  question: string | null,
  tool = 'the tool',
): { ends: true; note: string } | { ends: false; decline: string; say: string } {
  const waited = formatDuration(limit.seconds);
  if (limit.expires === 'idle') {
    return { ends: true, note: `The conversation ended after ${waited} without a message (IDLE_TIMEOUT).` };
  }
  const decline = `nobody answered within ${waited} (APPROVAL_TIMEOUT)`;
  if (question !== null) return { ends: false, decline, say: `I need an answer to go on: ${question}` };
  const say = `The request to run ${tool} expired: nobody answered within ${waited}, so it did not run. Ask again if you still want it.`;
  return { ends: false, decline, say };
}
