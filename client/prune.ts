// `agent prune --older-than <duration>`: deletes conversations that ended longer ago than that (delegates included),
// before the namespace's retention would, and lets go of their files (the blob store deletes what no other
// conversation holds). Running conversations are never touched; `--dry-run` only lists.
import type { Client } from '@temporalio/client';
import type { BlobStore } from '../blobs';

export interface Pruned {
  id: string;
  runId: string;
  closedAt: string;
}

/**
 * The conversations (runs) that ended before now − `olderThanSeconds`, deleted unless `dryRun`, with the files they
 * held in `files` released (how many files were deleted: `filesDeleted`).
 */
export async function pruneConversations(
  client: Client,
  olderThanSeconds: number,
  dryRun: boolean,
  limit = 1_000,
  files?: BlobStore,
): Promise<Pruned[] & { filesDeleted?: number }> {
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
  if (!files) return found;
  let filesDeleted = 0;
  for (const id of new Set(found.map((p) => p.id))) {
    // A run that continued as new ended, but its conversation goes on in the next run: its files stay.
    const running = await client.workflow
      .getHandle(id)
      .describe()
      .then(
        (d) => d.status.name === 'RUNNING',
        () => false,
      );
    if (!running) filesDeleted += await files.release(id);
  }
  return Object.assign(found, { filesDeleted });
}
