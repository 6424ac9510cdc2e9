// Where a chat turn's time goes on the server: one update's span of the history timeline, cut into the intervals
// Temporal and the worker are each responsible for. What none of them covers is "other" (time between intervals).
import { completedRuns, type UpdateSpan, type WorkflowTask } from './history-timeline';

/** One turn as the server recorded it, in ms. */
export interface TurnBreakdown {
  /** From the scheduling of the workflow task that accepted the update to the update's completion. */
  onServer: number;
  /** Workflow tasks scheduled → started (matching hands them to the worker), summed over the turn. */
  wftDispatch: number;
  /** Of which: the workflow tasks scheduled when an activity completed. */
  wftDispatchAfterActivity: number;
  /** Workflow tasks started → completed (the worker runs the workflow code and answers), summed. */
  wftOnWorker: number;
  /** Activity tasks started → completed, summed. */
  activities: number;
  /** Activity tasks scheduled → started, summed: ≈ 0 with eager dispatch, a task-queue match and a poll without. */
  activityDispatch: number;
  /** onServer minus the four above: time between those intervals. */
  other: number;
  wfts: number;
  /** Each activity type's started → completed, summed over the turn. */
  byActivity: Record<string, number>;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const dispatch = (t: WorkflowTask) => t.startedAt! - t.scheduledAt;

export function turnBreakdown(span: UpdateSpan): TurnBreakdown {
  // A task that failed or timed out has no completion: it is not a round trip the turn was made of.
  const tasks = span.workflowTasks.filter((t) => t.startedAt !== undefined && t.completedAt !== undefined);
  const wftDispatch = sum(tasks.map(dispatch));
  const wftOnWorker = sum(tasks.map((t) => t.completedAt! - t.startedAt!));
  const runs = completedRuns(span.activities);
  const activities = sum(runs.map((r) => r.ms));
  const activityDispatch = sum(
    span.activities
      .filter((a) => a.outcome === 'completed' && a.startedAt !== undefined)
      .map((a) => a.startedAt! - a.scheduledAt),
  );
  const byActivity: Record<string, number> = {};
  for (const r of runs) byActivity[r.type] = (byActivity[r.type] ?? 0) + r.ms;
  const onServer = span.completedAt - (span.acceptingTask?.scheduledAt ?? span.acceptedAt);
  return {
    onServer,
    wftDispatch,
    wftDispatchAfterActivity: sum(tasks.filter((t) => t.wokenBy === 'activityTaskCompleted').map(dispatch)),
    wftOnWorker,
    activities,
    activityDispatch,
    other: onServer - wftDispatch - wftOnWorker - activities - activityDispatch,
    wfts: tasks.length,
    byActivity,
  };
}
