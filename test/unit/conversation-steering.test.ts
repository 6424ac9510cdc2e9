// A message sent while the agent works (whileBusy), decided by Conversation alone (the workflow cancels the model call).
import { Conversation } from '../../workflows/decider/conversation';
import type { WhileBusy } from '../../core/types';
import { goal, next, settings, text } from '../helpers/conversation-unit';
import { transcript } from '../../workflows/decider/views';

function begun(whileBusy?: WhileBusy, steering = true, hooks?: string[]): Conversation {
  const convo = new Conversation();
  const withSetting = { ...goal, ...(whileBusy ? { settings: { whileBusy } } : {}) };
  convo.begin(
    { ...settings, ...(hooks ? { hooks } : {}) } as typeof settings,
    { goal: withSetting, tools: [] },
    {
      refreshToolsEachTurn: true,
      steering,
    },
  );
  convo.apply(next(convo, 'plan'), text('hello'));
  return convo;
}

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

  it('with userMessage hooks, a model call screening the turn prompt is not interrupted', () => {
    const convo = begun('interrupt', true, ['userMessage']);
    convo.enqueuePrompt('book the 21st');
    next(convo, 'plan');
    expect(convo.turn.interruptible()).toBe(false);
  });
});
