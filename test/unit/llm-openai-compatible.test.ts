// The openai-compatible provider over real HTTP, against a local fake Chat Completions server: what the
// activities send (tools, system prompt, tool results), what they parse back, and how HTTP errors become
// typed Temporal failures. No Temporal server needed.
import { ApplicationFailure } from '@temporalio/common';
import { createGoalActivities } from '../../activities/goal-activities';
import { createLlmActivities } from '../../activities/llm/llm-activities';
import { createModel } from '../../activities/llm/model';
import { loadGoals, PICKER_GOAL_ID } from '../../goals/goal-registry';
import { loadNativeTools } from '../../tools/tool-registry';
import { FailureTypes, type LlmActivities } from '../../core/activity-types';
import type { ChatMessage, Goal, ResolvedGoal, Settings } from '../../core/types';
import {
  completion,
  httpError,
  lastUserText,
  startFakeChatCompletions,
  systemPrompt,
  toolResults,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';

const KEY = 'sk-test-123';

const settings: Settings = {
  showConfirm: true,
  multiGoal: false,
  pickerGoalId: PICKER_GOAL_ID,
  goalCategories: [],
  validatePrompts: true,
  maxToolStepsPerTurn: 8,
  historyEventBudget: 4000,
  recentMessagesKept: 12,
};

describe('the openai-compatible provider over HTTP', () => {
  let server: FakeChatCompletions;
  let llm: LlmActivities;
  let resolved: ResolvedGoal;
  let goal: Goal;

  beforeAll(async () => {
    server = await startFakeChatCompletions();
    const model = createModel({ model: 'openai-compatible:test-model', baseUrl: server.baseUrl, key: KEY });
    expect(model.provider).toBe('openai-compatible');
    expect(model.modelId).toBe('test-model');
    llm = createLlmActivities({ model: model.model, provider: model.provider, timeoutMs: 10_000 });
    const config = createGoalActivities({ settings, goals: loadGoals(), tools: loadNativeTools() });
    resolved = await config.resolveGoal('goal_order_status');
    goal = resolved.goal;
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => server.reset());

  const hi: ChatMessage[] = [{ kind: 'user', text: 'hi', promptId: 1 }];
  const plan = (messages: ChatMessage[], activities = llm) =>
    activities.planTurn({ goal, tools: resolved.tools, messages, summary: '', agents: [] });
  const activitiesFor = (config: { baseUrl: string; key?: string }) => {
    const m = createModel({ model: 'openai-compatible:test-model', ...config });
    return createLlmActivities({ model: m.model, provider: m.provider, timeoutMs: 10_000 });
  };

  it("sends a goal's temperature and maxOutputTokens as the provider's", async () => {
    server.setScript(() => completion({ text: 'ok' }));
    await llm.planTurn({
      goal: { ...goal, settings: { temperature: 0.3, maxOutputTokens: 321 } },
      tools: resolved.tools,
      messages: hi,
      summary: '',
      agents: [],
    });
    expect(server.requests[0]!.body).toMatchObject({ temperature: 0.3, max_tokens: 321 });
  });

  it('sends the system prompt and the tools as JSON Schema, and parses a tool call and usage', async () => {
    server.setScript(() =>
      completion({
        toolCalls: [{ id: 'call_abc', name: 'GetOrder', args: { orderId: 'ORD-1001' } }],
        usage: { prompt: 123, completion: 45 },
      }),
    );
    const result = await plan([{ kind: 'user', text: 'Where is ORD-1001?', promptId: 1 }]);

    expect(result).toEqual({
      text: '',
      toolCalls: [{ id: 'call_abc', tool: 'GetOrder', args: { orderId: 'ORD-1001' } }],
      usage: { inputTokens: 123, outputTokens: 45, totalTokens: 168 },
      model: 'openai-compatible:?',
    });

    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req!.headers['content-type']).toMatch(/application\/json/);

    const body = req!.body;
    expect(body.model).toBe('test-model');
    expect(body.stream).toBe(true); // planning streams: the reply reaches the user as it is written
    expect(body.messages[0]).toEqual({ role: 'system', content: expect.stringContaining('You are "Order status"') });
    expect(systemPrompt(body)).toContain(goal.description);
    expect(systemPrompt(body)).toContain('call CompleteGoal');
    expect(body.messages.slice(1)).toEqual([{ role: 'user', content: 'Where is ORD-1001?' }]);

    expect(body.tools?.map((t) => t.function.name).sort()).toEqual([
      'CompleteGoal',
      'GetOrder',
      'ListOrders',
      'TrackPackage',
    ]);
    const getOrder = body.tools!.find((t) => t.function.name === 'GetOrder')!;
    expect(getOrder.type).toBe('function');
    expect(getOrder.function.description).toMatch(/status, items and tracking number/);
    expect(getOrder.function.parameters).toMatchObject({
      type: 'object',
      properties: { orderId: { type: 'string', description: 'Order id, e.g. ORD-1001' } },
      required: ['orderId'],
    });
  });

  it('parses text and several tool calls in one answer', async () => {
    server.setScript(() =>
      completion({
        text: 'Looking both up.',
        toolCalls: [
          { id: 'c1', name: 'GetOrder', args: { orderId: 'ORD-1001' } },
          { id: 'c2', name: 'ListOrders', args: { email: 'ada@example.com' } },
        ],
      }),
    );
    const result = await plan([{ kind: 'user', text: 'ORD-1001 and my other orders, ada@example.com', promptId: 1 }]);
    expect(result.text).toBe('Looking both up.');
    expect(result.toolCalls).toEqual([
      { id: 'c1', tool: 'GetOrder', args: { orderId: 'ORD-1001' } },
      { id: 'c2', tool: 'ListOrders', args: { email: 'ada@example.com' } },
    ]);
  });

  it('round-trips a tool result: the assistant tool call and a role "tool" message with its tool_call_id', async () => {
    server.setScript((body) => {
      const [result] = toolResults(body);
      const order = (JSON.parse(result!.content) as { result: { status: string } }).result;
      return completion({ text: `Your order has ${order.status}.`, usage: { prompt: 200, completion: 8 } });
    });
    const call = { id: 'call_xyz', tool: 'GetOrder', args: { orderId: 'ORD-1001' } };
    const messages: ChatMessage[] = [
      { kind: 'user', text: 'Greet the user', promptId: 1 },
      { kind: 'agent', text: 'Hi! What is your order id?', toolCalls: [] },
      { kind: 'user', text: 'ORD-1001', promptId: 2 },
      { kind: 'agent', text: '', toolCalls: [call] },
      { kind: 'tool', call, outcome: { status: 'ok', result: { id: 'ORD-1001', status: 'shipped' } } },
    ];
    const result = await plan(messages);
    expect(result).toEqual({
      text: 'Your order has shipped.',
      toolCalls: [],
      usage: { inputTokens: 200, outputTokens: 8, totalTokens: 208 },
      model: 'openai-compatible:?',
    });

    const sent = server.requests[0]!.body.messages;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'tool']);
    expect(sent[2]).toEqual({ role: 'assistant', content: 'Hi! What is your order id?' });
    expect(sent[4]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'call_xyz', type: 'function', function: { name: 'GetOrder', arguments: '{"orderId":"ORD-1001"}' } },
      ],
    });
    expect(sent[5]).toEqual({ role: 'tool', tool_call_id: 'call_xyz', content: expect.any(String) });
    expect(JSON.parse((sent[5] as { content: string }).content)).toEqual({
      status: 'ok',
      result: { id: 'ORD-1001', status: 'shipped' },
    });
  });

  it('sends notes as user text, never as mid-conversation system messages', async () => {
    server.setScript(() => completion({ text: 'ok' }));
    await plan([
      { kind: 'note', text: 'switched to Order status' },
      { kind: 'user', text: 'hello', promptId: 1 },
    ]);
    const sent = server.requests[0]!.body.messages;
    expect(sent.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(sent[1]).toEqual({ role: 'user', content: '[note] switched to Order status' });
  });

  it('validatePrompt sends no tools and parses {"valid":false,"reply":...}', async () => {
    server.setScript(() =>
      completion({
        text: '{"valid":false,"reply":"I can only help with your orders."}',
        usage: { prompt: 50, completion: 12 },
      }),
    );
    const verdict = await llm.validatePrompt({
      goal,
      messages: [{ kind: 'agent', text: 'Hi! What is your order id?', toolCalls: [] }],
      prompt: 'order me a pizza',
    });
    expect(verdict).toEqual({
      valid: false,
      reply: 'I can only help with your orders.',
      usage: { inputTokens: 50, outputTokens: 12, totalTokens: 62 },
      model: 'openai-compatible:?',
    });

    const body = server.requests[0]!.body;
    expect(body.tools).toBeUndefined();
    expect(systemPrompt(body)).toMatch(/Answer with JSON only/);
    expect(lastUserText(body)).toBe('order me a pizza');
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
  });

  it('validatePrompt accepts {"valid":true} wrapped in prose or a code fence', async () => {
    server.setScript(() => completion({ text: 'Sure:\n```json\n{"valid": true}\n```' }));
    const verdict = await llm.validatePrompt({ goal, messages: [], prompt: 'Where is ORD-1001?' });
    expect(verdict.valid).toBe(true);
    expect(verdict.reply).toBe('');
  });

  it('summarizeConversation returns the model text', async () => {
    server.setScript(() => completion({ text: '  User asked about ORD-1001; it shipped.  ' }));
    const summary = await llm.summarizeConversation({
      goal,
      previousSummary: '',
      messages: [{ kind: 'user', text: 'Where is ORD-1001?', promptId: 1 }],
    });
    expect(summary).toBe('User asked about ORD-1001; it shipped.');
    expect(lastUserText(server.requests[0]!.body)).toContain('user: Where is ORD-1001?');
  });

  describe('HTTP errors become typed Temporal failures', () => {
    async function failureFor(
      respond: () => ReturnType<typeof httpError>,
      call: () => Promise<unknown> = () => plan(hi),
    ) {
      server.setScript(respond);
      const err = await call().then(
        () => {
          throw new Error('expected the call to fail');
        },
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ApplicationFailure);
      return err as ApplicationFailure;
    }

    it('401: non-retryable LlmAuth that points at LLM_KEY', async () => {
      const f = await failureFor(() => httpError(401, 'Incorrect API key provided.'));
      expect(f.type).toBe(FailureTypes.LlmAuth);
      expect(f.nonRetryable).toBe(true);
      expect(f.message).toMatch(/LLM_KEY/);
      expect(f.message).toMatch(/HTTP 401/);
      expect(f.message).toContain('Incorrect API key provided.');
      expect(server.requests).toHaveLength(1); // the SDK does not retry behind Temporal's back
    });

    it('403: non-retryable LlmAuth', async () => {
      const f = await failureFor(() => httpError(403, 'Forbidden'));
      expect(f.type).toBe(FailureTypes.LlmAuth);
      expect(f.nonRetryable).toBe(true);
    });

    it('429: retryable LlmRateLimited that honours retry-after', async () => {
      const f = await failureFor(() => httpError(429, 'Rate limit reached.', { 'retry-after': '7' }));
      expect(f.type).toBe(FailureTypes.LlmRateLimited);
      expect(f.nonRetryable).toBe(false);
      expect(f.nextRetryDelay).toBe('7 seconds');
      expect(server.requests).toHaveLength(1);
    });

    it('429 without retry-after: retryable, Temporal picks the delay', async () => {
      const f = await failureFor(() => httpError(429, 'Slow down.'));
      expect(f.type).toBe(FailureTypes.LlmRateLimited);
      expect(f.nonRetryable).toBe(false);
      expect(f.nextRetryDelay).toBeUndefined();
    });

    it('500: retryable LlmUnavailable', async () => {
      const f = await failureFor(() => httpError(500, 'The server had an error.'));
      expect(f.type).toBe(FailureTypes.LlmUnavailable);
      expect(f.nonRetryable).toBe(false);
      expect(f.message).toMatch(/HTTP 500/);
      expect(server.requests).toHaveLength(1);
    });

    it('503 with a non-JSON body: still retryable LlmUnavailable', async () => {
      const f = await failureFor(() => ({ status: 503, body: 'upstream connect error' }));
      expect(f.type).toBe(FailureTypes.LlmUnavailable);
      expect(f.nonRetryable).toBe(false);
    });

    it('404: non-retryable LlmMisconfigured that names LLM_MODEL and LLM_BASE_URL', async () => {
      const f = await failureFor(() => httpError(404, 'The model `test-model` does not exist.'));
      expect(f.type).toBe(FailureTypes.LlmMisconfigured);
      expect(f.nonRetryable).toBe(true);
      expect(f.message).toMatch(/LLM_MODEL/);
      expect(f.message).toMatch(/LLM_BASE_URL/);
    });

    it('400: non-retryable LlmBadRequest', async () => {
      const f = await failureFor(() => httpError(400, "Invalid schema for function 'GetOrder'."));
      expect(f.type).toBe(FailureTypes.LlmBadRequest);
      expect(f.nonRetryable).toBe(true);
    });

    it('a malformed 200 answer is retryable LlmUnavailable', async () => {
      const f = await failureFor(() => ({ status: 200, body: { nonsense: true } }));
      expect(f.type).toBe(FailureTypes.LlmUnavailable);
      expect(f.nonRetryable).toBe(false);
    });

    it('validatePrompt maps errors the same way', async () => {
      const f = await failureFor(
        () => httpError(401, 'bad key'),
        () => llm.validatePrompt({ goal, messages: [], prompt: 'hi' }),
      );
      expect(f.type).toBe(FailureTypes.LlmAuth);
      expect(f.nonRetryable).toBe(true);
    });
  });

  it('a wrong LLM_BASE_URL path is a 404 from the server: non-retryable LlmMisconfigured', async () => {
    const wrong = activitiesFor({ baseUrl: server.baseUrl.replace(/\/v1$/, '/api'), key: KEY });
    const err = await plan(hi, wrong).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).type).toBe(FailureTypes.LlmMisconfigured);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    expect(server.requests.map((r) => r.url)).toEqual(['/api/chat/completions']);
  });

  it('an unreachable server is retryable LlmUnavailable', async () => {
    const closed = await startFakeChatCompletions();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const err = await plan(hi, activitiesFor({ baseUrl, key: KEY })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).type).toBe(FailureTypes.LlmUnavailable);
    expect((err as ApplicationFailure).nonRetryable).toBe(false);
  });

  it('a provider slower than the per-call timeout is retryable LlmUnavailable', async () => {
    // The provider answers only once the call has given up, however busy the machine (a timer of its own could fire
    // in the same moment as the call's on a loaded machine, and answer first).
    let answer = () => {};
    server.setScript(() => new Promise((resolve) => (answer = () => resolve(completion({ text: 'too late' })))));
    const m = createModel({ model: 'openai-compatible:test-model', baseUrl: server.baseUrl, key: KEY });
    const impatient = createLlmActivities({ model: m.model, provider: m.provider, timeoutMs: 100 });
    const err = await plan(hi, impatient).catch((e: unknown) => e);
    answer();
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).type).toBe(FailureTypes.LlmUnavailable);
    expect((err as ApplicationFailure).nonRetryable).toBe(false);
    await new Promise((r) => setTimeout(r, 50)); // let the fake answer into the closed socket before the next test
  });

  it('a local server needs no key: no Authorization header is sent', async () => {
    server.setScript(() => completion({ text: 'hello' }));
    const result = await plan(hi, activitiesFor({ baseUrl: server.baseUrl }));
    expect(result.text).toBe('hello');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });
});

