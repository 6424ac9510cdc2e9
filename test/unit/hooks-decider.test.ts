// The decider's side of hooks: the turn's first model call asks for its prompt to be screened; a prompt a hook
// rewrote or blocked takes its new form in the transcript before any model sees it (a block ends the turn with the
// hook's reason); a stopped model call ends the turn; every decision becomes a note. No Temporal.
import { begun, book, calls, goal, next, settings, text, usage } from '../helpers/conversation-unit';
import { Conversation } from '../../workflows/decider/conversation';
import type { PlanResult, PromptVerdict } from '../../core/activity-types';
import type { HookDecision } from '../../core/hooks';
import type { ChatMessage } from '../../core/types';

const redacted: HookDecision = {
  hook: 'pii',
  point: 'userMessage',
  action: 'rewrite',
  note: '1 e-mail address redacted',
};
const topicBlock: HookDecision = { hook: 'topics', point: 'userMessage', action: 'block', note: 'Not here.' };
const screened = (screen: PlanResult['screened']): PlanResult => ({
  text: '',
  toolCalls: [],
  usage: { ...usage, totalTokens: 0, inputTokens: 0, outputTokens: 0 },
  screened: screen,
});
const tail = (messages: ChatMessage[], n: number) => messages.slice(-n);

describe('hooks in the decider', () => {
  it('asks the first model call of a turn to screen its prompt, and only that one', () => {
    const convo = begun({ showConfirm: false });
    convo.enqueuePrompt('book Monday for ada@example.com');
    const first = next(convo, 'plan');
    expect(first.request.screenPrompt).toBe(true);
    convo.apply(first, calls(['Book', { day: 'Monday' }]));
    convo.apply(next(convo, 'run_tool'), { status: 'ok', result: 'booked' });
    expect(next(convo, 'plan').request.screenPrompt).toBeUndefined();
  });

  it("never asks for the goal's starter prompt (the agent's opening, not the user's words)", () => {
    const convo = new Conversation();
    convo.begin(settings, { goal, tools: [book] });
    const starter = next(convo, 'plan');
    expect(starter.request.screenPrompt).toBeUndefined();
    convo.apply(starter, text('hello'));
    convo.enqueuePrompt('hi');
    expect(next(convo, 'plan').request.screenPrompt).toBe(true);
  });

  it('a rewritten prompt replaces the words in the transcript, is noted, and is planned again in its new words', () => {
    const convo = begun();
    convo.enqueuePrompt('mail ada@example.com');
    convo.apply(next(convo, 'plan'), screened({ decisions: [redacted], text: 'mail [email]' }));
    expect(tail(convo.messages, 2)).toEqual([
      { kind: 'user', text: 'mail [email]', promptId: 2 },
      { kind: 'note', text: 'hook pii rewrote your message: 1 e-mail address redacted', forUser: true, hook: redacted },
    ]);
    // The next request sends the rewritten message again, so a worker's copy of the transcript has the new words.
    const again = next(convo, 'plan');
    expect(again.request.screenPrompt).toBeUndefined();
    expect(again.request.transcript?.tail.map((m) => m.kind)).toEqual(['user', 'note']);
    expect(again.request.transcript?.tail[0]).toMatchObject({ text: 'mail [email]' });
    convo.apply(again, text('Sent.'));
    expect(convo.nextEffect()).toBeNull();
    expect(convo.turn.title(80)).toBe('mail [email]');
  });

  it("a blocked prompt's words are withheld, and the hook's reason is the reply: no model is asked", () => {
    const convo = begun();
    convo.enqueuePrompt('what dosage should I take?', true);
    convo.apply(next(convo, 'plan'), screened({ decisions: [topicBlock], blocked: 'Not here.' }));
    expect(tail(convo.messages, 3)).toEqual([
      { kind: 'user', text: '[message withheld: blocked by the hook topics]', promptId: 2 },
      { kind: 'note', text: 'hook topics blocked your message: Not here.', forUser: true, hook: topicBlock },
      { kind: 'agent', text: 'Not here.', toolCalls: [] },
    ]);
    expect(convo.nextEffect()).toBeNull();
    expect(convo.replies.collect(2)).toMatchObject({ reply: 'Not here.' });
    expect(convo.turn.title(80)).toBe('[message withheld: blocked by the hook topics]');
    // The next turn's request carries the withheld form from its place on.
    convo.enqueuePrompt('how many PTO days?');
    const plan = next(convo, 'plan');
    expect(JSON.stringify(plan.request.transcript)).not.toContain('dosage');
  });

  it('with VALIDATE_PROMPTS, a rewritten prompt is checked and planned again in its new words', () => {
    const convo = begun({ validatePrompts: true }, { refreshToolsEachTurn: true, oneModelWait: true });
    convo.enqueuePrompt('mail ada@example.com');
    const vet = next(convo, 'vet_and_plan');
    expect(vet.request.screenPrompt).toBe(true);
    const verdict: PromptVerdict = {
      valid: true,
      reply: '',
      usage,
      screened: { decisions: [redacted], text: 'mail [email]' },
    };
    convo.apply(vet, verdict);
    const again = next(convo, 'vet_and_plan');
    expect(again.request.prompt).toBe('mail [email]');
    expect(again.request.screenPrompt).toBeUndefined();
    expect(again.prompt.id).toBe(vet.prompt.id);
  });

  it('runs from before one-model-wait: a blocked prompt is withheld after its check, and the turn ends', () => {
    const convo = begun({ validatePrompts: true }, { refreshToolsEachTurn: true });
    convo.enqueuePrompt('what dosage?');
    const validate = next(convo, 'validate');
    expect(validate.request.screenPrompt).toBe(true);
    convo.apply(validate, {
      valid: true,
      reply: '',
      usage,
      screened: { decisions: [topicBlock], blocked: 'Not here.' },
    });
    expect(tail(convo.messages, 3).map((m) => m.kind)).toEqual(['user', 'note', 'agent']);
    expect(convo.messages.at(-3)).toMatchObject({ text: '[message withheld: blocked by the hook topics]' });
    expect(convo.nextEffect()).toBeNull();
  });

  it("a model call a hook stopped ends the turn with the hook's words; its decisions are notes", () => {
    const convo = begun();
    convo.enqueuePrompt('hello');
    const failed: HookDecision = { hook: 'judge', point: 'afterModelCall', action: 'failed', note: 'it threw: down' };
    convo.apply(next(convo, 'plan'), { text: '', toolCalls: [], usage, model: 'm:1', hooks: [failed] });
    expect(tail(convo.messages, 2)).toEqual([
      { kind: 'note', text: "hook judge failed on the model's answer: it threw: down", forUser: true, hook: failed },
      {
        kind: 'agent',
        text: 'The hook "judge" failed, so the model\'s answer was withheld: it threw: down',
        toolCalls: [],
      },
    ]);
    expect(convo.usage.totalTokens).toBe(usage.totalTokens * 2); // the starter's plan and this one: the call was made
    expect(convo.nextEffect()).toBeNull();
  });

  it("a tool call's decisions follow its outcome", () => {
    const convo = begun({ showConfirm: false });
    convo.enqueuePrompt('book Monday');
    convo.apply(next(convo, 'plan'), calls(['Book', { day: 'Monday' }]));
    const run = next(convo, 'run_tool');
    const withheld: HookDecision = {
      hook: 'pii',
      point: 'afterToolCall',
      action: 'rewrite',
      note: '1 phone number redacted',
      tool: 'Book',
    };
    convo.apply(run, { status: 'ok', result: 'call [phone]', hooks: [withheld] });
    expect(tail(convo.messages, 2)).toEqual([
      { kind: 'tool', call: run.call, outcome: { status: 'ok', result: 'call [phone]' } },
      { kind: 'note', text: "hook pii rewrote Book's result: 1 phone number redacted", forUser: true, hook: withheld },
    ]);
  });

  describe('a turn that stops before its prompt was checked', () => {
    const withHooks = { showConfirm: false, hooks: ['userMessage' as const, 'afterToolCall' as const] };

    it('cancelled during its first model call: with userMessage hooks on, the words are withheld', () => {
      const convo = begun(withHooks);
      convo.enqueuePrompt('mail ada@example.com');
      const plan = next(convo, 'plan');
      expect(convo.cancelTurn()).toBe(true);
      convo.applyCancelled(plan);
      expect(convo.nextEffect()).toBeNull();
      expect(convo.messages.at(-2)).toMatchObject({
        kind: 'user',
        text: '[message withheld: the turn stopped before the hooks checked it]',
      });
      convo.enqueuePrompt('hello');
      expect(JSON.stringify(next(convo, 'plan').request.transcript)).not.toContain('ada@');
    });

    it('its model call failed: the same', () => {
      const convo = begun(withHooks);
      convo.enqueuePrompt('mail ada@example.com');
      convo.apply(next(convo, 'plan'), { failed: 'the model is down' });
      expect(convo.messages.at(-2)).toMatchObject({ kind: 'user', text: expect.stringContaining('withheld') });
    });

    it('cancelled before its turn began (the prompt was only logged): the same', () => {
      const convo = begun(withHooks);
      convo.enqueuePrompt('mail ada@example.com');
      expect(convo.cancelTurn()).toBe(true);
      expect(convo.nextEffect()).toBeNull();
      expect(convo.messages.at(-2)).toMatchObject({ kind: 'user', text: expect.stringContaining('withheld') });
    });

    it('without userMessage hooks, or once checked, the words stay', () => {
      const plain = begun({ showConfirm: false });
      plain.enqueuePrompt('mail ada@example.com');
      const plan = next(plain, 'plan');
      plain.cancelTurn();
      plain.applyCancelled(plan);
      plain.nextEffect();
      expect(plain.messages.at(-2)).toMatchObject({ text: 'mail ada@example.com' });

      const checked = begun(withHooks);
      checked.enqueuePrompt('book Monday');
      checked.apply(next(checked, 'plan'), calls(['Book', { day: 'Monday' }]));
      const run = next(checked, 'run_tool');
      checked.cancelTurn();
      checked.applyCancelled(run);
      checked.nextEffect();
      expect(checked.messages.find((m) => m.kind === 'user' && m.text === 'book Monday')).toBeDefined();
    });

    it('a rewritten prompt waiting to be checked again is not checked in a later turn once cancelled', () => {
      const convo = begun({ validatePrompts: true }, { refreshToolsEachTurn: true, oneModelWait: true });
      convo.enqueuePrompt('mail ada@example.com');
      convo.apply(next(convo, 'vet_and_plan'), {
        valid: true,
        reply: '',
        usage,
        screened: { decisions: [redacted], text: 'mail [email]' },
      });
      convo.cancelTurn();
      expect(convo.nextEffect()).toBeNull();
      convo.enqueuePrompt('hi');
      const vet = next(convo, 'vet_and_plan');
      expect(vet.request.prompt).toBe('hi');
      convo.apply(vet, { valid: true, reply: '', usage });
      // Planned on its own, not the cancelled turn's prompt checked again.
      next(convo, 'plan');
    });
  });
});
