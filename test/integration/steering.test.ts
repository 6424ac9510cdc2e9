// A message sent while the agent is working on a turn (goal.settings.whileBusy, or the message's own): `interrupt`
// cancels the model call in flight (the provider's HTTP request is dropped, what it streamed is discarded) and the
// next plan sees both messages; a tool already running finishes first; `reject` is refused while the agent works;
// `enqueue` (the default) waits for the turn to end. A real dev server and worker; the model is a local
// OpenAI-compatible server reached over HTTP by the real provider code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { createModel } from '../../activities/llm/model';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus, StreamChunk } from '../../stream/bus';
import { loadNativeTools, ToolRegistry } from '../../tools/tool-registry';
import { napTool } from '../fixtures/nap-tool';
import {
  completion,
  lastUserText,
  startFakeChatCompletions,
  streamed,
  toolResults,
  type ChatRequestBody,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { history, say, startConversation, toolOutcomes, waitUntil } from '../helpers/conversation';
import { runCli } from '../helpers/cli';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const dir = mkdtempSync(path.join(tmpdir(), 'steering-'));

/** A slow state-changing tool: it commits after `seconds` unless cancelled first. */
const naps: string[] = [];
const nap = napTool(naps);

const goal = (id: string, whileBusy?: string) => ({
  id,
  category: 'test',
  agentName: `Agent ${id}`,
  agentFriendlyDescription: 'Books days off.',
  description: 'Books days off and naps.',
  starterPrompt: 'Greet the user.',
  tools: ['Nap'],
  ...(whileBusy ? { settings: { whileBusy } } : {}),
});

const FIRST = 'book me the 21st to the 24th';
const SECOND = 'no, the 22nd, not the 21st';
const SLOW_WORDS = 'Booking the 21st to the 24th for you now, checking the balance first and then the calendar. '
  .repeat(5)
  .trim();

/** The user's words in a request, in order. */
const userTexts = (body: ChatRequestBody) =>
  body.messages.flatMap((m) => (m.role === 'user' && typeof m.content === 'string' ? [m.content] : []));

describe('steering a running turn (whileBusy)', () => {
  let env: TestWorkflowEnvironment;
  let model: FakeChatCompletions;
  let bus: StreamBus;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let client: AgentClient;
  const hungUp: string[][] = [];

  beforeAll(async () => {
    model = await startFakeChatCompletions((body, request) => {
      const last = lastUserText(body);
      if (last.startsWith('Greet')) return completion({ text: 'Hi.' });
      if (toolResults(body).length) return completion({ text: `Napped; heard: ${last}` });
      if (last.includes('nap')) return completion({ toolCalls: [{ name: 'Nap', args: { seconds: 3 } }] });
      if (last === FIRST) {
        request.hungUp.addEventListener('abort', () => hungUp.push(userTexts(body)));
        return streamed(completion({ text: SLOW_WORDS }), { chunkDelayMs: 60 });
      }
      return completion({ text: `Done: ${userTexts(body).slice(1).join(' + ')}` });
    });
    for (const [id, mode] of [
      ['goal_steer', 'interrupt'],
      ['goal_strict', 'reject'],
      ['goal_queue', undefined],
    ] as const)
      writeFileSync(path.join(dir, `${id}.json`), JSON.stringify(goal(id, mode)));
    env = await startTemporal();
    bus = createStreamBus();
    worker = await startWorker(env, {
      model: createModel({ model: 'openai-compatible:test-model', baseUrl: model.baseUrl, key: 'k' }),
      tools: new ToolRegistry([...loadNativeTools().all(), nap]),
      streamBus: bus,
      settings: testSettings({
        AGENT_GOAL: 'goal_steer',
        GOALS_DIR: dir,
        SHOW_CONFIRM: 'false',
        VALIDATE_PROMPTS: 'false',
      }),
    });
    client = new AgentClient(env.client, worker.worker.options.taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
    await bus?.close();
    await model?.close();
    await env?.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A conversation with `goalId`, and the chunks its replies stream. */
  async function converse(goalId: string): Promise<{ handle: WorkflowHandle; chunks: StreamChunk[] }> {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId });
    const chunks: StreamChunk[] = [];
    bus.subscribe(handle.workflowId, (chunk) => chunks.push(chunk));
    return { handle, chunks };
  }

  const deltas = (chunks: StreamChunk[]) => chunks.filter((c) => c.kind === 'delta');

  it('interrupt: the streaming model call is dropped and discarded, and one plan answers both messages', async () => {
    const { handle, chunks } = await converse('goal_steer');
    expect((await client.feed(handle.workflowId, 0)).whileBusy).toBe('interrupt');
    const first = client.say(handle.workflowId, FIRST);
    await waitUntil(async () => deltas(chunks).length >= 3);
    const streamedAttempt = deltas(chunks)[0]!.attempt;
    const second = await client.say(handle.workflowId, SECOND);
    expect(second.reply).toBe(`Done: ${FIRST} + ${SECOND}`);
    // The first message's caller gets the reply that answered both.
    expect((await first).reply).toBe(second.reply);
    // The provider's request for the first message was dropped; the next one carried both messages, in order.
    await waitUntil(async () => hungUp.length === 1, 15_000);
    expect(hungUp[0]).toEqual(['Greet the user.', FIRST]);
    expect(userTexts(model.requests.at(-1)!.body)).toEqual(['Greet the user.', FIRST, SECOND]);
    // What it streamed was discarded: screens drop it; the transcript never had it.
    await waitUntil(async () => chunks.some((c) => c.kind === 'discard' && c.attempt === streamedAttempt), 15_000);
    const messages = await history(handle);
    expect(messages.map((m) => [m.kind, m.kind === 'user' || m.kind === 'agent' ? m.text : ''])).toEqual([
      ['user', 'Greet the user.'],
      ['agent', 'Hi.'],
      ['user', FIRST],
      ['user', SECOND],
      ['agent', second.reply],
    ]);
  });

  it('interrupt while a tool runs: the tool finishes first, then the next plan reads its result and the message', async () => {
    const { handle } = await converse('goal_steer');
    naps.length = 0;
    const first = client.say(handle.workflowId, 'take a nap');
    await waitUntil(async () => naps.length > 0);
    const second = await client.say(handle.workflowId, 'and feed the cat');
    expect(naps).toEqual(['started', 'committed']);
    expect(second.reply).toBe('Napped; heard: and feed the cat');
    expect((await first).reply).toBe(second.reply);
    const messages = await history(handle);
    expect(toolOutcomes(messages, 'Nap').map((m) => m.outcome.status)).toEqual(['ok']);
    expect(messages.slice(-3).map((m) => m.kind)).toEqual(['tool', 'user', 'agent']);
  });

  it('a message may say otherwise: interrupt on a goal that queues, from `agent say --while-busy`', async () => {
    const { handle, chunks } = await converse('goal_queue');
    const first = client.say(handle.workflowId, FIRST);
    await waitUntil(async () => deltas(chunks).length >= 2);
    const drops = hungUp.length;
    const cliEnv = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: worker.worker.options.taskQueue,
      PATH: process.env.PATH,
    };
    const bad = await runCli(['say', handle.workflowId, '--while-busy', 'later', SECOND], cliEnv);
    expect([bad.code, bad.err.trim()]).toEqual([
      1,
      'error: --while-busy must be one of enqueue, interrupt, reject (got later).',
    ]);
    const second = await runCli(['say', handle.workflowId, '--while-busy', 'interrupt', SECOND], cliEnv);
    expect(second.code).toBe(0);
    expect(second.out).toContain(`Done: ${FIRST} + ${SECOND}`);
    expect((await first).reply).toBe(`Done: ${FIRST} + ${SECOND}`);
    await waitUntil(async () => hungUp.length === drops + 1, 15_000);
  });

  it('enqueue (the default): the turn finishes its answer, then the next message has a turn of its own', async () => {
    const { handle, chunks } = await converse('goal_queue');
    expect((await client.feed(handle.workflowId, 0)).whileBusy).toBe('enqueue');
    const drops = hungUp.length;
    const first = client.say(handle.workflowId, FIRST);
    await waitUntil(async () => deltas(chunks).length >= 2);
    const second = client.say(handle.workflowId, SECOND);
    expect((await first).reply).toBe(SLOW_WORDS);
    expect((await second).reply).toBe(`Done: ${FIRST} + ${SECOND}`);
    expect(hungUp.length).toBe(drops);
  });

  it('reject: refused while the agent works, taken once it waits for the user', async () => {
    const { handle, chunks } = await converse('goal_strict');
    const first = client.say(handle.workflowId, FIRST);
    await waitUntil(async () => deltas(chunks).length >= 2);
    await expect(client.say(handle.workflowId, SECOND)).rejects.toThrow(/The agent is busy with the turn in progress/);
    // A message may still choose to wait for the turn.
    const queued = client.say(handle.workflowId, { text: 'then this', whileBusy: 'enqueue' });
    expect((await first).reply).toBe(SLOW_WORDS);
    expect((await queued).reply).toBe(`Done: ${FIRST} + then this`);
    expect((await say(handle, SECOND)).reply).toBe(`Done: ${FIRST} + then this + ${SECOND}`);
  });
});
