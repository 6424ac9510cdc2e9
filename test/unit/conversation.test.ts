import { Conversation } from '../../workflows/decider/conversation';
import type { Effect } from '../../core/effects';
import type { ToolSpec } from '../../core/types';
import { begun, book, calls, goal, next, planThen, settings, text, usage } from '../helpers/conversation-unit';
import { carry, feed, splitForCarry, transcript } from '../../workflows/decider/views';

describe('Conversation', () => {
  it('waits for the user after a text reply and reports it', () => {
    const convo = begun();
    expect(convo.hasWork()).toBe(false);
    expect(convo.status()).toBe('waiting_for_user');
    expect(convo.replies.last).toMatchObject({ reply: 'hello', pendingToolCall: null, ended: false });
  });

  it('gives each watched prompt its own reply, even when several are queued', () => {
    const convo = begun();
    const first = convo.enqueuePrompt('one', true);
    const second = convo.enqueuePrompt('two', true);
    planThen(convo, text('reply one'));
    expect(convo.replies.has(first)).toBe(true);
    expect(convo.replies.has(second)).toBe(false);
    expect(convo.replies.waiting()).toBe(true);
    planThen(convo, text('reply two'));
    expect(convo.replies.collect(first)?.reply).toBe('reply one');
    expect(convo.replies.collect(second)?.reply).toBe('reply two');
    expect(convo.replies.waiting()).toBe(false);
  });

  it('pauses for approval, then runs the call once approved', () => {
    const convo = begun();
    convo.enqueuePrompt('book monday');
    expect(planThen(convo, calls(['Book', { day: 'monday' }]))).toBeNull();
    expect(convo.status()).toBe('awaiting_approval');
    expect(convo.hasWork()).toBe(false);
    expect(convo.confirm({ approve: true })).toBeNull();
    expect(convo.confirm({ approve: true })).toMatch(/already answered/);
    const step = next(convo, 'run_tool');
    expect(step).toMatchObject({ kind: 'run_tool', call: { tool: 'Book', args: { day: 'monday' } } });
    convo.apply(step, { status: 'ok', result: 'booked' });
    expect(convo.nextEffect()).toMatchObject({ kind: 'plan' });
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
    expect(convo.nextEffect()).toMatchObject({ kind: 'plan' });
    expect(convo.messages.at(-1)).toMatchObject({
      kind: 'tool',
      outcome: { status: 'invalid_input', problems: ['"day" must be string, got a number'] },
    });
  });

  it('declines a pending call when the user sends a new message instead', () => {
    const convo = begun();
    convo.enqueuePrompt('book');
    planThen(convo, calls(['Book', { day: 'monday' }]));
    convo.enqueuePrompt('actually, never mind');
    expect(convo.hasWork()).toBe(true);
    expect(convo.nextEffect()).toMatchObject({ kind: 'plan' });
    const kinds = convo.messages.slice(-2).map((m) => m.kind);
    expect(kinds).toEqual(['tool', 'user']);
    expect(convo.messages.at(-2)).toMatchObject({ outcome: { status: 'rejected' } });
  });

  it('reports missing required args without asking for approval', () => {
    const convo = begun();
    convo.enqueuePrompt('book');
    expect(planThen(convo, calls(['Book', {}]))).toMatchObject({ kind: 'plan' });
    expect(convo.messages.at(-1)).toMatchObject({ outcome: { status: 'invalid_input', missing: ['day'] } });
    expect(convo.pendingApproval()).toBeNull();
  });

  it('answers unknown tools with the list of known ones', () => {
    const convo = begun();
    convo.enqueuePrompt('x');
    planThen(convo, calls(['Nope', {}]));
    expect(convo.messages.at(-1)).toMatchObject({
      outcome: { status: 'invalid_input', problems: [expect.stringContaining('available tools: Book, CompleteGoal')] },
    });
  });

  it('runs tools without approval when SHOW_CONFIRM is off', () => {
    const convo = begun({ showConfirm: false });
    convo.enqueuePrompt('book');
    expect(planThen(convo, calls(['Book', { day: 'monday' }]))).toMatchObject({ kind: 'run_tool' });
  });

  it("applies the goal's approval policy and step cap over the worker settings", () => {
    const readOnly: ToolSpec = { ...book, name: 'Peek', approval: 'never' };
    const dangerous: ToolSpec = { ...book, name: 'Wipe', approval: 'always' };
    const strict = new Conversation();
    strict.begin(
      { ...settings, showConfirm: false },
      { goal: { ...goal, settings: { approval: 'always', maxToolSteps: 1 } }, tools: [readOnly] },
    );
    strict.apply(next(strict, 'plan'), text('hi'));
    strict.enqueuePrompt('peek');
    expect(planThen(strict, calls(['Peek', { day: 'x' }]))).toBeNull();
    expect(strict.pendingApproval()?.call.tool).toBe('Peek');
    strict.confirm({ approve: true });
    strict.apply(next(strict, 'run_tool'), { status: 'ok', result: 1 });
    // maxToolSteps 1: no second LLM step in this turn.
    expect(strict.nextEffect()).toBeNull();
    expect(strict.replies.last?.reply).toMatch(/I have taken 1 steps/);

    const relaxed = new Conversation();
    relaxed.begin(
      { ...settings, showConfirm: true },
      { goal: { ...goal, settings: { approval: 'never' } }, tools: [book, dangerous] },
    );
    relaxed.apply(next(relaxed, 'plan'), text('hi'));
    relaxed.enqueuePrompt('book');
    expect(planThen(relaxed, calls(['Book', { day: 'x' }]))).toMatchObject({ kind: 'run_tool' });
    // A tool that always asks still asks: a goal cannot loosen it.
    relaxed.apply(
      { kind: 'run_tool', call: { id: 'c0', tool: 'Book', args: {} }, spec: book },
      { status: 'ok', result: 1 },
    );
    expect(planThen(relaxed, calls(['Wipe', { day: 'x' }]))).toBeNull();
    expect(relaxed.pendingApproval()?.call.tool).toBe('Wipe');
  });

  it('stops a turn at the step cap', () => {
    const convo = begun({ showConfirm: false, maxToolStepsPerTurn: 2 });
    convo.enqueuePrompt('loop');
    for (let i = 0; i < 2; i++) {
      const step = planThen(convo, calls(['Book', { day: 'monday' }]));
      expect(step?.kind).toBe('run_tool');
      convo.apply(step as Effect<'run_tool'>, { status: 'ok', result: i });
    }
    expect(convo.nextEffect()).toBeNull();
    expect(convo.replies.last?.reply).toMatch(/I have taken 2 steps/);
  });

  it('ends on CompleteGoal and releases every waiting prompt', () => {
    const convo = begun();
    const id = convo.enqueuePrompt('done', true);
    // Single-goal mode: CompleteGoal needs no activity; it ends the conversation on the spot.
    expect(planThen(convo, calls(['CompleteGoal', {}]))).toBeNull();
    expect(convo.messages.at(-1)).toMatchObject({
      kind: 'tool',
      outcome: { status: 'ok', result: { completed: 'g' } },
    });
    expect(convo.ended).toBe(true);
    expect(convo.replies.collect(id)).toMatchObject({ ended: true });
    expect(transcript(convo).endedBy).toBe('goal_complete');
  });

  it('keeps whole turns when splitting history for continue-as-new, and carries queued prompts', () => {
    const convo = begun({ showConfirm: false });
    convo.enqueuePrompt('book');
    const step = planThen(convo, calls(['Book', { day: 'monday' }]));
    convo.apply(step as Effect<'run_tool'>, { status: 'ok', result: 1 });
    convo.apply(next(convo, 'plan'), text('booked'));
    convo.enqueuePrompt('queued');
    const { older, recent } = splitForCarry(convo);
    expect(recent[0]).toMatchObject({ kind: 'user', text: 'book' });
    expect(older.length + recent.length).toBe(convo.messages.length);
    const carried = carry(convo, 'summary', recent);
    expect(carried.pendingPrompts.map((p) => p.text)).toEqual(['queued']);

    const continued = new Conversation({ carried });
    continued.begin(settings, { goal, tools: [book] });
    expect(continued.runs).toBe(2);
    expect(continued.summary).toBe('summary');
    // A continued conversation does not greet again: the queued prompt comes first.
    expect(continued.nextEffect()).toMatchObject({ kind: 'plan' });
    expect(continued.messages.at(-1)).toMatchObject({ kind: 'user', text: 'queued' });
  });

  it('numbers messages for live views, the same numbers after continue-as-new', () => {
    const convo = begun({ showConfirm: false });
    convo.enqueuePrompt('book');
    const step = planThen(convo, calls(['Book', { day: 'monday' }]));
    convo.apply(step as Effect<'run_tool'>, { status: 'ok', result: 1 });
    convo.apply(next(convo, 'plan'), text('booked'));
    const all = feed(convo, 0);
    expect(all).toMatchObject({
      goalId: 'g',
      state: 'waiting_for_user',
      first: 0,
      next: convo.messages.length,
      owner: null,
    });
    expect(all.messages.map((m) => m.seq)).toEqual(convo.messages.map((_, i) => i));
    expect(feed(convo, all.next - 1).messages).toEqual([all.messages.at(-1)]);
    expect(feed(convo, all.next).messages).toEqual([]);

    const { recent } = splitForCarry(convo);
    const continued = new Conversation({ carried: carry(convo, 'summary', recent) });
    continued.begin(settings, { goal, tools: [book] });
    const after = feed(continued, 0);
    // The summarised messages are gone; the kept ones keep their numbers.
    expect(after.first).toBe(all.next - recent.length);
    expect(after.messages).toEqual(all.messages.slice(after.first));
    expect(feed(continued, all.next - 1).messages).toEqual([all.messages.at(-1)]);
  });

  it('asks the validator first when prompt validation is on, and steers back on a bad prompt', () => {
    const convo = begun({ validatePrompts: true });
    convo.enqueuePrompt('pizza');
    const step = next(convo, 'validate');
    expect(step).toMatchObject({ kind: 'validate', prompt: { text: 'pizza' } });
    convo.apply(step, { valid: false, reply: 'Only PTO here.', usage });
    expect(convo.replies.last?.reply).toBe('Only PTO here.');
    expect(convo.hasWork()).toBe(false);
  });
});

