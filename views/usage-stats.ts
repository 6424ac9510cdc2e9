// The registry's usage figures, read from Temporal: every AgentGoalWorkflow execution active in the window (Temporal's
// list; each continue-as-new run and each delegate is one) folded into its run (views/run-view/) and summed
// (core/usage-stats.ts). Nothing is counted in a worker, so the figures survive worker restarts and read the same
// from every API. Closed runs never change: their folds are kept by run id; open ones are read again each time.
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { RunBranch } from '../core/run-view';
import { usageStats, type UsageStats } from '../core/usage-stats';
import { branchOf, HistoryTail } from './run-view/run-reader';
import { parseAge } from '../runtime/duration';
import { UserError } from '../core/user-error';

export const DEFAULT_SINCE = '30d';
/** Executions read at most per answer (REGISTRY_MAX_EXECUTIONS): the newest, the rest left out and said so. */
export const DEFAULT_MAX_EXECUTIONS = 2_000;
/** Histories read at once. */
const PARALLEL_READS = 8;

export interface StatsRequest {
  /** A duration back from now (`7d`, `24h`) or an ISO time; default 30 days. */
  since?: string;
  /** The tool → endpoint map of the catalog, for calls whose failure hid their endpoint. */
  endpointOf?: (tool: string) => string | undefined;
}

/** `7d`, `24h`, `90m` back from `now`, or an ISO time. */
export function sinceTime(since: string | undefined, now = Date.now()): Date {
  const text = since?.trim() || DEFAULT_SINCE;
  if (/^\d{4}-\d\d-\d\d/.test(text)) {
    const at = new Date(text);
    if (Number.isNaN(at.getTime())) throw new UserError(`since: not a time: "${text}"`, 'invalid');
    return at;
  }
  return new Date(now - parseAge(text, 'since') * 1000);
}

export class UsageStatsReader {
  /** Folds of closed runs, by run id. */
  private readonly closed = new Map<string, RunBranch>();

  /** `taskQueue`: only the conversations (and their delegates) of this queue's workers, as the API and CLI serve. */
  constructor(
    private readonly client: Client,
    private readonly opts: { maxExecutions?: number; taskQueue?: string } = {},
  ) {}

  private get maxExecutions(): number {
    return this.opts.maxExecutions ?? DEFAULT_MAX_EXECUTIONS;
  }

  async read(req: StatsRequest = {}): Promise<UsageStats> {
    const now = Date.now();
    const since = sinceTime(req.since, now);
    const { listed, capped } = await this.list(since);
    const branches = await this.fold(listed);
    const window = {
      since: since.toISOString(),
      until: new Date(now).toISOString(),
      executions: listed.length,
      cap: this.maxExecutions,
      capped,
    };
    const delegates = new Set(listed.filter((i) => i.parentExecution).map((i) => i.workflowId));
    return usageStats(branches, window, { now, delegates, ...(req.endpointOf ? { endpointOf: req.endpointOf } : {}) });
  }

  /** The runs open now or closed since `since`, newest first, up to the cap. */
  private async list(since: Date): Promise<{ listed: WorkflowExecutionInfo[]; capped: boolean }> {
    const queue = this.opts.taskQueue ? ` AND TaskQueue = '${this.opts.taskQueue.replace(/'/g, "\\'")}'` : '';
    const query =
      `WorkflowType = 'AgentGoalWorkflow'${queue} AND ` +
      `(ExecutionStatus = 'Running' OR CloseTime >= '${since.toISOString()}')`;
    const listed: WorkflowExecutionInfo[] = [];
    for await (const info of this.client.workflow.list({ query, pageSize: 500 })) {
      if (listed.length >= this.maxExecutions) return { listed, capped: true };
      listed.push(info);
    }
    return { listed, capped: false };
  }

  private async fold(listed: WorkflowExecutionInfo[]): Promise<RunBranch[]> {
    const out: RunBranch[] = new Array(listed.length);
    const keep = new Set(listed.map((i) => i.runId));
    for (const runId of this.closed.keys()) if (!keep.has(runId)) this.closed.delete(runId);
    let next = 0;
    const work = async () => {
      for (let i = next++; i < listed.length; i = next++) out[i] = await this.branch(listed[i]!);
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, listed.length) }, work));
    return out;
  }

  private async branch(info: WorkflowExecutionInfo): Promise<RunBranch> {
    const cached = this.closed.get(info.runId);
    if (cached) return cached;
    // The history alone: an open run's activities' attempts (another call each) change no figure here.
    const tail = new HistoryTail(this.client, info.workflowId, info.runId);
    await tail.readAll();
    const branch = branchOf(this.client, tail);
    if (info.status.name !== 'RUNNING') this.closed.set(info.runId, branch);
    return branch;
  }
}
