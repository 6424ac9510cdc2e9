// Timings from a fetched workflow history, derived from what the server recorded: each event's type (the
// attributes it carries) and the ids that link events to each other. An activity's started and closing events name
// its scheduled event; a workflow task's started and completed events name its scheduled event; an update's
// completion names its acceptance, which names the workflow task that received the request. Nothing depends on
// where an event sits, so extra events (markers, signals, retries, a new SDK's bookkeeping) shift nothing.
import type { History } from '@temporalio/common/lib/proto-utils';

type HistoryEvent = NonNullable<History['events']>[number];
type Timestamp = HistoryEvent['eventTime'];

/** Times are ms since the epoch, with the server's sub-millisecond precision. */
export interface WorkflowTask {
  scheduledId: number;
  scheduledAt: number;
  startedAt?: number;
  completedAt?: number;
  /** The kind of event recorded just before this task was scheduled: what woke the workflow. */
  wokenBy?: string;
}

export interface ActivityRun {
  type: string;
  scheduledId: number;
  scheduledAt: number;
  startedAt?: number;
  closedId?: number;
  closedAt?: number;
  outcome?: 'completed' | 'failed' | 'timedOut' | 'canceled';
}

export interface UpdateSpan {
  updateId: string;
  acceptedId: number;
  acceptedAt: number;
  completedId: number;
  completedAt: number;
  /** The workflow task that received the update; its scheduling is when the server started working on it. */
  acceptingTask?: WorkflowTask;
  /** Workflow tasks scheduled from the accepting one until the update completed, in history order. */
  workflowTasks: WorkflowTask[];
  /** Activities that closed while the update ran, in the order they closed. */
  activities: ActivityRun[];
}

export interface HistoryTimeline {
  workflowTasks: WorkflowTask[];
  activities: ActivityRun[];
  /** Completed updates, in the order they completed. */
  updates: UpdateSpan[];
}

/** An event's kind, named after the attributes it carries: `activityTaskCompleted`, `workflowTaskScheduled`, … */
export function eventKind(event: HistoryEvent): string | undefined {
  for (const key of Object.keys(event) as (keyof HistoryEvent)[]) {
    if (key.endsWith('EventAttributes') && event[key] != null) return key.slice(0, -'EventAttributes'.length);
  }
  return undefined;
}

export function historyTimeline(history: History): HistoryTimeline {
  const state = new TimelineState();
  for (const event of history.events ?? []) {
    const kind = eventKind(event);
    if (kind) recorders[kind]?.(state, event, Number(event.eventId), msOf(event.eventTime));
    state.previousKind = kind;
  }
  return state.finish();
}

/** Started → closed of each activity that completed, by activity type in order of first completion. */
export function activityRunTimes(spans: UpdateSpan[]): Record<string, number[]> {
  const byType: Record<string, number[]> = {};
  for (const run of spans.flatMap((s) => completedRuns(s.activities))) (byType[run.type] ??= []).push(run.ms);
  return byType;
}

/** The activities that completed (not failed or timed out), with their started → completed time. */
export function completedRuns(activities: ActivityRun[]): { type: string; ms: number }[] {
  return activities
    .filter((a) => a.outcome === 'completed' && a.startedAt !== undefined)
    .map((a) => ({ type: a.type, ms: a.closedAt! - a.startedAt! }));
}

function msOf(t: Timestamp): number {
  return Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
}

interface Acceptance {
  at: number;
  updateId: string;
  /** The id of the event that sequenced the request: the accepting workflow task's scheduled event. */
  sequencingId: number;
}

interface Completion {
  id: number;
  at: number;
  /** The update's acceptance event. */
  acceptedId: number;
}

class TimelineState {
  previousKind: string | undefined;
  readonly tasks = new Map<number, WorkflowTask>();
  readonly activities = new Map<number, ActivityRun>();
  readonly acceptances = new Map<number, Acceptance>();
  readonly completions: Completion[] = [];

