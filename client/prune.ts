// `agent prune --older-than <duration>`: deletes conversations that ended longer ago than that (delegates included),
// before the namespace's retention would. Running conversations are never touched; `--dry-run` only lists.
import type { Client } from '@temporalio/client';
import { parseDuration } from '../runtime/duration';
import { UserError } from './user-error';

/** `90s`, `15m`, `24h`, `7d` (a bare number is seconds) → seconds; `option` is named when it is not a duration. */
export function parseAge(text: string, option = '--older-than'): number {
  const seconds = parseDuration(text);
  if (Number.isNaN(seconds))
    throw new UserError(`${option} must be a duration such as 90s, 15m, 24h or 7d, got "${text}"`);
  return seconds;
}

export interface Pruned {
  id: string;
  runId: string;
  closedAt: string;
}

/** The conversations (runs) that ended before now − `olderThanSeconds`, deleted unless `dryRun`. */
export async function pruneConversations(
  client: Client,
  olderThanSeconds: number,
  dryRun: boolean,
  limit = 1_000,
): Promise<Pruned[]> {
  const before = new Date(Date.now() - olderThanSeconds * 1000).toISOString();
  const query = `WorkflowType = 'AgentGoalWorkflow' AND ExecutionStatus != 'Running' AND CloseTime < '${before}'`;
  const found: Pruned[] = [];
  for await (const info of client.workflow.list({ query })) {
    found.push({ id: info.workflowId, runId: info.runId, closedAt: info.closeTime?.toISOString() ?? '' });
    if (found.length >= limit) break;
  }
  if (dryRun) return found;
  for (const p of found) {
    await client.workflowService.deleteWorkflowExecution({
      namespace: client.options.namespace,
      workflowExecution: { workflowId: p.id, runId: p.runId },
    });
  }
  return found;
}