describe('Conversation: the transcript by reference', () => {
  it('sends each LLM request only the messages added since the last one, with the count to read', () => {
    const convo = new Conversation();
    convo.begin(settings, { goal, tools: [book] });
    const first = next(convo, 'plan');
    expect(first.request.transcript).toEqual({
      count: 1,
      tail: [expect.objectContaining({ kind: 'user', text: 'start' })],
    });
    convo.apply(first, text('hello'));
    convo.enqueuePrompt('again');
    const second = next(convo, 'plan');
    // The greeting and the new prompt: not the starter prompt again.
    expect(second.request.transcript?.count).toBe(3);
    expect(second.request.transcript?.tail.map((m) => m.kind)).toEqual(['agent', 'user']);
    expect(second.request.messages).toBeUndefined();
  });
});

describe('Conversation: checking a prompt while planning its turn (one model wait)', () => {
  const oneWait = () =>
    begun({ validatePrompts: true, showConfirm: false }, { refreshToolsEachTurn: true, oneModelWait: true });

  it('asks for the check and the plan in one effect, the prompt already in the transcript', () => {
    const convo = oneWait();
    convo.enqueuePrompt('book monday');
    const step = next(convo, 'vet_and_plan');
    expect(step.request).toMatchObject({ prompt: 'book monday' });
    // The goal was sent with the starter's plan: this request names it by number.
    expect(step.request.goal).toBeUndefined();
    expect(convo.turn.contexts.get(step.request.context!.version)?.goal).toMatchObject({ id: 'g' });
    expect(step.request.transcript?.tail.at(-1)).toMatchObject({ kind: 'user', text: 'book monday' });
    expect(convo.messages.at(-1)).toMatchObject({ kind: 'user', text: 'book monday' });
  });

  it('drops the plan of a prompt that does not fit, and steers back', () => {
    const convo = oneWait();
    convo.enqueuePrompt('pizza');
    convo.apply(next(convo, 'vet_and_plan'), {
      valid: false,
      reply: 'Only bookings here.',
      usage,
      plan: calls(['Book', { day: 'monday' }]),
    });
    expect(convo.nextEffect()).toBeNull();
    expect(convo.replies.last?.reply).toBe('Only bookings here.');
    expect(convo.messages.filter((m) => m.kind === 'user' && m.text === 'pizza')).toHaveLength(1);
    expect(convo.messages.some((m) => m.kind === 'agent' && m.toolCalls.length > 0)).toBe(false);
  });

  it('runs the tool of a fitting prompt once, from the plan made alongside the check', () => {
    const convo = oneWait();
    convo.enqueuePrompt('book monday');
    convo.apply(next(convo, 'vet_and_plan'), {
      valid: true,
      reply: '',
      usage,
      plan: calls(['Book', { day: 'monday' }]),
    });
    const run = next(convo, 'run_tool');
    expect(run.call).toMatchObject({ tool: 'Book', args: { day: 'monday' } });
    convo.apply(run, { status: 'ok', result: 1 });
    convo.apply(next(convo, 'plan'), text('booked'));
    expect(convo.nextEffect()).toBeNull();
    expect(convo.messages.filter((m) => m.kind === 'tool')).toHaveLength(1);
    // Both calls' tokens are counted: the check's and the plan's.
    expect(convo.usage.totalTokens).toBe(4 * usage.totalTokens); // the greeting, the check, two plans
  });

  it('plans on its own when the combined call failed (the check fails open)', () => {
    const convo = oneWait();
    convo.enqueuePrompt('book monday');
    convo.apply(next(convo, 'vet_and_plan'), { failed: 'model down' });
    expect(next(convo, 'plan').request.transcript?.count).toBe(convo.messages.length);
  });

  it('does not check the starter prompt', () => {
    const convo = new Conversation();
    convo.begin(
      { ...settings, validatePrompts: true },
      { goal, tools: [book] },
      { refreshToolsEachTurn: true, oneModelWait: true },
    );
    next(convo, 'plan');
  });
});
