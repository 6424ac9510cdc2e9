import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ConversationSummary } from '../../core/conversation-types';
import { runCli } from '../helpers/cli';
import { waitUntil } from '../helpers/conversation';
import { ptoScript } from '../fixtures/scripts';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';

describe('agent CLI against a real server and worker', () => {
  const mon = week(4);
  const tue = week(4, 1);
  const wed = week(4, 2);
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let cliEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    env = await startTemporal();
    const settings = testSettings({ VALIDATE_PROMPTS: 'false' });
    worker = await startWorker(env, { script: ptoScript, settings });
    cliEnv = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: settings.taskQueue,
      AGENT_GOAL: 'goal_hr_pto',
      PATH: process.env.PATH,
    };
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  const agent = (args: string[], input = '') => runCli(args, cliEnv, input);
  const list = async (...filters: string[]) =>
    JSON.parse((await agent(['list', ...filters, '--json'])).out) as ConversationSummary[];

  it('starts, says, confirms, shows history and status, and ends a conversation', async () => {
    const started = await agent(['start', '--id', 'cli-1', '--json']);
    expect(started.code).toBe(0);
    expect(JSON.parse(started.out)).toMatchObject({
      id: 'cli-1',
      goalId: 'goal_hr_pto',
      reply: { reply: expect.stringMatching(/work email/) },
    });

    const said = await agent(['say', 'cli-1', 'book', mon, 'to', mon, 'for', 'ada@example.com']);
    expect(said.out).toContain('agent wants to run BookPTO');
    expect(said.out).toContain(`"startDate":"${mon}"`);

    const confirmed = await agent(['confirm', 'cli-1', '--reject', 'not now']);
    expect(confirmed.out).toBe('agent> OK, I did not book it (not now).\n');

    const history = await agent(['history', 'cli-1']);
    expect(history.out).toContain('← BookPTO: {"status":"rejected","reason":"not now"}');

    const status = await agent(['status', 'cli-1', '--json']);
    expect(JSON.parse(status.out)).toMatchObject({ state: 'waiting_for_user', goal: 'goal_hr_pto' });
    // Tokens and their cost at the worker's prices (the scripted model's is nothing).
    expect((await agent(['status', 'cli-1'])).out).toMatch(/; [\d,]+ tokens, free over 1 run\(s\)\n$/);

    expect((await agent(['end', 'cli-1'])).out).toBe('conversation cli-1 ended\n');
    const again = await agent(['end', 'cli-1']);
    expect(again).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^error: Conversation cli-1 has already ended/),
    });
  });

  it('chats interactively: approve with edited args, then /end', async () => {
    const input = [
      `book ${mon} to ${tue} for ada@example.com`,
      'e',
      `{"email":"ada@example.com","startDate":"${wed}","endDate":"${wed}"}`,
      '/end',
      '',
    ].join('\n');
    const { code, out } = await agent(['chat', 'cli-chat'], input);
    expect(code).toBe(0);
    expect(out).toContain('agent wants to run BookPTO');
    expect(out).toMatch(new RegExp(`agent> Booked ${wed} to ${wed}; \\d+ hours left\\.`));
    expect(out).toContain('(conversation ended)');
  });

  it('lists agents', async () => {
    const { code, out } = await agent(['agents', '--json']);
    expect(code).toBe(0);
    const ids = JSON.parse(out).map((a: { goalId: string }) => a.goalId);
    expect(ids).toEqual(
      expect.arrayContaining(['goal_currency_desk', 'goal_general', 'goal_hr_pto', 'goal_order_status']),
    );
    expect(ids).not.toContain('goal_choose_agent');
  });

  it('lists the goals folder’s files as goal-files, and still under goals, its old name', async () => {
    const files = await agent(['goal-files', '--json']);
    expect(files.code).toBe(0);
    expect(JSON.parse(files.out)).toContainEqual(
      expect.objectContaining({ goalId: 'goal_travel_money', file: expect.stringMatching(/goal_travel_money\.json$/) }),
    );
    expect(await agent(['goals', '--json'])).toEqual(files);
    expect((await agent(['goal-files', 'frob', 'x'])).err).toBe(
      'error: usage: agent goal-files [disable|enable|remove <goalId>]\n',
    );
    expect((await agent(['goals', 'frob'])).err).toBe('error: usage: agent goals [disable|enable|remove <goalId>]\n');
  });

  it('asks the worker through one describe workflow per queue, leaving no row per question in the workflow list', async () => {
    for (const args of [
      ['agents'],
      ['endpoints'],
      ['tools'],
      ['tools', '--goal', 'goal_hr_pto'],
      ['agents', '--json'],
    ]) {
      expect((await agent(args)).code).toBe(0);
    }
    const rows = async () => {
      const found = [];
      for await (const w of env.client.workflow.list({
        query: `TaskQueue = '${cliEnv.TASK_QUEUE}' AND WorkflowType != 'AgentGoalWorkflow'`,
      }))
        found.push(w);
      return found;
    };
    await waitUntil(async () => (await rows()).length > 0);
    // Visibility lags the server by a moment: give any other row time to show before counting.
    await new Promise((r) => setTimeout(r, 2_000));
    const listed = await rows();
    expect(listed.map((w) => [w.workflowId, w.type, w.status.name])).toEqual([
      [`describe-${cliEnv.TASK_QUEUE}`, 'DescribeWorkflow', 'RUNNING'],
    ]);
    expect(await list()).not.toContainEqual(expect.objectContaining({ id: `describe-${cliEnv.TASK_QUEUE}` }));
  });

  it('fails with one line and a non-zero exit on bad input', async () => {
    const cases: [string[], RegExp][] = [
      [['say', 'no-such-conversation', 'hi'], /^error: No conversation with id no-such-conversation\.\n$/],
      [['start', '--goal', 'goal_nope'], /^error: Unknown goal "goal_nope"\. Known goals: /],
      [['tools', '--goal', 'goal_nope'], /^error: Unknown goal "goal_nope"\. Known goals: /],
      [['confirm', 'cli-1', '--args', '{oops'], /^error: --args is not valid JSON/],
      [['frobnicate'], /^error: unknown command "frobnicate"/],
      [['say'], /^error: say needs a conversation id/],
      [['start', '--colour'], /^error: Unknown option '--colour'/],
    ];
    for (const [args, pattern] of cases) {
      const { code, err } = await agent(args);
      expect(code).toBe(1);
      expect(err).toMatch(pattern);
      expect(err.trim().split('\n')).toHaveLength(1);
    }
  });

  it('says at once, in one line, when no worker serves the queue, and starts nothing', async () => {
    const saved = cliEnv;
    cliEnv = { ...cliEnv, TASK_QUEUE: 'nobody-serves-this' };
    try {
      const began = Date.now();
      const { code, err } = await agent(['start', '--id', 'cli-no-worker']);
      expect(code).toBe(1);
      expect(err).toMatch(
        /^error: No worker is serving task queue "nobody-serves-this": start one \(npm run worker, or npm start\)/,
      );
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(Date.now() - began).toBeLessThan(15_000);
      await expect(env.client.workflow.getHandle('cli-no-worker').describe()).rejects.toThrow(/not found/i);
    } finally {
      cliEnv = saved;
    }
  });

  it('reports an unreachable server clearly', async () => {
    const saved = cliEnv;
    cliEnv = { ...cliEnv, TEMPORAL_ADDRESS: '127.0.0.1:1' };
    try {
      const { code, err } = await agent(['history', 'x']);
      expect(code).toBe(1);
      expect(err).toMatch(/^error: Cannot reach Temporal at 127\.0\.0\.1:1/);
    } finally {
      cliEnv = saved;
    }
  });

  it('lists conversations by goal, state and owner, titled by their first prompt', async () => {
    const owner = `alice-${Date.now()}`;
    expect((await agent(['start', '--id', `${owner}-1`, '--owner', owner, '--json'])).code).toBe(0);
    await agent(['say', `${owner}-1`, `book ${mon} to ${tue} for ada@example.com`]);
    expect((await agent(['start', '--id', `${owner}-2`, '--owner', owner])).code).toBe(0);
    await agent(['say', `${owner}-2`, 'What is my balance for ada@example.com?']);
    await agent(['end', `${owner}-2`]);

    await waitUntil(
      async () =>
        (await list('--owner', owner)).length === 2 && (await list('--owner', owner, '--state', 'ended')).length === 1,
    );
    const [awaiting] = await list('--owner', owner, '--state', 'awaiting_approval');
    expect(awaiting).toMatchObject({
      id: `${owner}-1`,
      goal: 'goal_hr_pto',
      state: 'awaiting_approval',
      owner,
      title: `book ${mon} to ${tue} for ada@example.com`,
    });
    expect((await list('--owner', owner, '--state', 'ended')).map((c) => c.id)).toEqual([`${owner}-2`]);
    expect(await list('--owner', owner, '--goal', 'goal_choose_agent')).toEqual([]);
    const human = await agent(['list', '--owner', owner]);
    expect(human.out).toMatch(new RegExp(`^${owner}-1  awaiting approval  goal_hr_pto  .*"book ${mon}`, 'm'));

    // Bad filters are refused before any query is sent.
    expect(JSON.parse((await agent(['list', '--state', 'sleeping', '--json'])).out)).toEqual({
      error: expect.stringMatching(/--state must be one of/),
    });
    expect(JSON.parse((await agent(['list', '--goal', "x' OR 1=1", '--json'])).out)).toEqual({
      error: expect.stringMatching(/--goal may hold/),
    });
  });

  it('reuses an id once its conversation has ended', async () => {
    const id = `reuse-${Date.now()}`;
    expect((await agent(['start', '--id', id])).code).toBe(0);
    expect((await agent(['start', '--id', id])).err).toMatch(/already running/);
    await agent(['end', id]);
    const again = await agent(['start', '--id', id, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ id });
  });

  it('prunes conversations that ended longer ago than asked, never a running one; --dry-run only lists', async () => {
    const ended = `prune-ended-${Date.now()}`;
    const running = `prune-running-${Date.now()}`;
    await agent(['start', '--id', ended]);
    await agent(['start', '--id', running]);
    await agent(['end', ended]);
    const prune = async (...args: string[]) =>
      JSON.parse((await agent(['prune', ...args, '--json'])).out) as { pruned: { id: string }[] };
    const ids = (r: { pruned: { id: string }[] }) => r.pruned.map((p) => p.id);
    // Visibility catches up with the close in a moment.
    await waitUntil(async () => ids(await prune('--older-than', '0s', '--dry-run')).includes(ended));
    expect(ids(await prune('--older-than', '1h'))).not.toContain(ended);
    const dry = await prune('--older-than', '0s', '--dry-run');
    expect(ids(dry)).not.toContain(running);
    expect((await agent(['history', ended])).code).toBe(0); // a dry run deleted nothing
    expect(ids(await prune('--older-than', '0s'))).toContain(ended);
    // The server deletes in the background.
    await waitUntil(async () => (await agent(['history', ended])).code === 1, 90_000);
    expect(await agent(['history', ended])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/No conversation with id/),
    });
    expect((await agent(['status', running])).code).toBe(0);
    expect((await agent(['prune', '--older-than', 'soon'])).err).toMatch(/--older-than must be a duration such as 90s/);
    await agent(['end', running]);
    // The dev server's deletion runs in the background: 5–30 s here.
  }, 150_000);

  it('answers --json with JSON on stdout for errors too, exit code 1', async () => {
    const missing = await agent(['say', 'no-such-conversation', 'hi', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.out)).toEqual({ error: 'No conversation with id no-such-conversation.' });
    const unknown = await agent(['frobnicate', '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.out)).toEqual({ error: expect.stringMatching(/unknown command "frobnicate"/) });
  });
});
