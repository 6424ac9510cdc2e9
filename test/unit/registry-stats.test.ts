// The registry's figures summed from runs: over recorded histories folded as the reader folds them, and over hand-made
// runs whose every time is known (percentiles, error rates, waits left out of turn time, the window, hour buckets).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { defaultPayloadConverter } from '@temporalio/common';
import { foldHistory } from '../../views/run-view/history-fold';
import { percentile, usageStats, type StatsWindow } from '../../core/usage-stats';
import { emptyTotals, type RunBranch, type RunStep, type RunTurn } from '../../core/run-view';
import { windowNote } from '../../core/listings';
import { isoDay } from '../../core/days';

const DIR = path.join(__dirname, '..', 'histories');
const HOUR_MS = 3_600_000;
/** The hand-made runs' first hour: the start of the hour a day before this one. */
const T0 = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 24 * HOUR_MS;
/** A window holding every run here: the recorded ones and the hand-made ones. */
const ALL: StatsWindow = {
  since: new Date(0).toISOString(),
  until: new Date(T0 + 48 * HOUR_MS).toISOString(),
  executions: 0,
  cap: 2000,
  capped: false,
};

function fold(file: string, workflowId = file): RunBranch {
  const history = historyFromJSON(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));
  return foldHistory(history.events ?? [], {
    workflowId,
    runId: file,
    decode: (p) => (p?.payloads ?? []).map((x) => defaultPayloadConverter.fromPayload(x)),
  });
}

const at = (ms: number) => new Date(T0 + ms).toISOString();

function step(kind: RunStep['kind'], label: string, from: number, ms: number, more: Partial<RunStep> = {}): RunStep {
  return { id: `${label}${from}`, kind, label, status: 'done', startedAt: at(from), endedAt: at(from + ms), ...more };
}

function turn(index: number, from: number, ms: number, steps: RunStep[], waitMs = 0): RunTurn {
  const totals = { ...emptyTotals(), durationMs: ms, waitMs };
  return {
    index,
    prompt: index ? `prompt ${index}` : '',
    goalId: '',
    agentName: '',
    status: 'done',
    startedAt: at(from),
    steps,
    totals,
  };
}

function branch(workflowId: string, goalId: string, turns: RunTurn[]): RunBranch {
  return {
    workflowId,
    runId: `${workflowId}-run`,
    goalId,
    agentName: goalId.toUpperCase(),
    state: 'waiting_for_user',
    status: 'waiting',
    startedAt: turns[0]!.startedAt,
    turns,
    totals: emptyTotals(),
  };
}

describe('percentile', () => {
  it('is the nearest rank: the smallest value with at least q of the values at or below it', () => {
    const oneToTwenty = Array.from({ length: 20 }, (_, i) => i + 1);
    expect([percentile(oneToTwenty, 0.5), percentile(oneToTwenty, 0.95)]).toEqual([10, 19]);
    expect([percentile([7], 0.5), percentile([7], 0.95)]).toEqual([7, 7]);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([], 0.5)).toBeNull();
  });
});

