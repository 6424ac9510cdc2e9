// Fallback models on a real dev server and worker, the models reached over HTTP (one local Chat Completions server
// answering for both, by the request's model): a primary that starts answering 529 mid-conversation is given up
// within LLM_FALLBACK_AFTER and the fallback answers the same step; later turns stay on the fallback without asking
// the primary again; a bad request is no reason to switch; and a worker killed (SIGKILL) while the fallback answers
// changes nothing: one switch, one reply, the primary not asked again.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import { statusQuery, usageQuery } from '../../core/messages';
import type { ChatMessage } from '../../core/types';
import {
  completion,
  httpError,
  lastUserText,
  startFakeChatCompletions,
  type ChatRequestBody,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import {
  history,
  say,
  waitForUser,
  waitUntil,
  startConversation,
  startConversationForFaults,
} from '../helpers/conversation';

const PRIMARY = 'openai-compatible:primary';
const BACKUP = 'openai-compatible:backup';

describe('fallback models', () => {
  let env: TestWorkflowEnvironment;
  let model: FakeChatCompletions;
  let primaryDown = false;
  /** Set: the backup's answers wait for it (a worker is killed meanwhile). */
  let backupHeld: Promise<void> | null = null;
  const llm = () => ({
    LLM_MODEL: PRIMARY,
    LLM_BASE_URL: model.baseUrl,
    LLM_KEY: 'test-key',
    LLM_FALLBACK_MODELS: BACKUP,
    LLM_FALLBACK_AFTER: '10',
    MODEL_TIMEOUT: '5',
    MODEL_GIVE_UP: '30',
  });
  /** Plan requests to `name` (the wire's model), for prompts containing `prompt`. */
  const asked = (name: string, prompt?: string) =>
    model.requests.filter(
      (r) => r.body?.model === name && r.body.tools && (!prompt || lastUserText(r.body).includes(prompt)),
    ).length;

  beforeAll(async () => {
    model = await startFakeChatCompletions(async (body: ChatRequestBody) => {
      if (!body.tools) return completion({ text: '{"valid": true}' });
      const prompt = lastUserText(body);
      if (body.model === 'primary') {
        if (prompt.includes('malformed')) return httpError(400, 'Invalid value for messages');
        if (primaryDown) return httpError(529, 'Overloaded', { 'retry-after': '0' });
        return completion({ text: `primary: ${prompt.slice(0, 20)}` });
      }
      if (backupHeld && prompt.includes('kill')) await backupHeld;
      return completion({ text: `backup: ${prompt.slice(0, 20)}` });
    });
    env = await startTemporal();
  });
  afterAll(async () => {
    await model?.close();
    await env?.teardown();
  });

  describe('in one worker', () => {
    let worker: Awaited<ReturnType<typeof startWorker>>;
    beforeAll(async () => {
      const settings = testSettings({ ...llm(), VALIDATE_PROMPTS: 'true' });
      worker = await startWorker(env, { model: createModel(settings.llm), settings });
    });
    afterAll(async () => {
      primaryDown = false;
      await worker?.stop();
    });

    it('a primary that starts answering 529 is given up within LLM_FALLBACK_AFTER; the fallback answers and stays', async () => {
      primaryDown = false;
      const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
        goalId: 'goal_hr_pto',
      });
      expect((await say(handle, 'hello there')).reply).toBe('primary: hello there');

      primaryDown = true;
      const began = Date.now();
      expect((await say(handle, 'are you there')).reply).toBe('backup: are you there');
      // Within LLM_FALLBACK_AFTER (10 s); MODEL_GIVE_UP (30 s) would have been the wait without a fallback.
      expect(Date.now() - began).toBeLessThan(15_000);
      expect(asked('primary', 'are you there')).toBeGreaterThanOrEqual(2); // retried before the switch

      const notes = (await history(handle)).filter(
        (m): m is Extract<ChatMessage, { kind: 'note' }> => m.kind === 'note',
      );
      expect(notes).toEqual([
        {
          kind: 'note',
          forUser: true,
          text: expect.stringMatching(
            /^openai-compatible:primary kept failing \(.*529.*Gave up after \d+ attempts \(LLM_FALLBACK_AFTER\)\); openai-compatible:backup answers instead\.$/s,
          ),
        },
      ]);
      expect((await handle.query(statusQuery)).fallback).toEqual({ model: BACKUP, since: expect.any(Number) });

      // The next turn goes to the fallback at once: the primary is not asked (until LLM_FALLBACK_COOLDOWN).
      const primaryBefore = asked('primary');
      const again = Date.now();
      expect((await say(handle, 'one more')).reply).toBe('backup: one more');
      expect(Date.now() - again).toBeLessThan(5_000);
      expect(asked('primary')).toBe(primaryBefore);
      // The model is never sent the switch note.
      for (const r of model.requests.filter((q) => q.body?.model === 'backup'))
        expect(r.rawBody).not.toContain('kept failing');

      const usage = await handle.query(usageQuery);
      expect(Object.keys(usage.byModel ?? {}).sort()).toEqual([BACKUP, PRIMARY]);
      // Validation and plan for each of the backup's two turns, on the fake's 10 + 5 tokens a call.
      expect(usage.byModel?.[BACKUP]).toMatchObject({ inputTokens: 40, outputTokens: 20, totalTokens: 60 });
      expect(usage.total.totalTokens).toBe(usage.byModel![BACKUP]!.totalTokens + usage.byModel![PRIMARY]!.totalTokens);
    });

    it('a request no model would take (HTTP 400) is not a reason to switch', async () => {
      primaryDown = false;
      const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
        goalId: 'goal_hr_pto',
      });
      const backupBefore = asked('backup');
      const reply = await say(handle, 'a malformed request');
      expect(reply.reply).toMatch(/^Sorry, I could not get an answer from the language model \(.*HTTP 400/);
      expect(asked('backup')).toBe(backupBefore);
      expect((await history(handle)).some((m) => m.kind === 'note')).toBe(false);
    });
  });

  it('a worker killed while the fallback answers changes nothing: one switch, one reply, the primary not asked again', async () => {
    primaryDown = false;
    let release = () => {};
    backupHeld = new Promise<void>((r) => (release = r));
    const taskQueue = `fallback-kill-${Date.now()}`;
    const workerEnv = {
      ...llm(),
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: taskQueue,
      AGENT_GOAL: 'goal_hr_pto',
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: '/nonexistent',
    };
    let worker: WorkerProcess | null = await startWorkerProcess(workerEnv);
    try {
      const { handle } = await startConversationForFaults(env.client, taskQueue, { goalId: 'goal_hr_pto' });
      await waitForUser(handle);
      primaryDown = true;
      const reply = say(handle, 'please kill me');
      await waitUntil(async () => asked('backup', 'kill') > 0, 30_000);
      const primaryAsked = asked('primary', 'kill');
      await worker.kill();
      worker = await startWorkerProcess(workerEnv);
      release();
      expect((await reply).reply).toBe('backup: please kill me');
      expect(asked('primary', 'kill')).toBe(primaryAsked);
      expect(asked('backup', 'kill')).toBe(2); // the attempt the kill cut, and its retry on the new worker
      const messages = await history(handle);
      expect(messages.filter((m) => m.kind === 'note')).toHaveLength(1);
      expect(messages.filter((m) => m.kind === 'agent' && m.text.startsWith('backup:'))).toHaveLength(1);
    } finally {
      release();
      backupHeld = null;
      await worker?.stop();
    }
  }, 90_000);
});
