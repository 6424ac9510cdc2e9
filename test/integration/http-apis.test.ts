// HTTP APIs as tools against real third-party material over real HTTP: GitHub's official OpenAPI document
// (@octokit/openapi's, 1,223 operations; npm install takes it alone out of the package, testkit/github-openapi.ts)
// served by a Prism mock server, registered while a conversation runs. The next
// turn finds repos/get and issues/create with SearchTools and calls them (the POST after approval); the Petstore
// document is then added and removed live, the agent told each time.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { runCli } from '../helpers/cli';
import { decide, history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { GITHUB_OPENAPI_DOCUMENT as GITHUB, githubOpenApiDocument } from '../../testkit/github-openapi';
import { startPrism, type MockApi } from '../../testkit/prism';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const PETSTORE = path.join(__dirname, '..', 'fixtures', 'openapi', 'petstore.json');

const desk = {
  id: 'goal_dev_desk',
  category: 'dev',
  agentName: 'Developer desk',
  agentFriendlyDescription: 'Works with the HTTP APIs in the registry.',
  description: 'Use the HTTP API tools; find them with SearchTools.',
  starterPrompt: 'Greet the user.',
  tools: [],
  mcp: { servers: ['github', 'pets', 'echo', 'broken'] },
};

/** A secret the worker resolves from its environment for the echo API: it must never reach a history. */
const TOKEN = 'ghp_testtoken0123456789abcdefABCDEF01';

const script: ScriptInput = {
  rules: [
    { user: '^Greet', reply: { text: 'Which API?' } },
    { user: 'repo', reply: { toolCalls: [{ tool: 'SearchTools', args: { query: 'repos/get' } }] } },
    {
      user: 'repo',
      afterTool: 'SearchTools',
      reply: { toolCalls: [{ tool: 'github__repos_get', args: { owner: 'octocat', repo: 'hello' } }] },
    },
    { afterTool: 'github__repos_get', outcome: 'ok', reply: { text: 'The repo is {{result.body.full_name}}.' } },
    { user: 'issue', reply: { toolCalls: [{ tool: 'SearchTools', args: { query: 'issues/create' } }] } },
    {
      user: 'issue',
      afterTool: 'SearchTools',
      reply: {
        toolCalls: [
          { tool: 'github__issues_create', args: { owner: 'octocat', repo: 'hello', body: { title: 'Bug' } } },
        ],
      },
    },
    { afterTool: 'github__issues_create', outcome: 'ok', reply: { text: 'Opened issue #{{result.body.number}}.' } },
    { user: 'pets', reply: { toolCalls: [{ tool: 'pets__listPets', args: { limit: 2 } }] } },
    { afterTool: 'pets__listPets', outcome: 'ok', reply: { text: 'Pets answered HTTP {{result.status}}.' } },
    { afterTool: 'pets__listPets', reply: { text: 'No pets: {{outcome.problems}}' } },
    { user: 'echo', reply: { toolCalls: [{ tool: 'echo__call', args: { say: 'hi' } }] } },
    { afterTool: 'echo__call', outcome: 'ok', reply: { text: 'Echoed.' } },
    { outcome: 'tool_error', reply: { text: 'Failed: {{outcome.error}}' } },
  ],
};

describe('HTTP APIs registered while a conversation runs', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let github: MockApi;
  let pets: MockApi;
  /** Answers with the request's own headers: what a careless API does with a credential. */
  let echo: Server;
  let echoUrl: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'http-apis-'));
  const registry = path.join(dir, 'mcp_endpoints.json');
  const register = (apis: Record<string, unknown>) =>
    writeFileSync(registry, JSON.stringify({ mcpServers: {}, httpApis: apis }));

  beforeAll(async () => {
    githubOpenApiDocument(); // missing, every test fails saying how to get it
    register({});
    writeFileSync(path.join(dir, 'goal_dev_desk.json'), JSON.stringify(desk));
    process.env.HTTP_APIS_TEST_TOKEN = TOKEN;
    echo = createServer((req, res) =>
      res.setHeader('content-type', 'application/json').end(JSON.stringify(req.headers)),
    );
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as { port: number }).port}/echo`;
    [env, github, pets] = await Promise.all([startTemporal(), startPrism(GITHUB), startPrism(PETSTORE)]);
    worker = await startWorker(env, {
      script,
      settings: testSettings({
        AGENT_GOAL: 'goal_dev_desk',
        VALIDATE_PROMPTS: 'false',
        GOALS_DIR: dir,
        MCP_ENDPOINTS_FILE: registry,
      }),
    });
  }, 90_000);
  afterAll(async () => {
    await worker?.stop();
    await Promise.all([github?.stop(), pets?.stop()]);
    await new Promise((resolve) => echo?.close(resolve));
    await env?.teardown();
  });

  it('finds and calls GitHub operations on the next turn; the POST waits for approval', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_dev_desk',
    });
    register({ github: { openapi: GITHUB, baseUrl: github.url, categories: ['dev'] } });

    expect(await say(handle, 'show me the repo octocat/hello')).toMatchObject({
      reply: 'The repo is octocat/Hello-World.',
      pendingToolCall: null,
    });
    let messages = await history(handle);
    const note = messages.find((m) => m.kind === 'note' && m.text.startsWith('Tools changed'));
    expect(note).toMatchObject({ text: expect.stringMatching(/new: github__.*and 1203 more\)\.$/) });
    const found = toolOutcomes(messages, 'SearchTools')[0]!.outcome as { result: { matches: { name: string }[] } };
    expect(found.result.matches.map((t) => t.name)).toContain('github__repos_get');

    const asked = await say(handle, 'open an issue titled Bug in octocat/hello');
    expect(asked.pendingToolCall).toMatchObject({ tool: 'github__issues_create' });
    expect((await decide(handle, { approve: true })).reply).toMatch(/^Opened issue #\d+\.$/);
    messages = await history(handle);
    expect(toolOutcomes(messages, 'github__issues_create')).toMatchObject([
      { outcome: { status: 'ok', result: { status: 201 } } },
    ]);
  });

  it('adds and removes a second API live, and says so to the agent', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_dev_desk',
    });
    register({ pets: { openapi: PETSTORE, baseUrl: pets.url } });
    expect((await say(handle, 'list the pets')).reply).toBe('Pets answered HTTP 200.');
    register({});
    expect((await say(handle, 'list the pets again')).reply).toMatch(/^No pets: .*unknown tool .*pets__listPets/);
    const notes = (await history(handle)).filter((m) => m.kind === 'note').map((m) => (m as { text: string }).text);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/new: pets__listPets, pets__createPet, pets__showPetById, pets__deletePet/),
        expect.stringMatching(/no longer available: pets__listPets/),
      ]),
    );
  });

  it('shows each API in agent endpoints; a broken document is reported and the other APIs keep working', async () => {
    register({
      github: { openapi: GITHUB, baseUrl: github.url },
      pets: { openapi: PETSTORE, baseUrl: pets.url },
      broken: { openapi: path.join(dir, 'nope.json'), baseUrl: pets.url },
    });
    const cli = { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: worker.worker.options.taskQueue, PATH: process.env.PATH };
    const { code, out } = await runCli(['endpoints', '--json'], cli);
    expect(code).toBe(0);
    const endpoints = (JSON.parse(out) as { endpoints: { name: string }[] }).endpoints;
    expect(endpoints).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'github', status: 'ok', toolCount: 1223, transport: 'openapi' }),
        expect.objectContaining({ name: 'pets', status: 'ok', toolCount: 4 }),
        expect.objectContaining({
          name: 'broken',
          status: 'unavailable',
          error: expect.stringMatching(/no document at/),
        }),
      ]),
    );
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_dev_desk',
    });
    expect((await say(handle, 'list the pets')).reply).toBe('Pets answered HTTP 200.');
  });

  it('resolves a credential in the worker and scrubs it from what the API echoes back', async () => {
    register({
      echo: {
        url: echoUrl,
        method: 'POST',
        description: 'Echoes the request headers',
        auth: { bearer: '${env:HTTP_APIS_TEST_TOKEN}' },
        requireApproval: 'never',
      },
    });
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_dev_desk',
    });
    expect((await say(handle, 'echo something')).reply).toBe('Echoed.');
    const [call] = toolOutcomes(await history(handle), 'echo__call');
    expect(call).toMatchObject({ outcome: { status: 'ok', result: { status: 200 } } });
    // Payloads are base64 in the exported history: decode every one.
    const exported = JSON.stringify(await handle.fetchHistory());
    const decoded = [...exported.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)]
      .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
      .join('\n');
    // The API did receive it (its echo has an authorization header), but no history holds it.
    expect(decoded).toMatch(/"authorization":"Bearer /);
    expect(decoded).not.toContain(TOKEN);
    expect(JSON.stringify(call)).not.toContain(TOKEN);
  });
});
