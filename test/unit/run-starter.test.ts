// Who started a run, from its workflow id (core/run-starter.ts), and the runs each schedule and trigger started as the
// registry counts them: once per workflow however often it continued as new, by how it ended, in the window only. A
// recorded scheduled run folds into a branch that says who started it and how its answer went.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { defaultPayloadConverter } from '@temporalio/common';
import { foldHistory } from '../../views/run-view/history-fold';
import { startedBy, startedByText, runsByStarter, UNATTENDED_ID } from '../../core/run-starter';
import { emptyTotals, type RunBranch } from '../../core/run-view';
import { formatAgentListing } from '../../client/listing-format';
import { formatRun } from '../../client/run-tree-format';

const HOUR_MS = 3_600_000;
const T0 = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 24 * HOUR_MS;
const at = (ms: number) => new Date(T0 + ms).toISOString();
/** A schedule's run id, as Temporal Schedules make them: the action's id and the time it was due. */
const scheduled = (name: string, ms: number) =>
  `sched-${name}-${new Date(T0 + ms).toISOString().replace(/\.\d+Z$/, 'Z')}`;

function branch(workflowId: string, from: number, more: Partial<RunBranch> = {}): RunBranch {
  return {
    workflowId,
    runId: `${workflowId}@${from}`,
    goalId: 'goal_hr_pto',
    agentName: 'PTO',
    state: 'ended',
    status: 'done',
    startedAt: at(from),
    turns: [],
    totals: emptyTotals(),
    ...more,
  };
}

describe('startedBy', () => {
  const ids = [
    scheduled('nightly', 0),
    scheduled('a-b', 0),
    'trig-orders.delivery-7',
    'trig-payments.3f9a0c',
    'conv-123',
    'sched-nightly',
    'boss-1-pto',
    // A triggered run's delegate, and a scheduled run's: not runs of the trigger or the schedule.
    'trig-orders.delivery-7/1-goal_hr_pto',
    `${scheduled('nightly', 0)}/1-goal_hr_pto`,
  ];

  it('tells a schedule’s run and a trigger’s from their ids, and nobody’s otherwise', () => {
    expect(ids.map(startedBy)).toEqual([
      { source: 'schedule', name: 'nightly' },
      { source: 'schedule', name: 'a-b' },
      { source: 'trigger', name: 'orders' },
      { source: 'trigger', name: 'payments' },
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(startedByText({ source: 'schedule', name: 'nightly' })).toBe('started by schedule nightly');
  });

  it('keeps the ids of scheduled and triggered runs from conversations people start', () => {
    expect(ids.map((id) => UNATTENDED_ID.test(id))).toEqual([true, true, true, true, false, true, false, true, true]);
  });
});

describe('runsByStarter', () => {
  const since = at(0);
  const counted = runsByStarter(
    [
      branch(scheduled('nightly', 0), 0, { answer: 'ok' }),
      branch(scheduled('nightly', HOUR_MS), HOUR_MS, { answer: 'error' }),
      branch(scheduled('nightly', 2 * HOUR_MS), 2 * HOUR_MS, { status: 'failed' }),
      // One run that continued as new: counted once, by its first start, ended as its last execution did.
      branch(scheduled('nightly', 3 * HOUR_MS), 3 * HOUR_MS, { status: 'done', answer: undefined }),
      branch(scheduled('nightly', 3 * HOUR_MS), 3 * HOUR_MS + 60_000, {
        status: 'waiting',
        state: 'awaiting_approval',
      }),
      branch('trig-orders.d1', 30_000, { answer: 'needs_input' }),
      branch('trig-orders.d2', 40_000, { status: 'running', state: 'working' }),
      // Started before the window (still open in it): not counted.
      branch(scheduled('old', -HOUR_MS), -HOUR_MS, { status: 'running' }),
      // A person's conversation and a delegate: nobody's runs.
      branch('conv-1', 0),
      branch('boss-1-pto', 0, { answer: 'ok' }),
    ],
    since,
  );

  it('counts each workflow once under its schedule or trigger, by how it ended', () => {
    expect(counted).toEqual([
      { source: 'schedule', name: 'nightly', runs: 4, ok: 1, failed: 2, running: 1, lastRun: at(3 * HOUR_MS) },
      { source: 'trigger', name: 'orders', runs: 2, ok: 0, failed: 1, running: 1, lastRun: at(40_000) },
    ]);
  });

  it('shows in `agent agents --stats` under the agents, and not at all when none ran', () => {
    const window = { since, until: at(4 * HOUR_MS), executions: 10, cap: 2000, capped: false };
    const text = formatAgentListing({ window, agents: [], problems: [], runsBy: counted });
    expect(text).toMatch(/^started by +runs +ok +failed +running +last run$/m);
    expect(text).toMatch(/^schedule nightly +4 +1 +2 +1 +\d{4}-\d\d-\d\d \d\d:\d\d$/m);
    expect(text).toMatch(/^trigger orders +2 +0 +1 +1 /m);
    expect(formatAgentListing({ window, agents: [], problems: [], runsBy: [] })).not.toMatch(/started by/);
  });

  it('says who started a run in `agent run`', () => {
    const root = { ...branch('trig-orders.d1', 0), startedBy: startedBy('trig-orders.d1')! };
    expect(formatRun({ root, at: at(60_000) }).split('\n')[1]).toBe('  started by trigger orders');
  });
});

describe('a recorded run folded', () => {
  const fold = (file: string, workflowId: string) =>
    foldHistory(
      historyFromJSON(JSON.parse(readFileSync(path.join(__dirname, '..', 'histories', file), 'utf8'))).events ?? [],
      {
        workflowId,
        runId: file,
        decode: (p) => (p?.payloads ?? []).map((x) => defaultPayloadConverter.fromPayload(x)),
      },
    );

  it('says the schedule that started it, and its answer’s status once it completed', () => {
    const run = fold('scheduled-run-denied.json', scheduled('deny-booking', 0));
    expect(run).toMatchObject({
      status: 'done',
      answer: 'ok',
      startedBy: { source: 'schedule', name: 'deny-booking' },
    });
    const trig = fold('triggered-run-notified.json', 'trig-orders.delivery-1');
    expect(trig.startedBy).toEqual({ source: 'trigger', name: 'orders' });
    expect(fold('scheduled-run-denied.json', 'conv-1')).not.toHaveProperty('startedBy');
  });
});
