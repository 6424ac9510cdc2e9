// A message sent while the agent works (whileBusy), decided by Conversation alone (the workflow cancels the model call).
import { Conversation } from '../../workflows/decider/conversation';
import type { WhileBusy } from '../../core/types';
import { book, calls, goal, next, settings, text, usage } from '../helpers/conversation-unit';
import type { PlanResult, PromptVerdict } from '../../core/activity-types';
import { transcript } from '../../workflows/decider/views';

function begun(whileBusy?: WhileBusy, steering = true, more: Partial<typeof settings> = {}): Conversation {
  const convo = new Conversation();
  const withSetting = { ...goal, ...(whileBusy ? { settings: { whileBusy } } : {}) };
  const versions = { refreshToolsEachTurn: true, oneModelWait: true, steering };
  convo.begin({ ...settings, ...more }, { goal: withSetting, tools: [{ ...book, approval: 'never' }] }, versions);
  convo.apply(next(convo, 'plan'), text('hello'));
  return convo;
}

const valid = (plan?: PlanResult): PromptVerdict => ({ valid: true, reply: '', usage, ...(plan ? { plan } : {}) });

const said = (convo: Conversation) =>
  transcript(convo).messages.flatMap((m) => (m.kind === 'user' || m.kind === 'agent' ? [`${m.kind}: ${m.text}`] : []));

