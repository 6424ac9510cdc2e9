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
import type { RunningApi } from '../../api/server';
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
  const runsOf = async (name: string) => (await unattendedRuns(env.client, 'trigger', name, 100)).length;

  it('a GitHub-style delivery starts one run: the answer, the body attached whole, not pasted in', async () => {
    const event = { action: 'shipped', order: { id: 'A-1', note: 'secret-marker-7' } };
    const sent = await deliver('orders', 'github', event, { id: 'gh-1' });
    expect(sent).toEqual({
      status: 202,
      body: { conversationId: 'trig-orders.gh-1', trigger: 'orders', deliveryId: 'gh-1', started: true },
    });
    const done = await result('trig-orders.gh-1');
    expect(done.envelope).toMatchObject({ status: 'ok', summary: 'You have 104 hours of PTO left.' });
    const first = done.messages.find((m) => m.kind === 'user') as Extract<ChatMessage, { kind: 'user' }>;
    expect(first.text).toBe('balance for ada@example.com (order, delivery gh-1); the event is attached');
    // The model sees the body as an attachment (its preview, ReadFile for the rest), never as the prompt's words.
    expect(first.attachments).toEqual([
      expect.objectContaining({ name: 'orders-gh-1.json', type: 'application/json' }),
    ]);
    const stored = await agents.files.get(first.attachments![0]!.id);
    expect(JSON.parse(Buffer.from(stored).toString('utf8'))).toEqual(event);
    expect((await agents.feed('trig-orders.gh-1', 0)).owner).toBe('ops');
  }, 60_000);

  it('the same delivery three times, then twice at once, starts one run each time', async () => {
    const event = { order: { id: 'A-2' } };
    const answers = [await deliver('orders', 'github', event, { id: 'gh-again' })];
    // The first run has ended before the copies come: its id is still not reused.
    await result('trig-orders.gh-again');
    for (let i = 0; i < 2; i++) answers.push(await deliver('orders', 'github', event, { id: 'gh-again' }));
    expect(answers.map((a) => [a.status, a.body.duplicate ?? false])).toEqual([
      [202, false],
      [200, true],
      [200, true],
    ]);
    const twice = await Promise.all([1, 2].map(() => deliver('orders', 'github', event, { id: 'gh-parallel' })));
    expect(twice.map((a) => a.status).sort()).toEqual([200, 202]);
    for (const id of ['trig-orders.gh-again', 'trig-orders.gh-parallel']) await result(id);
    const ids = (await unattendedRuns(env.client, 'trigger', 'orders', 100)).map((r) => r.conversationId);
    expect(ids.filter((id) => id === 'trig-orders.gh-again' || id === 'trig-orders.gh-parallel').sort()).toEqual([
      'trig-orders.gh-again',
      'trig-orders.gh-parallel',
    ]);
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
    expect(await runsOf('payments')).toBe(1);
  }, 60_000);

  it('refusals: each its status and words, and no run', async () => {
    const before = await runsOf('orders');
    const forged = await deliver('orders', 'github', { a: 1 }, { secret: 'not-the-secret' });
    expect(forged).toEqual({ status: 401, body: { error: 'The signature does not match.' } });
    const big = await deliver('orders', 'github', { pad: 'x'.repeat(9_000) });
    expect(big).toEqual({ status: 413, body: { error: 'The delivery is over 8192 bytes (TRIGGER_BODY_LIMIT).' } });
    expect(await deliver('orders', 'github', {}, { raw: 'not json' })).toEqual({
      status: 400,
      body: { error: 'The delivery is not JSON.' },
    });
    expect(await deliver('nobody', 'github', {})).toEqual({ status: 404, body: { error: 'No trigger nobody.' } });
    expect(await deliver('unset', 'github', {})).toEqual({
      status: 503,
      body: { error: "Trigger unset's secret needs TRIGGERS_TEST_UNSET, which the API does not have." },
    });
    const unsigned = await fetch(`${api.url}/api/triggers/orders`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(401);
    expect(await runsOf('orders')).toBe(before);
    expect(await runsOf('unset')).toBe(0);
  }, 30_000);

  it('the registry file is read live; GET /api/triggers lists each trigger with its runs', async () => {
    expect((await deliver('late', 'github', {})).status).toBe(404);
    writeRegistry({ orders: entry('github'), late: entry('github', { approvals: { auto: ['BookPTO'] } }) });
    const sent = await deliver('late', 'github', { hello: 1 }, { id: 'late-1' });
    expect(sent.status).toBe(202);
    await result('trig-late.late-1');
    const listed = (await (await fetch(`${api.url}/api/triggers`)).json()) as {
      triggers: { name: string; runs: { conversationId: string; status?: string; summary?: string }[] }[];
    };
    expect(listed.triggers.map((t) => t.name)).toEqual(['orders', 'late']);
    expect(listed.triggers[1]!.runs).toEqual([
      expect.objectContaining({ conversationId: 'trig-late.late-1', state: 'completed', status: 'ok' }),
    ]);
    writeRegistry({ orders: entry('github'), broken: { goal: 'goal_hr_pto' } });
    const kept = (await (await fetch(`${api.url}/api/triggers`)).json()) as { error: string; triggers: unknown[] };
    expect(kept.error).toMatch(/trigger "broken": prompt: .*still serving the last valid registry/);
    expect(kept.triggers).toHaveLength(2);
  }, 60_000);

  it('notify: an outcome POSTed to a URL that fails twice arrives once, with the run as its Idempotency-Key', async () => {
    const received: { key: string | undefined; body: Record<string, unknown> }[] = [];
    let attempts = 0;
    const receiver = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        if (++attempts <= 2) return void res.writeHead(503).end();
        received.push({ key: req.headers['idempotency-key'] as string, body: JSON.parse(text) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/outcomes`;
    try {
      writeRegistry({ notified: entry('github', { notify: url }) });
      expect((await deliver('notified', 'github', { n: 1 }, { id: 'n-1' })).status).toBe(202);
      const done = await result('trig-notified.n-1');
      expect(done.delivery).toEqual({ url, delivered: true });
      expect(attempts).toBe(3);
      expect(received).toEqual([
        {
          key: 'trig-notified.n-1',
          body: expect.objectContaining({
            run: 'trig-notified.n-1',
            source: 'trigger',
            name: 'notified',
            goalId: 'goal_hr_pto',
            status: 'ok',
            summary: 'You have 104 hours of PTO left.',
            usage: expect.objectContaining({ totalTokens: expect.any(Number) }),
          }),
        },
      ]);
      const [run] = await unattendedRuns(env.client, 'trigger', 'notified');
      expect(run).toMatchObject({ state: 'completed', status: 'ok', delivered: true });
    } finally {
      receiver.close();
    }
  }, 60_000);
});
