// Reads runs from Temporal: a workflow's history (whole, or what is new since the last look, by long poll), the
// attempt and last failure of its activities still running, and the tree of a conversation and its delegates folded
// into one RunView. Nothing is stored: every figure comes from the server's histories, so it survives worker
// restarts and reads the same from any API.
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { RunBranch, RunStep, RunView } from '../../core/run-view';
import { stepTotals, turnsTotals } from '../../core/run-view';
import { foldHistory, type PendingAttempt } from './history-fold';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export interface ExecutionRef {
  workflowId: string;
  /** Absent: the latest run. */
  runId?: string;
}

/** A run's history as read so far; `poll` adds what is new. One per watched workflow run. */
export class HistoryTail {
  readonly events: HistoryEvent[] = [];
  /** The run has closed (completed, failed, continued as new): nothing more will come. */
  closed = false;
  private token: Uint8Array | undefined;

  constructor(
    private readonly client: Client,
    readonly workflowId: string,
    readonly runId: string,
  ) {}

  /** The latest run of a workflow. */
  static async latest(client: Client, workflowId: string): Promise<HistoryTail> {
    const { runId } = await client.workflow.getHandle(workflowId).describe();
    return new HistoryTail(client, workflowId, runId);
  }

  /**
   * Reads one page of what is new. `wait`: a long poll, answered at once when there is something to read, else when
   * something happens (or after the server's long-poll interval, ~20 s, with nothing). Returns whether anything came.
   */
  async poll(wait: boolean): Promise<boolean> {
    if (this.closed) return false;
    const res = await this.client.workflowService.getWorkflowExecutionHistory({
      namespace: this.client.options.namespace,
      execution: { workflowId: this.workflowId, runId: this.runId },
      ...(this.token ? { nextPageToken: this.token } : {}),
      waitNewEvent: wait,
    });
    // Without a token the server reads from the first event: keep only what is new.
    const last = Number(this.events.at(-1)?.eventId ?? 0);
    const events = (res.history?.events ?? []).filter((e) => Number(e.eventId) > last);
    this.events.push(...events);
    this.token = res.nextPageToken?.length ? res.nextPageToken : undefined;
    if (isClosing(this.events.at(-1))) this.closed = true;
    return events.length > 0;
  }

  /** Reads everything there is now, without waiting. */
  async readAll(): Promise<void> {
    do await this.poll(false);
    while (this.token && !this.closed);
  }

