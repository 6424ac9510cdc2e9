// The run view's words and figures (web/run-format.ts): what a person reads for each step, turn and branch.
import type { RunBranch, RunStep, RunTurn, RunView } from '../../core/run-view';
import { emptyTotals } from '../../core/run-view';
import { formatMs } from '../../core/format';
import {
  hasEnded,
  isLive,
  branchTimes,
  recalledHead,
  recalledText,
  stepParts,
  timelineSpan,
  totalsParts,
  turnTimes,
  turnTitle,
  usageText,
} from '../../core/run-format';

// 10:00 today: the times of day the tests read are fixed, the day is any.
const T0 = Date.parse(`${new Date().toISOString().slice(0, 10)}T10:00:00.000Z`);
const at = (ms: number) => new Date(T0 + ms).toISOString();

const step = (over: Partial<RunStep> = {}): RunStep => ({
  id: 'a1',
  kind: 'model',
  label: 'plan the next step',
  status: 'done',
  startedAt: at(0),
  endedAt: at(1_250),
  ...over,
});
const turn = (over: Partial<RunTurn> = {}): RunTurn => ({
  index: 1,
  prompt: 'book a day off',
  goalId: 'goal_hr_pto',
  agentName: 'PTO assistant',
  status: 'done',
  startedAt: at(0),
  endedAt: at(10_000),
  steps: [],
  totals: { ...emptyTotals(), durationMs: 10_000 },
  ...over,
});
const branch = (over: Partial<RunBranch> = {}): RunBranch => ({
  workflowId: 'wf',
  runId: 'r',
  goalId: 'goal_boss',
  agentName: 'Boss',
  state: 'ended',
  status: 'done',
  startedAt: at(0),
  endedAt: at(10_000),
  turns: [],
  totals: emptyTotals(),
  ...over,
});

