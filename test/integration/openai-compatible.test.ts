// A full conversation through a real Temporal dev server and a real worker, with the LLM reached over HTTP
// through the openai-compatible provider: only the model's server is fake (a local Chat Completions server).
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import { endChatSignal, usageQuery } from '../../core/messages';
import type { DelegateEnvelope } from '../../core/conversation-types';
import { delegationGoalsDir } from '../fixtures/delegation';
import { history, say, startConversation, toolOutcomes, waitUntil } from '../helpers/conversation';
import {
  completion,
  httpError,
  isAfterTool,
  lastUserText,
  startFakeChatCompletions,
  systemPrompt,
  toolResults,
  type ChatRequestBody,
  type ChatRequestMessage,
  type FakeChatCompletions,
  type ScriptResult,
} from '../../testkit/fake-chat-completions';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const KEY = 'sk-integration';
const GREETING = 'Hi! I can find your order. What is its id, or your email?';

interface OrderOutcome {
  status: string;
  result: { id: string; status: string; trackingNumber?: string };
}

const tracking = (n: string | undefined) => (n ? `; tracking number ${n}` : '');

/** A model that greets, calls GetOrder for an order id in the user's words, then reports what the tool said. */
function orderModel(body: ChatRequestBody): ScriptResult {
  if (!body.tools) {
    // A validation request: the planner always sends tools, the validator never does.
    return lastUserText(body).includes('pizza')
      ? completion({
          text: '{"valid": false, "reply": "I can only help with your orders."}',
          usage: { prompt: 40, completion: 9 },
        })
      : completion({ text: '{"valid": true}', usage: { prompt: 40, completion: 4 } });
  }
  if (isAfterTool(body)) {
    const results = toolResults(body);
    const outcome = JSON.parse(results[results.length - 1]!.content) as OrderOutcome;
    return completion({
      text: `Order ${outcome.result.id} is ${outcome.result.status}${tracking(outcome.result.trackingNumber)}.`,
      usage: { prompt: 300, completion: 20 },
    });
  }
  const user = lastUserText(body);
  if (user.startsWith('Greet the user')) return completion({ text: GREETING, usage: { prompt: 200, completion: 15 } });
  const orderId = /ORD-\d+/.exec(user)?.[0];
  if (orderId) {
    return completion({
      toolCalls: [{ id: `call_${orderId}`, name: 'GetOrder', args: { orderId } }],
      usage: { prompt: 250, completion: 12 },
    });
  }
  return completion({ text: 'Could you give me the order id?' });
}

const offers = (body: ChatRequestBody, tool: string) => body.tools?.some((t) => t.function.name === tool) ?? false;

/**
 * A boss that asks the PTO and order agents at once (two AskAgent calls in one answer), and the two delegates, told
 * apart as a provider would see them: a delegate is offered AskUser, and its agent's name opens its system prompt.
 */
function delegationModel(body: ChatRequestBody): ScriptResult {
  const system = systemPrompt(body) ?? '';
  if (offers(body, 'AskUser')) {
    const result = isAfterTool(body)
      ? (JSON.parse(toolResults(body)[0]!.content) as { result: Record<string, string> }).result
      : undefined;
    if (system.startsWith('You are "PTO assistant"')) {
      return result
        ? completion({ text: `${result.hoursLeft} hours left.` })
        : completion({ toolCalls: [{ name: 'CurrentPTO', args: { email: 'ada@example.com' } }] });
    }
    if (system.startsWith('You are "Order status"')) {
      return result
        ? completion({ text: `${result.id} is ${result.status}.` })
        : completion({ toolCalls: [{ name: 'GetOrder', args: { orderId: 'ORD-1001' } }] });
    }
    return httpError(400, `unexpected delegate: ${system.slice(0, 40)}`);
  }
  if (isAfterTool(body)) {
    const summaries = toolResults(body).map(
      (r) => (JSON.parse(r.content) as { result: DelegateEnvelope }).result.summary,
    );
    return completion({ text: `Boss: ${summaries.sort().join(' | ')}` });
  }
  if (lastUserText(body).startsWith('Greet the user')) return completion({ text: 'Boss here.' });
  return completion({
    toolCalls: [
      { id: 'call_pto', name: 'AskAgent', args: { goalId: 'goal_hr_pto', task: 'PTO left for ada@example.com' } },
      { id: 'call_order', name: 'AskAgent', args: { goalId: 'goal_order_status', task: 'where is ORD-1001' } },
    ],
  });
}

