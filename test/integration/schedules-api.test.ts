// Schedules through the HTTP API, and Temporal's own policies under a slow model, against a real dev server and
// workers: a key creates, reads (with its runs' outcomes), pauses, triggers, backfills and deletes its schedules and
// never sees another owner's; `skip` overlap with a model slower than the interval never runs two at once; a backfill
// over a past window makes the runs that window was due.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { loadScript } from '../../activities/llm/scripted-model';
import { ApiKeys } from '../../api/auth';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { Schedules } from '../../client/schedules';
import { unattendedRuns } from '../../client/unattended-runs';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { recording } from '../../testkit/recording-model';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { waitUntil } from '../../testkit/wait-until';
import { ptoScript } from '../fixtures/scripts';
import { runCli } from '../helpers/cli';

const DEMO_SCRIPT = path.join(__dirname, '..', '..', 'config', 'scripted-model.json');

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef0';
const ADMIN = 'admin-key-0123456789abcdef';
const PROMPT = 'balance for ada@example.com';

describe('schedules through the API, and their policies', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  let schedules: Schedules;

  beforeAll(async () => {
    env = await startTemporal();
    bus = createStreamBus();
    const settings = testSettings({ VALIDATE_PROMPTS: 'false' });
    worker = await startWorker(env, { script: ptoScript, settings });
    schedules = new Schedules(env.client, settings.taskQueue);
    api = await startApi({
      agents: new AgentClient(env.client, settings.taskQueue),
      bus,
      defaultGoal: 'goal_hr_pto',
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: new ApiKeys([`alice=${ALICE}`, `bob=${BOB}`], [ADMIN]),
        bodyLimitBytes: 64 * 1024,
        corsOrigins: [],
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
  });

  const call = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields it expects
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it("a key's schedules: create, read with outcomes, pause, trigger, backfill refusals, delete; another key sees none", async () => {
    const made = await call(ALICE, 'POST', '/api/schedules', {
      name: 'alice-balance',
      goalId: 'goal_hr_pto',
      prompt: PROMPT,
      cron: '0 0 1 1 *',
      approvals: { auto: ['BookPTO'] },
    });
    expect(made).toMatchObject({
      status: 201,
      body: { name: 'alice-balance', owner: 'alice', approvals: { auto: ['BookPTO'] }, paused: false },
    });
    expect((await call(BOB, 'GET', '/api/schedules/alice-balance')).status).toBe(404);
    expect((await call(BOB, 'POST', '/api/schedules/alice-balance/trigger')).status).toBe(404);
    expect((await call(BOB, 'GET', '/api/schedules')).body).toEqual({ schedules: [] });
    expect((await call(ADMIN, 'GET', '/api/schedules')).body.schedules.map((s: { name: string }) => s.name)).toEqual([
      'alice-balance',
    ]);
    expect(
      await call(BOB, 'POST', '/api/schedules', {
        name: 'x',
        goalId: 'goal_hr_pto',
        prompt: 'hi',
        every: '1h',
        owner: 'alice',
      }),
    ).toEqual({ status: 400, body: { error: 'owner: only an admin key names the owner' } });
    expect(
      (
        await call(ALICE, 'POST', '/api/schedules', {
          name: 'bad name!',
          goalId: 'goal_hr_pto',
          prompt: 'hi',
          every: '1h',
        })
      ).body.error,
    ).toMatch(/letters, digits, - or _/);

    expect((await call(ALICE, 'POST', '/api/schedules/alice-balance/trigger')).status).toBe(202);
    await waitUntil(async () => (await schedules.runs('alice-balance')).some((r) => r.state === 'completed'), 30_000);
    const read = await call(ALICE, 'GET', '/api/schedules/alice-balance');
    expect(read.body.runs).toEqual([
      expect.objectContaining({
        source: 'schedule',
        name: 'alice-balance',
        state: 'completed',
        status: 'ok',
        summary: 'You have 104 hours of PTO left.',
      }),
    ]);
    expect(read.body.runs[0].conversationId).toMatch(/^sched-alice-balance-\d{4}-/);

    const paused = await call(ALICE, 'POST', '/api/schedules/alice-balance/pause', { note: 'quiet week' });
    expect(paused.body).toMatchObject({ paused: true, note: 'quiet week' });
    expect((await call(ALICE, 'POST', '/api/schedules/alice-balance/unpause', {})).body.paused).toBe(false);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(
      await call(ALICE, 'POST', '/api/schedules/alice-balance/backfill', { from: later, to: new Date().toISOString() }),
    ).toEqual({ status: 400, body: { error: 'backfill: --from must be before --to' } });
    expect(
      (await call(ALICE, 'POST', '/api/schedules/alice-balance/backfill', { from: 'soon', to: later })).status,
    ).toBe(400);
    expect((await call(ALICE, 'DELETE', '/api/schedules/alice-balance')).body).toEqual({
      name: 'alice-balance',
      deleted: true,
    });
    expect((await call(ALICE, 'GET', '/api/schedules/alice-balance')).status).toBe(404);
    expect((await unattendedRuns(env.client, 'schedule', { name: 'alice-balance' }))[0]?.status).toBe('ok');

    // The name taken again by another owner: none of alice's runs are bob's.
    const again = { name: 'alice-balance', goalId: 'goal_hr_pto', prompt: PROMPT, cron: '0 0 1 1 *' };
    expect((await call(BOB, 'POST', '/api/schedules', again)).status).toBe(201);
    expect((await call(BOB, 'GET', '/api/schedules/alice-balance')).body.runs).toEqual([]);
    expect((await call(BOB, 'DELETE', '/api/schedules/alice-balance')).status).toBe(200);
  }, 60_000);

  it('refused: a notify URL from a key that is not an admin, a goal no worker offers', async () => {
    const base = { goalId: 'goal_hr_pto', prompt: PROMPT, every: '1h' };
    const notify = 'http://169.254.169.254/latest';
    expect(await call(ALICE, 'POST', '/api/schedules', { ...base, name: 'n1', notify })).toEqual({
      status: 400,
      body: { error: 'notify: only an admin key sets where outcomes go' },
    });
    expect(await call(ALICE, 'POST', '/api/schedules', { ...base, name: 'n2', goalId: 'goal_nobody' })).toMatchObject({
      status: 400,
      body: { field: 'goalId', error: expect.stringMatching(/goal_nobody/) },
    });
    expect((await call(ADMIN, 'GET', '/api/schedules')).body.schedules).toEqual([]);
  }, 30_000);

  it('a backfill over a past window makes the runs it was due, even paused', async () => {
    await schedules.create({ name: 'minutely', goalId: 'goal_hr_pto', prompt: PROMPT, cron: '* * * * *' });
    await schedules.pause('minutely', 'backfill only');
    // Four minute marks lie in this window, whatever the time now.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    await schedules.backfill('minutely', new Date(minute - 4 * 60_000 - 30_000), new Date(minute - 30_000));
    await waitUntil(
      async () => (await schedules.runs('minutely')).filter((r) => r.status === 'ok').length >= 4,
      30_000,
    );
    const runs = await schedules.runs('minutely');
    expect(runs.map((r) => r.conversationId).sort()).toEqual(
      [4, 3, 2, 1].map((m) => `sched-minutely-${new Date(minute - m * 60_000).toISOString().replace('.000Z', 'Z')}`),
    );
    await schedules.delete('minutely');
  }, 60_000);

  it("docs/schedules.md's morning summary, as its commands say, on the offline demo model", async () => {
    const doc = readFileSync(path.join(__dirname, '..', '..', 'docs', 'schedules.md'), 'utf8');
    const commands = [
      ...doc.matchAll(
        /^npm run -s agent -- (schedule (?:create|trigger|describe) morning-orders[^#\n]*?(?:\\\n[^#\n]*?)*)\s*(?:#.*)?$/gm,
      ),
    ]
      .map((m) => m[1]!.replace(/\\\n\s*/g, ''))
      .slice(0, 3);
    expect(commands.map((c) => c.split(' ')[1])).toEqual(['create', 'trigger', 'describe']);
    const posts: { key: unknown; body: Record<string, unknown> }[] = [];
    const receiver = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        posts.push({ key: req.headers['idempotency-key'], body: JSON.parse(text) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const notify = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/agent-runs`;
    const settings = testSettings({ AGENT_GOAL: 'goal_choose_agent', VALIDATE_PROMPTS: 'false' });
    const demo = await startWorker(env, { script: loadScript(DEMO_SCRIPT), settings });
    const cliEnv = { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: settings.taskQueue };
    const words = (c: string) => [...c.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    try {
      for (const command of commands.slice(0, 2)) {
        const ran = await runCli(words(command.replace('http://127.0.0.1:9000/agent-runs', notify)), cliEnv);
        expect({ command, code: ran.code, err: ran.err }).toEqual({ command, code: 0, err: '' });
      }
      const demoSchedules = new Schedules(env.client, settings.taskQueue);
      await waitUntil(async () => (await demoSchedules.runs('morning-orders')).some((r) => r.delivered), 30_000);
      const described = await runCli(words(commands[2]!), cliEnv);
      const shown = doc.match(/```text\n(morning-orders:[^]*?)```/)![1]!.split('\n');
      const lines = described.out.split('\n');
      expect(lines[0]).toBe(shown[0]);
      expect(lines[3]).toMatch(/^ {2}run sched-morning-orders-\S+: completed ok "Your orders, newest first: /);
      const [run] = await demoSchedules.runs('morning-orders');
      expect(posts).toEqual([
        { key: expect.stringMatching(`^${run!.conversationId}/`), body: expect.objectContaining({ status: 'ok' }) },
      ]);
      const documented = JSON.parse(doc.match(/```json\n(\{\n {2}"run"[^]*?)```/)![1]!);
      expect(Object.keys(posts[0]!.body)).toEqual(Object.keys(documented));
      expect(posts[0]!.body.summary).toBe(documented.summary);
      await demoSchedules.delete('morning-orders');
    } finally {
      receiver.close();
      await demo.stop();
    }
  }, 60_000);

  it('skip overlap with a model slower than the interval: never two runs at once', async () => {
    const slow = recording(ptoScript);
    slow.model.latencyMs = 1_500;
    const settings = testSettings({ VALIDATE_PROMPTS: 'false' });
    const slowWorker = await startWorker(env, { model: slow, settings });
    const slowSchedules = new Schedules(env.client, settings.taskQueue);
    try {
      await slowSchedules.create({ name: 'slow', goalId: 'goal_hr_pto', prompt: PROMPT, every: '1s', overlap: 'skip' });
      await waitUntil(
        async () => (await slowSchedules.runs('slow')).filter((r) => r.status === 'ok').length >= 2,
        40_000,
      );
      await slowSchedules.pause('slow');
      const described = await env.client.schedule.getHandle('agent-schedule-slow').describe();
      expect(described.info.numActionsSkippedOverlap).toBeGreaterThan(0);
      const spans = await Promise.all(
        (await slowSchedules.runs('slow')).map(async (r) => {
          const d = await env.client.workflow.getHandle(r.conversationId).describe();
          return { start: d.startTime.getTime(), close: d.closeTime?.getTime() ?? Infinity };
        }),
      );
      spans.sort((a, b) => a.start - b.start);
      for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.close);
      // Each run made its two model calls (the balance, then the answer), each slow: 3 s a run at least.
      expect(slow.model.calledAt.length).toBeGreaterThanOrEqual(4);
      await slowSchedules.delete('slow');
    } finally {
      await slowWorker.stop();
    }
  }, 60_000);
});
