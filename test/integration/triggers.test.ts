// Signed webhooks start agent runs, against a real dev server, worker and API over HTTP: a GitHub-style and a
// Stripe-style delivery each start one run that ends with the agent's answer, the body kept whole as the run's
// attachment (not in its prompt); the same delivery three times and twice at once starts one run; a bad signature, an
// old timestamp, a body over the limit, a body that is not JSON, an unknown trigger and a missing secret each get
// their status and no run; the registry file is read live; an outcome goes to a `notify` URL that fails twice, once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createHash } from 'node:crypto';
import { ApiKeys } from '../../api/auth';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { unattendedRuns } from '../../client/unattended-runs';
import type { Transcript } from '../../core/conversation-types';
import type { ChatMessage } from '../../core/types';
import { openBlobStore, readBlobSettings } from '../../blobs';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { ptoScript } from '../fixtures/scripts';
import { sendDelivery, startTriggerApi } from '../../testkit/trigger-api';

const SECRET = 'whsec-test-0123456789';
const OPS_KEY = 'ops-key-0123456789abcdef';
const ADA = 'ada@example.com';

describe('webhook triggers', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  let agents: AgentClient;
  let registry: string;
  let seq = 0;

  const entry = (signature: 'github' | 'stripe', extra: object = {}) => ({
    goal: 'goal_hr_pto',
    prompt: `balance for ${ADA} ({{event}}, delivery {{delivery}}); the event is attached`,
    signature,
    secret: '${env:TRIGGERS_TEST_SECRET}',
    owner: 'ops',
    ...extra,
  });
  const writeRegistry = (triggers: Record<string, object>) =>
    writeFileSync(registry, JSON.stringify({ triggers }, null, 2));

  beforeAll(async () => {
    process.env.TRIGGERS_TEST_SECRET = SECRET;
    const dir = mkdtempSync(path.join(tmpdir(), 'triggers-'));
    registry = path.join(dir, 'triggers.json');
    writeRegistry({
      orders: entry('github'),
      payments: entry('stripe'),
      unset: { ...entry('github'), secret: '${env:TRIGGERS_TEST_UNSET}' },
    });
    env = await startTemporal();
    bus = createStreamBus();
    const blobDir = path.join(dir, 'blobs');
    const settings = testSettings({ VALIDATE_PROMPTS: 'false', BLOB_DIR: blobDir });
    worker = await startWorker(env, { script: ptoScript, settings, streamBus: bus });
    const files = openBlobStore(readBlobSettings({ BLOB_DIR: blobDir }, blobDir));
    agents = new AgentClient(env.client, settings.taskQueue, { files });
    api = await startTriggerApi(agents, bus, { file: registry, maxBytes: 8 * 1024 });
  });
  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
  });

  /** A delivery as GitHub or Stripe sends it: signed now unless `at` says when. */
  const deliver = async (
    name: string,
    style: 'github' | 'stripe',
    event: object,
    opts: { id?: string; at?: number; secret?: string; raw?: string } = {},
  ) => {
    const headers: Record<string, string> =
      style === 'github' ? { 'x-github-delivery': opts.id ?? `d-${++seq}`, 'x-github-event': 'order' } : {};
    return sendDelivery(api.url, name, style, opts.secret ?? SECRET, opts.raw ?? JSON.stringify(event), {
      headers,
      ...(opts.at ? { at: opts.at } : {}),
    });
  };
  const result = (id: string) => env.client.workflow.getHandle(id).result() as Promise<Transcript>;

  /** A GitHub delivery's run: GitHub signs only the body, so its hash names the run. */
  const githubRun = (name: string, event: object) =>
    `trig-${name}.sha256-${createHash('sha256').update(JSON.stringify(event)).digest('hex').slice(0, 40)}`;
  /** Whether a workflow of that id was ever started (asked of Temporal directly, not of its lagging list). */
  const started = async (id: string) =>
    env.client.workflow
      .getHandle(id)
      .describe()
      .then(
        () => true,
        (err: Error) => (err.name === 'WorkflowNotFoundError' ? false : Promise.reject(err)),
      );

  it('a GitHub-style delivery starts one run: the answer, the body attached whole, not pasted in', async () => {
    const event = { action: 'shipped', order: { id: 'A-1', note: 'secret-marker-7' } };
    const id = githubRun('orders', event);
    const sent = await deliver('orders', 'github', event, { id: 'gh-1' });
    expect(sent).toEqual({
      status: 202,
      body: { conversationId: id, trigger: 'orders', deliveryId: 'gh-1', started: true },
    });
    const done = await result(id);
    expect(done.envelope).toMatchObject({ status: 'ok', summary: 'You have 104 hours of PTO left.' });
    const first = done.messages.find((m) => m.kind === 'user') as Extract<ChatMessage, { kind: 'user' }>;
    expect(first.text).toBe('balance for ada@example.com (order, delivery gh-1); the event is attached');
    // The model sees the body as an attachment (its preview, ReadFile for the rest), never as the prompt's words.
    expect(first.attachments).toEqual([
      expect.objectContaining({ name: 'orders-gh-1.json', type: 'application/json' }),
    ]);
    const stored = await agents.files.get(first.attachments![0]!.id);
    expect(JSON.parse(Buffer.from(stored).toString('utf8'))).toEqual(event);
    expect((await agents.feed(id, 0)).owner).toBe('ops');
  }, 60_000);

  it('the same delivery three times, twice at once, or replayed under a new delivery id, starts one run', async () => {
    const event = { order: { id: 'A-2' } };
    const id = githubRun('orders', event);
    const answers = [await deliver('orders', 'github', event, { id: 'gh-again' })];
    // The first run has ended before the copies come: its id is still not reused.
    await result(id);
    for (let i = 0; i < 2; i++) answers.push(await deliver('orders', 'github', event, { id: 'gh-again' }));
    // A captured body resent under another delivery id (GitHub does not sign that header) is the same delivery.
    answers.push(await deliver('orders', 'github', event, { id: 'forged-new-id' }));
    expect(answers.map((a) => [a.status, a.body.conversationId, a.body.duplicate ?? false])).toEqual([
      [202, id, false],
      [200, id, true],
      [200, id, true],
      [200, id, true],
    ]);
    const parallel = { order: { id: 'A-3' } };
    const twice = await Promise.all([1, 2].map(() => deliver('orders', 'github', parallel, { id: 'gh-parallel' })));
    expect(twice.map((a) => a.status).sort()).toEqual([200, 202]);
    await result(githubRun('orders', parallel));
    const executions = async (wid: string) => {
      let n = 0;
      for await (const _ of env.client.workflow.list({ query: `WorkflowId = '${wid}'` })) n++;
      return n;
    };
    expect([await executions(id), await executions(githubRun('orders', parallel))]).toEqual([1, 1]);
  }, 60_000);

  it('a Stripe-style delivery: the event id names the run; an old timestamp is refused', async () => {
    const event = { id: 'evt_1', type: 'invoice.payment_failed', data: { object: { customer: 'cus_1' } } };
    expect((await deliver('payments', 'stripe', event)).body).toMatchObject({ conversationId: 'trig-payments.evt_1' });
    expect((await result('trig-payments.evt_1')).envelope?.status).toBe('ok');
    const stale = await deliver('payments', 'stripe', { ...event, id: 'evt_2' }, { at: Date.now() - 6 * 60_000 });
    expect(stale).toEqual({
      status: 401,
      body: { error: expect.stringMatching(/^The signed timestamp is 3\d\d s from now; at most 300 s/) },
    });
    expect(await started('trig-payments.evt_2')).toBe(false);
  }, 60_000);

  it('refusals: each its status and words, and no run', async () => {
    const forged = { a: 1 };
    expect(await deliver('orders', 'github', forged, { secret: 'not-the-secret' })).toEqual({
      status: 401,
      body: { error: 'The signature does not match.' },
    });
    const big = { pad: 'x'.repeat(9_000) };
    expect(await deliver('orders', 'github', big)).toEqual({
      status: 413,
      body: { error: 'The delivery is over 8192 bytes (TRIGGER_BODY_LIMIT).' },
    });
    // The same, streamed without a length: cut off at the limit, not read whole.
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 16; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
        controller.close();
      },
    });
    const streamed = await fetch(`${api.url}/api/triggers/orders`, {
      method: 'POST',
      headers: { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}`, 'x-github-delivery': 'chunked' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await deliver('orders', 'github', {}, { raw: 'not json' })).toEqual({
      status: 400,
      body: { error: 'The delivery is not JSON.' },
    });
    expect(await deliver('nobody', 'github', {})).toEqual({ status: 404, body: { error: 'No trigger nobody.' } });
    expect(await deliver('unset', 'github', {})).toEqual({
      status: 503,
      body: { error: 'Trigger unset is not set up on this API (its secret is missing).' },
    });
    const unsigned = await fetch(`${api.url}/api/triggers/orders`, { method: 'POST', body: '{}' });
    expect([unsigned.status, await unsigned.json()]).toEqual([
      401,
      { error: 'The delivery is not signed (x-hub-signature-256).' },
    ]);
    for (const [name, event] of [
      ['orders', forged],
      ['orders', big],
      ['orders', {}],
      ['unset', {}],
    ] as const)
      expect(await started(githubRun(name, event))).toBe(false);
  }, 30_000);

  it('with API keys: a delivery needs none and may be larger than API_BODY_LIMIT; every other route still does', async () => {
    const keyed = await startApi({
      agents,
      bus,
      defaultGoal: 'goal_hr_pto',
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: new ApiKeys([`ops=${OPS_KEY}`], []),
        bodyLimitBytes: 4 * 1024,
        corsOrigins: [],
        triggers: { file: registry, maxBytes: 8 * 1024 },
      },
    });
    try {
      const event = { order: { id: 'A-4', pad: 'y'.repeat(5_000) } };
      const raw = JSON.stringify(event);
      const sent = await sendDelivery(keyed.url, 'orders', 'github', SECRET, raw, {
        headers: { 'x-github-delivery': 'keyed-1' },
      });
      expect(sent).toMatchObject({ status: 202, body: { conversationId: githubRun('orders', event) } });
      for (const [method, route] of [
        ['GET', '/api/triggers'],
        ['POST', '/api/triggers/orders/x'],
        ['GET', '/api/triggers/orders'],
        ['POST', '/api/conversations'],
        ['GET', '/api/schedules'],
      ])
        expect([method, route, (await fetch(`${keyed.url}${route}`, { method })).status]).toEqual([method, route, 401]);
      const listed = await fetch(`${keyed.url}/api/triggers`, { headers: { authorization: `Bearer ${OPS_KEY}` } });
      expect(listed.status).toBe(200);
      // The ids of triggered runs are theirs alone: no conversation a person starts may take one.
      const taken = await fetch(`${keyed.url}/api/conversations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${OPS_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ goalId: 'goal_hr_pto', conversationId: 'trig-orders.evt_9' }),
      });
      expect([taken.status, ((await taken.json()) as { error: string }).error]).toEqual([
        400,
        'Conversation ids beginning sched- or trig- are kept for scheduled and triggered runs.',
      ]);
      await result(githubRun('orders', event));
    } finally {
      await keyed.close();
    }
  }, 60_000);

  it('the registry file is read live; GET /api/triggers lists each trigger with its runs', async () => {
    expect((await deliver('late', 'github', {})).status).toBe(404);
    writeRegistry({ orders: entry('github'), late: entry('github', { approvals: { auto: ['BookPTO'] } }) });
    const event = { hello: 1 };
    expect((await deliver('late', 'github', event, { id: 'late-1' })).status).toBe(202);
    await result(githubRun('late', event));
    const listed = (await (await fetch(`${api.url}/api/triggers`)).json()) as {
      triggers: { name: string; runs: { conversationId: string; status?: string; summary?: string }[] }[];
    };
    expect(listed.triggers.map((t) => t.name)).toEqual(['orders', 'late']);
    expect(listed.triggers[1]!.runs).toEqual([
      expect.objectContaining({ conversationId: githubRun('late', event), state: 'completed', status: 'ok' }),
    ]);
    writeRegistry({ orders: entry('github'), broken: { goal: 'goal_hr_pto' } });
    const kept = (await (await fetch(`${api.url}/api/triggers`)).json()) as { error: string; triggers: unknown[] };
    expect(kept.error).toMatch(/trigger "broken": prompt: .*still serving the last valid registry/);
    expect(kept.triggers).toHaveLength(2);
  }, 60_000);

  /** A receiver of outcomes answering each POST with the next status of `statuses` (then 204). */
  async function receiver(statuses: number[]) {
    const posts: { key: string | undefined; body: Record<string, unknown> }[] = [];
    const server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        posts.push({ key: req.headers['idempotency-key'] as string, body: JSON.parse(text) });
        res.writeHead(statuses.shift() ?? 204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { posts, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/outcomes` };
  }

  it('notify: an outcome POSTed to a URL that fails twice arrives once, every attempt with the same key', async () => {
    const { posts, server, url } = await receiver([503, 503]);
    try {
      writeRegistry({ notified: entry('github', { notify: url }) });
      const event = { n: 1 };
      const id = githubRun('notified', event);
      expect((await deliver('notified', 'github', event, { id: 'n-1' })).status).toBe(202);
      const done = await result(id);
      expect(done.delivery).toEqual({ url, delivered: true });
      // The run did not continue as new: its run id is its first.
      const { runId } = await env.client.workflow.getHandle(id).describe();
      const key = `${id}/${runId}`;
      expect(posts.map((p) => p.key)).toEqual([key, key, key]);
      expect(posts[2]!.body).toEqual({
        run: id,
        key,
        source: 'trigger',
        name: 'notified',
        goalId: 'goal_hr_pto',
        status: 'ok',
        summary: 'You have 104 hours of PTO left.',
        usage: expect.objectContaining({ totalTokens: expect.any(Number) }),
      });
      const [run] = await unattendedRuns(env.client, 'trigger', { name: 'notified' });
      expect(run).toMatchObject({ state: 'completed', status: 'ok', delivered: true });
    } finally {
      server.close();
    }
  }, 60_000);

  it('notify: a run that fails says so too; a receiver refusing with a 4xx is not asked again', async () => {
    const { posts, server, url } = await receiver([400]);
    try {
      writeRegistry({
        refused: entry('github', { notify: url }),
        lost: { ...entry('github', { notify: url }), goal: 'goal_nobody' },
      });
      const refusedRun = githubRun('refused', { r: 1 });
      expect((await deliver('refused', 'github', { r: 1 })).status).toBe(202);
      const done = await result(refusedRun);
      expect(done.delivery).toEqual({
        url,
        delivered: false,
        error: expect.stringMatching(/^POST \S+ answered 400 Bad Request$/),
      });
      expect(posts).toHaveLength(1);

      const lostRun = githubRun('lost', { l: 1 });
      expect((await deliver('lost', 'github', { l: 1 })).status).toBe(202);
      await expect(result(lostRun)).rejects.toThrow();
      expect(posts[1]!.body).toMatchObject({
        run: lostRun,
        status: 'error',
        summary: expect.stringMatching(/goal_nobody/),
      });
    } finally {
      server.close();
    }
  }, 60_000);
});
