// A recording of a conversation moving to a newer build, for the replay test (called by record-histories.ts): a
// versioned worker of build A serves a conversation; build B (the same code, another build id) is made current; the
// next turn is answered on build A and the conversation continues as new onto the current build
// (PATCHES.upgradeOnNewBuild). The recorded run is the first one: the patch marker, the turns, the upgrading
// continue-as-new.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { Deployments } from '../client/deployments';
import { startWorker, testSettings } from '../testkit/temporal';
import { ptoScript } from './fixtures/scripts';
import { say, startConversation, waitUntil } from './helpers/conversation';

type Save = (name: string, handle: WorkflowHandle, runId?: string) => Promise<void>;

export async function recordUpgradeOnNewBuild(
  env: TestWorkflowEnvironment,
  save: Save,
  wanted: (name: string) => boolean,
): Promise<void> {
  if (!wanted('upgrade-on-new-build')) return;
  const first = testSettings({ VALIDATE_PROMPTS: 'false', WORKER_BUILD_ID: 'build-a' });
  const { taskQueue } = first;
  const second = {
    ...testSettings({ VALIDATE_PROMPTS: 'false', WORKER_BUILD_ID: 'build-b', WORKER_PROMOTE: 'never' }),
  };
  const a = await startWorker(env, { script: ptoScript, settings: first });
  const b = await startWorker(env, {
    script: ptoScript,
    settings: { ...second, taskQueue, versioning: { ...second.versioning!, deployment: taskQueue } },
  });
  try {
    const { handle } = await startConversation(env.client, taskQueue, { goalId: 'goal_hr_pto' }, 'replay-upgrade');
    const firstRun = (await handle.describe()).runId;
    await say(handle, 'balance for ada@example.com');
    await new Deployments(env.client, taskQueue).promote('build-b');
    await say(handle, 'balance for grace@example.com');
    await waitUntil(async () => (await handle.describe()).runId !== firstRun);
    await save('upgrade-on-new-build', handle, firstRun);
    await handle.terminate();
  } finally {
    await a.stop();
    await b.stop();
  }
}
