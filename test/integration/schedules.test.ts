// Scheduled agent runs on Temporal Schedules, against a real dev server and worker: a schedule every 2 seconds (its
// own spec, no test-only path) makes runs that each end with the agent's answer; paused it makes none, triggered it
// makes one now, deleted its runs stay readable. A run's tool call that needs approval follows the schedule's policy:
// `deny` tells the model and the run ends, `auto` books it for the tools it names, `ask` waits for the owner.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { AgentClient } from '../../client/agent-client';
import { Schedules } from '../../client/schedules';
import type { Transcript } from '../../core/conversation-types';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { waitUntil } from '../../testkit/wait-until';
import { week } from '../../testkit/days';
import { ptoScript } from '../fixtures/scripts';
import { runCli } from '../helpers/cli';

const ADA = 'ada@example.com';
/** A spec that never comes due within a test: runs are triggered. */
const YEARLY = '0 0 1 1 *';

describe('scheduled agent runs', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let schedules: Schedules;
  let agents: AgentClient;
  let cliEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    env = await startTemporal();
    const settings = testSettings({ VALIDATE_PROMPTS: 'false' });
    worker = await startWorker(env, { script: ptoScript, settings });
    schedules = new Schedules(env.client, settings.taskQueue);
    agents = new AgentClient(env.client, settings.taskQueue);
    cliEnv = { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: settings.taskQueue };
  });

  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  const result = (id: string) => env.client.workflow.getHandle(id).result() as Promise<Transcript>;
  /** The runs a schedule made, once there are `n`. */
  const runs = async (name: string, n: number) => {
    await waitUntil(async () => (await schedules.describe(name)).recentRuns.length >= n, 30_000);
    return (await schedules.describe(name)).recentRuns.map((r) => r.conversationId);
  };

  it('every 2 seconds: each run ends with the answer; paused, none; triggered, one now; deleted, its runs stay', async () => {
    const made = await schedules.create({
      name: 'balance',
      goalId: 'goal_hr_pto',
      prompt: `balance for ${ADA}`,
      every: '2s',
      owner: 'ops',
    });
    expect(made).toMatchObject({ name: 'balance', goalId: 'goal_hr_pto', paused: false });
    const [first, second] = await runs('balance', 2);
    for (const id of [first!, second!]) {
      expect(id).toMatch(/^sched-balance-/);
      const done = await result(id);
      expect(done.envelope).toMatchObject({ status: 'ok', summary: 'You have 104 hours of PTO left.' });
    }
    expect((await agents.feed(first!, 0)).owner).toBe('ops');

    await schedules.pause('balance', 'holidays');
    const paused = await schedules.describe('balance');
    expect(paused).toMatchObject({ paused: true, note: 'holidays' });
    const count = paused.recentRuns.length;
    await new Promise((r) => setTimeout(r, 4_500));
    expect((await schedules.describe('balance')).recentRuns.length).toBe(count);
    await schedules.trigger('balance');
    const all = await runs('balance', count + 1);

    await schedules.delete('balance');
    await expect(schedules.describe('balance')).rejects.toThrow(/No schedule balance/);
    expect((await result(all.at(-1)!)).envelope?.status).toBe('ok');
  }, 90_000);

  it('a tool that needs approval: deny tells the model, auto books what it names, ask waits for the owner', async () => {
    const booking = `book ${week(4)} to ${week(4, 1)} for ${ADA}`;
    const run = async (name: string, approvals: Parameters<Schedules['create']>[0]['approvals']) => {
      await schedules.create({ name, goalId: 'goal_hr_pto', prompt: booking, cron: YEARLY, approvals });
      await schedules.trigger(name);
      const [id] = await runs(name, 1);
      return id!;
    };

    const denied = await result(await run('deny-booking', 'deny'));
    expect(denied.envelope?.summary).toMatch(
      /^OK, I did not book it \(this run was started by the schedule "deny-booking" with nobody to approve BookPTO/,
    );

    const auto = await result(await run('auto-booking', { auto: ['BookPTO'] }));
    expect(auto.envelope?.summary).toMatch(/^Booked \S+ to \S+; \d+ hours left\.$/);

    const asked = await run('ask-booking', 'ask');
    await waitUntil(async () => (await agents.status(asked)).state === 'awaiting_approval');
    // The owner approves from the CLI, as for any conversation.
    expect((await runCli(['confirm', asked], cliEnv)).code).toBe(0);
    expect((await result(asked)).envelope?.summary).toMatch(/^Booked /);

    for (const name of ['deny-booking', 'auto-booking', 'ask-booking']) await schedules.delete(name);
  }, 90_000);

  it('the CLI: create, describe, trigger, list, pause, delete; bad input is said in one line', async () => {
    const cli = async (...args: string[]) => runCli(['schedule', ...args], cliEnv);
    const made = await cli(
      'create',
      'nightly',
      '--goal',
      'goal_hr_pto',
      '--every',
      '1h',
      '--prompt',
      `balance for ${ADA}`,
      '--json',
    );
    expect(made.code).toBe(0);
    expect(JSON.parse(made.out)).toMatchObject({ name: 'nightly', goalId: 'goal_hr_pto', paused: false });
    expect((await cli('trigger', 'nightly')).out).toBe('schedule nightly: a run starts now\n');
    const [id] = await runs('nightly', 1);
    expect((await result(id!)).envelope?.summary).toMatch(/^You have \d+ hours of PTO left\.$/);
    expect((await cli('describe', 'nightly')).out).toMatch(
      /^nightly: goal_hr_pto — "balance for ada@example.com"\n {2}next: \S+/,
    );
    expect((await cli('pause', 'nightly', '--note', 'quiet week')).code).toBe(0);
    expect((await cli('list')).out).toMatch(/nightly: goal_hr_pto .*\(paused: quiet week\)/);
    expect((await cli('delete', 'nightly')).out).toBe('schedule nightly deleted (its runs stay readable)\n');

    const auto = await cli(
      'create',
      'x',
      '--goal',
      'goal_hr_pto',
      '--every',
      '1h',
      '--prompt',
      'hi',
      '--approval',
      'auto',
    );
    expect(auto.code).not.toBe(0);
    expect(auto.err).toMatch(/--approval auto needs the tools it may run unasked/);
    const both = await cli('create', 'y', '--goal', 'goal_hr_pto', '--every', '1h', '--cron', YEARLY, '--prompt', 'hi');
    expect(both.err).toMatch(/--cron or --every \(one of them\)/);
    expect((await cli('describe', 'nope')).err).toMatch(/No schedule nope/);
  }, 60_000);
});
