// Recordings for the replay test (called by record-histories.ts): a message sent to interrupt a turn while the model
// streams its answer (the steering patch's marker, the plan activity's cancel request, then one plan that reads both
// messages), with prompts checked and without.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { AgentClient } from '../client/agent-client';
import { startWorker, testSettings } from '../testkit/temporal';
import { waitUntil } from '../testkit/wait-until';
import { steeringScript, LONG_ANSWER } from './fixtures/steering';

type Save = (name: string, handle: WorkflowHandle, runId?: string) => Promise<void>;

export async function recordSteering(env: TestWorkflowEnvironment, save: Save, wanted: (name: string) => boolean) {
  // As configured by default too (VALIDATE_PROMPTS): the call cancelled is the turn's first, which checks the prompt
  // while it plans, and the next checks both messages together.
  const recordings = [
    { name: 'steering-interrupt', validate: false, activity: 'planTurn' },
    { name: 'steering-interrupt-checked', validate: true, activity: 'vetAndPlan' },
  ];
  for (const { name, validate, activity } of recordings) {
    if (wanted(name)) await recordInterrupt(env, save, name, validate, activity);
  }
}

async function recordInterrupt(
  env: TestWorkflowEnvironment,
  save: Save,
  name: string,
  validate: boolean,
  activity: string,
) {
  const settings = testSettings({ VALIDATE_PROMPTS: String(validate), SCRIPTED_STREAM_DELAY_MS: '100' });
  const worker = await startWorker(env, { script: steeringScript, settings });
  try {
    const agents = new AgentClient(env.client, settings.taskQueue);
    const { id } = await agents.start('goal_hr_pto', `replay-${name}`, 'ada');
    const handle = env.client.workflow.getHandle(id);
    const first = agents.say(id, 'explain the policy');
    await waitUntil(async () => (await agents.feed(id, 0)).state === 'working');
    await waitUntil(async () => JSON.stringify((await handle.fetchHistory()).events).includes(activity));
    const reply = await agents.say(id, { text: 'only the carry-over part', whileBusy: 'interrupt' });
    if ((await first).reply !== reply.reply || reply.reply === LONG_ANSWER)
      throw new Error(`the interrupt did not join the turn: ${reply.reply}`);
    await agents.end(id);
    await handle.result();
    await save(name, handle);
  } finally {
    await worker.stop();
  }
}
