// The reply being written reaches the stream bus while the turn runs, on a real dev server and worker: from the
// scripted model, from the openai-compatible provider over real HTTP (server-sent events), through Redis between
// processes' buses, and across a failed attempt — whose text is discarded before the retry writes the reply anew.
// Only the complete reply enters history.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import type { StreamBus, StreamChunk } from '../../stream';
import { RedisStreamBus } from '../../stream/redis-bus';
import type { ChatMessage } from '../../core/types';
import { history, say, startConversation } from '../helpers/conversation';
import {
  completion,
  lastUserText,
  startFakeChatCompletions,
  streamed,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { startRedis, type RunningRedis } from '../../testkit/redis-server';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const REPLY = 'Your balance is 96 hours, which is twelve working days; nothing is booked for next month yet.';
const script = {
  rules: [{ user: 'balance', reply: { text: REPLY } }],
  fallback: { text: 'Hello there, how can I help today?' },
};

/** A subscription that timestamps what it receives. */
function watch(bus: StreamBus, conversationId: string) {
  const seen: { chunk: StreamChunk; at: number }[] = [];
  const unsubscribe = bus.subscribe(conversationId, (chunk) => seen.push({ chunk, at: Date.now() }));
  const chunks = () => seen.map((s) => s.chunk);
  /** The text of one attempt, as its deltas spell it. */
  const textOf = (attempt: string) =>
    chunks()
      .flatMap((c) => (c.kind === 'delta' && c.attempt === attempt ? [c.text] : []))
      .join('');
  /** The attempt that wrote `text` (its first delta's attempt). */
  const attemptOf = (text: string) => chunks().find((c) => c.kind === 'delta' && text.startsWith(c.text))?.attempt;
  return { seen, chunks, textOf, attemptOf, unsubscribe };
}

const lastAgentText = (messages: ChatMessage[]) => messages.filter((m) => m.kind === 'agent').at(-1)?.text;
let seq = 0;
const conversationId = () => `stream-${process.pid}-${Date.now()}-${++seq}`;

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  for (const until = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > until) throw new Error('timed out waiting');
  }
}

