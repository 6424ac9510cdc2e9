// A recording for the replay test (called by record-histories.ts): model calls that name the goal and tools by number
// once they were sent (PlanContextRef). The greeting's plan carries them whole, every later call only the number, and a
// worker that started after the first one stopped plans the last turn with them (asked of the run: planContext).
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { endChatSignal } from '../core/messages';
import { ptoScript } from './fixtures/scripts';
import { planRequests, say, startConversation } from './helpers/conversation';
import { startWorker, testSettings } from '../testkit/temporal';

type Save = (name: string, handle: WorkflowHandle, runId?: string) => Promise<void>;

export async function recordPlanContexts(env: TestWorkflowEnvironment, save: Save, wanted: (name: string) => boolean) {
  const name = 'plan-contexts-by-number';
  if (!wanted(name)) return;
  const settings = testSettings();
  const first = await startWorker(env, { script: ptoScript, settings });
  const { handle } = await startConversation(
    env.client,
    settings.taskQueue,
    { goalId: 'goal_hr_pto' },
    `replay-${name}`,
  );
  await say(handle, 'What is my balance for ada@example.com?');
  await first.stop();
  const second = await startWorker(env, { script: ptoScript, settings });
  try {
    await say(handle, 'What is my balance for grace@example.com?');
    const requests = await planRequests(handle);
    if (!requests[0]?.goal || requests.slice(1).some((r) => r.goal || r.context?.version !== 1))
      throw new Error(`expected the goal sent once, then by number: ${JSON.stringify(requests.map((r) => r.context))}`);
    await handle.signal(endChatSignal);
    await handle.result();
    await save(name, handle);
  } finally {
    await second.stop();
  }
}
