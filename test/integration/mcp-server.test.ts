// Our agents as an MCP server (/mcp on the API), against a real dev server and worker: driven by the official MCP
// Inspector CLI (a client we did not write) through a BookPTO that needs approval, by an SDK client that answers the
// approval through elicitation, and refused without a valid key or for another owner's conversation.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  LATEST_PROTOCOL_VERSION,
  type CallToolResult,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ApiKeys } from '../../api/auth';
import type { Turn } from '../../api/mcp-server/shapes';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { ptoScript } from '../fixtures/scripts';
import { ASKING } from '../fixtures/tool-questions';
import { inspect } from '../../testkit/mcp-inspector';
import { openEvents, parseSseFields, type SseStream } from '../../testkit/sse';
import { waitUntil } from '../../testkit/wait-until';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef0';

/** The PTO agent, and the general agent calling a tool that asks the user's name mid-call (the asking server). */
const script: ScriptInput = {
  ...ptoScript,
  rules: [
    ...ptoScript.rules,
    { user: 'greet me', reply: { toolCalls: [{ tool: 'asking__greet', args: {} }] } },
    { afterTool: 'asking__greet', reply: { text: '{{result}}{{outcome.error}}' } },
  ],
};

describe('the MCP server at /mcp', () => {
  const mon = week(4);
  const tue = week(4, 1);
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    env = await startTemporal();
    bus = createStreamBus();
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-server-'));
    const registry = path.join(dir, 'mcp.json');
    writeFileSync(registry, JSON.stringify({ mcpServers: { asking: ASKING(path.join(dir, 'asking.log')) } }));
    // Words arrive 20 ms apart, so the reply is seen being written (progress) before it is complete.
    const settings = testSettings({
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: registry,
      SCRIPTED_STREAM_DELAY_MS: '20',
    });
    worker = await startWorker(env, { script, settings, streamBus: bus });
    api = await startApi({
      agents: new AgentClient(env.client, settings.taskQueue),
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
    url = `${api.url}/mcp`;
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
  });

  /** An SDK client with `key`; with `elicit`, it declares elicitation and answers each question with it. */
  async function connect(key: string, elicit?: (message: string) => ElicitResult): Promise<Client> {
    const client = new Client({ name: 'test', version: '1.0.0' }, elicit ? { capabilities: { elicitation: {} } } : {});
    if (elicit) client.setRequestHandler(ElicitRequestSchema, (req) => elicit(req.params.message));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
    );
    clients.push(client);
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Turn };
  const asAlice = { Authorization: `Bearer ${ALICE}` };

  it('is driven by the MCP Inspector CLI: lists its tools, starts a conversation, approves a pending BookPTO', async () => {
    const listed = await inspect(url, { method: 'tools/list', headers: asAlice });
    expect(listed.code).toBe(0);
    const tools = listed.json!.tools as { name: string; inputSchema: object; outputSchema?: object }[];
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'answer_question',
        'approve_call',
        'end_conversation',
        'get_history',
        'get_status',
        'list_agents',
        'list_conversations',
        'reject_call',
        'send_message',
        'start_conversation',
      ].sort(),
    );
    expect(tools.every((t) => t.inputSchema && t.outputSchema)).toBe(true);

    const agents = await inspect(url, { method: 'tools/call', tool: 'list_agents', headers: asAlice });
    expect(agents.json!.structuredContent).toMatchObject({
      agents: expect.arrayContaining([expect.objectContaining({ goalId: 'goal_hr_pto' })]),
    });

    const started = await inspect(url, {
      method: 'tools/call',
      tool: 'start_conversation',
      args: { goalId: 'goal_hr_pto', message: `book ${mon} to ${tue} for ada@example.com` },
      headers: asAlice,
    });
    expect(started.code).toBe(0);
    const proposal = started.json!.structuredContent as Turn;
    expect(proposal).toMatchObject({
      greeting: expect.stringMatching(/work email/),
      reply: 'Booking that now.',
      pendingApproval: { tool: 'BookPTO', args: { email: 'ada@example.com', startDate: mon } },
      ended: false,
    });
    // The text says the same for a client that reads only text.
    expect((started.json!.content as { text: string }[])[0]!.text).toMatch(/wants to run BookPTO[\s\S]*approve_call/);

    const id = proposal.conversationId as string;
    const booked = await inspect(url, {
      method: 'tools/call',
      tool: 'approve_call',
      args: { conversationId: id, callId: proposal.pendingApproval!.callId },
      headers: asAlice,
    });
    expect(booked.json!.structuredContent).toMatchObject({
      conversationId: id,
      reply: expect.stringMatching(new RegExp(`^Booked ${mon} to ${tue}`)),
      pendingApproval: null,
    });

    const status = await inspect(url, {
      method: 'tools/call',
      tool: 'get_status',
      args: { conversationId: id },
      headers: asAlice,
    });
    expect(status.json!.structuredContent).toMatchObject({ state: 'waiting_for_user', goalId: 'goal_hr_pto' });
    const history = await inspect(url, {
      method: 'tools/call',
      tool: 'get_history',
      args: { conversationId: id },
      headers: asAlice,
    });
    const { messages } = history.json!.structuredContent as { messages: { message: { kind: string } }[] };
    expect(messages).toContainEqual(
      expect.objectContaining({
        message: expect.objectContaining({ kind: 'tool', outcome: expect.objectContaining({ status: 'ok' }) }),
      }),
    );

    // A durable conversation like any other: the REST API shows it, owned by the key's owner.
    const rest = await fetch(`${api.url}/api/conversations/${id}`, { headers: asAlice });
    expect(await rest.json()).toMatchObject({ id, owner: 'alice', state: 'waiting_for_user' });
  });

  it('asks for a pending approval through elicitation when the client can, and answers the reply after it', async () => {
    const asked: string[] = [];
    let answer: ElicitResult = { action: 'accept', content: { approve: true } };
    const client = await connect(ALICE, (message) => {
      asked.push(message);
      return answer;
    });
    const started = await call(client, 'start_conversation', { goalId: 'goal_hr_pto' });
    const id = started.structuredContent.conversationId as string;
    expect(started.structuredContent.reply).toMatch(/work email/);

    const booked = await call(client, 'send_message', {
      conversationId: id,
      text: `book ${week(5)} to ${week(5, 1)} for ada@example.com`,
    });
    expect(asked).toEqual([expect.stringMatching(new RegExp(`wants to run BookPTO .*"startDate":"${week(5)}"`))]);
    expect(booked.structuredContent).toMatchObject({
      reply: expect.stringMatching(new RegExp(`^Booked ${week(5)} to ${week(5, 1)}`)),
      pendingApproval: null,
      decided: [{ tool: 'BookPTO', approved: true }],
    });

    answer = { action: 'accept', content: { approve: false, reason: 'not this week' } };
    const rejected = await call(client, 'send_message', {
      conversationId: id,
      text: `book ${week(6)} to ${week(6, 1)} for ada@example.com`,
    });
    expect(rejected.structuredContent).toMatchObject({
      reply: 'OK, I did not book it (not this week).',
      decided: [{ tool: 'BookPTO', approved: false, reason: 'not this week' }],
    });

    // Declining the form leaves the call pending, for approve_call / reject_call.
    answer = { action: 'decline' };
    const left = await call(client, 'send_message', {
      conversationId: id,
      text: `book ${week(7)} to ${week(7, 1)} for ada@example.com`,
    });
    expect(left.structuredContent).toMatchObject({ pendingApproval: { tool: 'BookPTO' } });
    expect(left.structuredContent.decided).toBeUndefined();
    const edited = await call(client, 'approve_call', {
      conversationId: id,
      callId: left.structuredContent.pendingApproval!.callId,
      args: { email: 'ada@example.com', startDate: week(8), endDate: week(8) },
    });
    expect(edited.structuredContent.reply).toMatch(new RegExp(`^Booked ${week(8)} to ${week(8)}`));
    await call(client, 'end_conversation', { conversationId: id });
    expect((await call(client, 'get_status', { conversationId: id })).structuredContent.state).toBe('ended');
  });

  it('tells a client that asks for progress the reply as it is being written', async () => {
    const client = await connect(ALICE);
    const id = (await call(client, 'start_conversation', { goalId: 'goal_hr_pto' })).structuredContent.conversationId;
    const seen: string[] = [];
    const result = (await client.callTool(
      { name: 'send_message', arguments: { conversationId: id, text: 'balance for ada@example.com' } },
      undefined,
      { onprogress: (p) => void seen.push(p.message ?? '') },
    )) as CallToolResult & { structuredContent: Turn };
    const { reply } = result.structuredContent;
    expect(reply).toMatch(/^You have \d+ hours of PTO left\.$/);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.filter((text) => !reply.startsWith(text))).toEqual([]);
    expect(seen.at(-1)).toBe(reply);
  });

  it('lets a client whose connection dropped mid-turn resume the stream and get the reply', async () => {
    const client = await connect(ALICE);
    const id = (await call(client, 'start_conversation', { goalId: 'goal_hr_pto' })).structuredContent.conversationId;
    const headers = {
      authorization: `Bearer ${ALICE}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': (client.transport as StreamableHTTPClientTransport).sessionId!,
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    };
    const message = { name: 'send_message', arguments: { conversationId: id, text: 'balance for ada@example.com' } };
    const dropped = new AbortController();
    const res = await fetch(url, {
      method: 'POST',
      headers,
      signal: dropped.signal,
      body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: message }),
    });
    // The stream's first event (its priming event) gives the cursor; then the connection drops.
    const reader = res.body!.getReader();
    let text = '';
    while (!/\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    const cursor = parseSseFields(text.slice(0, text.indexOf('\n\n')))?.id ?? /^id: (\S+)/m.exec(text)?.[1];
    dropped.abort();
    expect(cursor).toEqual(expect.any(String));

    // As a client does after the stream's retry interval: the server may not have seen the drop at once (409 then).
    let resumed: SseStream | undefined;
    await waitUntil(
      async () => !!(resumed = await openEvents(url, { lastEventId: cursor, headers }).catch(() => undefined)),
      10_000,
    );
    resumed = resumed!;
    const answer = await resumed.next((e) => (e.data as { id?: number }).id === 99);
    resumed.close();
    const result = (answer.data as { result: { structuredContent: Turn } }).result;
    expect(result.structuredContent.reply).toMatch(/^You have \d+ hours of PTO left\.$/);
  });

  it("passes a running tool's question on through elicitation, or answers it with answer_question", async () => {
    const asking = await connect(ALICE, (message) =>
      /asking__greet asks: What is your name\?/.test(message)
        ? { action: 'accept', content: { name: 'Ada' } }
        : { action: 'decline' },
    );
    const greeted = await call(asking, 'start_conversation', { goalId: 'goal_general', message: 'greet me' });
    expect(greeted.structuredContent).toMatchObject({
      reply: 'Hello, Dr Ada!',
      answered: [{ tool: 'asking__greet', action: 'accept' }],
    });
    expect(greeted.structuredContent.question).toBeUndefined();

    // A client that cannot ask gets the question, the form's schema with it, and answers it itself.
    const plain = await connect(ALICE);
    const started = await call(plain, 'start_conversation', { goalId: 'goal_general', message: 'greet me' });
    const question = started.structuredContent.question!;
    expect(question).toMatchObject({
      tool: 'asking__greet',
      kind: 'form',
      message: 'What is your name?',
      schema: { properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const id = started.structuredContent.conversationId;
    expect((await call(plain, 'get_status', { conversationId: id })).structuredContent).toMatchObject({
      question: { questionId: question.questionId },
    });
    const answered = await call(plain, 'answer_question', {
      conversationId: id,
      questionId: question.questionId,
      action: 'accept',
      content: { name: 'Grace', title: 'Ms' },
    });
    expect(answered.structuredContent).toMatchObject({ reply: 'Hello, Ms Grace!' });
  });

  it('refuses a missing or unknown key, and another owner’s conversation', async () => {
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    };
    expect((await fetch(url, init)).status).toBe(401);
    const wrong = await fetch(url, {
      ...init,
      headers: { ...init.headers, authorization: 'Bearer not-a-key-0123456789' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const inspector = await inspect(url, { method: 'tools/list' });
    expect(inspector.code).not.toBe(0);
    // It reports the server's 401 refusal (its body), as it prints any failed connection.
    expect(inspector.stdout + inspector.stderr).toMatch(/needs Authorization: Bearer <key>/);

    const alice = await connect(ALICE);
    const started = await call(alice, 'start_conversation', {
      goalId: 'goal_hr_pto',
      message: `book ${week(10)} to ${week(10)} for ada@example.com`,
    });
    const id = started.structuredContent.conversationId as string;
    const bob = await connect(BOB);
    for (const [tool, args] of [
      ['get_history', {}],
      ['get_status', {}],
      ['send_message', { text: 'hello' }],
      ['approve_call', {}],
      ['end_conversation', {}],
    ] as const) {
      const refused = await call(bob, tool, { conversationId: id, ...args });
      expect(refused).toMatchObject({ isError: true, content: [{ text: `No conversation with id ${id}.` }] });
    }
    expect((await call(bob, 'list_conversations', {})).structuredContent.conversations).toEqual([]);
    // Nor can Bob's key ride on Alice's session.
    const aliceSession = (alice.transport as StreamableHTTPClientTransport).sessionId!;
    const riding = await fetch(url, {
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${BOB}`, 'mcp-session-id': aliceSession },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(riding.status).toBe(404);
    // Still pending: nothing Bob did reached it.
    expect((await call(alice, 'get_status', { conversationId: id })).structuredContent).toMatchObject({
      state: 'awaiting_approval',
      pendingApproval: { tool: 'BookPTO' },
    });
  });
});
