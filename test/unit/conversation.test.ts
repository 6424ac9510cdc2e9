import { Conversation, type Step } from '../../workflows/conversation';
import { BUILTIN_TOOLS } from '../../workflows/builtin-tools';
import type { Goal, PlanResult, Settings, ToolSpec } from '../../workflows/types';

const settings: Settings = {
  showConfirm: true,
  multiGoal: false,
  pickerGoalId: 'picker',
  goalCategories: [],
  validatePrompts: false,
  maxToolStepsPerTurn: 4,
  historyEventBudget: 1000,
  recentMessagesKept: 4,
};
const goal: Goal = {
  id: 'g',
  category: 'c',
  agentName: 'Agent',
  agentFriendlyDescription: '',
  description: '',
  starterPrompt: 'start',
  exampleConversation: '',
  tools: ['Book'],
};
const book: ToolSpec = {
  name: 'Book',
  description: 'Book it',
  category: 'c',
  inputSchema: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] },
  approval: 'default',
  kind: 'native',
};
const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const text = (t: string): PlanResult => ({ text: t, toolCalls: [], usage });
const calls = (...c: [string, Record<string, unknown>][]): PlanResult => ({
  text: '',
  toolCalls: c.map(([tool, args], i) => ({ id: `c${i}`, tool, args })),
  usage,
});

function begun(overrides: Partial<Settings> = {}) {
  const convo = new Conversation();
  convo.begin({ ...settings, ...overrides }, { goal, tools: [book, BUILTIN_TOOLS.CompleteGoal!] });
  // The starter prompt opens the conversation.
  expect(convo.nextStep()).toEqual({ kind: 'plan' });
  convo.apply({ kind: 'plan' }, text('hello'));
  return convo;
}

/** Plans with `plan` and returns the next step. */
function planThen(convo: Conversation, plan: PlanResult): Step {
  expect(convo.nextStep()).toEqual({ kind: 'plan' });
  convo.apply({ kind: 'plan' }, plan);
  return convo.nextStep();
}

