// RunCode on a real dev server and worker: a goal that lists it computes exactly in the worker's sandbox (an
// activity), and a script that misbehaves comes back to the model as a tool error, the conversation going on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { calculator, runCodeScript as script } from '../fixtures/run-code';

describe('RunCode on a worker', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'run-code-goals-'));
    writeFileSync(path.join(folder, 'calculator.json'), JSON.stringify(calculator));
    env = await startTemporal();
    worker = await startWorker(env, {
      script,
      settings: testSettings({ AGENT_GOAL: 'goal_calculator', VALIDATE_PROMPTS: 'false', GOALS_DIR: folder }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  it('computes in the sandbox without asking, and the answer is the call result', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_calculator',
    });
    const reply = await say(handle, 'count the links in: https://a.com/x https://b.org https://a.com/y');
    expect(reply).toMatchObject({ reply: '3 links.', pendingToolCall: null });
    expect(toolOutcomes(await history(handle), 'RunCode')).toMatchObject([
      { outcome: { status: 'ok', result: { output: { count: 3, domains: { 'a.com': 2, 'b.org': 1 } } } } },
    ]);
  });

  it('stops a script that never ends and tells the model; the worker and the conversation go on', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_calculator',
    });
    expect((await say(handle, 'loop')).reply).toMatch(/^The script failed: stopped after 1000 ms of CPU time/);
    expect((await say(handle, 'count the links in: https://c.net')).reply).toBe('1 links.');
  });
});
