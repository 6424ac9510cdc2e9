// Budgets and cost without Temporal: usage sums with its cost, by goal too; a conversation past its token or cost
// budget (the settings', or its goal's own) calls the model no more and ends saying why; a delegate past its budget
// hands its parent an error envelope; runs from before budgets never stop.
import { Conversation } from '../../workflows/decider/conversation';
import { BUILTIN_TOOLS } from '../../core/builtin-specs';
import { type Goal, type Settings, type Usage } from '../../core/types';
import { type PlanResult } from '../../core/activity-types';
import { addUsage, ZERO_USAGE } from '../../core/usage';
import { book, calls, goal, next, settings } from '../helpers/conversation-unit';
import { transcript } from '../../workflows/decider/views';

const spent = (totalTokens: number, costUsd?: number): Usage => ({
  inputTokens: totalTokens - 1,
  outputTokens: 1,
  totalTokens,
  ...(costUsd !== undefined ? { costUsd } : {}),
});
const said = (t: string, usage: Usage): PlanResult => ({ text: t, toolCalls: [], usage });

function begun(overrides: Partial<Settings>, g: Goal = goal, budgets = true) {
  const convo = new Conversation({ goalId: g.id });
  convo.begin(
    { ...settings, showConfirm: false, ...overrides },
    { goal: g, tools: [book, BUILTIN_TOOLS.CompleteGoal!] },
    { refreshToolsEachTurn: true, budgets },
  );
  return convo;
}

describe('usage and cost', () => {
  it('adds costs where either side has one, rounded to a millionth of a cent', () => {
    expect(addUsage(ZERO_USAGE, spent(10))).toEqual(spent(10));
    expect(addUsage(spent(10, 0.1), spent(5))).toEqual({
      inputTokens: 13,
      outputTokens: 2,
      totalTokens: 15,
      costUsd: 0.1,
    });
    expect(addUsage(spent(10, 0.1), spent(5, 0.2)).costUsd).toBe(0.3);
  });

  it('keeps what each goal spent', () => {
    const convo = begun({});
    convo.apply(next(convo, 'plan'), said('hello', spent(100, 0.01)));
    expect(convo.usage).toEqual(spent(100, 0.01));
    expect(convo.usageByGoal).toEqual({ g: spent(100, 0.01) });
  });
});

describe('budgets', () => {
  it('a token budget: the step that reaches it runs, then the conversation ends before the next model call', () => {
    const convo = begun({ budget: { tokens: 150 } });
    convo.apply(next(convo, 'plan'), said('hello', spent(100)));
    convo.enqueuePrompt('book monday');
    convo.apply(next(convo, 'plan'), { ...calls(['Book', { day: 'monday' }]), usage: spent(60) });
    // The planned call still runs (tools cost no tokens); the model is not asked again.
    convo.apply(next(convo, 'run_tool'), { status: 'ok', result: { booked: true } });
    expect(convo.nextEffect()).toBeNull();
    expect(convo.ended).toBe(true);
    expect(convo.endedBy).toBe('budget');
    expect(convo.replies.last).toMatchObject({
      ended: true,
      reply:
        'This conversation has used its budget: 160 tokens of its 150 (CONVERSATION_TOKEN_BUDGET). I have stopped here; start a new conversation to go on.',
    });
  });

  it('a cost budget stops a new prompt before it reaches the model, keeping the prompt in the transcript', () => {
    const convo = begun({ budget: { costUsd: 0.05 } });
    convo.apply(next(convo, 'plan'), said('hello', spent(100, 0.06)));
    const id = convo.enqueuePrompt('anything else?', true);
    expect(convo.nextEffect()).toBeNull();
    expect(convo.messages.at(-2)).toEqual({ kind: 'user', text: 'anything else?', promptId: id });
    expect(convo.replies.collect(id)?.reply).toBe(
      'This conversation has used its budget: $0.0600 of its $0.0500 (CONVERSATION_COST_BUDGET). I have stopped here; start a new conversation to go on.',
    );
    expect(transcript(convo).endedBy).toBe('budget');
  });

  it("a goal's own budget wins over the settings', and says whose it is", () => {
    const thrifty: Goal = { ...goal, agentName: 'Thrifty', settings: { budget: { tokens: 50 } } };
    const convo = begun({ budget: { tokens: 1_000_000 } }, thrifty);
    convo.apply(next(convo, 'plan'), said('hello', spent(60)));
    convo.enqueuePrompt('more');
    expect(convo.nextEffect()).toBeNull();
    expect(convo.replies.last?.reply).toMatch(/60 tokens of its 50 \(the Thrifty agent's budget\)/);
  });

  it('no budget, or a run from before budgets: never stops', () => {
    for (const convo of [begun({}), begun({ budget: { tokens: 1 } }, goal, false)]) {
      convo.apply(next(convo, 'plan'), said('hello', spent(100, 5)));
      convo.enqueuePrompt('more');
      expect(next(convo, 'plan')).toBeTruthy();
      expect(convo.ended).toBe(false);
    }
  });

  it('a delegate past its budget ends its task with an error envelope saying why', () => {
    const convo = new Conversation({ goalId: goal.id, task: { task: 'do it', parentId: 'p', callId: 'x', depth: 1 } });
    convo.begin(
      { ...settings, showConfirm: false, budget: { tokens: 10 } },
      { goal, tools: [book] },
      { refreshToolsEachTurn: true, budgets: true },
    );
    convo.apply(next(convo, 'plan'), { ...calls(['Book', { day: 'monday' }]), usage: spent(20) });
    convo.apply(next(convo, 'run_tool'), { status: 'ok', result: { booked: true } });
    expect(convo.nextEffect()).toBeNull();
    const ended = transcript(convo);
    expect(ended.endedBy).toBe('budget');
    expect(ended.envelope).toMatchObject({
      status: 'error',
      summary: expect.stringMatching(/^This conversation has used its budget: 20 tokens of its 10/),
      usage: spent(20),
    });
  });
});
