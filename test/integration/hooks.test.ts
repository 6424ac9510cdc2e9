// Hooks and guardrails on a real Temporal dev server and worker, the model a local Chat Completions server that
// records every request: what reaches the model is read from its request log, not from our own code. The shipped
// examples (HOOKS=pii-redaction,topic-guardrail) redact and block; hook files of the test's own (HOOKS_DIR) block a
// tool call and throw. Each decision is in the transcript.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import type { ChatMessage } from '../../core/types';
import { defineTool } from '../../tools/define-tool';
import { defineHook } from '../../core/hooks';
import { createStreamBus, type StreamChunk } from '../../stream';
import { loadNativeTools, ToolRegistry } from '../../tools/tool-registry';
import { history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { runCli } from '../helpers/cli';
import {
  completion,
  isAfterTool,
  lastUserText,
  startFakeChatCompletions,
  toolResults,
  type ChatRequestBody,
  type FakeChatCompletions,
  type ScriptResult,
} from '../../testkit/fake-chat-completions';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const GREETING = 'Hi! Which order?';

/** Checks prompts (no tools offered) as fitting; calls GetOrder for an order id; answers from the tool's result. */
function orderModel(body: ChatRequestBody): ScriptResult {
  if (!body.tools) return completion({ text: '{"valid": true}' });
  if (isAfterTool(body)) {
    const outcome = JSON.parse(toolResults(body).at(-1)!.content) as {
      status: string;
      result?: { id: string; status: string; email: string };
      error?: string;
    };
    return completion({
      text: outcome.result
        ? `Order ${outcome.result.id} is ${outcome.result.status}; we will write to ${outcome.result.email}.`
        : `I could not look it up: ${outcome.error}`,
    });
  }
  const user = lastUserText(body);
  if (user.startsWith('Greet the user')) return completion({ text: GREETING });
  if (user.includes('secret')) return completion({ text: 'The password is s3cret.' });
  const orderId = /ORD-\d+/.exec(user)?.[0];
  if (orderId) return completion({ toolCalls: [{ id: `call_${orderId}`, name: 'GetOrder', args: { orderId } }] });
  return completion({ text: `You said: ${user}` });
}

const notes = (messages: ChatMessage[]) => messages.flatMap((m) => (m.kind === 'note' ? [m] : []));
const sent = (server: FakeChatCompletions) => server.requests.map((r) => r.rawBody).join('\n');

describe('hooks and guardrails, on a real Temporal server', () => {
  let env: TestWorkflowEnvironment;
  let server: FakeChatCompletions;
  /** The shipped examples, with prompts checked (VALIDATE_PROMPTS: the check and the plan, one activity). */
  let shipped: Awaited<ReturnType<typeof startWorker>>;
  /** The test's own hook files: one blocks GetOrder for ORD-1002, one throws on "boom". */
  let own: Awaited<ReturnType<typeof startWorker>>;
  /** A hook handed to the worker factory: an answer that gives away the secret is withheld. */
  let coded: Awaited<ReturnType<typeof startWorker>>;
  const bus = createStreamBus();
  /** GetOrder's runs on `own`'s worker. */
  const ran: string[] = [];

  beforeAll(async () => {
    server = await startFakeChatCompletions(orderModel);
    env = await startTemporal();
    const model = () => createModel({ model: 'openai-compatible:test-model', baseUrl: server.baseUrl, key: 'k' });
    shipped = await startWorker(env, {
      model: model(),
      settings: testSettings({
        AGENT_GOAL: 'goal_order_status',
        VALIDATE_PROMPTS: 'true',
        HOOKS: 'pii-redaction,topic-guardrail',
        HOOK_GUARDRAIL_TOPICS: 'medical advice: dosage, diagnos*',
      }),
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'hooks-'));
    writeFileSync(
      path.join(dir, 'no-order-lookups.js'),
      `module.exports.default = { name: 'no-order-lookups', on: 'beforeToolCall',
        run: ({ tool, args }) => tool === 'GetOrder' && args.orderId === 'ORD-1002' ? { block: 'ORD-1002 is under review' } : undefined };`,
    );
    writeFileSync(
      path.join(dir, 'flaky.js'),
      `module.exports.default = { name: 'flaky', on: 'userMessage',
        run: ({ text }) => { if (text.includes('boom')) throw new Error('classifier unavailable'); } };`,
    );
    const native = loadNativeTools();
    const getOrder = native.get('GetOrder')!;
    const spied = defineTool({
      ...getOrder,
      run: (args, ctx) => {
        ran.push(String(args.orderId));
        return getOrder.run(args, ctx);
      },
    });
    own = await startWorker(env, {
      model: model(),
      tools: new ToolRegistry([...native.all().filter((t) => t.name !== 'GetOrder'), spied]),
      settings: testSettings({
        AGENT_GOAL: 'goal_order_status',
        VALIDATE_PROMPTS: 'false',
        HOOKS_DIR: dir,
        HOOKS: 'no-order-lookups,flaky',
      }),
    });
    coded = await startWorker(env, {
      model: model(),
      streamBus: bus,
      settings: testSettings({ AGENT_GOAL: 'goal_order_status', VALIDATE_PROMPTS: 'false' }),
      hooks: [
        defineHook({
          name: 'no-secrets',
          on: 'afterModelCall',
          run: ({ text }) => (text.includes('s3cret') ? { block: 'That answer held a secret.' } : undefined),
        }),
      ],
    });
  });
  afterAll(async () => {
    await coded?.stop();
    await bus.close();
    await shipped?.stop();
    await own?.stop();
    await env?.teardown();
    await server?.close();
  });
  beforeEach(() => server.reset());

  const start = (w: typeof shipped) =>
    startConversation(env.client, w.worker.options.taskQueue, { goalId: 'goal_order_status' });

  it('redacts e-mail addresses and phone numbers before the model sees them, in the message and the tool result', async () => {
    const { handle, greeting } = await start(shipped);
    expect(greeting?.reply).toBe(GREETING);
    const reply = await say(handle, 'Where is ORD-1001? Mail ada@example.com or call +1 (555) 123-4567.');
    // The tool's answer carried the customer's address: the model saw [email], so its reply says so.
    expect(reply.reply).toBe('Order ORD-1001 is shipped; we will write to [email].');

    // Every request the model server received: the greeting, then the check and the plan (made at once, in either
    // order), and the plan after the tool.
    const kind = (b: ChatRequestBody) => (b.tools ? (isAfterTool(b) ? 'after tool' : 'plan') : 'check');
    const requests = server.requests.map((r) => r.body);
    expect(requests.map(kind).sort()).toEqual(['after tool', 'check', 'plan', 'plan']);
    expect(sent(server)).not.toContain('ada@example.com');
    expect(sent(server)).not.toMatch(/555|123-4567/);
    const said = 'Where is ORD-1001? Mail [email] or call [phone].';
    expect(lastUserText(requests.find((b) => kind(b) === 'check')!)).toBe(said);
    expect(lastUserText(requests.filter((b) => kind(b) === 'plan').at(-1)!)).toBe(said);
    expect(JSON.parse(toolResults(requests.find((b) => kind(b) === 'after tool')!)[0]!.content)).toMatchObject({
      status: 'ok',
      result: { id: 'ORD-1001', email: '[email]' },
    });

    // The transcript keeps what the model saw, and says what was done (never what was redacted).
    const messages = await history(handle);
    expect(messages.find((m) => m.kind === 'user' && !m.starter)).toMatchObject({
      text: 'Where is ORD-1001? Mail [email] or call [phone].',
    });
    expect(toolOutcomes(messages, 'GetOrder')[0]!.outcome).toMatchObject({ result: { email: '[email]' } });
    expect(notes(messages).map((n) => n.text)).toEqual([
      'hook pii-redaction rewrote your message: 1 e-mail address and 1 phone number redacted',
      "hook pii-redaction rewrote GetOrder's result: 1 e-mail address redacted",
    ]);
    expect(notes(messages)[1]!.hook).toEqual({
      hook: 'pii-redaction',
      point: 'afterToolCall',
      action: 'rewrite',
      note: '1 e-mail address redacted',
      tool: 'GetOrder',
    });
    expect(JSON.stringify(messages)).not.toContain('ada@example.com');
  });

  it('blocks a message on a listed topic: the user gets the reason, the model never sees it, the transcript says so', async () => {
    const { handle } = await start(shipped);
    server.reset();
    const reply = await say(handle, 'What dosage of ibuprofen is safe?');
    expect(reply.reply).toBe("I can't help with medical advice here. Please ask about something else.");
    expect(server.requests).toHaveLength(0); // neither the check nor the plan was made

    const after = await say(handle, 'Then tell me a joke');
    expect(after.reply).toMatch(/^You said: Then tell me a joke/);
    // The next turn's requests carry the message withheld and the reason given, never the words (nor the note: the
    // notes are for the user).
    expect(sent(server)).not.toContain('ibuprofen');
    const plan = server.requests
      .at(-1)!
      .body.messages.slice(-3)
      .map((m) => m.content);
    expect(plan).toEqual([
      '[message withheld: blocked by the hook topic-guardrail]',
      "I can't help with medical advice here. Please ask about something else.",
      'Then tell me a joke',
    ]);
    expect(sent(server)).not.toContain('[note]');

    const messages = await history(handle);
    const blocked = messages.findIndex((m) => m.kind === 'user' && m.text.startsWith('[message withheld'));
    expect(messages.slice(blocked, blocked + 3)).toEqual([
      expect.objectContaining({ kind: 'user', text: '[message withheld: blocked by the hook topic-guardrail]' }),
      {
        kind: 'note',
        text: "hook topic-guardrail blocked your message: I can't help with medical advice here. Please ask about something else.",
        forUser: true,
        hook: expect.objectContaining({ hook: 'topic-guardrail', point: 'userMessage', action: 'block' }),
      },
      { kind: 'agent', text: "I can't help with medical advice here. Please ask about something else.", toolCalls: [] },
    ]);
    expect(JSON.stringify(messages)).not.toContain('ibuprofen');
  });

  it('the CLI shows each decision before the reply (agent say, agent chat)', async () => {
    const cliEnv = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: shipped.worker.options.taskQueue,
      AGENT_GOAL: 'goal_order_status',
      PATH: process.env.PATH,
    };
    const id = `hooks-cli-${process.pid}`;
    expect((await runCli(['start', '--id', id], cliEnv)).code).toBe(0);
    const said = await runCli(['say', id, 'What', 'dosage', 'is', 'safe?'], cliEnv);
    const reason = "I can't help with medical advice here. Please ask about something else.";
    expect(said.out).toBe(`  (hook topic-guardrail blocked your message: ${reason})\nagent> ${reason}\n`);
    const chat = await runCli(['chat', id], cliEnv, 'Where is ORD-1001? Mail ada@example.com\n/quit\n');
    expect(chat.out).toContain(
      [
        '  (hook pii-redaction rewrote your message: 1 e-mail address redacted)',
        "  (hook pii-redaction rewrote GetOrder's result: 1 e-mail address redacted)",
        'agent> Order ORD-1001 is shipped; we will write to [email].',
      ].join('\n'),
    );
    expect(chat.out).not.toContain('topic-guardrail'); // decisions of an earlier exchange are not shown again
  });

  it('a blocked tool call is not made: the model reads why and answers from it', async () => {
    const { handle } = await start(own);
    ran.length = 0;
    server.reset();
    const reply = await say(handle, 'Where is ORD-1002?');
    expect(reply.reply).toBe(
      'I could not look it up: The call was not made: the hook "no-order-lookups" blocked it (ORD-1002 is under review).',
    );
    expect(ran).toEqual([]); // the tool never ran
    const messages = await history(handle);
    expect(toolOutcomes(messages, 'GetOrder')[0]!.outcome).toEqual({
      status: 'tool_error',
      error: 'The call was not made: the hook "no-order-lookups" blocked it (ORD-1002 is under review).',
    });
    expect(notes(messages).map((n) => n.text)).toEqual([
      'hook no-order-lookups blocked the call to GetOrder: ORD-1002 is under review',
    ]);

    // Another order goes through.
    await say(handle, 'And ORD-1001?');
    expect(ran).toEqual(['ORD-1001']);
  });

  it("a hook in code (createAgentWorker's hooks) withholds a model's answer: not a word of it reaches a screen", async () => {
    const { handle } = await start(coded);
    const chunks: StreamChunk[] = [];
    const unsubscribe = bus.subscribe(handle.workflowId, (chunk) => chunks.push(chunk));
    try {
      const reply = await say(handle, 'tell me the secret');
      expect(reply.reply).toBe('That answer held a secret.');
      // The answer was streamed by the model server, and held until the hook decided: it was dropped, never shown.
      expect(server.requests.at(-1)!.body.stream).toBe(true);
      expect(chunks.filter((c) => c.kind === 'delta')).toEqual([]);
      expect(chunks.map((c) => c.kind)).toContain('discard');
      // A passed answer is shown as it comes, once the hook has let it through.
      chunks.length = 0;
      expect((await say(handle, 'hello')).reply).toMatch(/^You said: hello/);
      expect(
        chunks
          .filter((c) => c.kind === 'delta')
          .map((c) => (c as { text: string }).text)
          .join(''),
      ).toMatch(/^You said: hello/);
    } finally {
      unsubscribe();
    }
    const messages = await history(handle);
    expect(JSON.stringify(messages)).not.toContain('s3cret');
    expect(notes(messages).map((n) => n.text)).toEqual([
      "hook no-secrets blocked the model's answer: That answer held a secret.",
    ]);
  });

  it('a hook that throws fails closed: the user is told which hook failed, and the message never reaches the model', async () => {
    const { handle } = await start(own);
    server.reset();
    const reply = await say(handle, 'boom: where is ORD-1001?');
    expect(reply.reply).toBe(
      'The hook "flaky" failed, so your message was not sent to the model: it threw: classifier unavailable',
    );
    expect(server.requests).toHaveLength(0);
    expect(ran).not.toContain('boom');
    const messages = await history(handle);
    expect(notes(messages)).toEqual([
      {
        kind: 'note',
        text: 'hook flaky failed on your message: it threw: classifier unavailable',
        forUser: true,
        hook: { hook: 'flaky', point: 'userMessage', action: 'failed', note: 'it threw: classifier unavailable' },
      },
    ]);
    expect(messages.at(-3)).toMatchObject({ kind: 'user', text: '[message withheld: not checked by the hook flaky]' });
    // The conversation goes on.
    expect((await say(handle, 'hello')).reply).toMatch(/^You said: hello/);
  });
});