describe('Conversation: steering a running turn', () => {
  it('interrupt: the message joins the turn at its next plan, and one reply answers every prompt it joined', () => {
    const convo = begun('interrupt');
    const first = convo.enqueuePrompt('book the 21st', true);
    const plan = next(convo, 'plan');
    const second = convo.enqueuePrompt('no, the 22nd', true);
    const third = convo.enqueuePrompt({ text: 'and the 23rd', whileBusy: 'interrupt' }, true);
    expect(convo.prompts.steering()).toBe(true);
    // The workflow cancelled the model call: it is asked again, with both messages after the first.
    convo.applyInterrupted(plan);
    const again = next(convo, 'plan');
    expect(convo.prompts.length).toBe(0);
    convo.apply(again, text('Booked the 22nd and the 23rd.'));
    expect(said(convo).slice(-4)).toEqual([
      'user: book the 21st',
      'user: no, the 22nd',
      'user: and the 23rd',
      'agent: Booked the 22nd and the 23rd.',
    ]);
    for (const id of [first, second, third])
      expect(convo.replies.collect(id)?.reply).toBe('Booked the 22nd and the 23rd.');
  });

  it('enqueue (the default) and a run started before steering: the message waits for a turn of its own', () => {
    for (const convo of [begun(), begun('interrupt', false)]) {
      convo.enqueuePrompt('book the 21st');
      const plan = next(convo, 'plan');
      convo.enqueuePrompt({ text: 'no, the 22nd', whileBusy: 'interrupt' });
      expect(convo.prompts.steering()).toBe(convo.steering.enabled);
      if (convo.steering.enabled) continue;
      convo.apply(plan, text('Booked the 21st.'));
      convo.apply(next(convo, 'plan'), text('Moved to the 22nd.'));
      expect(said(convo).slice(-4)).toEqual([
        'user: book the 21st',
        'agent: Booked the 21st.',
        'user: no, the 22nd',
        'agent: Moved to the 22nd.',
      ]);
    }
    expect(begun().steering.goalMode()).toBe('enqueue');
    expect(begun('interrupt', false).steering.goalMode()).toBe('enqueue');
  });

  it('reject: refused while a turn runs, taken while the agent waits for the user', () => {
    const convo = begun('reject');
    expect(convo.promptRefusal('hi')).toBeNull();
    convo.enqueuePrompt('book the 21st');
    next(convo, 'plan');
    expect(convo.promptRefusal('no, the 22nd')).toMatch(/The agent is busy/);
    expect(convo.promptRefusal({ text: 'no, the 22nd', whileBusy: 'enqueue' })).toBeNull();
    expect(convo.promptRefusal({ text: 'x', whileBusy: 'later' })).toMatch(
      /whileBusy must be one of enqueue, interrupt/,
    );
  });

  it('a message that arrives as the turn ends starts a turn of its own', () => {
    const convo = begun('interrupt');
    convo.enqueuePrompt('book the 21st');
    const plan = next(convo, 'plan');
    convo.enqueuePrompt('no, the 22nd');
    // The model's answer came first (the cancel was too late): the turn ended, and the message is the next turn's.
    convo.apply(plan, text('Booked the 21st.'));
    convo.apply(next(convo, 'plan'), text('Moved to the 22nd.'));
    expect(said(convo).slice(-2)).toEqual(['user: no, the 22nd', 'agent: Moved to the 22nd.']);
  });

  it('with userMessage hooks, a model call screening the turn prompt is not interrupted, and messages join one by one', () => {
    const convo = begun('interrupt', true, { hooks: ['userMessage'] });
    convo.enqueuePrompt('book the 21st');
    const first = next(convo, 'plan');
    expect(convo.turn.interruptible()).toBe(false);
    convo.apply(first, calls(['Book', { day: '21' }]));
    const run = next(convo, 'run_tool');
    convo.enqueuePrompt('my card is 4111 1111 1111 1111');
    convo.enqueuePrompt('thanks');
    convo.apply(run, { status: 'ok', result: 'booked' });
    // Each joins with a model call that screens it (the hooks read the last user message).
    const screening = next(convo, 'plan');
    expect([screening.request.screenPrompt, said(convo).at(-1)]).toEqual([
      true,
      'user: my card is 4111 1111 1111 1111',
    ]);
    convo.apply(screening, calls(['Book', { day: '22' }]));
    convo.apply(next(convo, 'run_tool'), { status: 'ok', result: 'booked' });
    const second = next(convo, 'plan');
    expect([second.request.screenPrompt, said(convo).at(-1)]).toEqual([true, 'user: thanks']);
  });

  it('with VALIDATE_PROMPTS: busy while the prompt is checked and planned, and an interrupted check is made with the message', () => {
    const strict = begun('reject', true, { validatePrompts: true });
    strict.enqueuePrompt('book the 21st');
    next(strict, 'vet_and_plan');
    expect(strict.steering.busy()).toBe(true);
    expect(strict.promptRefusal('no, the 22nd')).toMatch(/The agent is busy/);

    const convo = begun('interrupt', true, { validatePrompts: true });
    const first = convo.enqueuePrompt('book the 21st', true);
    const vet = next(convo, 'vet_and_plan');
    const second = convo.enqueuePrompt('no, the 22nd', true);
    expect(convo.prompts.steering()).toBe(true);
    convo.applyInterrupted(vet);
    // One check of both messages, with the plan that reads them.
    const again = next(convo, 'vet_and_plan');
    expect(again.request.prompt).toBe('book the 21st\n\nno, the 22nd');
    convo.apply(again, valid(text('Booked the 22nd.')));
    expect(said(convo).slice(-3)).toEqual(['user: book the 21st', 'user: no, the 22nd', 'agent: Booked the 22nd.']);
    for (const id of [first, second]) expect(convo.replies.collect(id)?.reply).toBe('Booked the 22nd.');
  });

  it("a first message that joins the greeting's turn is the conversation's title", () => {
    const convo = new Conversation();
    convo.begin(
      settings,
      { goal: { ...goal, settings: { whileBusy: 'interrupt' } }, tools: [] },
      {
        refreshToolsEachTurn: true,
        steering: true,
      },
    );
    const greeting = next(convo, 'plan');
    convo.enqueuePrompt('book me a flight to Oslo');
    convo.applyInterrupted(greeting);
    convo.apply(next(convo, 'plan'), text('Sure: when?'));
    expect(convo.turn.title(80)).toBe('book me a flight to Oslo');
  });
});
