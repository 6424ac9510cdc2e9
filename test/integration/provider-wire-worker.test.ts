// Provider wire tests through a real dev server and worker: each provider's recorded answers (test/fixtures/wire/)
// replayed over HTTP to the worker's own model (LLM_MODEL, LLM_BASE_URL), so what reaches the conversation's history
// is what Temporal kept of the planning activity, retries included.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import type { ChatMessage } from '../../core/types';
import { loadPrices } from '../../activities/llm/prices';
import { usageQuery } from '../../core/messages';
import { history, say, startConversation } from '../helpers/conversation';
import { WIRE_MODELS } from '../helpers/provider-wire';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { startWireReplay, WIRE_PROVIDERS, type WireProvider, type WireReplay } from '../../testkit/wire-replay';

describe('provider wire, through a worker', () => {
  let env: TestWorkflowEnvironment;
  const replays: WireReplay[] = [];
  beforeAll(async () => {
    env = await startTemporal();
  });
  afterAll(async () => {
    await Promise.all(replays.map((r) => r.close()));
    await env?.teardown();
  });

  /** A worker whose LLM_MODEL is `provider`'s, at a replay server of its recorded answers. */
  async function workerFor(provider: WireProvider, env2: Record<string, string> = {}) {
    const replay = await startWireReplay(provider);
    replays.push(replay);
    const settings = testSettings({
      LLM_MODEL: WIRE_MODELS[provider],
      LLM_KEY: 'wire-test-key',
      LLM_BASE_URL: replay.baseUrl,
      VALIDATE_PROMPTS: 'false',
      ...env2,
    });
    const worker = await startWorker(env, { model: createModel(settings.llm), settings });
    return { replay, worker };
  }

  it.each(Object.keys(WIRE_PROVIDERS) as WireProvider[])(
    '%s: a reply stream that breaks off is retried whole; history holds only the full reply',
    async (provider) => {
      const { replay, worker } = await workerFor(provider);
      try {
        // The greeting's plan: dropped mid-event, then closed before its finish, then whole.
        replay.play({ name: 'cut-mid-stream', end: 'reset' }, 'truncated-stream', 'cached-usage');
        const { handle, greeting } = await startConversation(env.client, worker.worker.options.taskQueue, {
          goalId: 'goal_hr_pto',
        });
        expect(greeting?.reply).toBe('Order ORD-1001 shipped yesterday.');
        expect(replay.requests).toHaveLength(3);
        expect(replay.pending()).toBe(0);
        const said = (await history(handle)).filter(
          (m): m is Extract<ChatMessage, { kind: 'agent' }> => m.kind === 'agent',
        );
        expect(said.map((m) => m.text)).toEqual(['Order ORD-1001 shipped yesterday.']);
        expect(said[0]!.usage).toMatchObject({ inputTokens: 2006, outputTokens: 300 });
      } finally {
        await worker.stop();
      }
    },
  );

  it.each(['anthropic', 'openai-chat'] as const)(
    '%s: two turns of one conversation send a byte-identical prefix (system prompt and tools); the cached tokens the provider reports show in its usage, at the cached price',
    async (provider) => {
      const { replay, worker } = await workerFor(provider);
      try {
        replay.play('cached-usage', 'cached-usage');
        const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
          goalId: 'goal_hr_pto',
        });
        await say(handle, 'How many PTO hours do I have left?');
        const [first, second] = replay.requests;
        expect(replay.requests).toHaveLength(2);
        const fields = provider === 'anthropic' ? ['system', 'tools'] : ['tools'];
        for (const field of fields) {
          const sent = JSON.stringify(first!.body[field]);
          expect(sent.length).toBeGreaterThan(500);
          // As sent, byte for byte, in both requests.
          expect(first!.raw).toContain(sent);
          expect(second!.raw).toContain(sent);
        }
        if (provider === 'openai-chat') {
          // The body up to the end of the first turn's messages (system prompt, starter) is where the second begins.
          const prefix = first!.raw.slice(0, first!.raw.indexOf('],"tools":'));
          expect(prefix).toMatch(/^\{"model":"gpt-4o-mini",.*"messages":\[\{"role":"system","content":"You are /);
          expect(second!.raw.startsWith(prefix)).toBe(true);
        }
        const usage = await handle.query(usageQuery);
        expect(usage.total).toMatchObject({ inputTokens: 4012, cachedInputTokens: 3840, outputTokens: 600 });
        const price = loadPrices().priceOf(WIRE_MODELS[provider])!;
        const perCall = (86 * price.input + 1920 * price.cachedInput! + 300 * price.output) / 1_000_000;
        expect(usage.total.costUsd).toBeCloseTo(2 * perCall, 8);
      } finally {
        await worker.stop();
      }
    },
  );
});