  /** The run this one continued as, once it has. */
  nextRunId(): string | undefined {
    return this.events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
}

/** The attempt and last failure of each activity still running (by activity id): a retry shows while it runs. */
export async function pendingAttempts(client: Client, ref: ExecutionRef): Promise<Map<string, PendingAttempt>> {
  const res = await client.workflowService.describeWorkflowExecution({
    namespace: client.options.namespace,
    execution: { workflowId: ref.workflowId, ...(ref.runId ? { runId: ref.runId } : {}) },
  });
  const pending = new Map<string, PendingAttempt>();
  for (const a of res.pendingActivities ?? []) {
    if (!a.activityId) continue;
    const lastFailure = a.lastFailure?.message || undefined;
    pending.set(a.activityId, { attempt: a.attempt ?? 1, ...(lastFailure ? { lastFailure } : {}) });
  }
  return pending;
}

/** Folds what a tail holds into its branch (without delegates' branches: `assemble` hangs those on). */
export function branchOf(
  client: Client,
  tail: HistoryTail,
  pending?: Map<string, PendingAttempt>,
  now = Date.now(),
): RunBranch {
  const converter = client.options.loadedDataConverter.payloadConverter;
  return foldHistory(tail.events, {
    workflowId: tail.workflowId,
    runId: tail.runId,
    decode: (p) => (p?.payloads ?? []).map((x) => converter.fromPayload(x)),
    ...(pending ? { pending } : {}),
    now,
  });
}

/** Reads one execution whole: its history and, while it runs, its activities' attempts. */
export async function readExecution(client: Client, ref: ExecutionRef, now?: number): Promise<RunBranch> {
  const tail = ref.runId
    ? new HistoryTail(client, ref.workflowId, ref.runId)
    : await HistoryTail.latest(client, ref.workflowId);
  await tail.readAll();
  const pending = tail.closed
    ? undefined
    : await pendingAttempts(client, { workflowId: ref.workflowId, runId: tail.runId });
  return branchOf(client, tail, pending, now);
}

/** A conversation and its delegates, read whole, in one view. */
export async function readRun(client: Client, workflowId: string, temporalUi?: TemporalUi): Promise<RunView> {
  const now = Date.now();
  const branches = new Map<string, RunBranch>();
  const visit = async (id: string): Promise<void> => {
    const branch = await readExecution(client, { workflowId: id }, now);
    branches.set(id, branch);
    await Promise.all(delegateRuns(branch).map((r) => visit(r.workflowId)));
  };
  await visit(workflowId);
  return { root: assemble(workflowId, branches, now, temporalUi), at: new Date(now).toISOString() };
}

/** A branch's delegates that have started: their workflow ids and runs (one being started is not there yet). */
export function delegateRuns(branch: RunBranch): { workflowId: string; runId: string }[] {
  return branch.turns.flatMap((t) =>
    t.steps.flatMap((s) => (s.kind === 'delegate' && s.runId ? [{ workflowId: s.id, runId: s.runId }] : [])),
  );
}

export interface TemporalUi {
  /** The Temporal UI's address (TEMPORAL_UI_URL), e.g. http://localhost:8233. */
  url: string;
  namespace: string;
}

/**
 * The tree: each delegate's branch hung on its AskAgent step, totals summed upwards (a turn's totals include what its
 * delegates spent), the delegate's agent named on its step.
 */
export function assemble(
  id: string,
  branches: Map<string, RunBranch>,
  now: number,
  temporalUi?: TemporalUi,
): RunBranch {
  const own = branches.get(id);
  if (!own) throw new Error(`No run read for ${id}`);
  const branch: RunBranch = structuredClone(own);
  if (temporalUi) branch.temporalUrl = temporalUrl(temporalUi, branch);
  for (const turn of branch.turns) {
    for (const step of turn.steps) {
      if (step.kind !== 'delegate' || !branches.has(step.id)) continue;
      step.branch = assemble(step.id, branches, now, temporalUi);
      step.label = step.branch.agentName || step.label;
      if (step.status === 'running' && step.branch.status === 'waiting') step.status = 'waiting';
      const usage = step.branch.totals.usage;
      if (usage.totalTokens) step.usage = usage;
    }
    const { durationMs } = turn.totals;
    turn.totals = { ...stepTotals(withoutDelegateUsage(turn.steps), now), durationMs };
    // A delegate waiting for the user keeps this turn waiting for them too.
    if (turn.status === 'running' && turn.steps.some((s) => s.status === 'waiting')) turn.status = 'waiting';
  }
  if (branch.status === 'running' && branch.turns.at(-1)?.status === 'waiting') branch.status = 'waiting';
  branch.totals = turnsTotals(branch.turns);
  return branch;
}

/** A delegate step carries its branch's usage for display; the totals take it from the branch, once. */
function withoutDelegateUsage(steps: RunStep[]): RunStep[] {
  return steps.map((s) => (s.kind === 'delegate' ? { ...s, usage: undefined } : s));
}

export function temporalUrl(ui: TemporalUi, b: { workflowId: string; runId: string }): string {
  const base = ui.url.replace(/\/+$/, '');
  return `${base}/namespaces/${encodeURIComponent(ui.namespace)}/workflows/${encodeURIComponent(b.workflowId)}/${b.runId}/history`;
}

function isClosing(e: HistoryEvent | undefined): boolean {
  return !!(
    e?.workflowExecutionCompletedEventAttributes ||
    e?.workflowExecutionFailedEventAttributes ||
    e?.workflowExecutionCanceledEventAttributes ||
    e?.workflowExecutionTerminatedEventAttributes ||
    e?.workflowExecutionTimedOutEventAttributes ||
    e?.workflowExecutionContinuedAsNewEventAttributes
  );
}