describe('run view formatting', () => {
  it('says durations in the unit that reads best', () => {
    expect([0, 850, 1_234, 9_960, 14_400, 60_000, 125_000, 3_600_000, 3_840_000].map(formatMs)).toEqual([
      '0 ms',
      '850 ms',
      '1.2 s',
      '10 s',
      '14 s',
      '1 min',
      '2 min 5 s',
      '1 h',
      '1 h 4 min',
    ]);
  });

  it('shows tokens always and the cost only when the worker knew a price', () => {
    expect(usageText({ inputTokens: 1000, outputTokens: 234, totalTokens: 1234 })).toBe('1,234 tokens');
    expect(usageText({ inputTokens: 1, outputTokens: 0, totalTokens: 1, costUsd: 0.00123 })).toBe('1 token · $0.0012');
  });

  it("lists a model step's model, tokens and cost, time, and its attempt once retried", () => {
    const usage = { inputTokens: 400, outputTokens: 60, totalTokens: 460, costUsd: 0.0021 };
    expect(stepParts(step({ usage, model: 'gpt-5-mini', attempt: 1 }), T0)).toEqual([
      'gpt-5-mini',
      '460 tokens · $0.0021',
      '1.3 s',
    ]);
    expect(stepParts(step({ attempt: 2, lastFailure: 'activity Heartbeat timeout' }), T0)).toEqual([
      '1.3 s',
      'attempt 2',
    ]);
  });

  it("names the model as configured, a scripted model's file by its name", () => {
    expect(stepParts(step({ model: 'scripted:/tmp/run-1/script.json' }), T0)[0]).toBe('scripted:script.json');
    expect(stepParts(step({ model: 'openrouter:meta-llama/llama-4' }), T0)[0]).toBe('openrouter:meta-llama/llama-4');
  });

  it('says how many memories a model call was shown, and which', () => {
    expect(recalledHead(1)).toBe('recalled 1 memory');
    expect(recalledText(['mem_0123456789abcdef', 'mem_fedcba9876543210'])).toBe(
      'recalled 2 memories: mem_0123456789abcdef, mem_fedcba9876543210',
    );
  });

  it('counts a running step up to now', () => {
    expect(stepParts(step({ kind: 'tool', status: 'running', endedAt: undefined }), T0 + 3_000)).toEqual(['3.0 s']);
  });

  it('sums a turn in one line, leaving out what did not happen', () => {
    const totals = {
      durationMs: 4_000,
      usage: { inputTokens: 900, outputTokens: 100, totalTokens: 1000, costUsd: 0.0042 },
      modelCalls: 3,
      toolCalls: 1,
      waitMs: 2_500,
    };
    expect(totalsParts(totals, { durationMs: 4_000, waitMs: 2_500 })).toEqual([
      '4.0 s',
      '1,000 tokens · $0.0042',
      '3 model calls',
      '1 tool call',
      '2.5 s waiting for you',
    ]);
    expect(totalsParts(emptyTotals(), { durationMs: 0, waitMs: 0 })).toEqual(['0 ms', '0 tokens']);
  });

  it("counts an open turn's time and waits, its delegates' included, to now; a closed one's as the server summed them", () => {
    const approval = step({ id: 'w1', kind: 'approval', status: 'waiting', startedAt: at(1_000), endedAt: undefined });
    const question = step({ id: 'q1', kind: 'question', startedAt: at(2_000), endedAt: at(3_000) });
    const child = branch({
      status: 'waiting',
      endedAt: undefined,
      turns: [turn({ index: 0, status: 'waiting', endedAt: undefined, steps: [approval] })],
    });
    const delegate = step({ kind: 'delegate', status: 'waiting', endedAt: undefined, branch: child });
    // The server read it long ago: its own figures (1 s) are stale.
    const open = turn({ status: 'waiting', endedAt: undefined, steps: [question, delegate] });
    open.totals = { ...open.totals, durationMs: 1_000, waitMs: 0 };
    expect(turnTimes(open, T0 + 6_000)).toEqual({ durationMs: 6_000, waitMs: 1_000 + 5_000 });
    expect(branchTimes(child, T0 + 6_000)).toEqual({ durationMs: 6_000, waitMs: 5_000 });
    const closed = turn({ steps: [question] });
    expect(turnTimes(closed, T0 + 60_000)).toEqual({ durationMs: 10_000, waitMs: 1_000 });
  });

  it("names turns by the user's prompt; turn 0 is the start, or a delegate's task", () => {
    expect(turnTitle(turn(), false)).toBe('book a day off');
    expect(turnTitle(turn({ index: 0, prompt: '' }), false)).toBe('Start');
    expect(turnTitle(turn({ index: 0, prompt: 'PTO left for ada' }), true)).toBe('Task: PTO left for ada');
  });

  it("places a step on its turn's timeline, a sliver at least, never past the end", () => {
    const t = turn();
    expect(timelineSpan(step({ startedAt: at(2_500), endedAt: at(5_000) }), t, 10_000, T0)).toEqual({
      left: 25,
      width: 25,
    });
    expect(timelineSpan(step({ startedAt: at(10_000), endedAt: at(10_000) }), t, 10_000, T0)).toEqual({
      left: 99.2,
      width: 0.8,
    });
  });

  it('ends once every workflow in the tree has, and is live while anything runs or waits', () => {
    const waitingChild = branch({ status: 'waiting', endedAt: undefined, state: 'awaiting_approval' });
    const delegate = step({ kind: 'delegate', status: 'running', endedAt: undefined, branch: waitingChild });
    const view = (root: RunBranch): RunView => ({ root, at: at(0) });
    const open = view(branch({ turns: [turn({ steps: [delegate] })] }));
    expect([hasEnded(open), isLive(open)]).toEqual([false, true]);
    const closedChild = { ...delegate, status: 'done' as const, branch: branch() };
    const ended = view(branch({ turns: [turn({ steps: [closedChild] })] }));
    expect([hasEnded(ended), isLive(ended)]).toEqual([true, false]);
  });
});
