// A recording for the replay test (called by record-histories.ts): a message sent to interrupt a turn while the
// model streams its answer (the steering patch's marker, the plan activity's cancel request, then one plan that
// reads both messages), and a message sent while a tool runs, which joins the turn after the tool's result.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { AgentClient } from '../client/agent-client';
import { startWorker, testSettings } from '../testkit/temporal';
import { waitUntil } from '../testkit/wait-until';
import { steeringScript, LONG_ANSWER } from './fixtures/steering';

type Save = (name: string, handle: WorkflowHandle, runId?: string) => Promise<void>;

export async function recordSteering(env: TestWorkflowEnvironment, save: Save, wanted: (name: string) => boolean) {
  if (!wanted('steering-interrupt')) return;
  const settings = testSettings({ VALIDATE_PROMPTS: 'false', SCRIPTED_STREAM_DELAY_MS: '100' });
  const worker = await startWorker(env, { script: steeringScript, settings });
  try {
    const agents = new AgentClient(env.client, settings.taskQueue);
    const { id } = await agents.start('goal_hr_pto', 'replay-steering', 'ada');
    const handle = env.client.workflow.getHandle(id);
    const first = agents.say(id, 'explain the policy');
    await waitUntil(async () => (await agents.feed(id, 0)).state === 'working');
    await waitUntil(async () => JSON.stringify((await handle.fetchHistory()).events).includes('planTurn'));
    const reply = await agents.say(id, { text: 'only the carry-over part', whileBusy: 'interrupt' });
    if ((await first).reply !== reply.reply || reply.reply === LONG_ANSWER)
      throw new Error(`the interrupt did not join the turn: ${reply.reply}`);
    await agents.end(id);
    await handle.result();
    await save('steering-interrupt', handle);
  } finally {
    await worker.stop();
  }
}
