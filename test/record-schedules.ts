// Recordings of unattended runs (an UnattendedRun in task mode, no parent), for the replay test (called by
// record-histories.ts): a schedule's run books PTO with nobody to approve, under the `deny` policy, so the model is
// told it may not and the run ends with its answer; a webhook trigger's run, its body attached, whose outcome goes to a
// notify URL that fails once before it accepts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { openBlobStore } from '../blobs';
import { unattendedInput } from '../client/unattended';
import type { WorkflowHandle } from '@temporalio/client';
import { Schedules } from '../client/schedules';
import { startWorker, testSettings } from '../testkit/temporal';
import { waitUntil } from '../testkit/wait-until';
import { week } from '../testkit/days';
import { ptoScript } from './fixtures/scripts';

type Save = (name: string, handle: WorkflowHandle, runId?: string) => Promise<void>;

export async function recordScheduledRun(
  env: TestWorkflowEnvironment,
  save: Save,
  wanted: (name: string) => boolean,
): Promise<void> {
  if (!wanted('scheduled-run-denied')) return;
  const settings = testSettings({ VALIDATE_PROMPTS: 'false' });
  const worker = await startWorker(env, { script: ptoScript, settings });
  const schedules = new Schedules(env.client, settings.taskQueue);
  try {
    const prompt = `book ${week(4)} to ${week(4, 1)} for ada@example.com`;
    await schedules.create({
      name: 'replay-denied',
      goalId: 'goal_hr_pto',
      prompt,
      cron: '0 0 1 1 *',
      approvals: 'deny',
    });
    await schedules.trigger('replay-denied');
    await waitUntil(async () => (await schedules.describe('replay-denied')).recentRuns.length > 0);
    const [run] = (await schedules.describe('replay-denied')).recentRuns;
    const handle = env.client.workflow.getHandle(run!.conversationId);
    await handle.result();
    await save('scheduled-run-denied', handle);
    await schedules.delete('replay-denied');
  } finally {
    await worker.stop();
  }
}

export async function recordTriggeredRun(
  env: TestWorkflowEnvironment,
  save: Save,
  wanted: (name: string) => boolean,
): Promise<void> {
  if (!wanted('triggered-run-notified')) return;
  const settings = testSettings({ VALIDATE_PROMPTS: 'false' });
  const worker = await startWorker(env, { script: ptoScript, settings });
  let calls = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(++calls === 1 ? 503 : 204).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  try {
    const workflowId = 'trig-replay.delivery-1';
    const store = openBlobStore(settings.files.blobs);
    const body = await store.put(Buffer.from(JSON.stringify({ order: { id: 'A-1' } })), {
      name: 'replay-delivery-1.json',
      owner: 'ops',
      conversationId: workflowId,
    });
    const input = unattendedInput({
      goalId: 'goal_hr_pto',
      prompt: 'balance for ada@example.com (order, delivery delivery-1); the event is attached',
      owner: 'ops',
      run: {
        source: 'trigger',
        name: 'replay',
        approvals: 'deny',
        notify: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/outcomes`,
      },
      attachments: [body],
    });
    const handle = await env.client.workflow.start('AgentGoalWorkflow', {
      taskQueue: settings.taskQueue,
      workflowId,
      args: [input],
    });
    await handle.result();
    await save('triggered-run-notified', handle);
  } finally {
    receiver.close();
    await worker.stop();
  }
}