  finish(): HistoryTimeline {
    const activities = [...this.activities.values()];
    const updates = this.completions.flatMap((c) => {
      const accepted = this.acceptances.get(c.acceptedId);
      return accepted ? [this.span(c, accepted, activities)] : [];
    });
    return { workflowTasks: [...this.tasks.values()], activities, updates };
  }

  private span(c: Completion, accepted: Acceptance, activities: ActivityRun[]): UpdateSpan {
    const { acceptedId } = c;
    // If a server does not fill in the sequencing id, the accepting task is the last one scheduled before the acceptance.
    const acceptingTask =
      this.tasks.get(accepted.sequencingId) ?? [...this.tasks.values()].filter((t) => t.scheduledId < acceptedId).pop();
    const from = acceptingTask?.scheduledId ?? acceptedId;
    const within = (id: number | undefined) => id !== undefined && id >= from && id <= c.id;
    return {
      updateId: accepted.updateId,
      acceptedId,
      acceptedAt: accepted.at,
      completedId: c.id,
      completedAt: c.at,
      acceptingTask,
      workflowTasks: [...this.tasks.values()].filter((t) => within(t.scheduledId)),
      activities: activities.filter((a) => within(a.closedId)).sort((x, y) => x.closedId! - y.closedId!),
    };
  }
}

type Recorder = (state: TimelineState, event: HistoryEvent, id: number, at: number) => void;

function closeActivity(outcome: NonNullable<ActivityRun['outcome']>): Recorder {
  return (state, event, id, at) => {
    const attrs =
      event.activityTaskCompletedEventAttributes ??
      event.activityTaskFailedEventAttributes ??
      event.activityTaskTimedOutEventAttributes ??
      event.activityTaskCanceledEventAttributes;
    const run = state.activities.get(Number(attrs?.scheduledEventId));
    if (run) Object.assign(run, { closedId: id, closedAt: at, outcome });
  };
}

/** What each kind of event adds to the timeline; other kinds add nothing. */
const recorders: Record<string, Recorder> = {
  workflowTaskScheduled: (state, _event, id, at) => {
    state.tasks.set(id, { scheduledId: id, scheduledAt: at, wokenBy: state.previousKind });
  },
  workflowTaskStarted: (state, event, _id, at) => {
    const task = state.tasks.get(Number(event.workflowTaskStartedEventAttributes!.scheduledEventId));
    if (task) task.startedAt = at;
  },
  workflowTaskCompleted: (state, event, _id, at) => {
    const task = state.tasks.get(Number(event.workflowTaskCompletedEventAttributes!.scheduledEventId));
    if (task) task.completedAt = at;
  },
  activityTaskScheduled: (state, event, id, at) => {
    const type = event.activityTaskScheduledEventAttributes!.activityType?.name ?? '?';
    state.activities.set(id, { type, scheduledId: id, scheduledAt: at });
  },
  activityTaskStarted: (state, event, _id, at) => {
    const run = state.activities.get(Number(event.activityTaskStartedEventAttributes!.scheduledEventId));
    if (run) run.startedAt = at;
  },
  activityTaskCompleted: closeActivity('completed'),
  activityTaskFailed: closeActivity('failed'),
  activityTaskTimedOut: closeActivity('timedOut'),
  activityTaskCanceled: closeActivity('canceled'),
  workflowExecutionUpdateAccepted: (state, event, id, at) => {
    const attrs = event.workflowExecutionUpdateAcceptedEventAttributes!;
    state.acceptances.set(id, {
      at,
      updateId: attrs.protocolInstanceId ?? '',
      sequencingId: Number(attrs.acceptedRequestSequencingEventId),
    });
  },
  workflowExecutionUpdateCompleted: (state, event, id, at) => {
    state.completions.push({
      id,
      at,
      acceptedId: Number(event.workflowExecutionUpdateCompletedEventAttributes!.acceptedEventId),
    });
  },
};
