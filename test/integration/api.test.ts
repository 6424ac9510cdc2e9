// The HTTP API against a real dev server and worker, over real HTTP: the contract's routes, its errors (400 naming
// the field, 401, 404, 409, 413), keys that see only their own conversations, and the events stream (SSE) with
// text arriving before the reply completes and Last-Event-ID resuming without gap or duplicate.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ApiKeys } from '../../api/auth';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { ptoScript } from '../fixtures/scripts';
import { openEvents, type SseEvent } from '../../testkit/sse';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { waitUntil } from '../../testkit/wait-until';
import { week } from '../../testkit/days';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef0';
const ADMIN = 'admin-key-0123456789abcdef';

describe('HTTP API', () => {
  const mon = week(4);
  const tue = week(4, 1);
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let open: RunningApi;
  let keyed: RunningApi;

  beforeAll(async () => {
    env = await startTemporal();
    bus = createStreamBus();
    // Words arrive 20 ms apart: long enough that text is seen before the reply is complete.
    const settings = testSettings({ VALIDATE_PROMPTS: 'false', SCRIPTED_STREAM_DELAY_MS: '20' });
    worker = await startWorker(env, { script: ptoScript, settings, streamBus: bus });
    const agents = new AgentClient(env.client, settings.taskQueue);
    const base = { agents, bus, defaultGoal: 'goal_hr_pto', feedTiming: { busyMs: 50, idleMs: 200 } };
    open = await startApi({
      ...base,
      settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: 64 * 1024, corsOrigins: [] },
    });
    keyed = await startApi({
      ...base,
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
    await open?.close();
    await keyed?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
  });

  const call = async (method: string, path: string, body?: unknown, key?: string, api = open) => {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

  it('answers health and an OpenAPI document generated from the schemas', async () => {
    expect(await call('GET', '/api/health')).toEqual({
      status: 200,
      body: expect.objectContaining({ ok: true, temporal: expect.objectContaining({ reachable: true }) }),
    });
    const { body: doc } = await call('GET', '/api/openapi.json');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/conversations',
        '/api/conversations/{id}',
        '/api/conversations/{id}/messages',
        '/api/conversations/{id}/events',
        '/api/agents',
        '/api/tools',
      ]),
    );
    expect(doc.components.schemas.ConfirmDecision).toBeDefined();
  });

  it('starts a conversation, books on approval and shows it all in the conversation', async () => {
    const started = await call('POST', '/api/conversations', { goalId: 'goal_hr_pto', conversationId: 'api-1' });
    expect(started).toEqual({
      status: 201,
      body: {
        conversationId: 'api-1',
        goalId: 'goal_hr_pto',
        greeting: expect.objectContaining({ reply: expect.stringMatching(/work email/) }),
      },
    });
    const proposal = await call('POST', '/api/conversations/api-1/messages', {
      text: `book ${mon} to ${tue} for ada@example.com`,
    });
    expect(proposal.status).toBe(200);
    expect(proposal.body.pendingToolCall).toMatchObject({
      tool: 'BookPTO',
      call: { args: { email: 'ada@example.com' } },
    });
    const booked = await call('POST', '/api/conversations/api-1/confirm', { approve: true });
    expect(booked.body.reply).toMatch(new RegExp(`Booked ${mon} to ${tue}`));

    const { body: convo } = await call('GET', '/api/conversations/api-1');
    expect(convo).toMatchObject({
      id: 'api-1',
      goalId: 'goal_hr_pto',
      state: 'waiting_for_user',
      pendingApproval: null,
    });
    expect(convo.messages.map((m: { seq: number }) => m.seq)).toEqual(convo.messages.map((_: unknown, i: number) => i));
    expect(convo.messages.some((m: { message: { kind: string } }) => m.message.kind === 'tool')).toBe(true);
    expect(convo.usage.totalTokens).toBeGreaterThan(0);
    expect((await call('GET', '/api/conversations')).body).toContainEqual(expect.objectContaining({ id: 'api-1' }));
    expect(await call('POST', '/api/conversations/api-1/end')).toEqual({ status: 200, body: { ended: true } });
  });

  it('refuses bad input naming the field, unknown ids with 404, refused updates with 409, big bodies with 413', async () => {
    expect(await call('POST', '/api/conversations', { goalId: 'goal_nope' })).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/Unknown goal "goal_nope"/), field: 'goalId' },
    });
    expect(await call('POST', '/api/conversations', { goalId: 'x y' })).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/^goalId: /), field: 'goalId' },
    });
    expect(await call('POST', '/api/conversations', { goal: 'goal_hr_pto' })).toMatchObject({
      status: 400,
      body: { field: 'goal' },
    });
    expect(await call('POST', '/api/conversations', '{not json')).toMatchObject({ status: 400 });
    expect(await call('POST', '/api/conversations/api-nope/messages', { text: 'hi' })).toEqual({
      status: 404,
      body: { error: 'No conversation with id api-nope.' },
    });
    expect(await call('GET', '/api/conversations/api-nope')).toMatchObject({ status: 404 });

    await call('POST', '/api/conversations', { conversationId: 'api-2' });
    expect(await call('POST', '/api/conversations/api-2/messages', { text: '' })).toMatchObject({
      status: 400,
      body: { field: 'text' },
    });
    expect(await call('POST', '/api/conversations/api-2/confirm', { approve: false })).toMatchObject({
      status: 400,
      body: { field: expect.any(String) },
    });
    // Nothing awaits approval: the workflow's validator refuses, and says why.
    expect(await call('POST', '/api/conversations/api-2/confirm', { approve: true })).toMatchObject({
      status: 409,
      body: { error: expect.any(String) },
    });
    expect(await call('POST', '/api/conversations', { conversationId: 'api-2' })).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(/already running/) },
    });
    expect(await call('POST', '/api/conversations/api-2/messages', { text: 'x'.repeat(70 * 1024) })).toMatchObject({
      status: 413,
    });
    expect(await call('GET', '/api/conversations?state=sleeping')).toMatchObject({
      status: 400,
      body: { field: 'state' },
    });
    await call('POST', '/api/conversations/api-2/end');
    expect(await call('POST', '/api/conversations/api-2/messages', { text: 'hi' })).toMatchObject({
      status: 409,
      body: { error: expect.stringMatching(/ended/) },
    });
  });

  it('streams the reply: tokens before the message, which holds the same text; wait=false answers 202 at once', async () => {
    await call('POST', '/api/conversations', { conversationId: 'api-3' });
    const events = await openEvents(`${open.url}/api/conversations/api-3/events`);
    try {
      await events.next((e) => e.event === 'state' && (e.data as { state: string }).state === 'waiting_for_user');
      const sent = await call('POST', '/api/conversations/api-3/messages?wait=false', {
        text: 'What is my balance for ada@example.com?',
      });
      expect(sent).toEqual({ status: 202, body: { accepted: true } });
      const reply = await events.next((e) => e.event === 'message' && isAgentText(e, /hours of PTO left/));
      const tokens = events.events.filter((e) => e.event === 'token' && e.at <= reply.at);
      expect(tokens.length).toBeGreaterThan(1);
      expect(tokens[0]!.at).toBeLessThan(reply.at);
      expect(textOf(tokens)).toBe((reply.data as { message: { text: string } }).message.text);
      await call('POST', '/api/conversations/api-3/messages?wait=false', {
        text: `book ${week(5)} to ${week(5, 1)} for ada@example.com`,
      });
      const approval = await events.next(
        (e) => e.event === 'approval' && (e.data as { pending: unknown }).pending !== null,
      );
      expect(approval.data).toMatchObject({ pending: { tool: 'BookPTO' } });
    } finally {
      events.close();
    }
  });

  it('resumes with Last-Event-ID: every message once, in order, no gap', async () => {
    await call('POST', '/api/conversations', { conversationId: 'api-4' });
    const first = await openEvents(`${open.url}/api/conversations/api-4/events`);
    await call('POST', '/api/conversations/api-4/messages', { text: 'What is my balance for ada@example.com?' });
    await first.next(
      (e) => e.event === 'message' && (e.data as { message: { kind: string } }).message.kind === 'agent',
      30_000,
      1,
    );
    first.close();
    // While nobody listens, the conversation goes on.
    await call('POST', '/api/conversations/api-4/messages', {
      text: `book ${mon} to ${tue} for ada@example.com`,
    });
    await call('POST', '/api/conversations/api-4/confirm', { approve: false, reason: 'wrong week' });
    const second = await openEvents(`${open.url}/api/conversations/api-4/events`, { lastEventId: first.lastId() });
    try {
      await second.next((e) => e.event === 'message' && isAgentText(e, /did not book it/));
      const seqs = [...first.events, ...second.events]
        .filter((e) => e.event === 'message')
        .map((e) => (e.data as { seq: number }).seq);
      const { body: convo } = await call('GET', '/api/conversations/api-4');
      expect(seqs).toEqual(convo.messages.map((m: { seq: number }) => m.seq));
    } finally {
      second.close();
    }
  });

  it('with API_KEYS: no key is 401, a key sees only its own conversations, an admin key sees all', async () => {
    expect(await call('GET', '/api/conversations', undefined, undefined, keyed)).toMatchObject({ status: 401 });
    expect(await call('GET', '/api/conversations', undefined, 'not-a-key-at-all-0000', keyed)).toMatchObject({
      status: 401,
    });
    expect(await call('GET', '/api/health', undefined, undefined, keyed)).toMatchObject({ status: 200 });
    const started = await call('POST', '/api/conversations', { conversationId: `alice-${Date.now()}` }, ALICE, keyed);
    expect(started.status).toBe(201);
    const id = started.body.conversationId as string;
    expect((await call('GET', `/api/conversations/${id}`, undefined, ALICE, keyed)).body).toMatchObject({
      owner: 'alice',
    });
    expect(await call('GET', `/api/conversations/${id}`, undefined, BOB, keyed)).toMatchObject({ status: 404 });
    expect(await call('POST', `/api/conversations/${id}/messages`, { text: 'hi' }, BOB, keyed)).toMatchObject({
      status: 404,
    });
    await expect(openEvents(`${keyed.url}/api/conversations/${id}/events?key=${BOB}`)).rejects.toThrow(/404/);
    const events = await openEvents(`${keyed.url}/api/conversations/${id}/events?key=${ALICE}`);
    await events.next((e) => e.event === 'state');
    events.close();
    // The list reads the server's visibility store, a moment behind: once Alice's lists it, Bob's would too.
    const listed = async (key: string) =>
      ((await call('GET', '/api/conversations', undefined, key, keyed)).body as { id: string }[]).some(
        (c) => c.id === id,
      );
    await waitUntil(() => listed(ALICE));
    expect(await listed(BOB)).toBe(false);
    expect((await call('GET', '/api/conversations', undefined, ALICE, keyed)).body).toContainEqual(
      expect.objectContaining({ id, owner: 'alice' }),
    );
    expect((await call('GET', `/api/conversations/${id}`, undefined, ADMIN, keyed)).status).toBe(200);
  });

  it('the worker deployment: its build current, promote and rollback refused or answered; admin keys only', async () => {
    expect(await call('GET', '/api/deploy', undefined, ALICE, keyed)).toMatchObject({ status: 403 });
    expect(await call('POST', '/api/deploy/rollback', undefined, ALICE, keyed)).toMatchObject({ status: 403 });
    const { status, body } = await call('GET', '/api/deploy', undefined, ADMIN, keyed);
    expect(status).toBe(200);
    // The test worker is versioned (the default) and the first of its deployment: its build became current.
    expect(body).toMatchObject({ deployment: worker.worker.options.taskQueue, current: expect.any(String) });
    expect(body.builds).toEqual([expect.objectContaining({ buildId: body.current, state: 'current', canStop: false })]);
    expect(worker.build).toBe(`build ${body.current} of deployment ${body.deployment} (made current)`);
    const unknown = await call('POST', '/api/deploy/promote', { buildId: 'no-such-build' }, ADMIN, keyed);
    expect(unknown).toMatchObject({ status: 404 });
    expect(unknown.body.error).toMatch(/has no build no-such-build \(its builds: /);
    expect(
      await call('POST', '/api/deploy/promote', { buildId: body.current, rampPercent: 100 }, ADMIN, keyed),
    ).toMatchObject({ status: 400 });
    const rollback = await call('POST', '/api/deploy/rollback', undefined, ADMIN, keyed);
    expect(rollback).toMatchObject({ status: 404 });
    expect(rollback.body.error).toMatch(/no earlier current build to roll back to/);
  });

  it('serves Prometheus metrics: requests by route, conversations by state, approvals waiting; only to admin keys when keyed', async () => {
    const scrape = async (api = open, key?: string) => {
      const res = await fetch(`${api.url}/metrics`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    };
    const value = (text: string, series: string) =>
      Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    await call('POST', '/api/conversations', { conversationId: 'api-metrics' });
    await call('POST', '/api/conversations/api-metrics/messages', {
      text: `book ${week(3)} to ${week(3, 1)} for ada@example.com`,
    });
    let text = '';
    // Visibility (what the gauges count) catches up with the workflow's search attributes within moments.
    for (let i = 0; i < 100 && !(value(text, 'agent_approvals_waiting') >= 1); i++) {
      text = (await scrape()).text;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(value(text, 'agent_approvals_waiting')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'agent_conversations_running{state="awaiting_approval"}')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^agent_conversations_running\{state="waiting_for_user"\} \d+$/m);
    const route = 'agent_api_requests_total{method="POST",route="/api/conversations/:id/messages",status="200"}';
    const before = value(text, route);
    expect(before).toBeGreaterThanOrEqual(1);
    await call('POST', '/api/conversations/api-metrics/confirm', { approve: false, reason: 'not now' });
    await call('POST', '/api/conversations/api-metrics/messages', { text: 'thanks' });
    const after = await scrape();
    expect(after.type).toMatch(/^text\/plain/);
    expect(value(after.text, route)).toBe(before + 1);
    expect(after.text).toMatch(
      /^agent_api_request_duration_seconds_count\{method="POST",route="\/api\/conversations\/:id\/confirm"\} \d+$/m,
    );
    expect(after.text).toMatch(/^process_resident_memory_bytes \d+/m);
    await call('POST', '/api/conversations/api-metrics/end');

    expect((await scrape(keyed)).status).toBe(401);
    expect((await scrape(keyed, ALICE)).status).toBe(401);
    expect((await scrape(keyed, ADMIN)).status).toBe(200);
  });

  it('lists agents, endpoints and a goal’s tools', async () => {
    expect((await call('GET', '/api/agents')).body.goalIds).toContain('goal_hr_pto');
    expect((await call('GET', '/api/endpoints')).body).toHaveProperty('endpoints');
    expect((await call('GET', '/api/tools?goal=goal_hr_pto')).body.map((t: { name: string }) => t.name)).toContain(
      'BookPTO',
    );
    expect(await call('GET', '/api/tools?goal=goal_nope')).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/Unknown goal/) },
    });
  });
});

function isAgentText(e: SseEvent, re: RegExp): boolean {
  const m = (e.data as { message: { kind: string; text?: string } }).message;
  return m.kind === 'agent' && re.test(m.text ?? '');
}

function textOf(tokens: SseEvent[]): string {
  let text = '';
  for (const t of tokens) {
    const { offset, text: delta } = t.data as { offset: number; text: string };
    text = text.slice(0, offset) + delta;
  }
  return text;
}
