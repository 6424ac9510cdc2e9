// Planning streams: the scripted model streams what it would generate, and planTurn publishes the reply to the stream
// bus as it is written — deltas under the activity's attempt, `done` or `discard` after, nothing outside an activity.
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { generateText, jsonSchema, streamText, tool } from 'ai';
import { createLlmActivities } from '../../activities/llm/llm-activities';
import { chunksOf, ScriptedModel } from '../../activities/llm/scripted-model';
import { loadGoals } from '../../goals/goal-registry';
import { MemoryStreamBus, type StreamChunk } from '../../stream';
import { FailureTypes } from '../../core/activity-types';

const REPLY = 'You have 12 days of paid time off left, and 3 days are booked for next month.';
const script = {
  rules: [
    { user: 'balance', reply: { text: REPLY } },
    { user: 'book', reply: { text: 'Booking it now.', toolCalls: [{ tool: 'BookPTO', args: { days: 2 } }] } },
  ],
};
const tools = {
  BookPTO: tool({
    description: 'x',
    inputSchema: jsonSchema({ type: 'object', properties: { days: { type: 'number' } } }),
  }),
};
const plan = { scripted: { task: 'plan', goalId: 'g' } };

describe('ScriptedModel streaming', () => {
  const model = new ScriptedModel(script);

  it('streams what it generates: the text in chunks of a few words, the tool calls, the usage', async () => {
    const generated = await generateText({ model, prompt: 'book 2 days', tools, providerOptions: plan });
    const stream = streamText({ model, prompt: 'book 2 days', tools, providerOptions: plan });
    const deltas: string[] = [];
    for await (const part of stream.fullStream) if (part.type === 'text-delta') deltas.push(part.text);
    expect(deltas.join('')).toBe(generated.text);
    expect((await stream.toolCalls).map((c) => [c.toolName, c.input])).toEqual([['BookPTO', { days: 2 }]]);
    expect((await stream.usage).inputTokens).toBe(generated.usage.inputTokens);

    const long = streamText({ model, prompt: 'my balance', providerOptions: plan });
    const parts: string[] = [];
    for await (const text of long.textStream) parts.push(text);
    expect(parts.join('')).toBe(REPLY);
    expect(parts.length).toBeGreaterThanOrEqual(5); // ~3 words each
  });

  it('cuts text into chunks that join back exactly', () => {
    for (const text of ['', ' ', 'one', '  leading and trailing  ', 'a\nb\tc  d e f g', 'x'.repeat(50)]) {
      expect(chunksOf(text).join('')).toBe(text);
    }
    expect(chunksOf('one two three four five six seven')).toEqual(['one two three ', 'four five six ', 'seven']);
  });

  it('paces its chunks, and an abort ends the pause at once', async () => {
    // Long pauses, so "cut short" (one pause) and "waited out" (two) stay far apart on a busy machine.
    const PAUSE_MS = 1_000;
    const slow = model.paced(PAUSE_MS);
    const abort = new AbortController();
    const began = Date.now();
    const stream = streamText({ model: slow, prompt: 'my balance', providerOptions: plan, abortSignal: abort.signal });
    const seen: string[] = [];
    try {
      for await (const part of stream.fullStream) {
        if (part.type === 'text-delta') {
          seen.push(part.text);
          if (seen.length === 2) setTimeout(() => abort.abort(), 20);
        }
      }
    } catch (err) {
      // Under jest the SDK may not recognise an abort from Node's realm, and throws it instead of an `abort` part.
      expect((err as Error).name).toBe('AbortError');
    }
    expect(seen).toHaveLength(2);
    expect(Date.now() - began).toBeGreaterThanOrEqual(PAUSE_MS - 10); // one pause, between the first and second chunk
    expect(Date.now() - began).toBeLessThan(2 * PAUSE_MS); // the second pause was cut short
  });
});