describe('a conversation with an openai-compatible LLM over HTTP, on a real Temporal server', () => {
  let env: TestWorkflowEnvironment;
  let server: FakeChatCompletions;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let validatingWorker: Awaited<ReturnType<typeof startWorker>>;
  /** goal_boss, which delegates to the PTO and order agents. */
  let delegatingWorker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    server = await startFakeChatCompletions(orderModel);
    env = await startTemporal();
    const model = () => createModel({ model: 'openai-compatible:test-model', baseUrl: server.baseUrl, key: KEY });
    worker = await startWorker(env, {
      model: model(),
      settings: testSettings({ AGENT_GOAL: 'goal_order_status', VALIDATE_PROMPTS: 'false' }),
    });
    validatingWorker = await startWorker(env, {
      model: model(),
      settings: testSettings({ AGENT_GOAL: 'goal_order_status', VALIDATE_PROMPTS: 'true' }),
    });
    delegatingWorker = await startWorker(env, {
      model: model(),
      settings: testSettings({ AGENT_GOAL: 'goal_boss', GOALS_DIR: delegationGoalsDir(), VALIDATE_PROMPTS: 'false' }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await validatingWorker?.stop();
    await delegatingWorker?.stop();
    await env?.teardown();
    await server?.close();
  });
  beforeEach(() => {
    server.reset();
    server.setScript(orderModel);
  });

  const start = (w = worker) =>
    startConversation(env.client, w.worker.options.taskQueue, { goalId: 'goal_order_status' });

  it('greets, calls GetOrder through native tool calling, and answers from the tool result', async () => {
    const { handle, greeting } = await start();
    expect(greeting?.reply).toBe(GREETING);
    expect(server.requests).toHaveLength(1);

    const reply = await say(handle, 'Where is my order ORD-1001?');
    expect(reply.reply).toBe('Order ORD-1001 is shipped; tracking number 1Z999AA10123456784.');
    expect(reply.pendingToolCall).toBeNull(); // GetOrder's approval is 'never'
    expect(reply.ended).toBe(false);

    // Three calls to the model: the greeting, the user's question (→ tool call), the tool result (→ answer).
    expect(server.requests).toHaveLength(3);
    for (const r of server.requests) {
      expect(r.url).toBe('/v1/chat/completions');
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(r.body.model).toBe('test-model');
      expect(systemPrompt(r.body)).toMatch(/^You are "Order status"/);
      expect(r.body.tools?.map((t) => t.function.name).sort()).toEqual([
        'CompleteGoal',
        'Forget',
        'GetOrder',
        'ListOrders',
        'Remember',
        'TrackPackage',
      ]);
    }
    const [greet, ask, afterTool] = server.requests.map((r) => r.body);
    expect(greet!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(lastUserText(ask!)).toBe('Where is my order ORD-1001?');
    expect(ask!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(ask!.messages[2]).toEqual({ role: 'assistant', content: GREETING });

    // The request after the tool ran carries the model's tool call and the tool's result, linked by id.
    expect(afterTool!.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
    ]);
    expect(afterTool!.messages[4]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'call_ORD-1001', type: 'function', function: { name: 'GetOrder', arguments: '{"orderId":"ORD-1001"}' } },
      ],
    });
    const [toolMessage] = toolResults(afterTool!);
    expect(toolMessage!.tool_call_id).toBe('call_ORD-1001');
    expect(JSON.parse(toolMessage!.content)).toMatchObject({
      status: 'ok',
      result: { id: 'ORD-1001', email: 'ada@example.com', status: 'shipped', trackingNumber: '1Z999AA10123456784' },
    });

    // The workflow's own record agrees, and usage adds up what the server reported.
    const [outcome] = toolOutcomes(await history(handle), 'GetOrder');
    expect(outcome?.call).toEqual({ id: 'call_ORD-1001', tool: 'GetOrder', args: { orderId: 'ORD-1001' } });
    expect(outcome?.outcome).toMatchObject({ status: 'ok', result: { status: 'shipped' } });
    const usage = await handle.query(usageQuery);
    expect(usage.total).toEqual({
      inputTokens: 200 + 250 + 300,
      outputTokens: 15 + 12 + 20,
      totalTokens: 215 + 262 + 320,
    });

    await handle.signal(endChatSignal);
    const transcript = await handle.result();
    expect(transcript.endedBy).toBe('user');
  });

  it('hands a tool error to the model as a tool message', async () => {
    server.setScript((body) => {
      if (isAfterTool(body)) {
        const outcome = JSON.parse(toolResults(body)[0]!.content) as { status: string; error?: string };
        return completion({ text: `That did not work: ${outcome.status}, ${outcome.error}` });
      }
      return orderModel(body);
    });
    const { handle } = await start();
    const reply = await say(handle, 'Where is ORD-9999?');
    expect(reply.reply).toBe('That did not work: tool_error, No order ORD-9999.');
    expect(toolResults(server.requests[2]!.body)[0]!.tool_call_id).toBe('call_ORD-9999');
    await handle.signal(endChatSignal);
  });

  it('validates prompts with a tool-less call while planning, and steers back when the model says no', async () => {
    const { handle } = await start(validatingWorker);
    server.reset();

    const steered = await say(handle, 'order me a pizza');
    expect(steered.reply).toBe('I can only help with your orders.');
    // Checked and planned at once (one model wait); the plan was stopped (its request hung up) and dropped.
    const kinds = () => server.requests.map((r) => (r.body.tools ? 'plan' : 'validate')).sort();
    expect(kinds()).toEqual(['plan', 'validate']);
    const check = server.requests.find((r) => !r.body.tools)!;
    expect(systemPrompt(check.body)).toMatch(/Answer with JSON only/);
    await waitUntil(async () => server.requests.find((r) => r.body.tools)!.hungUp.aborted);
    expect((await history(handle)).filter((m) => m.kind === 'agent' && m.toolCalls.length > 0)).toHaveLength(0);

    server.reset();
    const answered = await say(handle, 'Where is ORD-1002?');
    expect(answered.reply).toBe('Order ORD-1002 is processing.');
    // The first plan ran beside the check; the second follows the tool result.
    expect(kinds()).toEqual(['plan', 'plan', 'validate']);
    await handle.signal(endChatSignal);
  });

  it('retries a 500 through Temporal (not the SDK) and then answers', async () => {
    let failures = 0;
    server.setScript((body) => {
      if (lastUserText(body) === 'Where is ORD-2001?' && !isAfterTool(body) && failures++ === 0) {
        return httpError(500, 'The server had an error while processing your request.');
      }
      return orderModel(body);
    });
    const { handle } = await start();
    server.reset();
    const reply = await say(handle, 'Where is ORD-2001?');
    expect(reply.reply).toBe('Order ORD-2001 is delivered; tracking number 9400111899223344556677.');
    // One failed attempt, its retry, then the call after the tool result.
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]!.rawBody).toBe(server.requests[1]!.rawBody);
    await handle.signal(endChatSignal);
  });

  it('retries a 429 after the retry-after delay', async () => {
    let failures = 0;
    const seen: number[] = [];
    server.setScript((body) => {
      seen.push(Date.now());
      if (lastUserText(body) === 'Where is ORD-1001?' && !isAfterTool(body) && failures++ === 0) {
        return httpError(429, 'Rate limit reached.', { 'retry-after': '2' });
      }
      return orderModel(body);
    });
    const { handle } = await start();
    server.reset();
    seen.length = 0;
    const reply = await say(handle, 'Where is ORD-1001?');
    expect(reply.reply).toMatch(/^Order ORD-1001 is shipped/);
    expect(server.requests).toHaveLength(3);
    // The activity's own initial interval is 1 second; the server asked for 2.
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(1900);
    await handle.signal(endChatSignal);
  });

  it('does not retry a 401, and tells the user to check LLM_KEY', async () => {
    server.setScript((body) =>
      lastUserText(body).startsWith('Greet the user')
        ? orderModel(body)
        : httpError(401, 'Incorrect API key provided.'),
    );
    const { handle } = await start();
    server.reset();
    const reply = await say(handle, 'Where is ORD-1001?');
    expect(reply.reply).toMatch(
      /^Sorry, I could not get an answer from the language model \(.*HTTP 401.*check LLM_KEY/,
    );
    expect(server.requests).toHaveLength(1);
    expect(reply.ended).toBe(false);
    await handle.signal(endChatSignal);
  });

  it('runs two AskAgent calls of one answer as delegates over HTTP, and sends both results right after the calls', async () => {
    server.setScript(delegationModel);
    const { handle } = await startConversation(env.client, delegatingWorker.worker.options.taskQueue, {
      goalId: 'goal_boss',
    });
    server.reset();

    const reply = await say(handle, 'How much PTO has ada@example.com, and where is ORD-1001?');
    expect(reply.reply).toBe('Boss: 104 hours left. | ORD-1001 is shipped.');

    // Each envelope is its call's result.
    const outcomes = toolOutcomes(await history(handle), 'AskAgent');
    const byCall = Object.fromEntries(outcomes.map((m) => [m.call.id, m.outcome]));
    expect(byCall).toEqual({
      call_pto: {
        status: 'ok',
        result: expect.objectContaining({
          status: 'ok',
          summary: '104 hours left.',
          data: expect.objectContaining({ hoursLeft: 104 }),
        }),
      },
      call_order: {
        status: 'ok',
        result: expect.objectContaining({
          status: 'ok',
          summary: 'ORD-1001 is shipped.',
          data: expect.objectContaining({ id: 'ORD-1001' }),
        }),
      },
    });

    // The boss's plan, two model calls per delegate (its tool, then its answer), and the boss's follow-up.
    const bodies = server.requests.map((r) => r.body);
    expect(bodies).toHaveLength(6);
    const delegateTasks = bodies
      .filter((b) => offers(b, 'AskUser') && !isAfterTool(b))
      .map(lastUserText)
      .sort();
    expect(delegateTasks).toEqual(['PTO left for ada@example.com', 'where is ORD-1001']);
    // Providers reject a conversation whose tool calls are not followed at once by every one of their results.
    const followUp = bodies.find((b) => !offers(b, 'AskUser') && isAfterTool(b))!;
    const tail = followUp.messages.slice(-3);
    expect(tail.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool']);
    const calls = (tail[0] as Extract<ChatRequestMessage, { role: 'assistant' }>).tool_calls ?? [];
    expect(calls.map((c) => [c.id, c.function.name])).toEqual([
      ['call_pto', 'AskAgent'],
      ['call_order', 'AskAgent'],
    ]);
    expect(
      toolResults(followUp)
        .map((r) => r.tool_call_id)
        .sort(),
    ).toEqual(['call_order', 'call_pto']);
    for (const r of toolResults(followUp))
      expect(JSON.parse(r.content)).toMatchObject({ status: 'ok', result: { status: 'ok' } });

    await handle.signal(endChatSignal);
  });
});
