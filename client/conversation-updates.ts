// How the client reaches one conversation: its failures as user errors ("no conversation", "has ended"), and an update
// sent and waited for through a server restart (AgentClient's say, confirm, answer, cancel).
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type WorkflowUpdateHandle } from '@temporalio/client';
import type { AgentReply } from '../core/conversation-types';
import { untilReachable, type ServerWait } from './server-outage';
import { UserError } from '../core/user-error';

/** Runs a call on conversation `id`; a conversation that does not exist, or has ended, is said so as a user error. */
export async function inConversation<T>(id: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    // An update to a workflow that has closed is answered "not found" too: that conversation exists, and has ended.
    if (err instanceof WorkflowNotFoundError && /already completed/i.test(err.message))
      throw new UserError(`Conversation ${id} has ended.`, 'refused');
    if (err instanceof WorkflowNotFoundError) throw new UserError(`No conversation with id ${id}.`, 'not_found');
    throw err;
  }
}

/**
 * Sends an update and waits for its result, through a server restart too: its two steps as promises, `accepted` once
 * the conversation took it, `reply` once it answered. Every send carries the same update id, so one that reaches a
 * server which already has the update joins it (Temporal dedupes by update id) instead of queueing the prompt twice;
 * once accepted, the wait re-attaches to that update in the run that accepted it. Updates rejected by the workflow's
 * validator become one-line user errors carrying its reason.
 */
export function sendUpdate(
  id: string,
  send: (updateId: string) => Promise<WorkflowUpdateHandle<AgentReply>>,
  serverWait: ServerWait,
  /** The client's own id for what it sends (an A2A message id): sent twice, it is one update, answered once. */
  updateId: string = randomUUID(),
): { accepted: Promise<void>; reply: Promise<AgentReply> } {
  const explain = (err: unknown): never => {
    if (err instanceof WorkflowUpdateFailedError) throw new UserError(err.cause?.message ?? err.message, 'refused');
    if (isNotRunning(err)) throw new UserError(`Conversation ${id} has ended.`, 'refused');
    throw err;
  };
  const handle = inConversation(id, () => untilReachable(() => send(updateId), serverWait)).catch(explain);
  const reply = handle
    .then((h) => inConversation(id, () => untilReachable(() => h.result(), serverWait)))
    .catch(explain);
  // Temporal answers a refused update (its validator threw) at acceptance, with its outcome: the handle does not throw,
  // but its result is known without a poll. An accepted update's result needs a poll, which cannot answer before the
  // next turn of the event loop: what has settled by then is a refusal (or an update already done).
  const accepted = handle.then(() =>
    Promise.race([reply.then(() => undefined), new Promise<void>((resolve) => setImmediate(resolve))]),
  );
  // A caller may wait for one step only: the other's failure is theirs to read, not an unhandled rejection.
  reply.catch(() => undefined);
  accepted.catch(() => undefined);
  return { accepted, reply };
}

function isNotRunning(err: unknown): boolean {
  return /workflow execution already completed|not found|already completed/i.test((err as Error)?.message ?? '');
}
