// Our agents as A2A servers (/a2a/agents/<goal>), against a real dev server and worker: the official Python SDK
// (a2a-sdk, a client we did not write) drives a turn that needs an approval over both bindings (input-required →
// answer → completed), blocking and streaming; the JavaScript SDK's client reads the cards, lists tasks page by page,
// sends without waiting, sends one message twice (one turn), and is refused without a key or for another owner's task.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ApiKeys } from '../../api/auth';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { a2a, a2aClient, Role, TaskState, type A2AClient, type Task } from '../../endpoints/a2a/sdk';
import { runA2aPython } from '../../testkit/a2a-python';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';
import { waitUntil } from '../../testkit/wait-until';
import { ptoScript } from '../fixtures/scripts';
import { openBlobStore } from '../../blobs';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef0';
const ADA = 'ada@example.com';

describe('our agents as A2A servers', () => {
  const mon = week(4);
  const tue = week(4, 1);
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  let agentUrl: string;
  let agents: AgentClient;

  beforeAll(async () => {
    env = await startTemporal();
    bus = createStreamBus();
    // Words arrive 20 ms apart, so a streamed reply comes as artifact chunks while it is written.
    const settings = testSettings({ VALIDATE_PROMPTS: 'false', SCRIPTED_STREAM_DELAY_MS: '20' });
    worker = await startWorker(env, { script: ptoScript, settings, streamBus: bus });
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
    agentUrl = `${api.url}/a2a/agents/goal_hr_pto`;
  });

  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
  });

  /** The JavaScript SDK's client, from the agent's card, with a key. */
  async function jsClient(key: string, binding: 'JSONRPC' | 'HTTP+JSON' = 'JSONRPC'): Promise<A2AClient> {
    const sdk = a2aClient();
    const withKey: typeof fetch = (url, init) =>
      fetch(url, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${key}` },
      });
    const factory = new sdk.ClientFactory({
      transports: [
        new sdk.JsonRpcTransportFactory({ fetchImpl: withKey }),
        new sdk.RestTransportFactory({ fetchImpl: withKey }),
      ],
      preferredTransports: [binding],
    });
    // The card is found below the agent's address (a relative path resolves against a folder).
    return factory.createFromUrl(`${agentUrl}/`);
  }

  const message = (text: string, more: { contextId?: string; taskId?: string; messageId?: string } = {}) => ({
    messageId: more.messageId ?? crypto.randomUUID(),
    contextId: more.contextId ?? '',
    taskId: more.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  });
  const send = (text: string, more: Parameters<typeof message>[1] = {}, returnImmediately = false) => ({
    tenant: '',
    message: message(text, more),
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately,
    },
    metadata: undefined,
  });

  it('the Python SDK books PTO over JSON-RPC: an approval is input-required, "approve" completes the same task', async () => {
    const turns = await runA2aPython(agentUrl, ALICE, 'JSONRPC', 'send', [
      `balance for ${ADA}`,
      `book ${mon} to ${tue} for ${ADA}`,
      'approve',
    ]);
    expect(turns.map((t) => t.state)).toEqual([
      'TASK_STATE_COMPLETED',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_COMPLETED',
    ]);
    expect(turns[0]!.artifact).toMatch(/^You have \d+ hours of PTO left\.$/);
    expect(turns[1]!.status).toMatch(/BookPTO|Book/);
    expect(turns[1]!.status).toMatch(/approve/);
    expect(turns[2]!.taskId).toBe(turns[1]!.taskId);
    expect(turns[2]!.artifact).toMatch(new RegExp(`^Booked ${mon} to ${tue}; \\d+ hours left\\.$`));
    // One conversation: each message after the first continued it.
    expect(new Set(turns.map((t) => t.contextId)).size).toBe(1);
    const feed = await agents.feed(turns[0]!.contextId, 0);
    expect(feed.owner).toBe('alice');
  }, 120_000);

  it('the Python SDK over HTTP+JSON, streaming: the reply comes as artifact chunks; a rejection with a reason completes the task', async () => {
    const turns = await runA2aPython(agentUrl, ALICE, 'HTTP+JSON', 'stream', [
      `balance for ${ADA}`,
      `book ${mon} to ${tue} for ${ADA}`,
      'reject: wrong week',
    ]);
    expect(turns.map((t) => t.state)).toEqual([
      'TASK_STATE_COMPLETED',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_COMPLETED',
    ]);
    expect(turns[0]!.events[0]).toBe('task');
    // Python names the events in its own case. How many chunks arrive depends on when the stream caught up with the
    // words being written (on a loaded machine, after most of them): at least the whole reply, before the status.
    expect(turns[0]!.events.filter((e) => e === 'artifact_update').length).toBeGreaterThanOrEqual(1);
    expect(turns[0]!.events.indexOf('artifact_update')).toBeLessThan(turns[0]!.events.lastIndexOf('status_update'));
    expect(turns[0]!.events.at(-1)).toBe('status_update');
    expect(turns[1]!.status).toMatch(/^Approve BookPTO/);
    expect(turns[2]!.artifact).toBe('OK, I did not book it (wrong week).');
    expect(turns[2]!.taskId).toBe(turns[1]!.taskId);
  }, 120_000);

  it('cards: one per agent with both bindings and the bearer scheme; the deployment card names every agent', async () => {
    const card = (await (await fetch(`${agentUrl}/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      name: expect.any(String),
      capabilities: { streaming: true },
      supportedInterfaces: [
        { url: agentUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `${agentUrl}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      ],
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    });
    expect((card.skills as { id: string }[]).map((s) => s.id)).toEqual(
      expect.arrayContaining(['CurrentPTO', 'BookPTO']),
    );
    const root = (await (await fetch(`${api.url}/.well-known/agent-card.json`)).json()) as { skills: { id: string }[] };
    expect(root.skills.map((s) => s.id)).toContain('goal_hr_pto');
    // A client we did not write reads it as a card.
    expect(a2a.AgentCard.fromJSON(card).supportedInterfaces).toHaveLength(2);
  });

  it('a message sent without waiting is a task at once; sent twice, it is one turn; GetTask follows it', async () => {
    const client = await jsClient(ALICE, 'HTTP+JSON');
    const first = (await client.sendMessage(send(`balance for ${ADA}`, {}, true))) as Task;
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]).toContain(
      first.status!.state,
    );
    const again = send(`balance for ${ADA}`, { contextId: first.contextId });
    const a = (await client.sendMessage(again)) as Task;
    const b = (await client.sendMessage(again)) as Task;
    expect(b.id).toBe(a.id);
    expect(a.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await waitUntil(
      async () => (await client.getTask({ tenant: '', id: first.id })).status!.state === TaskState.TASK_STATE_COMPLETED,
    );
    const users = (await agents.history(first.contextId)).filter((m) => m.kind === 'user' && !m.starter);
    expect(users).toHaveLength(2);
  }, 60_000);

  it('a first message sent twice starts one conversation; an answer that is no answer is refused in A2A terms', async () => {
    const client = await jsClient(ALICE);
    const first = send(`book ${mon} to ${tue} for ${ADA}`);
    const a = (await client.sendMessage(first)) as Task;
    const b = (await client.sendMessage(first)) as Task;
    expect(b.id).toBe(a.id);
    expect(b.contextId).toBe(a.contextId);
    expect(a.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const unclear = client.sendMessage(send('maybe later', { contextId: a.contextId, taskId: a.id }));
    await expect(unclear).rejects.toThrow(/reply "approve", or "reject: <reason>"/);
    await expect(unclear).rejects.not.toThrow(/Internal/i);
    const done = (await client.sendMessage(send('reject: not now', { contextId: a.contextId, taskId: a.id }))) as Task;
    expect(done.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
  }, 60_000);

  it('a file part is stored whole and attached to the turn; a data part is read as JSON after the words', async () => {
    const client = await jsClient(ALICE);
    const csv = Buffer.from('name,hours\nada,104\n');
    const sent = message(`balance for ${ADA}`);
    sent.parts.push(
      {
        content: { $case: 'raw' as const, value: csv } as never,
        metadata: undefined,
        filename: 'hours.csv',
        mediaType: 'text/csv',
      },
      {
        content: { $case: 'data' as const, value: { team: 'blue' } } as never,
        metadata: undefined,
        filename: '',
        mediaType: '',
      },
    );
    const task = (await client.sendMessage({ ...send(''), message: sent })) as Task;
    expect(task.status!.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const user = (await agents.history(task.contextId)).find((m) => m.kind === 'user' && !m.starter);
    expect(user).toMatchObject({
      text: `balance for ${ADA}\ndata: {"team":"blue"}`,
      attachments: [{ name: 'hours.csv', size: csv.length }],
    });
  }, 60_000);

  it('ListTasks pages through the caller’s tasks; another owner sees none of them, nor any by id; no key is refused', async () => {
    const alice = await jsClient(ALICE);
    const all = await alice.listTasks({
      tenant: '',
      contextId: '',
      status: 0,
      pageToken: '',
      statusTimestampAfter: undefined,
      pageSize: 100,
    });
    expect(all.totalSize).toBeGreaterThanOrEqual(6);
    const seen: string[] = [];
    let pageToken = '';
    do {
      const page = await alice.listTasks({
        tenant: '',
        contextId: '',
        status: 0,
        pageToken,
        statusTimestampAfter: undefined,
        pageSize: 2,
      });
      seen.push(...page.tasks.map((t) => t.id));
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(seen).toEqual(all.tasks.map((t) => t.id));

    const bob = await jsClient(BOB);
    expect(
      (await bob.listTasks({ tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined }))
        .tasks,
    ).toEqual([]);
    await expect(bob.getTask({ tenant: '', id: all.tasks[0]!.id })).rejects.toThrow(/No task/);
    const refused = await fetch(agentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
  }, 60_000);
});
