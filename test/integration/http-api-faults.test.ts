// An HTTP API write at the worst moment: the POST reaches the server, its answer never comes back, and the worker
// process is SIGKILLed. By default the call is not sent again (a POST gets one attempt): the new worker's turn tells
// the user it may or may not have run, and the server sees one POST, with an Idempotency-Key naming the call. To an API
// whose entry says it honours that key (`idempotencyKeys: true`), the new worker sends the POST again with the same
// key; the server, which de-duplicates by key, answers with what the first POST created: one pet, and the turn ends
// with it. Real dev server, real worker processes, the API described by an OpenAPI document and served by local HTTP
// servers that record requests.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { confirmSignal } from '../../core/messages';
import {
  history,
  say,
  startedAttempts,
  toolOutcomes,
  waitForUser,
  startConversationForFaults,
} from '../helpers/conversation';
import { startTemporal } from '../../testkit/temporal';
import { waitUntil } from '../../testkit/wait-until';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

const GOAL = 'goal_pet_shop';
/** The same shop through an API entry with idempotencyKeys: true, to a server that de-duplicates by key. */
const KEYED_GOAL = 'goal_keyed_pet_shop';
const PETSTORE = path.join(__dirname, '..', 'fixtures', 'openapi', 'petstore.json');

const script: ScriptInput = {
  rules: [
    {
      goal: GOAL,
      user: 'add a pet',
      reply: { toolCalls: [{ tool: 'pets__createPet', args: { body: { name: 'Rex' } } }] },
    },
    { goal: GOAL, afterTool: 'pets__createPet', outcome: 'ok', reply: { text: 'Rex is in the shop.' } },
    {
      goal: GOAL,
      afterTool: 'pets__createPet',
      outcome: 'tool_error',
      reply: { text: 'I could not confirm Rex was added: {{outcome.error}}' },
    },
    { goal: GOAL, reply: { text: 'Hello! Which pet shall I add?' } },
    {
      goal: KEYED_GOAL,
      user: 'add a pet',
      reply: { toolCalls: [{ tool: 'keyed__createPet', args: { body: { name: 'Rex' } } }] },
    },
    {
      goal: KEYED_GOAL,
      afterTool: 'keyed__createPet',
      outcome: 'ok',
      reply: { text: 'Rex is in the shop as pet {{result.body.id}}.' },
    },
    {
      goal: KEYED_GOAL,
      afterTool: 'keyed__createPet',
      outcome: 'tool_error',
      reply: { text: 'I could not confirm Rex was added: {{outcome.error}}' },
    },
    { goal: KEYED_GOAL, reply: { text: 'Hello! Which pet shall I add?' } },
  ],
};

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * The petstore, recording every request; the first POST /pets of a key creates a pet and is held forever (its answer
 * is lost). With `dedupe`, a POST with a key seen before answers with the pet that key created, as APIs that honour
 * idempotency keys do; without, it would be held too.
 */
