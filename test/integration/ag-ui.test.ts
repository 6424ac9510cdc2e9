// Our agents for AG-UI clients (/api/ag-ui), against a real dev server, worker and API, driven by @ag-ui/client's
// own HttpAgent (a client we did not write): a run streams the reply as text deltas and a second run on the same
// thread continues the conversation; a run that needs an approval ends interrupted with the approval in the shared
// state, and the next run resumes it (the tool runs once), as a tool's question is answered by the next run;
// forwardedProps answers for clients without interrupts; a run whose stream dropped is followed by one that brings the
// rest of the reply, once;
// another key's conversation is unknown, no key is refused, and bad input is a 400 that says what is wrong.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { EventType, HttpAgent, type BaseEvent, type Interrupt, type RunFinishedEvent } from '@ag-ui/client';
import { ApiKeys } from '../../api/auth';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';
import { ptoScript } from '../fixtures/scripts';
import { ASKING, questionsScript } from '../fixtures/tool-questions';
import { openBlobStore } from '../../blobs';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef0';
const ADA = 'ada@example.com';
const STORY = Array.from({ length: 20 }, (_, i) => `Day ${i + 1}: Ada rested.`).join(' ');

describe('our agents for AG-UI clients', () => {
  const mon = week(5);
  const tue = week(5, 1);
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  let agents: AgentClient;

  beforeAll(async () => {
    env = await startTemporal();
    bus = createStreamBus();
    // Chunks of a reply arrive 50 ms apart: the story (20 chunks) comes as several text deltas while it is written,
    // though the run's first delta holds all that was written before the run had read the conversation
    // (api/ag-ui/run-events.ts), which on a busy machine may be a short reply's whole text.
    const settings = testSettings({ VALIDATE_PROMPTS: 'false', SCRIPTED_STREAM_DELAY_MS: '50' });
    const script = { rules: [{ user: '^tell me a story$', reply: { text: STORY } }, ...ptoScript.rules] };
    worker = await startWorker(env, { script, settings, streamBus: bus });
    agents = new AgentClient(env.client, settings.taskQueue, { files: openBlobStore(settings.files.blobs) });
    api = await startApi({
      agents,
      bus,
      defaultGoal: 'goal_hr_pto',
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: new ApiKeys([`alice=${ALICE}`, `bob=${BOB}`], []),
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

  const agentFor = (key: string, threadId: string = randomUUID(), path = '/api/ag-ui/agents/goal_hr_pto') =>
    new HttpAgent({ url: `${api.url}${path}`, headers: { authorization: `Bearer ${key}` }, threadId });

  /** One run with the user's words (if any): every event it streamed, in order. */
  async function run(agent: HttpAgent, words?: string, params: Parameters<HttpAgent['runAgent']>[0] = {}) {
    if (words) agent.addMessage({ id: randomUUID(), role: 'user', content: words });
    const events: BaseEvent[] = [];
    const { result } = await agent.runAgent(params, { onEvent: ({ event }) => void events.push(event) });
    // The run's result (a run that ends interrupted has none: the state names the conversation).
    return {
      agent,
      events,
      result: result as { conversationId: string } | undefined,
      types: events.map((e) => e.type),
    };
  }

  const finished = (events: BaseEvent[]) => events.at(-1) as RunFinishedEvent;
  const ofType = <T extends BaseEvent>(events: BaseEvent[], type: EventType) =>
    events.filter((e) => e.type === type) as T[];
  const conversationState = (agent: HttpAgent) =>
    (agent.state as { conversation: { id: string; pendingApproval: { callId: string; tool: string } | null } })
      .conversation;

  it('a run streams the reply as text deltas between RUN_STARTED and RUN_FINISHED; the same thread continues the conversation', async () => {
    const agent = agentFor(ALICE);
    const first = await run(agent, 'tell me a story');
    expect(first.types[0]).toBe(EventType.RUN_STARTED);
    expect(first.types[1]).toBe(EventType.STATE_SNAPSHOT);
    expect(first.types.at(-1)).toBe(EventType.RUN_FINISHED);
    expect(first.types.filter((t) => t === EventType.RUN_STARTED || t === EventType.RUN_FINISHED)).toHaveLength(2);
    expect(finished(first.events).outcome).toEqual({ type: 'success' });
    // The reply written a few words at a time, assembling to the whole story.
    const deltas = ofType<BaseEvent & { delta: string }>(first.events, EventType.TEXT_MESSAGE_CONTENT).map(
      (e) => e.delta,
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(STORY);
    expect(first.types.filter((t) => t.startsWith('TEXT_MESSAGE_'))).toEqual([
      EventType.TEXT_MESSAGE_START,
      ...deltas.map(() => EventType.TEXT_MESSAGE_CONTENT),
      EventType.TEXT_MESSAGE_END,
    ]);
    // The client assembled the same reply, and holds our state beside its own.
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: STORY });
    const id = first.result!.conversationId;
    expect(conversationState(agent)).toMatchObject({ id, pendingApproval: null });

    // The next run on the thread: a tool call and its result, then the reply.
    const second = await run(agent, `balance for ${ADA}`);
    expect(second.result!.conversationId).toBe(id);
    expect(second.types[0]).toBe(EventType.RUN_STARTED);
    expect(second.types.at(-1)).toBe(EventType.RUN_FINISHED);
    const [call] = ofType<BaseEvent & { toolCallId: string; toolCallName: string }>(
      second.events,
      EventType.TOOL_CALL_START,
    );
    expect(call!.toolCallName).toBe('CurrentPTO');
    const [result] = ofType<BaseEvent & { toolCallId: string; content: string }>(
      second.events,
      EventType.TOOL_CALL_RESULT,
    );
    expect(result!.toolCallId).toBe(call!.toolCallId);
    expect(JSON.parse(result!.content)).toMatchObject({ status: 'ok', result: { hoursLeft: expect.any(Number) } });
    const reply = ofType<BaseEvent & { delta: string }>(second.events, EventType.TEXT_MESSAGE_CONTENT)
      .map((e) => e.delta)
      .join('');
    expect(reply).toMatch(/^You have \d+ hours of PTO left\.$/);
    // The result before the words written after it.
    expect(second.types.indexOf(EventType.TOOL_CALL_RESULT)).toBeLessThan(
      second.types.indexOf(EventType.TEXT_MESSAGE_START),
    );
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: reply });
    // Only the new turn is streamed: the first reply is not sent again.
    expect(ofType(second.events, EventType.TEXT_MESSAGE_START)).toHaveLength(1);
    const users = (await agents.history(id)).filter((m) => m.kind === 'user' && !m.starter);
    expect(users).toHaveLength(2);
    expect((await agents.feed(id, Number.MAX_SAFE_INTEGER)).owner).toBe('alice');
    // Sent again (a client retrying the run), a message is not a second turn.
    await run(agent);
    expect((await agents.history(id)).filter((m) => m.kind === 'user' && !m.starter)).toHaveLength(2);
  }, 90_000);

  it('a run whose stream dropped mid-reply: the next run on the thread brings the rest, once', async () => {
    const agent = agentFor(ALICE);
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'tell me a story' });
    let contents = 0;
    await agent
      .runAgent(
        {},
        {
          onEvent: ({ event }) => {
            if (event.type === EventType.TEXT_MESSAGE_CONTENT && ++contents === 2) agent.abortRun();
          },
        },
      )
      .catch(() => undefined);
    const partial = agent.messages.filter((m) => m.role === 'assistant');
    expect(partial).toHaveLength(1);
    expect(STORY.startsWith(partial[0]!.content as string)).toBe(true);
    expect((partial[0]!.content as string).length).toBeLessThan(STORY.length);
    // The same thread, no new words: the run follows the turn and sends what the client lacks.
    await run(agent);
    const replies = agent.messages.filter((m) => m.role === 'assistant');
    expect(replies.map((m) => m.content)).toEqual([STORY]);
  });

  it('a run that needs an approval ends interrupted with it in the state; the next run approves it and the tool runs once', async () => {
    const agent = agentFor(ALICE);
    const asked = await run(agent, `book ${mon} to ${tue} for ${ADA}`);
    const [call] = ofType<BaseEvent & { toolCallId: string; toolCallName: string }>(
      asked.events,
      EventType.TOOL_CALL_START,
    );
    expect(call!.toolCallName).toBe('BookPTO');
    expect(asked.types).toContain(EventType.TOOL_CALL_END);
    expect(asked.types).not.toContain(EventType.TOOL_CALL_RESULT);
    // The shared state shows the call waiting, as a snapshot or a delta of it.
    const states = asked.events.filter((e) => e.type === EventType.STATE_SNAPSHOT || e.type === EventType.STATE_DELTA);
    expect(JSON.stringify(states)).toContain(`"callId":"${call!.toolCallId}"`);
    expect(conversationState(agent).pendingApproval).toMatchObject({ callId: call!.toolCallId, tool: 'BookPTO' });
    const outcome = finished(asked.events).outcome as { type: string; interrupts: Interrupt[] };
    expect(outcome.type).toBe('interrupt');
    expect(outcome.interrupts).toEqual([
      expect.objectContaining({
        id: `approval:${call!.toolCallId}`,
        toolCallId: call!.toolCallId,
        reason: 'tool_approval',
      }),
    ]);
    expect(agent.pendingInterrupts).toHaveLength(1);

    const done = await run(agent, undefined, {
      resume: [{ interruptId: outcome.interrupts[0]!.id, status: 'resolved', payload: { approve: true } }],
    });
    const [result] = ofType<BaseEvent & { toolCallId: string; content: string }>(
      done.events,
      EventType.TOOL_CALL_RESULT,
    );
    expect(result!.toolCallId).toBe(call!.toolCallId);
    expect(JSON.parse(result!.content)).toMatchObject({ status: 'ok' });
    const reply = ofType<BaseEvent & { delta: string }>(done.events, EventType.TEXT_MESSAGE_CONTENT)
      .map((e) => e.delta)
      .join('');
    expect(reply).toMatch(new RegExp(`^Booked ${mon} to ${tue}; \\d+ hours left\\.$`));
    expect(finished(done.events).outcome).toEqual({ type: 'success' });
    expect(agent.pendingInterrupts).toHaveLength(0);
    expect(conversationState(agent).pendingApproval).toBeNull();
    const id = done.result!.conversationId;
    const booked = (await agents.history(id)).filter((m) => m.kind === 'tool' && m.call.tool === 'BookPTO');
    expect(booked).toHaveLength(1);
  }, 90_000);

  it('a client without interrupts rejects through forwardedProps; the conversation route reaches a conversation by its id', async () => {
    const threadId = randomUUID();
    const asked = await run(agentFor(ALICE, threadId), `book ${mon} to ${tue} for ${ADA}`);
    expect(asked.types.at(-1)).toBe(EventType.RUN_FINISHED);
    const id = conversationState(asked.agent).id;
    // Another client (no pending interrupts of its own) on the conversation's own route.
    const other = agentFor(ALICE, threadId, `/api/ag-ui/conversations/${id}`);
    const done = await run(other, undefined, {
      forwardedProps: { approval: { approve: false, reason: 'wrong week' } },
    });
    const [result] = ofType<BaseEvent & { content: string }>(done.events, EventType.TOOL_CALL_RESULT);
    expect(JSON.parse(result!.content)).toMatchObject({ status: 'rejected' });
    expect(other.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'OK, I did not book it (wrong week).' });
    expect(done.result!.conversationId).toBe(id);
  }, 90_000);

  it("a new thread's first run with no message of its own shows the agent's greeting", async () => {
    const agent = agentFor(ALICE);
    const { events } = await run(agent);
    expect(agent.messages).toEqual([
      expect.objectContaining({ role: 'assistant', content: expect.stringMatching(/What is your work email\?$/) }),
    ]);
    expect(finished(events).outcome).toEqual({ type: 'success' });
  });

  describe('a tool that asks', () => {
    // Another worker and API on the same dev server: a goal whose MCP server asks the user (a form), no API keys.
    const dir = mkdtempSync(path.join(tmpdir(), 'ag-ui-questions-'));
    let asking: Awaited<ReturnType<typeof startWorker>>;
    let askingApi: RunningApi;
    beforeAll(async () => {
      const registry = path.join(dir, 'mcp.json');
      writeFileSync(registry, JSON.stringify({ mcpServers: { asking: ASKING(path.join(dir, 'asking.log')) } }));
      const settings = testSettings({
        AGENT_GOAL: 'goal_general',
        VALIDATE_PROMPTS: 'false',
        TOOL_SEARCH_THRESHOLD: '0',
        MCP_ENDPOINTS_FILE: registry,
      });
      asking = await startWorker(env, { script: questionsScript, settings, streamBus: bus });
      askingApi = await startApi({
        agents: new AgentClient(env.client, settings.taskQueue),
        bus,
        defaultGoal: 'goal_general',
        settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: 64 * 1024, corsOrigins: [] },
      });
    });
    afterAll(async () => {
      await askingApi?.close();
      await asking?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("a tool's question is an interrupt with the form in the state; the next run's answer goes to the tool", async () => {
      const agent = new HttpAgent({ url: `${askingApi.url}/api/ag-ui/agents/goal_general`, threadId: randomUUID() });
      const asked = await run(agent, 'greet me');
      const outcome = finished(asked.events).outcome as { type: string; interrupts: Interrupt[] };
      expect(outcome).toMatchObject({
        type: 'interrupt',
        interrupts: [{ reason: 'tool_question', message: 'asking__greet asks: What is your name?' }],
      });
      const question = (agent.state as { conversation: { question: { id: string; kind: string } } }).conversation
        .question;
      expect(question).toMatchObject({ kind: 'form', tool: 'asking__greet' });
      expect(outcome.interrupts[0]!.id).toBe(`question:${question.id}`);

      const done = await run(agent, undefined, {
        resume: [
          {
            interruptId: outcome.interrupts[0]!.id,
            status: 'resolved',
            payload: { action: 'accept', content: { name: 'Ada' } },
          },
        ],
      });
      expect(ofType(done.events, EventType.TOOL_CALL_RESULT)).toHaveLength(1);
      expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Hello, Dr Ada!' });
      expect(finished(done.events).outcome).toEqual({ type: 'success' });
      expect((agent.state as { conversation: { question: unknown } }).conversation.question).toBeNull();
    }, 90_000);
  });

  describe('refusals', () => {
    const post = async (path: string, body: unknown, key?: string) => {
      const res = await fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { error: string; field?: string } };
    };
    const input = (more: Record<string, unknown> = {}) => ({
      threadId: randomUUID(),
      runId: randomUUID(),
      messages: [],
      ...more,
    });

    it("another key's conversation is unknown to it; no key or an unknown key is refused", async () => {
      const mine = await run(agentFor(ALICE), `balance for ${ADA}`);
      const path = `/api/ag-ui/conversations/${mine.result!.conversationId}`;
      expect(await post(path, input(), BOB)).toEqual({
        status: 404,
        body: { error: `No conversation with id ${mine.result!.conversationId}.` },
      });
      // HttpAgent says so on the console too, and rejects.
      const said = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      await expect(run(agentFor(BOB, undefined, path), 'balance for bob@example.com')).rejects.toThrow(/404/);
      said.mockRestore();
      expect(await post(path, input())).toMatchObject({
        status: 401,
        body: { error: expect.stringMatching(/Bearer/) },
      });
      expect(await post(path, input(), 'not-a-key-0123456789')).toMatchObject({ status: 401 });
      // Bob's run on Alice's thread id is a thread of his own.
      const bobs = await run(agentFor(BOB, mine.events[0]!.threadId as string), 'balance for bob@example.com');
      expect(bobs.result!.conversationId).not.toBe(mine.result!.conversationId);
    }, 90_000);

    it('bad input is a 400 that names what is wrong; an unknown agent a 404; an answer to nothing a 409; a stale resume is settled', async () => {
      const agentPath = '/api/ag-ui/agents/goal_hr_pto';
      expect(await post(agentPath, 'not json', ALICE)).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/not JSON.*RunAgentInput/) },
      });
      expect(await post(agentPath, { threadId: 't', messages: [] }, ALICE)).toMatchObject({
        status: 400,
        body: { field: 'runId', error: expect.stringMatching(/^runId: .*RunAgentInput/) },
      });
      expect(await post(agentPath, input({ runId: '' }), ALICE)).toMatchObject({
        status: 400,
        body: { error: 'runId: give an id of 1 to 200 characters.' },
      });
      // A thread's conversation id cannot be taken first through the REST route (by another owner, say).
      expect(await post('/api/conversations', { conversationId: 'ag-ui-0123456789abcdef0123' }, ALICE)).toMatchObject({
        status: 400,
        body: { error: 'conversationId: ids beginning ag-ui- are kept for AG-UI threads' },
      });
      expect(await post('/api/ag-ui/agents/goal_nope', input(), ALICE)).toMatchObject({
        status: 404,
        body: { error: expect.stringMatching(/goal_nope/) },
      });
      const waiting = await run(agentFor(ALICE), `book ${mon} to ${tue} for ${ADA}`);
      const path = `/api/ag-ui/conversations/${conversationState(waiting.agent).id}`;
      const interruptId = (finished(waiting.events).outcome as { interrupts: Interrupt[] }).interrupts[0]!.id;
      expect(
        await post(path, input({ resume: [{ interruptId, status: 'resolved', payload: { approve: 'yes' } }] }), ALICE),
      ).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/^resume\.0\.payload\.approve: .*"approve": true/) },
      });
      // An interrupt no longer open (answered elsewhere, expired) is settled: the run goes on, and ends on the open one
      // again, so a client's pending interrupts never leave the thread stuck.
      const stale = await fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ALICE}` },
        body: JSON.stringify(
          input({ resume: [{ interruptId: 'approval:other', status: 'resolved', payload: { approve: true } }] }),
        ),
      });
      expect(stale.status).toBe(200);
      const events = await stale.text();
      expect(events).toMatch(/"type":"RUN_FINISHED"/);
      expect(events).toContain(`"id":"${interruptId}"`);
      expect(await post(path, input({ forwardedProps: { answer: { action: 'decline' } } }), ALICE)).toMatchObject({
        status: 409,
        body: { error: expect.stringMatching(/Cannot answer/) },
      });
    }, 90_000);
  });
});
