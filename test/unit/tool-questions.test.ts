// Tool questions without Temporal: the conversation's record of them (workflows/decider/questions.ts) and the
// activity's host that turns a server's requests into them (activities/tool-questions.ts).
import { MockActivityEnvironment } from '@temporalio/testing';
import type { Client } from '@temporalio/client';
import { conversationHost, type CallFacts, type ToolQuestionDeps } from '../../activities/tool-questions';
import type { Sampler } from '../../activities/llm/sampling';
import type { ToolQuestion } from '../../core/tool-questions';
import { Questions } from '../../workflows/decider/questions';

const form: ToolQuestion = {
  id: 'q1',
  tool: 'asking__greet',
  server: 'asking',
  kind: 'form',
  message: 'What is your name?',
  schema: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name'] },
};
const call = { id: 'call-1', tool: 'asking__greet', args: {} };
/** No delegate asks anything. */
const noDelegates = { toolQuestionShown: () => null, answerToolQuestion: () => undefined };

describe('Questions (the conversation side)', () => {
  it('takes questions only while a call runs, shows the oldest open one, and checks answers against the schema', () => {
    const q = new Questions(noDelegates);
    expect(q.askRefusal(form, false)).toBe('no tool call is running in this conversation');
    q.during(call);
    expect(q.askRefusal(form, true)).toBe('the conversation has ended');
    expect(q.ask(form).callId).toBe('call-1');
    expect(q.shown()?.id).toBe('q1');
    expect(q.refusal({ answer: { action: 'accept', content: { age: 'x' } } }, false)).toMatch(
      /does not fit: .*name.*age|does not fit: .*age.*name/,
    );
    expect(q.refusal({ questionId: 'q0', answer: { action: 'decline' } }, false)).toMatch(/no longer open/);
    expect(q.refusal({ answer: { action: 'maybe' } } as never, false)).toMatch(/accept .*decline or cancel/);
    q.take({ answer: { action: 'accept', content: { name: 'Ada', age: 36 } } }, false);
    expect(q.answerOf('q1')).toEqual({ action: 'accept', content: { name: 'Ada', age: 36 } });
    expect(q.shown()).toBeNull();
    expect(q.settle('q1', false)).toEqual({ action: 'accept', content: { name: 'Ada', age: 36 } });
  });

  it('declines on timeout, and withdraws what is still open when the call ends', () => {
    const q = new Questions(noDelegates);
    q.during(call);
    q.ask(form);
    expect(q.settle('q1', true)).toEqual({ action: 'decline' });
    q.ask({ ...form, id: 'q2' });
    q.callEnded();
    expect(q.answerOf('q2')).toEqual({ action: 'cancel' });
    expect(q.shown()).toBeNull();
    expect(q.askRefusal({ ...form, id: 'q3' }, false)).toMatch(/no tool call/);
  });

  it("shows a delegate's tool question when it has none of its own, and sends the answer down to it", () => {
    const sent: unknown[] = [];
    const delegate = { ...form, id: 'child-q', delegate: { agentName: 'Greeter', childId: 'c/1-goal_greeter' } };
    const q = new Questions({ toolQuestionShown: () => delegate, answerToolQuestion: (a) => sent.push(a) });
    expect(q.open()).toEqual(delegate);
    expect(q.refusal({ answer: { action: 'accept', content: {} } }, false)).toMatch(/does not fit: .*name/);
    q.take({ questionId: 'child-q', answer: { action: 'accept', content: { name: 'Ada' } } }, false);
    expect(sent).toEqual([{ questionId: 'child-q', answer: { action: 'accept', content: { name: 'Ada' } } }]);
  });
});

describe('conversationHost (the activity side)', () => {
  const facts: CallFacts = { tool: 'asking__poem', server: 'asking', sampling: 'allow', goalId: 'goal_general' };
  function deps(answers: Record<string, unknown>[] = []) {
    const asked: { updateId: string; question: ToolQuestion }[] = [];
    const temporal = {
      workflow: {
        getHandle: () => ({
          executeUpdate: async (_def: unknown, opts: { updateId: string; args: [ToolQuestion] }) => {
            asked.push({ updateId: opts.updateId, question: opts.args[0] });
            return answers.shift() ?? { action: 'decline' };
          },
        }),
      },
    } as unknown as Client;
    const sampler: Sampler = async (request) => ({
      text: `sampled: ${request.messages[0]!.text}`,
      model: 'scripted:test',
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
      stopReason: 'endTurn',
    });
    return { asked, deps: { temporal, sampler } satisfies ToolQuestionDeps };
  }
  const activity = (attempt = 1) =>
    new MockActivityEnvironment({
      activityId: '7',
      attempt,
      workflowExecution: { workflowId: 'convo-1', runId: 'run-1' },
    });
  const elicit = { message: 'What is your name?', requestedSchema: { type: 'object' as const, properties: {} } };
  const sample = {
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'a poem' } }],
    maxTokens: 20,
  };
  const signal = new AbortController().signal;

  it('gives a question the same id on every attempt of the call, and the next question of the call another', async () => {
    const first = deps();
    await activity(1).run(async () => {
      const host = conversationHost(first.deps, facts);
      await host.elicit(elicit, signal);
      await host.elicit(elicit, signal);
    });
    const retried = deps();
    await activity(2).run(() => conversationHost(retried.deps, facts).elicit(elicit, signal));
    expect(first.asked.map((a) => a.updateId)).toEqual([
      expect.stringMatching(/^7\/1\/[0-9a-f]{12}$/),
      expect.stringMatching(/^7\/2\/[0-9a-f]{12}$/),
    ]);
    expect(retried.asked[0]!.updateId).toBe(first.asked[0]!.updateId);
    expect(first.asked[0]!.question).toMatchObject({ kind: 'form', tool: 'asking__poem', server: 'asking' });
  });

  it('samples on our model as the policy says, counting what it spent; refuses when denied or over budget', async () => {
    const allowed = deps();
    const result: { answer: unknown; spent: unknown } = await activity().run(async () => {
      const host = conversationHost(allowed.deps, facts);
      const answer = await host.sample(sample, signal);
      return { answer, spent: host.spent() };
    });
    expect(result.answer).toMatchObject({ role: 'assistant', content: { type: 'text', text: 'sampled: a poem' } });
    expect(result.spent).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
    // The worker's secrets never go to the server in what the model wrote.
    const scrubbed: { answer: unknown } = await activity().run(async () => ({
      answer: await conversationHost({ ...allowed.deps, scrub: (t) => t.replace('a poem', '[secret]') }, facts).sample(
        sample,
        signal,
      ),
    }));
    expect(scrubbed.answer).toMatchObject({ content: { text: 'sampled: [secret]' } });
    expect(allowed.asked).toHaveLength(0);

    const asking = deps([{ action: 'decline' }]);
    await expect(
      activity().run(() => conversationHost(asking.deps, { ...facts, sampling: 'ask' }).sample(sample, signal)),
    ).rejects.toThrow(/declined the sampling request/);
    expect(asking.asked[0]!.question).toMatchObject({ kind: 'sampling', sampling: { prompt: 'user: a poem' } });

    await expect(
      activity().run(() => conversationHost(deps().deps, { ...facts, sampling: 'deny' }).sample(sample, signal)),
    ).rejects.toThrow(/sampling is not allowed for asking/);
    await expect(
      activity().run(() =>
        conversationHost(deps().deps, { ...facts, overBudget: '900 tokens of its 800' }).sample(sample, signal),
      ),
    ).rejects.toThrow(/has used its budget: 900 tokens of its 800/);
  });
});