describe('createModel configuration errors name the setting to fix', () => {
  it('openai-compatible without LLM_BASE_URL', () => {
    expect(() => createModel({ model: 'openai-compatible:llama3.1' })).toThrow(/LLM_BASE_URL/);
  });

  it('openai without LLM_KEY', () => {
    expect(() => createModel({ model: 'openai:gpt-4o-mini' })).toThrow(/LLM_KEY/);
  });

  it.each(['anthropic:claude-sonnet-4-5', 'google:gemini-2.5-flash'])('%s without LLM_KEY', (model) => {
    expect(() => createModel({ model })).toThrow(/LLM_KEY/);
  });

  it.each(['gpt-4o-mini', 'openai:', ':gpt-4o-mini'])('malformed LLM_MODEL %p', (model) => {
    expect(() => createModel({ model, key: KEY })).toThrow(/LLM_MODEL must be provider:model/);
  });

  it('an unknown provider', () => {
    expect(() => createModel({ model: 'mistral:large', key: KEY })).toThrow(
      /LLM_MODEL names the unknown provider "mistral"/,
    );
  });

  it('LLM_KEY without LLM_MODEL', () => {
    expect(() => createModel({ key: KEY })).toThrow(/LLM_MODEL/);
  });

  it('openai-compatible with LLM_BASE_URL and no key is fine, and describes the endpoint', () => {
    const m = createModel({ model: 'openai-compatible:llama3.1', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(m.provider).toBe('openai-compatible');
    expect(m.modelId).toBe('llama3.1');
    expect(m.description).toBe('LLM openai-compatible:llama3.1 at http://127.0.0.1:11434/v1');
  });
});
