// An HTTP API write at the worst moment: the POST reaches the server, its answer never comes back, and the worker
// process is SIGKILLed. The call is not sent again (a POST gets one attempt): the new worker's turn tells the user it
// may or may not have run. The server sees one POST, with an Idempotency-Key naming the call. Real dev server, real
// worker processes, the API described by an OpenAPI document and served by a local HTTP server that records requests.
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
  ],
};

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** The petstore, recording every request; a POST /pets is held forever (its answer is lost). */
async function startPetstore(): Promise<{ server: Server; url: string; seen: Seen[]; held: ServerResponse[] }> {
  const seen: Seen[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'POST' && url.pathname === '/pets') held.push(res);
    else if (req.method === 'GET' && url.pathname === '/pets') json(200, [{ id: 1, name: 'Tom' }]);
    else if (req.method === 'GET' && /^\/pets\/\d+$/.test(url.pathname)) json(200, { id: 1, name: 'Tom' });
    else if (req.method === 'DELETE' && /^\/pets\/\d+$/.test(url.pathname)) res.writeHead(204).end();
    else json(404, { message: 'No such route' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, held };
}

describe('HTTP API: the worker dies after sending a POST, before its answer', () => {
  let env: TestWorkflowEnvironment;
  let petstore: Awaited<ReturnType<typeof startPetstore>>;
  let workerEnv: Record<string, string>;
  const running: WorkerProcess[] = [];

  beforeAll(async () => {
    [env, petstore] = await Promise.all([startTemporal(), startPetstore()]);
    const dir = mkdtempSync(path.join(tmpdir(), 'http-api-faults-'));
    const goalsDir = path.join(dir, 'goals');
    mkdirSync(goalsDir);
    mkdirSync(path.join(dir, 'tools'));
    writeFileSync(path.join(dir, 'script.json'), JSON.stringify(script));
    writeFileSync(
      path.join(dir, 'mcp.json'),
      JSON.stringify({
        mcpServers: {},
        httpApis: { pets: { openapi: PETSTORE, baseUrl: petstore.url, timeoutMs: 60_000 } },
      }),
    );
    writeFileSync(
      path.join(goalsDir, `${GOAL}.json`),
      JSON.stringify({
        id: GOAL,
        category: 'general',
        agentName: 'Pet shop',
        agentFriendlyDescription: 'Adds pets to the pet store.',
        description: 'Add the pets the user names with pets__createPet.',
        starterPrompt: 'Greet the user and ask which pet to add.',
        mcp: { servers: ['pets'] },
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
    for (const res of petstore?.held ?? []) res.destroy();
    petstore?.server.closeAllConnections();
    await new Promise((resolve) => petstore?.server.close(resolve) ?? resolve(undefined));
    await env?.teardown();
  });

  const worker = async () => {
    const w = await startWorkerProcess(workerEnv);
    running.push(w);
    return w;
  };
  const posts = () => petstore.seen.filter((r) => r.method === 'POST' && r.url === '/pets');

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
});
