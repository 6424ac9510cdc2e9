// Worker versioning on a real dev server with two worker processes of two builds: build 1 is this project, build 2 a
// copy whose workflow code starts every conversation with a timer build 1 does not have, with no patched() between
// them, so a build-1 conversation that reached build 2's code would fail to replay. Pinned conversations never do:
// one waiting for an approval finishes on build 1 after build 2 is promoted (and while build 1's workers were gone,
// `agent deploy status` said build 1 was still needed); a long one moves to build 2 at its next continue-as-new; a
// delegate of a build-1 parent runs on build 2; a 50 % ramp starts new conversations on both (a rollback ends it); a
// rollback sends new ones to build 1 again, and a build-2 conversation keeps running on build 2. A client
// asked for a conversation while only workers of builds that are not current poll says which to promote instead of
// waiting.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { AgentClient } from '../../client/agent-client';
import type { DeploymentStatus } from '../../client/deployments';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { copyProject } from '../../testkit/project-copy';
import { waitUntil } from '../../testkit/wait-until';
import { week } from '../../testkit/days';
import { delegationGoalsDir, delegationScript } from '../fixtures/delegation';
import { runCli } from '../helpers/cli';

const ADA = 'ada@example.com';

describe('worker versioning: two builds, pinned conversations, promote, ramp, roll back', () => {
  let env: TestWorkflowEnvironment;
  let agents: AgentClient;
  let build1: WorkerProcess;
  let build2: WorkerProcess;
  let settings: Record<string, string>;
  let copy: string;
  const taskQueue = `versioning-${process.pid}`;
  // Built in the first test, read by the later ones (they run in order).
  const open: Record<'approval' | 'long' | 'parent', string> = { approval: '', long: '', parent: '' };
  let onBuild2 = '';

  const cli = async (...args: string[]) => {
    const result = await runCli(['deploy', ...args, '--json'], {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: taskQueue,
    });
    if (result.code !== 0) throw new Error(`agent deploy ${args.join(' ')}: ${result.out}${result.err}`);
    return JSON.parse(result.out) as unknown;
  };
  const status = async () => (await cli('status')) as DeploymentStatus;
  const build = (status: DeploymentStatus, id: string) => status.builds.find((b) => b.buildId === id);
  /** The build a conversation's current run is pinned to. */
  const buildOf = async (id: string) =>
    (await agents.client.workflow.getHandle(id).describe()).raw.workflowExecutionInfo?.versioningInfo?.deploymentVersion
      ?.buildId;
  /** The builds that completed a run's workflow tasks, from its history. */
  const tasksRanOn = async (id: string, runId?: string) => {
    const history = await agents.client.workflow.getHandle(id, runId).fetchHistory();
    const ids = (history.events ?? []).map((e) => {
      const done = e.workflowTaskCompletedEventAttributes;
      // The field the server fills has moved between releases: the version, its string form, the older deployment.
      return (
        done?.deploymentVersion?.buildId ||
        done?.workerDeploymentVersion?.split(/[:.]/).pop() ||
        done?.deployment?.buildId
      );
    });
    return new Set(ids.filter((b): b is string => !!b));
  };
  const worker = (buildId: string, root?: string, extra: Record<string, string> = {}) =>
    startWorkerProcess(
      { ...settings, WORKER_BUILD_ID: buildId, DATA_DIR: mkdtempSync(path.join(tmpdir(), `${buildId}-`)), ...extra },
      60_000,
      root,
    );

  beforeAll(async () => {
    env = await startTemporal();
    const dir = mkdtempSync(path.join(tmpdir(), 'versioning-'));
    writeFileSync(path.join(dir, 'script.json'), JSON.stringify(delegationScript));
    writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: {} }));
    settings = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: taskQueue,
      GOALS_DIR: delegationGoalsDir(),
      AGENT_GOAL: 'goal_hr_pto',
      LLM_MODEL: `scripted:${path.join(dir, 'script.json')}`,
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: path.join(dir, 'mcp.json'),
    };
    // Build 2: a timer before everything else, in a copy of the code. Replaying a build-1 history, it would fail.
    copy = copyProject('build-2');
    const workflow = path.join(copy, 'workflows', 'agent-goal-workflow.ts');
    const code = readFileSync(workflow, 'utf8')
      .replace('  isCancellation,\n', '  isCancellation,\n  sleep,\n')
      .replace(
        '  const settings = await loadSettings();\n',
        '  const settings = await loadSettings();\n  await sleep(1);\n',
      );
    expect(code).toContain('await sleep(1);');
    writeFileSync(workflow, code);
    build1 = await worker('build-1');
    agents = await AgentClient.connect(taskQueue, { TEMPORAL_ADDRESS: env.address });
  }, 120_000);

  afterAll(async () => {
    await build1?.stop();
    await build2?.stop();
    await agents?.close();
    await env?.teardown();
  });

  it('the first worker makes its build current; a worker of a second build waits, saying how to promote it', async () => {
    expect(build1.output()).toMatch(/build build-1 of deployment versioning-\d+ \(made current\)/);
    const mon = week(4);
    open.approval = (await agents.start('goal_hr_pto')).id;
    expect((await agents.say(open.approval, `book ${mon} to ${mon} for ${ADA}`)).pendingToolCall?.tool).toBe('BookPTO');
    open.long = (await agents.start('goal_hr_pto')).id;
    expect((await agents.say(open.long, `PTO left for ${ADA}`)).reply).toBe('104 hours left.');
    open.parent = (await agents.start('goal_boss')).id;

    build2 = await worker('build-2', copy, { WORKER_PROMOTE: 'never' });
    expect(build2.output()).toMatch(
      /build build-2 of deployment versioning-\d+, not current \(new conversations start on build-1\).*deploy promote build-2/,
    );
    await waitUntil(async () => !!build(await status(), 'build-2'));
    const before = await status();
    expect(before.current).toBe('build-1');
    expect(build(before, 'build-1')).toMatchObject({ state: 'current', open: 3, canStop: false });
    expect(build(before, 'build-2')).toMatchObject({ open: 0, canStop: true });
    for (const id of Object.values(open)) expect(await buildOf(id)).toBe('build-1');
  }, 120_000);

  it('a client says so, instead of waiting, when the workers that poll are of no current build', async () => {
    const settings = testSettings({ WORKER_BUILD_ID: 'lonely', WORKER_PROMOTE: 'never' });
    const lonely = await startWorker(env, { script: delegationScript, settings });
    try {
      expect(lonely.build).toMatch(
        /^build lonely of deployment test-\d+-\d+, not current \(new conversations start on no build yet\)/,
      );
      const client = new AgentClient(env.client, settings.taskQueue);
      await expect(client.start('goal_hr_pto')).rejects.toThrow(
        /Workers of build lonely serve task queue "test-\d+-\d+", but no build of deployment test-\d+-\d+ is current, so a new conversation would wait: promote one \(npm run -s agent -- deploy promote lonely\)\.$/,
      );
    } finally {
      await lonely.stop();
    }
  });

  it('ramping build 2 at 50 %: new conversations start on both builds; a rollback ends the ramp', async () => {
    await cli('promote', 'build-2', '--ramp', '50');
    expect((await status()).ramping).toEqual({ buildId: 'build-2', percentage: 50 });
    const started = await Promise.all(Array.from({ length: 40 }, () => agents.start('goal_hr_pto')));
    const builds = await Promise.all(started.map(({ id }) => buildOf(id)));
    const on2 = builds.filter((b) => b === 'build-2').length;
    // Binomial(40, 0.5): fewer than 5 on either side has a chance of about 1 in 10^6.
    expect(on2).toBeGreaterThanOrEqual(5);
    expect(40 - on2).toBeGreaterThanOrEqual(5);
    expect(builds.every((b) => b === 'build-1' || b === 'build-2')).toBe(true);
    await Promise.all(started.map(({ id }) => agents.end(id)));
    // Rolled back during a ramp: the ramp ends, build 1 stays current.
    expect(await cli('rollback')).toMatchObject({ from: 'build-2', to: 'build-1' });
    expect(await status()).toMatchObject({ current: 'build-1' });
    expect((await status()).ramping).toBeUndefined();
  }, 120_000);

  it('promoted: new conversations start on build 2; one waiting for an approval stays on build 1, needed while it waits', async () => {
    await cli('promote', 'build-2');
    const promoted = await status();
    expect(promoted.current).toBe('build-2');
    expect(promoted.ramping).toBeUndefined();
    onBuild2 = (await agents.start('goal_hr_pto')).id;
    expect(await buildOf(onBuild2)).toBe('build-2');

    await build1.kill();
    const gone = build(await status(), 'build-1');
    expect(gone).toMatchObject({ canStop: false });
    expect(gone!.open).toBeGreaterThanOrEqual(1);
    expect(gone!.why).toMatch(/open conversations? run on it/);
    // The worker's desk follows the current build: it answers with build 1's workers gone.
    expect((await agents.agents()).agents.map((a) => a.goalId)).toContain('goal_boss');

    build1 = await worker('build-1');
    expect(build1.output()).toMatch(
      /build build-1 of deployment versioning-\d+, not current \(new conversations start on build-2\)/,
    );
    const waiting = (await agents.client.workflow.getHandle(open.approval).describe()).runId;
    expect((await agents.confirm(open.approval, { approve: true })).reply).toMatch(/^Booked; \d+ hours left\.$/);
    // Every task of the run that waited ran on build 1 (the next run, if it continued as new, is build 2's).
    expect(await tasksRanOn(open.approval, waiting)).toEqual(new Set(['build-1']));
    await agents.end(open.approval);
  }, 120_000);

  it('a build-1 conversation moves to build 2 at its next continue-as-new, its messages carried', async () => {
    const handle = agents.client.workflow.getHandle(open.long);
    const firstRun = (await handle.describe()).runId;
    // Answered on build 1 (the turn was asked for there); between turns, it continues as new onto build 2.
    expect((await agents.say(open.long, 'PTO left for grace@example.com')).reply).toMatch(/hours left\.$/);
    await waitUntil(
      async () => (await handle.describe()).runId !== firstRun && (await buildOf(open.long)) === 'build-2',
    );
    expect((await agents.say(open.long, `PTO left for ${ADA}`)).reply).toBe('104 hours left.');
    const texts = (await agents.history(open.long)).map((m) => ('text' in m ? m.text : ''));
    expect(texts.join('\n')).toContain('PTO left for grace@example.com');
    expect(await tasksRanOn(open.long)).toEqual(new Set(['build-2']));
    expect(await tasksRanOn(open.long, firstRun)).toEqual(new Set(['build-1']));
  }, 120_000);

  it('a delegate started by a build-1 parent after build 2 is promoted runs on build 2, and the parent gets its answer', async () => {
    expect((await agents.say(open.parent, `pto only ${ADA}`)).reply).toMatch(/^Boss: ok \| \d+ hours left\.$/);
    // The delegate inherited its parent's build 1 and, build 1 being no longer current, moved to build 2 before it
    // did anything: its first run is build 1's first tasks and a continue-as-new, its task ran on build 2.
    const started = (await agents.client.workflow.getHandle(open.parent).fetchHistory()).events?.find(
      (e) => e.childWorkflowExecutionStartedEventAttributes,
    )?.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
    const first = await agents.client.workflow.getHandle(started!.workflowId!, started!.runId!).fetchHistory();
    expect(first.events?.some((e) => e.workflowExecutionContinuedAsNewEventAttributes)).toBe(true);
    expect(first.events?.some((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'plan')).toBe(
      false,
    );
    expect(await tasksRanOn(started!.workflowId!, started!.runId!)).toEqual(new Set(['build-1']));
    expect(await tasksRanOn(started!.workflowId!)).toEqual(new Set(['build-2']));
  }, 120_000);

  it('rolled back: new conversations start on build 1 again; a build-2 conversation keeps running on build 2', async () => {
    expect(await cli('rollback')).toMatchObject({ from: 'build-2', to: 'build-1' });
    expect((await status()).current).toBe('build-1');
    const again = (await agents.start('goal_hr_pto')).id;
    expect(await buildOf(again)).toBe('build-1');
    // Build 1's code never reads state build 2 wrote: the build-2 conversation stays where it is, turn after turn,
    // having asked the deployment once which way the routing changed.
    const handle = agents.client.workflow.getHandle(onBuild2);
    const run = (await handle.describe()).runId;
    expect(build(await status(), 'build-2')).toMatchObject({ canStop: false });
    const asked = async () =>
      (await agents.client.workflow.getHandle(onBuild2, run).fetchHistory()).events?.filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'newerBuildRouted',
      ).length;
    // Between turns it asks, once Temporal tells a workflow task the routing changed (the rollback reaches the task
    // queue a moment after the command returns): a turn or two.
    for (let turns = 0; turns < 5 && (await asked()) === 0; turns++) {
      expect((await agents.say(onBuild2, `PTO left for ${ADA}`)).reply).toMatch(/^\d+ hours left\.$/);
      await waitUntil(async () => (await handle.describe()).raw.pendingWorkflowTask == null).catch(() => undefined);
    }
    expect(await asked()).toBe(1);
    expect((await agents.say(onBuild2, `PTO left for ${ADA}`)).reply).toMatch(/^\d+ hours left\.$/);
    expect((await handle.describe()).runId).toBe(run);
    expect(await buildOf(onBuild2)).toBe('build-2');
    expect(await tasksRanOn(onBuild2, run)).toEqual(new Set(['build-2']));
    expect(await asked()).toBe(1);

    // Once nothing runs on build 2, its workers may stop.
    await Promise.all([again, onBuild2, open.long, open.parent].map((id) => agents.end(id)));
    await waitUntil(async () => build(await status(), 'build-2')?.open === 0);
    expect(build(await status(), 'build-2')).toMatchObject({ canStop: true, why: 'no open conversation runs on it' });
  }, 120_000);
});
