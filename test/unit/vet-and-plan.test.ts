// vetAndPlan: the prompt check and the plan run at once (one model wait per turn). The plan's text reaches the
// stream bus only once the prompt is found to fit; a prompt that does not fit stops the plan and shows none of it.
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createLlmActivities } from '../../activities/llm/llm-activities';
import { ScriptedModel, type ScriptedCallInfo } from '../../activities/llm/scripted-model';
import { loadGoals } from '../../goals/goal-registry';
import { MemoryStreamBus, type StreamChunk } from '../../stream';
import type { PromptVerdict } from '../../core/activity-types';

const REPLY = 'You have 12 days of paid time off left, and 3 days are booked for next month.';
const script = {
  rules: [
    {
      task: 'validate' as const,
      user: 'pizza',
      reply: { json: { valid: false, reply: 'I can only help with paid time off.' } },
    },
    { task: 'validate' as const, user: '.', reply: { json: { valid: true } } },
    { user: 'balance|pizza', reply: { text: REPLY } },
  ],
};

/** The scripted model, its check held back `checkMs` (a slow validator), recording when each call starts and ends. */
function watchedModel(checkMs: number) {
  const inner = new ScriptedModel(script).paced(5);
  const log: { at: number; what: string }[] = [];
  const task = (o: LanguageModelV3CallOptions) =>
    (o.providerOptions?.scripted as unknown as ScriptedCallInfo | undefined)?.task;
  const model: LanguageModelV3 = {
    specificationVersion: 'v3',
    provider: 'watched',
    modelId: 'watched',
    supportedUrls: {},
    async doGenerate(o) {
      log.push({ at: performance.now(), what: `${task(o)} start` });
      await new Promise((r) => setTimeout(r, task(o) === 'validate' ? checkMs : 0));
      const result = await inner.doGenerate(o);
      log.push({ at: performance.now(), what: `${task(o)} end` });
      return result;
    },
    async doStream(o) {
      log.push({ at: performance.now(), what: `${task(o)} stream` });
      o.abortSignal?.addEventListener('abort', () => log.push({ at: performance.now(), what: 'plan aborted' }));
      return inner.doStream(o);
    },
  };
  return { model, log };
}

describe('vetAndPlan', () => {
  const goal = loadGoals().resolve('goal_hr_pto');
  const input = (text: string) => ({
    goal,
    tools: [],
    messages: [{ kind: 'user' as const, text, promptId: 1 }],
    summary: '',
    agents: [],
    prompt: text,
  });
  const activity = () =>
    new MockActivityEnvironment(
      {
        workflowExecution: { workflowId: 'wf-1', runId: 'run-1' },
        activityId: '7',
        attempt: 1,
        scheduleToCloseTimeoutMs: 0,
      },
      { logger: new DefaultLogger('ERROR') },
    );

  async function run(text: string, checkMs: number) {
    const bus = new MemoryStreamBus();
    const { model, log } = watchedModel(checkMs);
    const chunks: { at: number; chunk: StreamChunk }[] = [];
    bus.subscribe('wf-1', (chunk) => chunks.push({ at: performance.now(), chunk }));
    const llm = createLlmActivities({ model, provider: 'scripted', streamBus: bus });
    const verdict = (await activity().run(llm.vetAndPlan, input(text))) as PromptVerdict;
    const when = (what: string) => log.find((l) => l.what === what)?.at ?? NaN;
    return { verdict, chunks, log, when };
  }

  it('plans while checking, and shows the plan only once the prompt fits', async () => {
    const { verdict, chunks, when } = await run('my balance', 150);
    expect(verdict).toMatchObject({ valid: true, plan: { text: REPLY, toolCalls: [] } });
    // Both calls were under way together: the plan started before the check ended.
    expect(when('plan stream')).toBeLessThan(when('validate end'));
    const deltas = chunks.filter((c) => c.chunk.kind === 'delta');
    expect(deltas.map((c) => (c.chunk as { text: string }).text).join('')).toBe(REPLY);
    expect(deltas[0]!.at).toBeGreaterThanOrEqual(when('validate end'));
    expect(chunks.at(-1)?.chunk).toEqual({ kind: 'done', attempt: 'run-1/7/1' });
  });

  it('stops and drops the plan of a prompt that does not fit: no word of it is shown', async () => {
    const { verdict, chunks, log } = await run('order me a pizza', 50);
    expect(verdict).toEqual({
      valid: false,
      reply: 'I can only help with paid time off.',
      usage: expect.any(Object),
      model: expect.any(String),
    });
    expect(chunks.filter((c) => c.chunk.kind === 'delta')).toEqual([]);
    expect(log.map((l) => l.what)).toContain('plan aborted');
  });

  it('does not hold back a plan that finished before the check: its text and done follow the verdict', async () => {
    const { verdict, chunks, when } = await run('my balance', 400);
    expect(verdict.plan?.text).toBe(REPLY);
    expect(chunks.every((c) => c.at >= when('validate end'))).toBe(true);
    expect(
      chunks
        .filter((c) => c.chunk.kind === 'delta')
        .map((c) => (c.chunk as { text: string }).text)
        .join(''),
    ).toBe(REPLY);
    expect(chunks.at(-1)?.chunk).toEqual({ kind: 'done', attempt: 'run-1/7/1' });
  });
});