describe('Conversation', () => {
  it('waits for the user after a text reply and reports it', () => {
    const convo = begun();
    expect(convo.hasWork()).toBe(false);
    expect(convo.status()).toBe('waiting_for_user');
    expect(convo.lastReply).toMatchObject({ reply: 'hello', pendingToolCall: null, ended: false });
  });

  it('gives each watched prompt its own reply, even when several are queued', () => {
    const convo = begun();
    const first = convo.enqueuePrompt('one', true);
    const second = convo.enqueuePrompt('two', true);
    planThen(convo, text('reply one'));
    expect(convo.hasReply(first)).toBe(true);
    expect(convo.hasReply(second)).toBe(false);
    expect(convo.hasWatchers()).toBe(true);
    planThen(convo, text('reply two'));
    expect(convo.collectReply(first)?.reply).toBe('reply one');
    expect(convo.collectReply(second)?.reply).toBe('reply two');
    expect(convo.hasWatchers()).toBe(false);
  });

  it('pauses for approval, then runs the call once approved', () => {
    const convo = begun();
    convo.enqueuePrompt('book monday');
    expect(planThen(convo, calls(['Book', { day: 'monday' }]))).toEqual({ kind: 'idle' });
    expect(convo.status()).toBe('awaiting_approval');
    expect(convo.hasWork()).toBe(false);
    expect(convo.confirm({ approve: true })).toBeNull();
    expect(convo.confirm({ approve: true })).toMatch(/already answered/);
    const step = convo.nextStep();
    expect(step).toMatchObject({ kind: 'tool', call: { tool: 'Book', args: { day: 'monday' } } });
    convo.apply(step, { status: 'ok', result: 'booked' });
    expect(convo.nextStep()).toEqual({ kind: 'plan' });
  });

  it('refuses confirms with nothing pending, for another call, or rejections without a reason', () => {
    const convo = begun();
    expect(convo.confirm({ approve: true })).toMatch(/no tool call is waiting/);
    convo.enqueuePrompt('book monday');
    planThen(convo, calls(['Book', { day: 'monday' }]));
    expect(convo.confirm({ approve: true, callId: 'other' })).toMatch(/not the pending one/);
    expect(convo.confirm({ approve: false, reason: ' ' })).toMatch(/needs a reason/);
  });

  it('re-checks edited args before running them', () => {
    const convo = begun();
    convo.enqueuePrompt('book');
    planThen(convo, calls(['Book', { day: 'monday' }]));
    convo.confirm({ approve: true, args: { day: 7 } });
    expect(convo.nextStep()).toEqual({ kind: 'plan' });
    expect(convo.messages.at(-1)).toMatchObject({ kind: 'tool', outcome: { status: 'invalid_input', problems: ['"day" must be string, got a number'] } });
  });

  it('declines a pending call when the user sends a new message instead', () => {
    const convo = begun();
    convo.enqueuePrompt('book');
    planThen(convo, calls(['Book', { day: 'monday' }]));
    convo.enqueuePrompt('actually, never mind');
    expect(convo.hasWork()).toBe(true);
    expect(convo.nextStep()).toEqual({ kind: 'plan' });
    const kinds = convo.messages.slice(-2).map((m) => m.kind);
    expect(kinds).toEqual(['tool', 'user']);
    expect(convo.messages.at(-2)).toMatchObject({ outcome: { status: 'rejected' } });
  });

  it('reports missing required args without asking for approval', () => {
    const convo = begun();
    convo.enqueuePrompt('book');
    expect(planThen(convo, calls(['Book', {}]))).toEqual({ kind: 'plan' });
    expect(convo.messages.at(-1)).toMatchObject({ outcome: { status: 'invalid_input', missing: ['day'] } });
    expect(convo.pendingApproval()).toBeNull();
  });

  it('answers unknown tools with the list of known ones', () => {
    const convo = begun();
    convo.enqueuePrompt('x');
    planThen(convo, calls(['Nope', {}]));
    expect(convo.messages.at(-1)).toMatchObject({ outcome: { status: 'invalid_input', problems: [expect.stringContaining('available tools: Book, CompleteGoal')] } });
  });

  it('runs tools without approval when SHOW_CONFIRM is off', () => {
    const convo = begun({ showConfirm: false });
    convo.enqueuePrompt('book');
    expect(planThen(convo, calls(['Book', { day: 'monday' }]))).toMatchObject({ kind: 'tool' });
  });

  it('applies the goal\'s approval policy and step cap over the worker settings', () => {
    const readOnly: ToolSpec = { ...book, name: 'Peek', approval: 'never' };
    const dangerous: ToolSpec = { ...book, name: 'Wipe', approval: 'always' };
    const strict = new Conversation();
    strict.begin({ ...settings, showConfirm: false }, { goal: { ...goal, settings: { approval: 'always', maxToolSteps: 1 } }, tools: [readOnly] });
    strict.nextStep();
    strict.apply({ kind: 'plan' }, text('hi'));
    strict.enqueuePrompt('peek');
    expect(planThen(strict, calls(['Peek', { day: 'x' }]))).toEqual({ kind: 'idle' });
    expect(strict.pendingApproval()?.call.tool).toBe('Peek');
    strict.confirm({ approve: true });
    const run = strict.nextStep();
    strict.apply(run, { status: 'ok', result: 1 });
    // maxToolSteps 1: no second LLM step in this turn.
    expect(strict.nextStep()).toEqual({ kind: 'idle' });
    expect(strict.lastReply?.reply).toMatch(/I have taken 1 steps/);

    const relaxed = new Conversation();
    relaxed.begin({ ...settings, showConfirm: true }, { goal: { ...goal, settings: { approval: 'never' } }, tools: [book, dangerous] });
    relaxed.nextStep();
    relaxed.apply({ kind: 'plan' }, text('hi'));
    relaxed.enqueuePrompt('book');
    expect(planThen(relaxed, calls(['Book', { day: 'x' }]))).toMatchObject({ kind: 'tool' });
    // A tool that always asks still asks: a goal cannot loosen it.
    relaxed.apply({ kind: 'tool', call: { id: 'c0', tool: 'Book', args: {} }, spec: book }, { status: 'ok', result: 1 });
    expect(planThen(relaxed, calls(['Wipe', { day: 'x' }]))).toEqual({ kind: 'idle' });
    expect(relaxed.pendingApproval()?.call.tool).toBe('Wipe');
  });

  it('stops a turn at the step cap', () => {
    const convo = begun({ showConfirm: false, maxToolStepsPerTurn: 2 });
    convo.enqueuePrompt('loop');
    for (let i = 0; i < 2; i++) {
      const step = planThen(convo, calls(['Book', { day: 'monday' }]));
      convo.apply(step, { status: 'ok', result: i });
    }
    expect(convo.nextStep()).toEqual({ kind: 'idle' });
    expect(convo.lastReply?.reply).toMatch(/I have taken 2 steps/);
  });

  it('ends on CompleteGoal and releases every waiting prompt', () => {
    const convo = begun();
    const id = convo.enqueuePrompt('done', true);
    const step = planThen(convo, calls(['CompleteGoal', {}]));
    expect(step.kind).toBe('builtin');
    convo.apply(step, { outcome: { status: 'ok', result: {} }, end: true });
    expect(convo.ended).toBe(true);
    expect(convo.collectReply(id)).toMatchObject({ ended: true });
    expect(convo.transcript().endedBy).toBe('goal_complete');
  });

  it('keeps whole turns when splitting history for continue-as-new, and carries queued prompts', () => {
    const convo = begun({ showConfirm: false });
    convo.enqueuePrompt('book');
    const step = planThen(convo, calls(['Book', { day: 'monday' }]));
    convo.apply(step, { status: 'ok', result: 1 });
    convo.nextStep();
    convo.apply({ kind: 'plan' }, text('booked'));
    convo.enqueuePrompt('queued');
    const { older, recent } = convo.splitForCarry();
    expect(recent[0]).toMatchObject({ kind: 'user', text: 'book' });
    expect(older.length + recent.length).toBe(convo.messages.length);
    const carried = convo.carry('summary', recent);
    expect(carried.pendingPrompts.map((p) => p.text)).toEqual(['queued']);

    const next = new Conversation(carried);
    next.begin(settings, { goal, tools: [book] });
    expect(next.runs).toBe(2);
    expect(next.summary).toBe('summary');
    // A continued conversation does not greet again: the queued prompt comes first.
    expect(next.nextStep()).toEqual({ kind: 'plan' });
    expect(next.messages.at(-1)).toMatchObject({ kind: 'user', text: 'queued' });
  });

  it('asks the validator first when prompt validation is on, and steers back on a bad prompt', () => {
    const convo = begun({ validatePrompts: true });
    convo.enqueuePrompt('pizza');
    const step = convo.nextStep();
    expect(step).toMatchObject({ kind: 'validate', prompt: { text: 'pizza' } });
    convo.apply(step, { valid: false, reply: 'Only PTO here.', usage });
    expect(convo.lastReply?.reply).toBe('Only PTO here.');
    expect(convo.hasWork()).toBe(false);
  });
});
