// Stable keys for a call that must not happen twice: Temporal retries an activity after a timeout or a worker
// crash, and a provider (or our effect ledger) given the same key answers with the first result instead of doing
// the thing again.
import { randomUUID } from 'node:crypto';
import { activityInfo } from '@temporalio/activity';

/** `<workflowId>-<runId>-<activityId>` inside a workflow's activity (the same on every retry; a local activity's id is
 * marked, as local and other activities count their ids apart), else a random key. */
export function callKey(): string {
  try {
    const info = activityInfo();
    const run = info.workflowExecution ? `${info.workflowExecution.workflowId}-${info.workflowExecution.runId}-` : '';
    return `${run}${info.isLocal ? 'local-' : ''}${info.activityId}`;
  } catch {
    // Not in an activity (a unit test, a script): nothing to de-duplicate against.
    return randomUUID();
  }
}

/** A key for one request of this call to an outside service, e.g. `invoice-<callKey>-item-1`. */
export function idempotencyKey(prefix: string): string {
  return `${prefix}-${callKey()}`;
}
