// A model that keeps failing or hangs: the user hears early that it is being retried (status, chat), and the
// turn gives up within MODEL_GIVE_UP with a message naming the cause. A real dev server and worker, the model a
// local Chat Completions server.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import { AgentClient } from '../../client/agent-client';
import {
  completion,
  httpError,
  lastUserText,
  startFakeChatCompletions,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { say, startConversation, waitUntil } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

describe('a failing model, in words and in time', () => {
  let env: TestWorkflowEnvironment;
  let model: FakeChatCompletions;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let client: AgentClient;

  beforeAll(async () => {
    model = await startFakeChatCompletions(async (body) => {
      const text = lastUserText(body);
      if (text.includes('fail')) return httpError(500, 'upstream broke');
      // Longer than MODEL_GIVE_UP: no attempt can get an answer, however late a loaded machine fires its timeout.
      if (text.includes('hang')) await new Promise((r) => setTimeout(r, 20_000));
      return completion({ text: 'Hello.' });
    });
    env = await startTemporal();
    worker = await startWorker(env, {
      model: createModel({ model: 'openai-compatible:test-model', baseUrl: model.baseUrl, key: 'test-key-123' }),
      settings: testSettings({ VALIDATE_PROMPTS: 'false', MODEL_GIVE_UP: '15', MODEL_TIMEOUT: '5' }),
    });
    client = new AgentClient(env.client, worker.worker.options.taskQueue);
  });
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
    await env?.teardown();
  });

  it('a model that keeps failing: retrying is visible within seconds, and the turn gives up naming the cause', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_hr_pto' });
    const began = Date.now();
    const reply = say(handle, 'please fail');
    await waitUntil(async () => (await client.retrying(handle.workflowId)) !== null, 30_000);
    expect(await client.retrying(handle.workflowId)).toMatchObject({ lastFailure: expect.stringMatching(/HTTP 500/) });
    expect(Date.now() - began).toBeLessThan(30_000);
    const answer = await reply;
    expect(answer.reply).toMatch(
      /^Sorry, I could not get an answer from the language model \(The openai-compatible API failed \(HTTP 500\)/,
    );
    // MODEL_GIVE_UP is 15 s: the user is not left waiting minutes.
    expect(Date.now() - began).toBeLessThan(30_000);
  });

  it('a model that hangs is reported as its timeout', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_hr_pto' });
    const answer = await say(handle, 'please hang');
    expect(answer.reply).toMatch(/The openai-compatible model did not answer within 5 s \(MODEL_TIMEOUT\)/);
  });
});

describe('a short MODEL_GIVE_UP still retries fast failures', () => {
  let env: TestWorkflowEnvironment;
  let model: FakeChatCompletions;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  const failed: number[] = [];

  beforeAll(async () => {
    model = await startFakeChatCompletions(async (body) => {
      if (!lastUserText(body).includes('fail')) return completion({ text: 'Hello.' });
      failed.push(Date.now());
      return httpError(500, 'upstream overloaded');
    });
    env = await startTemporal();
    // MODEL_TIMEOUT is as long as MODEL_GIVE_UP: waiting for a whole MODEL_TIMEOUT to be left, it gave up at once.
    worker = await startWorker(env, {
      model: createModel({ model: 'openai-compatible:test-model', baseUrl: model.baseUrl, key: 'test-key-123' }),
      settings: testSettings({ VALIDATE_PROMPTS: 'false', MODEL_GIVE_UP: '12', MODEL_TIMEOUT: '12' }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
    await env?.teardown();
  });

  it('an always-500 model is tried several times within MODEL_GIVE_UP, then given up in our words', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_hr_pto' });
    const began = Date.now();
    const answer = await say(handle, 'please fail');
    expect(answer.reply).toMatch(/\(HTTP 500\).* Gave up after [3-9] attempts \(MODEL_GIVE_UP\)\./);
    expect(failed.length).toBeGreaterThanOrEqual(3);
    expect(Date.now() - began).toBeLessThan(20_000);
  });
});