async function startPetstore(dedupe = false) {
  const seen: Seen[] = [];
  const held: ServerResponse[] = [];
  const created = new Map<string, { id: number; name: string }>();
  const server: Server = createServer((req, res) => {
    req.resume();
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const url = new URL(req.url ?? '/', 'http://localhost');
    const key = String(req.headers['idempotency-key']);
    if (req.method === 'POST' && url.pathname === '/pets' && dedupe && created.has(key)) json(201, created.get(key));
    else if (req.method === 'POST' && url.pathname === '/pets') {
      created.set(key, { id: created.size + 1, name: 'Rex' });
      held.push(res);
    } else if (req.method === 'GET' && url.pathname === '/pets') json(200, [{ id: 1, name: 'Tom' }]);
    else if (req.method === 'GET' && /^\/pets\/\d+$/.test(url.pathname)) json(200, { id: 1, name: 'Tom' });
    else if (req.method === 'DELETE' && /^\/pets\/\d+$/.test(url.pathname)) res.writeHead(204).end();
    else json(404, { message: 'No such route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, held, created };
}

describe('HTTP API: the worker dies after sending a POST, before its answer', () => {
  let env: TestWorkflowEnvironment;
  let petstore: Awaited<ReturnType<typeof startPetstore>>;
  /** The same API, de-duplicating by key, registered with idempotencyKeys: true. */
  let keyedStore: Awaited<ReturnType<typeof startPetstore>>;
  let workerEnv: Record<string, string>;
  const running: WorkerProcess[] = [];

  beforeAll(async () => {
    [env, petstore, keyedStore] = await Promise.all([startTemporal(), startPetstore(), startPetstore(true)]);
    const dir = mkdtempSync(path.join(tmpdir(), 'http-api-faults-'));
    const goalsDir = path.join(dir, 'goals');
    mkdirSync(goalsDir);
    mkdirSync(path.join(dir, 'tools'));
    writeFileSync(path.join(dir, 'script.json'), JSON.stringify(script));
    writeFileSync(
      path.join(dir, 'mcp.json'),
      JSON.stringify({
        mcpServers: {},
        httpApis: {
          pets: { openapi: PETSTORE, baseUrl: petstore.url, timeoutMs: 60_000 },
          keyed: { openapi: PETSTORE, baseUrl: keyedStore.url, timeoutMs: 60_000, idempotencyKeys: true },
        },
      }),
    );
    for (const [id, api] of [
      [GOAL, 'pets'],
      [KEYED_GOAL, 'keyed'],
    ])
      writeFileSync(
        path.join(goalsDir, `${id}.json`),
        JSON.stringify({
          id,
          category: 'general',
          agentName: 'Pet shop',
          agentFriendlyDescription: 'Adds pets to the pet store.',
          description: `Add the pets the user names with ${api}__createPet.`,
          starterPrompt: 'Greet the user and ask which pet to add.',
          mcp: { servers: [api] },
        }),
      );
    workerEnv = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: `http-api-faults-${process.pid}`,
      AGENT_GOAL: GOAL,
      DATA_DIR: dir,
      GOALS_DIR: goalsDir,
      TOOLS_DIR: path.join(dir, 'tools'),
      MCP_ENDPOINTS_FILE: path.join(dir, 'mcp.json'),
      LLM_MODEL: `scripted:${path.join(dir, 'script.json')}`,
      VALIDATE_PROMPTS: 'false',
    };
  });
  afterAll(async () => {
    for (const w of running) await w.kill();
    for (const store of [petstore, keyedStore]) {
      for (const res of store?.held ?? []) res.destroy();
      store?.server.closeAllConnections();
      await new Promise((resolve) => store?.server.close(resolve) ?? resolve(undefined));
    }
    await env?.teardown();
  });

  /** A worker process; `queue` apart, so a test kills the worker it knows holds its call. */
  const worker = async (queue = workerEnv.TASK_QUEUE!) => {
    const w = await startWorkerProcess({ ...workerEnv, TASK_QUEUE: queue });
    running.push(w);
    return w;
  };
  const posts = (store = petstore) => store.seen.filter((r) => r.method === 'POST' && r.url === '/pets');

  it('sends the POST once and tells the user it may have run', async () => {
    const first = await worker();
    const { handle } = await startConversationForFaults(env.client, workerEnv.TASK_QUEUE!, { goalId: GOAL });
    const asked = await say(handle, 'Please add a pet called Rex');
    expect(asked.pendingToolCall?.tool).toBe('pets__createPet'); // a write asks first

    await handle.signal(confirmSignal, { approve: true });
    await waitUntil(async () => posts().length === 1, 20_000);
    await first.kill();
    await worker();

    // The heartbeat timeout (HEARTBEAT_TIMEOUT) notices the dead worker; the POST gets no second attempt.
    const reply = await waitForUser(handle, 40_000).catch((err: Error) => err);
    expect(posts()).toHaveLength(1);
    expect(reply).not.toBeInstanceOf(Error);
    expect((reply as { reply: string }).reply).toMatch(
      /^I could not confirm Rex was added: The call to pets\/createPet was sent, then lost \(.*\); it may or may not have run/,
    );

    const [post] = posts();
    const key = String(post!.headers['idempotency-key']);
    expect(key.startsWith('pets__createPet-')).toBe(true);
    expect(key).toContain(handle.workflowId);
    expect(post!.headers['content-type']).toBe('application/json');

    expect(toolOutcomes(await history(handle), 'pets__createPet')).toMatchObject([
      { outcome: { status: 'tool_error', error: expect.stringContaining('may or may not have run') } },
    ]);
    expect(await startedAttempts(handle, 'callHttpTool')).toEqual([1]);
  }, 90_000);

  it('sends the POST again with the same key to an API that honours it: created once, and the turn ends with it', async () => {
    const queue = `${workerEnv.TASK_QUEUE}-keyed`;
    const first = await worker(queue);
    const { handle } = await startConversationForFaults(env.client, queue, { goalId: KEYED_GOAL });
    const asked = await say(handle, 'Please add a pet called Rex');
    expect(asked.pendingToolCall?.tool).toBe('keyed__createPet'); // a write still asks first

    await handle.signal(confirmSignal, { approve: true });
    await waitUntil(async () => posts(keyedStore).length === 1, 20_000);
    await first.kill();
    await worker(queue);

    // The heartbeat timeout notices the dead worker; the next attempt sends the POST again, with the same key, and
    // the server answers with the pet the first one created.
    const reply = await waitForUser(handle, 40_000);
    expect(reply?.reply).toBe('Rex is in the shop as pet 1.');
    const sent = posts(keyedStore);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers['idempotency-key']).toBe(sent[0]!.headers['idempotency-key']);
    expect(String(sent[0]!.headers['idempotency-key'])).toContain(handle.workflowId);
    expect([...keyedStore.created.values()]).toEqual([{ id: 1, name: 'Rex' }]);
    expect(toolOutcomes(await history(handle), 'keyed__createPet')).toMatchObject([
      { outcome: { status: 'ok', result: { status: 201, body: { id: 1, name: 'Rex' } } } },
    ]);
    expect(await startedAttempts(handle, 'callHttpTool')).toEqual([2]); // history keeps the last attempt's start
  }, 90_000);
});
