// A stable key for a call that must not happen twice: Temporal retries an activity after a timeout or a worker
// crash, and a provider given the same key answers with the first result instead of doing the thing again.
import { randomUUID } from 'node:crypto';
import { activityInfo } from '@temporalio/activity';

/** `<prefix>-<workflowId>-<runId>-<activityId>` inside a workflow's activity (the same on every retry), else a random key. */
export function idempotencyKey(prefix: string): string {
  try {
    const info = activityInfo();
    const run = info.workflowExecution ? `${info.workflowExecution.workflowId}-${info.workflowExecution.runId}-` : '';
    return `${prefix}-${run}${info.activityId}`;
  } catch {
    // Not in an activity (a unit test, a script): nothing to de-duplicate against.
    return `${prefix}-${randomUUID()}`;
  }
}