describe('streaming the reply being written', () => {
  let env: TestWorkflowEnvironment;
  let server: FakeChatCompletions;
  let redis: RunningRedis;

  beforeAll(async () => {
    [env, server, redis] = await Promise.all([startTemporal(), startFakeChatCompletions(), startRedis()]);
  });
  afterAll(async () => {
    await env?.teardown();
    await server?.close();
    await redis?.stop();
  });

  /** Says `text` in a new conversation on `worker` while `bus` is watched; returns what was seen and when. */
  async function turn(worker: Awaited<ReturnType<typeof startWorker>>, bus: StreamBus, text: string) {
    const id = conversationId();
    const watched = watch(bus, id);
    const { handle } = await startConversation(
      env.client,
      worker.worker.options.taskQueue,
      { goalId: 'goal_hr_pto' },
      id,
    );
    const began = Date.now();
    const reply = await say(handle, text);
    const answeredAt = Date.now();
    await waitFor(() => watched.chunks().at(-1)?.kind === 'done');
    watched.unsubscribe();
    return { ...watched, handle, reply, began, answeredAt, messages: await history(handle) };
  }

  it('the scripted model: deltas arrive while the turn runs and spell the reply that enters history (memory bus)', async () => {
    const worker = await startWorker(env, {
      script,
      settings: testSettings({ VALIDATE_PROMPTS: 'false', SCRIPTED_STREAM_DELAY_MS: '80' }),
    });
    try {
      const t = await turn(worker, worker.streamBus, 'what is my balance?');
      expect(t.reply.reply).toBe(REPLY);
      expect(lastAgentText(t.messages)).toBe(REPLY);
      const attempt = t.attemptOf(REPLY)!;
      expect(attempt).toMatch(new RegExp(`^${t.handle.firstExecutionRunId}/\\d+/1$`));
      expect(t.textOf(attempt)).toBe(REPLY);
      const firstDelta = t.seen.find((s) => s.chunk.kind === 'delta' && s.chunk.attempt === attempt)!;
      expect(firstDelta.at).toBeLessThan(t.answeredAt - 150); // at 80 ms a chunk, the reply takes ~0.4 s to write
      expect(t.chunks().at(-1)).toEqual({ kind: 'done', attempt });
    } finally {
      await worker.stop();
    }
  });

  it('the openai-compatible provider streaming over HTTP: the same', async () => {
    server.setScript((body) =>
      streamed(completion({ text: lastUserText(body).includes('balance') ? REPLY : 'Hi! How can I help?' }), {
        chunkDelayMs: 30,
      }),
    );
    const model = createModel({ model: 'openai-compatible:test-model', baseUrl: server.baseUrl, key: 'sk-stream' });
    const worker = await startWorker(env, { model, settings: testSettings({ VALIDATE_PROMPTS: 'false' }) });
    try {
      const t = await turn(worker, worker.streamBus, 'what is my balance?');
      expect(server.requests.at(-1)!.body.stream).toBe(true);
      expect(lastAgentText(t.messages)).toBe(REPLY);
      const attempt = t.attemptOf(REPLY)!;
      expect(t.textOf(attempt)).toBe(REPLY);
      expect(t.chunks().filter((c) => c.kind === 'delta' && c.attempt === attempt).length).toBeGreaterThan(5);
      expect(t.seen.find((s) => s.chunk.kind === 'delta' && s.chunk.attempt === attempt)!.at).toBeLessThan(
        t.answeredAt - 200,
      );
    } finally {
      await worker.stop();
    }
  });

  it('a first attempt that breaks off mid-reply: its text is discarded, the retry writes the reply, history holds it once', async () => {
    let balanceCalls = 0;
    server.setScript((body) => {
      if (!lastUserText(body).includes('balance')) return completion({ text: 'Hi!' });
      // The first answer drops the connection after the role and three pieces of text; the retry answers in full.
      return streamed(completion({ text: REPLY }), {
        chunkDelayMs: 20,
        ...(++balanceCalls === 1 ? { cutAfter: 4 } : {}),
      });
    });
    const model = createModel({ model: 'openai-compatible:test-model', baseUrl: server.baseUrl, key: 'sk-stream' });
    const worker = await startWorker(env, { model, settings: testSettings({ VALIDATE_PROMPTS: 'false' }) });
    try {
      const t = await turn(worker, worker.streamBus, 'what is my balance?');
      expect(balanceCalls).toBe(2);
      const first = t.attemptOf(REPLY)!;
      expect(first).toMatch(/\/1$/);
      const retry = first.replace(/1$/, '2');
      const partial = t.textOf(first);
      expect(partial.length).toBeGreaterThan(0);
      expect(REPLY.startsWith(partial) && partial !== REPLY).toBe(true);
      const turnChunks = t.chunks().filter((c) => c.attempt === first || c.attempt === retry);
      const discardAt = turnChunks.findIndex((c) => c.kind === 'discard' && c.attempt === first);
      expect(discardAt).toBeGreaterThan(0);
      expect(turnChunks.slice(0, discardAt).every((c) => c.kind === 'delta' && c.attempt === first)).toBe(true);
      expect(turnChunks.slice(discardAt + 1).every((c) => c.attempt === retry)).toBe(true);
      expect(t.textOf(retry)).toBe(REPLY);
      expect(turnChunks.at(-1)).toEqual({ kind: 'done', attempt: retry });
      // History: one complete reply for the turn, no trace of the broken one.
      const agents = t.messages.filter((m) => m.kind === 'agent').map((m) => m.text);
      expect(agents.filter((text) => text === REPLY)).toHaveLength(1);
      expect(agents.filter((text) => text && REPLY.startsWith(text) && text !== REPLY)).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it('through Redis: a worker with REDIS_URL publishes, another process’s bus (the API’s) watches', async () => {
    const settings = testSettings({ VALIDATE_PROMPTS: 'false', SCRIPTED_STREAM_DELAY_MS: '80', REDIS_URL: redis.url });
    const worker = await startWorker(env, { script, settings });
    const apiSide = new RedisStreamBus(redis.url);
    try {
      expect(worker.streamBus).toBeInstanceOf(RedisStreamBus);
      const t = await turn(worker, apiSide, 'what is my balance?');
      const attempt = t.attemptOf(REPLY)!;
      expect(t.textOf(attempt)).toBe(REPLY);
      expect(t.seen.find((s) => s.chunk.kind === 'delta' && s.chunk.attempt === attempt)!.at).toBeLessThan(
        t.answeredAt - 150,
      );
      expect(lastAgentText(t.messages)).toBe(REPLY);
    } finally {
      await worker.stop();
      await apiSide.close();
    }
  });
});
