// A recording for the replay test (called by record-histories.ts): native tools run as local activities
// (PATCHES.localNativeTools) — a balance looked up, one that fails (an unknown employee), and a booking approved.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { endChatSignal } from '../core/messages';
import { startWorker, testSettings } from '../testkit/temporal';
import { ptoScript } from './fixtures/scripts';
import { decide, say, startConversation } from './helpers/conversation';
import { week } from '../testkit/days';

export async function recordLocalTools(
  env: TestWorkflowEnvironment,
  save: (name: string, handle: WorkflowHandle) => Promise<void>,
  wanted: (name: string) => boolean,
): Promise<void> {
  if (!wanted('local-native-tools')) return;
  const settings = testSettings({ VALIDATE_PROMPTS: 'false' });
  const worker = await startWorker(env, { script: ptoScript, settings });
  try {
    const { handle } = await startConversation(
      env.client,
      settings.taskQueue,
      { goalId: 'goal_hr_pto' },
      'replay-local-native-tools',
    );
    await say(handle, 'What is my balance for ada@example.com?');
    await say(handle, 'What is my balance for nobody@example.com?');
    await say(handle, `book ${week(4, 0)} to ${week(4, 1)} for ada@example.com`);
    await decide(handle, { approve: true });
    await handle.signal(endChatSignal);
    await handle.result();
    await save('local-native-tools', handle);
  } finally {
    await worker.stop();
  }
}
