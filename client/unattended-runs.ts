// The runs schedules and webhook triggers made, read back from Temporal: each is a workflow whose id says who
// started it (`sched-<schedule>-<time due>`, `trig-<trigger>.<delivery key>`), and whose result keeps its outcome (the
// answer's status and words, its cost, whether its `notify` URL got it). Nothing is stored beside the workflows.
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { DelegateEnvelope, Transcript, UnattendedRun } from '../core/conversation-types';
import { AGENT_OWNER } from '../workflows/search-attributes';
import { startedBy } from '../core/run-starter';

export interface UnattendedRunRecord {
  conversationId: string;
  source: UnattendedRun['source'];
  /** The schedule's or the trigger's name. */
  name: string;
  /** Whose the run is (its AgentOwner); null when it has none. */
  owner: string | null;
  startedAt: string;
  /** The workflow's: running, completed, failed, cancelled, terminated, timed_out. */
  state: string;
  /** Once it has ended: the agent's answer. */
  status?: DelegateEnvelope['status'];
  summary?: string;
  costUsd?: number;
  delivered?: boolean;
}

/**
 * The latest runs of one schedule or trigger (all of them when no name), newest first, with their outcomes; with
 * `owner`, only that owner's (a name deleted and taken again by another owner does not show the first one's runs).
 */
export async function unattendedRuns(
  client: Client,
  source: UnattendedRun['source'],
  { name, limit = 20, owner }: { name?: string; limit?: number; owner?: string | null } = {},
): Promise<UnattendedRunRecord[]> {
  if (name && !/^[A-Za-z0-9_-]+$/.test(name)) return [];
  const prefix = source === 'schedule' ? `sched-${name ? `${name}-` : ''}` : `trig-${name ? `${name}.` : ''}`;
  const found: WorkflowExecutionInfo[] = [];
  const query = `WorkflowType = 'AgentGoalWorkflow' AND WorkflowId STARTS_WITH '${prefix}'`;
  for await (const w of client.workflow.list({ query })) {
    const by = startedBy(w.workflowId);
    // `sched-a-` also begins schedule `a-b`'s ids: only this one's are kept.
    if (!by || by.source !== source || (name && by.name !== name)) continue;
    // A run that continued as new is listed once, as the run it became.
    if (w.status.name === 'CONTINUED_AS_NEW') continue;
    if (owner !== undefined && ownerOf(w) !== owner) continue;
    found.push(w);
    if (found.length >= limit) break;
  }
  return Promise.all(found.map((w) => recordOf(client, w)));
}

async function recordOf(client: Client, w: WorkflowExecutionInfo): Promise<UnattendedRunRecord> {
  const record: UnattendedRunRecord = {
    conversationId: w.workflowId,
    ...startedBy(w.workflowId)!,
    owner: ownerOf(w),
    startedAt: w.startTime.toISOString(),
    state: w.status.name.toLowerCase(),
  };
  if (w.status.name !== 'COMPLETED') return record;
  const result = (await client.workflow.getHandle(w.workflowId, w.runId).result()) as Transcript;
  const envelope = result.envelope;
  return {
    ...record,
    ...(envelope ? { status: envelope.status, summary: envelope.summary } : { summary: result.summary }),
    ...(result.usage.costUsd !== undefined ? { costUsd: result.usage.costUsd } : {}),
    ...(result.delivery ? { delivered: result.delivery.delivered } : {}),
  };
}

const ownerOf = (w: WorkflowExecutionInfo): string | null => w.typedSearchAttributes.get(AGENT_OWNER) ?? null;
