// The runs schedules and webhook triggers made, read back from Temporal: each is a workflow whose id says who
// started it (`sched-<schedule>-<time due>`, `trig-<trigger>.<delivery>`), and whose result keeps its outcome (the
// answer's status and words, its cost, whether its `notify` URL got it). Nothing is stored beside the workflows.
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { DelegateEnvelope, Transcript, UnattendedRun } from '../core/conversation-types';

export interface UnattendedRunRecord {
  conversationId: string;
  source: UnattendedRun['source'];
  /** The schedule's or the trigger's name. */
  name: string;
  startedAt: string;
  /** The workflow's: running, completed, failed, cancelled, terminated, timed_out. */
  state: string;
  /** Once it has ended: the agent's answer. */
  status?: DelegateEnvelope['status'];
  summary?: string;
  costUsd?: number;
  delivered?: boolean;
}

const SCHEDULED = /^sched-(.+)-(\d{4}-\d\d-\d\dT[\d:.]+Z)$/;
const TRIGGERED = /^trig-([A-Za-z0-9][A-Za-z0-9_-]*)\.(.+)$/;

export const triggerRunId = (trigger: string, delivery: string) => `trig-${trigger}.${delivery}`;

/** Who started a run, from its workflow id; null for a conversation a person started. */
export function startedBy(workflowId: string): Pick<UnattendedRunRecord, 'source' | 'name'> | null {
  const scheduled = SCHEDULED.exec(workflowId);
  if (scheduled) return { source: 'schedule', name: scheduled[1]! };
  const triggered = TRIGGERED.exec(workflowId);
  return triggered ? { source: 'trigger', name: triggered[1]! } : null;
}

/** The latest runs of one schedule or trigger (all of them when no name), newest first, with their outcomes. */
export async function unattendedRuns(
  client: Client,
  source: UnattendedRun['source'],
  name?: string,
  limit = 20,
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
    found.push(w);
    if (found.length >= limit) break;
  }
  return Promise.all(found.map((w) => recordOf(client, w)));
}

async function recordOf(client: Client, w: WorkflowExecutionInfo): Promise<UnattendedRunRecord> {
  const record: UnattendedRunRecord = {
    conversationId: w.workflowId,
    ...startedBy(w.workflowId)!,
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
