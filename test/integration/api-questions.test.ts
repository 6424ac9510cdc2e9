// Tools that ask, over the HTTP API: the question in the reply and the conversation, answered with POST …/answer
// (refusals as 409 with the workflow's words, a bad body as 400), and the live events `question` and
// `tool_progress`. Real servers: our asking fixture (a form, a URL, sampling) and server-everything (progress).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { ASKING, EVERYTHING, questionsScript } from '../fixtures/tool-questions';
import { openEvents } from '../../testkit/sse';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

describe('HTTP API: tools that ask', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  const dir = mkdtempSync(path.join(tmpdir(), 'api-questions-'));

  beforeAll(async () => {
    env = await startTemporal();
    bus = createStreamBus();
    const registry = path.join(dir, 'mcp.json');
    const log = path.join(dir, 'asking.log');
    writeFileSync(registry, JSON.stringify({ mcpServers: { asking: ASKING(log), everything: EVERYTHING } }));
    const settings = testSettings({
      AGENT_GOAL: 'goal_general',
      VALIDATE_PROMPTS: 'false',
      TOOL_SEARCH_THRESHOLD: '0',
      MCP_ENDPOINTS_FILE: registry,
    });
    worker = await startWorker(env, { script: questionsScript, settings, streamBus: bus });
    api = await startApi({
      agents: new AgentClient(env.client, settings.taskQueue),
      bus,
      defaultGoal: 'goal_general',
      feedTiming: { busyMs: 50, idleMs: 200 },
      settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: 64 * 1024, corsOrigins: [] },
    });
  });
  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${api.url}${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const start = async (id: string) =>
    expect((await call('POST', '/api/conversations', { conversationId: id })).status).toBe(201);
  const questionOf = (e: { data: unknown }) => (e.data as { question: { id: string; kind: string } | null }).question;

  it('documents the answer route and the question in the reply', async () => {
    const { body: doc } = await call('GET', '/api/openapi.json');
    expect(doc.paths['/api/conversations/{id}/answer']?.post).toBeDefined();
    expect(doc.components.schemas.AgentReply.properties.question).toBeDefined();
    expect(doc.components.schemas.ToolQuestion.properties.kind.enum).toEqual(['form', 'url', 'sampling']);
    expect(doc.components.schemas.AnswerQuestion).toBeDefined();
  });

  it('asks a form in the reply, the conversation and the events; refuses answers that do not fit; sends the accepted one', async () => {
    await start('ask-form');
    const events = await openEvents(`${api.url}/api/conversations/ask-form/events`);
    try {
      const asked = await call('POST', '/api/conversations/ask-form/messages', { text: 'greet me' });
      expect(asked.status).toBe(200);
      expect(asked.body).toMatchObject({
        reply: 'asking__greet asks: What is your name?',
        question: { kind: 'form', tool: 'asking__greet', server: 'asking', schema: { required: ['name'] } },
      });
      const id = asked.body.question.id as string;
      const { body: convo } = await call('GET', '/api/conversations/ask-form');
      expect(convo).toMatchObject({ state: 'waiting_for_user', question: { id } });
      expect(questionOf(await events.next((e) => e.event === 'question' && questionOf(e) !== null))?.id).toBe(id);

      expect(await call('POST', '/api/conversations/ask-form/answer', { action: 'accept', content: {} })).toEqual({
        status: 409,
        body: { error: expect.stringMatching(/does not fit: .*name/) },
      });
      expect(
        await call('POST', '/api/conversations/ask-form/answer', { questionId: 'old', action: 'decline' }),
      ).toEqual({
        status: 409,
        body: { error: expect.stringMatching(/no longer open/) },
      });
      expect(await call('POST', '/api/conversations/ask-form/answer', { action: 'maybe' })).toMatchObject({
        status: 400,
        body: { field: 'action' },
      });
      expect(
        await call('POST', '/api/conversations/ask-form/answer', { action: 'decline', content: { name: 'x' } }),
      ).toMatchObject({ status: 400, body: { field: 'content' } });

      const done = await call('POST', '/api/conversations/ask-form/answer', {
        questionId: id,
        action: 'accept',
        content: { name: 'Ada' },
      });
      expect(done).toEqual({ status: 200, body: expect.objectContaining({ reply: 'Hello, Dr Ada!' }) });
      expect(done.body.question ?? null).toBeNull();
      // The question event says it is gone once the tool has its answer.
      const asking = events.events.findIndex((e) => e.event === 'question' && questionOf(e) !== null);
      await events.next((e) => e.event === 'question' && questionOf(e) === null, 10_000, asking + 1);
      expect((await call('GET', '/api/conversations/ask-form')).body.question).toBeNull();
      expect(await call('POST', '/api/conversations/ask-form/answer', { action: 'cancel' })).toEqual({
        status: 409,
        body: { error: expect.stringMatching(/no tool is asking/) },
      });
      expect((await call('POST', '/api/conversations/nope/answer', { action: 'cancel' })).status).toBe(404);
    } finally {
      events.close();
      await call('POST', '/api/conversations/ask-form/end');
    }
  });

  it('answers a URL question by whether the user went, and declines a sampling request', async () => {
    await start('ask-url');
    const visit = await call('POST', '/api/conversations/ask-url/messages', { text: 'visit' });
    expect(visit.body.question).toMatchObject({ kind: 'url', url: 'https://example.com/sign' });
    expect((await call('POST', '/api/conversations/ask-url/answer', { action: 'accept' })).body.reply).toBe(
      'visit: accept',
    );
    const poem = await call('POST', '/api/conversations/ask-url/messages', { text: 'poem about rain' });
    expect(poem.body.question).toMatchObject({ kind: 'sampling', sampling: { maxTokens: 60 } });
    const declined = await call('POST', '/api/conversations/ask-url/answer', {
      questionId: poem.body.question.id,
      action: 'decline',
    });
    expect(declined.body.reply).toMatch(/declined the sampling request/);
    await call('POST', '/api/conversations/ask-url/end');
  });

  it("streams a running tool's progress as tool_progress events", async () => {
    await start('ask-progress');
    const events = await openEvents(`${api.url}/api/conversations/ask-progress/events`);
    try {
      const done = await call('POST', '/api/conversations/ask-progress/messages', { text: 'long op' });
      expect(done.body.reply).toMatch(/Long running operation completed/);
      const progress = events.events.filter((e) => e.event === 'tool_progress').map((e) => e.data);
      // The server's last notification may come with its result, after the call is over.
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(progress.at(-1)).toMatchObject({ tool: 'everything__trigger-long-running-operation', total: 4 });
      expect(progress).toContainEqual(expect.objectContaining({ progress: expect.any(Number) }));
    } finally {
      events.close();
      await call('POST', '/api/conversations/ask-progress/end');
    }
  });
});