describe('usageStats over recorded histories', () => {
  it('counts a conversation’s turns, model and tool calls, errors, and leaves approvals out of tool calls', () => {
    // 23 model activities (planTurn, validatePrompt) and 5 tool activities in its history; 2 approvals.
    const stats = usageStats([fold('pto-approvals-and-errors.json')], ALL);
    expect(stats.agents).toMatchObject([
      { goalId: 'goal_hr_pto', conversations: 1, delegated: 0, turns: 9, modelCalls: 23, toolCalls: 5 },
    ]);
    const byName = Object.fromEntries(stats.tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(['BookPTO', 'CurrentPTO', 'FuturePTOCalc']);
    expect(byName.CurrentPTO).toMatchObject({ calls: 3, errors: 1, errorRate: 1 / 3 });
    expect(byName.BookPTO).toMatchObject({ calls: 1, errors: 0 });
    expect(stats.endpoints).toEqual([]);
    const a = stats.agents[0]!;
    expect(a.p50TurnMs).not.toBeNull();
    expect(a.p50TurnMs!).toBeLessThanOrEqual(a.p95TurnMs!);
  });

  it('counts a delegate once, as its own agent’s delegated work, and AskAgent as the parent’s tool', () => {
    const parent = fold('delegation.json', 'boss-1');
    const child = fold('delegation-child.json', 'boss-1-pto');
    const stats = usageStats([parent, child], ALL, { delegates: new Set(['boss-1-pto']) });
    const boss = stats.agents.find((a) => a.goalId === 'goal_boss')!;
    const pto = stats.agents.find((a) => a.goalId === 'goal_hr_pto')!;
    expect(boss).toMatchObject({ conversations: 1, delegated: 0, toolCalls: 4 });
    expect(pto).toMatchObject({ conversations: 1, delegated: 1, turns: 1, toolCalls: 1 });
    // Each execution's own tokens: the parent's do not include the child's, so nothing is counted twice.
    expect(boss.usage.totalTokens + pto.usage.totalTokens).toBe(
      parent.totals.usage.totalTokens + child.totals.usage.totalTokens,
    );
    expect(stats.tools.find((t) => t.name === 'AskAgent')).toMatchObject({ calls: 4, errors: 0 });
  });

  it('counts the runs of a conversation that continued as new as one conversation, every turn once', () => {
    const first = fold('continue-as-new-first-run.json', 'long-1');
    const last = fold('continue-as-new-last-run.json', 'long-1');
    const stats = usageStats([first, last], ALL);
    const turnsOf = (b: RunBranch) => usageStats([b], ALL).agents[0]?.turns ?? 0;
    expect(stats.agents).toMatchObject([{ goalId: 'goal_hr_pto', conversations: 1, delegated: 0 }]);
    expect(stats.agents[0]!.turns).toBe(turnsOf(first) + turnsOf(last));
    expect(turnsOf(first)).toBeGreaterThan(0);
  });

  it('names the endpoint of MCP and HTTP API tools, the version of a made tool', () => {
    const stats = usageStats([fold('http-api-call.json'), fold('made-tool-call.json'), fold('search-tools.json')], ALL);
    expect(stats.endpoints.map((e) => [e.name, e.calls, e.errors])).toEqual([
      ['toolbox', 1, 0],
      ['trains', 2, 0],
    ]);
    const tools = Object.fromEntries(stats.tools.map((t) => [t.name, t]));
    expect(tools.trains__searchJourneys).toMatchObject({ endpoint: 'trains', calls: 1 });
    expect(tools.extract_urls).toMatchObject({ madeVersion: 1, calls: 1 });
    expect(tools.extract_urls!.endpoint).toBeUndefined();
    expect(tools.SearchTools).toMatchObject({ calls: 1 });
  });

  it('counts each turn for the agent that answered it when a conversation switches agents', () => {
    const stats = usageStats([fold('multi-goal-switching.json')], ALL);
    expect(stats.agents.map((a) => [a.goalId, a.turns, a.conversations])).toEqual([
      ['goal_choose_agent', 2, 1], // the greeting and "done" (back to the picker)
      ['goal_hr_pto', 2, 1],
      ['goal_order_status', 1, 1],
    ]);
    expect(stats.agents.reduce((n, a) => n + a.modelCalls, 0)).toBe(15);
  });
});

describe('usageStats over runs with known times', () => {
  const mcp = (from: number, ms: number, ok = true) =>
    step('tool', 'notes__add', from, ms, ok ? { detail: 'notes' } : { status: 'failed', detail: 'connection refused' });
  const runs = [
    branch('c1', 'goal_a', [
      turn(0, 0, 100, [step('model', 'plan the next step', 0, 100, { usage: usage(10, 1, 0.001) })]),
      // 5 s with 4 s of them waiting for an approval: 1 s of the agent's.
      turn(
        1,
        1_000,
        5_000,
        [step('approval', 'notes__add', 1_000, 4_000), mcp(5_000, 200), mcp(5_300, 400, false)],
        4_000,
      ),
    ]),
    branch('c2', 'goal_a', [
      turn(0, 3_600_000, 300, [step('model', 'plan the next step', 3_600_000, 300, { usage: usage(20, 2, 0.002) })]),
      turn(1, 3_700_000, 700, [mcp(3_700_000, 600)]),
    ]),
    // Before the window: nothing of it counts.
    branch('old', 'goal_b', [turn(0, -86_400_000, 50, [mcp(-86_400_000, 50)])]),
  ];
  const window = { ...ALL, since: at(0) };
  const stats = usageStats(runs, window, { endpointOf: (t) => (t === 'notes__add' ? 'notes' : undefined) });

  it('sums an agent’s conversations, turns, cost and last use; turn time leaves the user’s waits out', () => {
    expect(stats.agents).toEqual([
      {
        goalId: 'goal_a',
        agentName: 'GOAL_A',
        conversations: 2,
        delegated: 0,
        turns: 4,
        // 100, 300, 700 and the 1,000 of the turn with the approval.
        p50TurnMs: 300,
        p95TurnMs: 1_000,
        modelCalls: 2,
        toolCalls: 3,
        usage: { inputTokens: 30, outputTokens: 3, totalTokens: 33, costUsd: 0.003 },
        lastUsed: at(3_700_000),
      },
    ]);
  });

  it('gives a tool its calls, error rate and times; a failure that hid its endpoint is placed by the catalog', () => {
    expect(stats.tools).toEqual([
      {
        name: 'notes__add',
        endpoint: 'notes',
        calls: 3,
        errors: 1,
        errorRate: 1 / 3,
        p50Ms: 400,
        p95Ms: 600,
        lastUsed: at(3_700_000),
      },
    ]);
  });

  it('keeps an endpoint’s calls and errors by hour, its last error', () => {
    expect(stats.endpoints).toEqual([
      {
        name: 'notes',
        calls: 3,
        errors: 1,
        errorRate: 1 / 3,
        p50Ms: 400,
        p95Ms: 600,
        lastUsed: at(3_700_000),
        lastError: 'connection refused',
        hours: [
          { hour: at(0), calls: 2, errors: 1 },
          { hour: at(3_600_000), calls: 1, errors: 0 },
        ],
      },
    ]);
  });

  it('says what it counted, and when the cap left runs out', () => {
    const hour = String(new Date(T0).getUTCHours()).padStart(2, '0');
    expect(windowNote({ ...window, executions: 3 })).toBe(
      `since ${isoDay(new Date(T0))} ${hour}:00 UTC: 3 workflow run(s) read`,
    );
    expect(windowNote({ ...window, executions: 2000, capped: true })).toMatch(/the cap, 2000: older runs are left out/);
  });
});

function usage(inputTokens: number, outputTokens: number, costUsd: number) {
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, costUsd };
}
