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
import { delegationGoalsDir, delegationScript } from './fixtures/delegation';
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

/**
 * Moving builds forward only (PATCHES.buildMovesForward), with two versioned workers of the same code: build A is
 * current; a conversation and a boss agent start there; B is made current. The boss's delegate inherits A and moves
 * to B before it does anything (its first run); the conversation's next turn is answered on A, then it asks the
 * deployment, which routes to a newer build, and continues as new onto B (its first run); A is made current again (a
 * rollback), and on B the conversation asks once, stays, and answers two turns there (its second run).
 */
export async function recordBuildMovesForward(
  env: TestWorkflowEnvironment,
  save: Save,
  wanted: (name: string) => boolean,
): Promise<void> {
  const names = ['delegate-moves-to-current-build', 'build-moves-forward', 'build-stays-after-rollback'];
  if (!names.some(wanted)) return;
  const common = { VALIDATE_PROMPTS: 'false', GOALS_DIR: delegationGoalsDir(), AGENT_GOAL: 'goal_boss' };
  const first = testSettings({ ...common, WORKER_BUILD_ID: 'build-a' });
  const { taskQueue } = first;
  const second = testSettings({ ...common, WORKER_BUILD_ID: 'build-b', WORKER_PROMOTE: 'never' });
  const a = await startWorker(env, { script: delegationScript, settings: first });
  const b = await startWorker(env, {
    script: delegationScript,
    settings: { ...second, taskQueue, versioning: { ...second.versioning!, deployment: taskQueue } },
  });
  const deployments = new Deployments(env.client, taskQueue);
  try {
    const { handle } = await startConversation(env.client, taskQueue, { goalId: 'goal_hr_pto' }, 'replay-forward');
    const boss = (await startConversation(env.client, taskQueue, { goalId: 'goal_boss' }, 'replay-forward-boss'))
      .handle;
    const firstRun = (await handle.describe()).runId;
    await say(handle, 'PTO left for ada@example.com');
    await deployments.promote('build-b');

    await say(boss, 'pto only ada@example.com');
    const child = (await boss.fetchHistory()).events?.find((e) => e.childWorkflowExecutionStartedEventAttributes)
      ?.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
    await save('delegate-moves-to-current-build', env.client.workflow.getHandle(child!.workflowId!), child!.runId!);

    await say(handle, 'PTO left for grace@example.com');
    await waitUntil(async () => (await handle.describe()).runId !== firstRun);
    await save('build-moves-forward', handle, firstRun);

    await deployments.promote('build-a');
    await say(handle, 'PTO left for ada@example.com');
    await say(handle, 'PTO left for grace@example.com');
    await save('build-stays-after-rollback', handle);
    await Promise.all([handle.terminate(), boss.terminate()]);
  } finally {
    await a.stop();
    await b.stop();
  }
}
