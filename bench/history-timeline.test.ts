// The benchmark's history timeline, fed real recorded histories: what it derives from event types and event links
// must agree with what the raw JSON says, counted independently here by the event type names.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { activityRunTimes, historyTimeline } from './history-timeline';
import { turnBreakdown } from './turn-breakdown';

const DIR = path.join(__dirname, '..', 'test', 'histories');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

interface RawEvent {
  eventId: string;
  eventType: string;
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
}

function load(file: string) {
  const json = JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as { events: RawEvent[] };
  const ofType = (type: string) => json.events.filter((e) => e.eventType === `EVENT_TYPE_${type}`);
  return { timeline: historyTimeline(historyFromJSON(json)), ofType };
}

describe('historyTimeline', () => {
  it.each(files)('%s: lists the activities in the order they were scheduled, by type', (file) => {
    const { timeline, ofType } = load(file);
    const scheduled = ofType('ACTIVITY_TASK_SCHEDULED').map(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name,
    );
    expect(scheduled.length).toBeGreaterThan(0);
    expect(timeline.activities.map((a) => a.type)).toEqual(scheduled);
  });

  it.each(files)('%s: has each activity scheduled ≤ started ≤ closed, and the closing outcome recorded', (file) => {
    const { timeline, ofType } = load(file);
    for (const a of timeline.activities.filter((x) => x.closedAt !== undefined)) {
      expect(a.scheduledAt).toBeLessThanOrEqual(a.startedAt!);
      expect(a.startedAt!).toBeLessThanOrEqual(a.closedAt!);
    }
    const completed = timeline.activities.filter((a) => a.outcome === 'completed');
    expect(completed.length).toBe(ofType('ACTIVITY_TASK_COMPLETED').length);
    expect(timeline.activities.filter((a) => a.outcome === 'failed').length).toBe(
      ofType('ACTIVITY_TASK_FAILED').length,
    );
  });

  it.each(files)('%s: finds every workflow task, each scheduled ≤ started ≤ completed', (file) => {
    const { timeline, ofType } = load(file);
    expect(timeline.workflowTasks.length).toBe(ofType('WORKFLOW_TASK_SCHEDULED').length);
    expect(timeline.workflowTasks.filter((t) => t.completedAt !== undefined).length).toBe(
      ofType('WORKFLOW_TASK_COMPLETED').length,
    );
    for (const t of timeline.workflowTasks.filter((x) => x.completedAt !== undefined)) {
      expect(t.scheduledAt).toBeLessThanOrEqual(t.startedAt!);
      expect(t.startedAt!).toBeLessThanOrEqual(t.completedAt!);
    }
  });

  it.each(files)('%s: spans each update from its accepting workflow task to its completion', (file) => {
    const { timeline, ofType } = load(file);
    expect(timeline.updates.length).toBe(ofType('WORKFLOW_EXECUTION_UPDATE_COMPLETED').length);
    for (const u of timeline.updates) {
      const task = u.acceptingTask!;
      expect(task.scheduledId).toBeLessThan(u.acceptedId);
      expect(task.completedAt!).toBeLessThanOrEqual(u.acceptedAt);
      expect(u.acceptedAt).toBeLessThanOrEqual(u.completedAt);
      expect(u.workflowTasks[0]).toBe(task);
      for (const a of u.activities) expect(a.closedAt!).toBeLessThanOrEqual(u.completedAt);
    }
  });

  it('tells the workflow tasks an activity completion woke from the others', () => {
    const { timeline, ofType } = load('pto-approvals-and-errors.json');
    const woken = timeline.workflowTasks.filter((t) => t.wokenBy === 'activityTaskCompleted').length;
    // Each completion wakes the workflow unless a task is already pending: never more wake-ups than completions.
    expect(woken).toBeGreaterThan(0);
    expect(woken).toBeLessThanOrEqual(ofType('ACTIVITY_TASK_COMPLETED').length);
    // An update's request wakes the workflow through a task scheduled after the previous task completed.
    for (const u of timeline.updates) expect(u.acceptingTask!.wokenBy).not.toBe('activityTaskCompleted');
  });

  it('collects the run times of the activities inside updates, by type', () => {
    const { timeline } = load('pto-approvals-and-errors.json');
    const times = activityRunTimes(timeline.updates);
    const inUpdates = timeline.updates.flatMap((u) => u.activities.filter((a) => a.outcome === 'completed'));
    expect(Object.values(times).flat().length).toBe(inUpdates.length);
    for (const ms of Object.values(times).flat()) expect(ms).toBeGreaterThanOrEqual(0);
  });
});

describe('turnBreakdown', () => {
  it('splits each update into dispatch, worker, activity and other time that add up to the time on the server', () => {
    const { timeline } = load('pto-approvals-and-errors.json');
    expect(timeline.updates.length).toBeGreaterThan(0);
    for (const u of timeline.updates) {
      const t = turnBreakdown(u);
      expect(t.onServer).toBeCloseTo(u.completedAt - u.acceptingTask!.scheduledAt, 6);
      expect(t.wftDispatch + t.wftOnWorker + t.activities + t.activityDispatch + t.other).toBeCloseTo(t.onServer, 6);
      expect(t.wfts).toBe(u.workflowTasks.length);
      expect(t.wftDispatchAfterActivity).toBeLessThanOrEqual(t.wftDispatch);
      expect(Object.values(t.byActivity).reduce((a, b) => a + b, 0)).toBeCloseTo(t.activities, 6);
    }
  });
});