describe('planTurn streaming to the bus', () => {
  const goal = loadGoals().resolve('goal_hr_pto');
  const input = (text: string) => ({
    goal,
    tools: [],
    messages: [{ kind: 'user' as const, text, promptId: 1 }],
    summary: '',
    agents: [],
  });
  // No schedule-to-close: a retryable failure stays retryable (see finalWhenOutOfTime). Failures are expected: not logged.
  const activity = (attempt: number) =>
    new MockActivityEnvironment(
      {
        workflowExecution: { workflowId: 'wf-1', runId: 'run-1' },
        activityId: '7',
        attempt,
        scheduleToCloseTimeoutMs: 0,
      },
      { logger: new DefaultLogger('ERROR') },
    );

  async function planWatched(
    llm: ReturnType<typeof createLlmActivities>,
    bus: MemoryStreamBus,
    env: MockActivityEnvironment,
    text: string,
  ) {
    const chunks: StreamChunk[] = [];
    bus.subscribe('wf-1', (c) => chunks.push(c));
    const result = await env.run(llm.planTurn, input(text)).catch((err: unknown) => err);
    return { result, chunks, deltas: chunks.flatMap((c) => (c.kind === 'delta' ? [c.text] : [])) };
  }

  it('publishes each delta under the attempt, then done; the deltas join to the reply it returns', async () => {
    const bus = new MemoryStreamBus();
    const llm = createLlmActivities({ model: new ScriptedModel(script), provider: 'scripted', streamBus: bus });
    const { result, chunks, deltas } = await planWatched(llm, bus, activity(1), 'my balance');
    expect(result).toMatchObject({ text: REPLY, toolCalls: [] });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(REPLY);
    expect(chunks.every((c) => c.attempt === 'run-1/7/1')).toBe(true);
    expect(chunks.at(-1)).toEqual({ kind: 'done', attempt: 'run-1/7/1' });
  });

  it('a retry first voids the attempt before it', async () => {
    const bus = new MemoryStreamBus();
    const llm = createLlmActivities({ model: new ScriptedModel(script), provider: 'scripted', streamBus: bus });
    const { chunks } = await planWatched(llm, bus, activity(3), 'my balance');
    expect(chunks[0]).toEqual({ kind: 'discard', attempt: 'run-1/7/2' });
    expect(chunks.slice(1).every((c) => c.attempt === 'run-1/7/3')).toBe(true);
  });

  it('a stream that fails midway: the same typed failure as before, and its partial text is discarded', async () => {
    const bus = new MemoryStreamBus();
    const llm = createLlmActivities({ model: failingMidway(), provider: 'flaky', streamBus: bus });
    const { result, chunks } = await planWatched(llm, bus, activity(1), 'hi');
    expect(result).toBeInstanceOf(ApplicationFailure);
    expect(result).toMatchObject({
      type: FailureTypes.LlmUnavailable,
      nonRetryable: false,
      message: expect.stringContaining('upstream reset'),
    });
    expect(chunks).toEqual([
      { kind: 'delta', attempt: 'run-1/7/1', text: 'Half a ' },
      { kind: 'discard', attempt: 'run-1/7/1' },
    ]);
  });

  it('streams no more than the reply cap', async () => {
    const bus = new MemoryStreamBus();
    const llm = createLlmActivities({
      model: new ScriptedModel(script),
      provider: 'scripted',
      streamBus: bus,
      maxReplyChars: 20,
    });
    const { deltas } = await planWatched(llm, bus, activity(1), 'my balance');
    expect(deltas.join('')).toBe(REPLY.slice(0, 20));
  });

  it('outside an activity publishes nothing', async () => {
    const bus = new MemoryStreamBus();
    const chunks: StreamChunk[] = [];
    bus.subscribe('wf-1', (c) => chunks.push(c));
    const llm = createLlmActivities({ model: new ScriptedModel(script), provider: 'scripted', streamBus: bus });
    expect((await llm.planTurn(input('my balance'))).text).toBe(REPLY);
    expect(chunks).toEqual([]);
  });
});

/** A model whose reply breaks off after its first words, as a provider's stream does when the connection drops. */
function failingMidway(): LanguageModelV3 {
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'Half a ' },
    { type: 'error', error: { message: 'upstream reset', type: 'server_error' } },
  ];
  return {
    specificationVersion: 'v3',
    provider: 'flaky',
    modelId: 'flaky',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('streams only')),
    doStream: async () => ({
      stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }),
    }),
  };
}
