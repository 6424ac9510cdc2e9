// A recording of a scheduled run (an UnattendedRun in task mode, no parent), for the replay test (called by
// record-histories.ts): a schedule's run books PTO with nobody to approve, under the `deny` policy, so the model is
// told it may not and the run ends with its answer.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
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
