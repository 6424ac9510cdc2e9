// The tool pipeline (activities/tool-pipeline.ts) on a real dev server and worker: the same echo tool as each kind
// there is — a native tool, an MCP server's tool (a stdio process), an HTTP API's operation (a local server and its
// OpenAPI document) and a made tool (in the sandbox) — goes through the same steps: a hook that rewrites arguments, a
// hook that blocks, the hooks told the conversation's goal, a failure, and a result over CLAIM_CHECK_CHARS kept whole
// for the conversation's owner (read through the API by that owner, 404 to another). Before the pipeline, the HTTP
// API's, native and made tools' hooks were not told the goal, and a made tool's big result was cut, not kept.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { ApiKeys } from '../../api/auth';
import { startApi, type RunningApi } from '../../api/server';
import { openBlobStore } from '../../blobs';
import { AgentClient } from '../../client/agent-client';
import { defineHook } from '../../core/hooks';
import { defineTool, ToolError } from '../../tools/define-tool';
import { MadeTools } from '../../tools/made/made-tools';
import { loadNativeTools, ToolRegistry } from '../../tools/tool-registry';
import { history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const TSX = ['--require', 'tsx/cjs'];
const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef0';
const CLAIM_CHECK_CHARS = 2_000;
const BIG = 5_000;

/** Each kind's echo, as the model calls it. */
const KINDS = [
  { kind: 'native', tool: 'Echo' },
  { kind: 'MCP', tool: 'echo__echo' },
  { kind: 'HTTP API', tool: 'echoapi__echo' },
  { kind: 'made', tool: 'echo_made' },
] as const;

const goal = {
  id: 'goal_echo_kinds',
  category: 'test',
  agentName: 'Echo',
  agentFriendlyDescription: 'Echoes through every kind of tool.',
  description: 'Calls the echo tool the user names.',
  starterPrompt: 'Greet the user.',
  tools: ['Echo', 'echo_made'],
  mcp: { servers: ['echo', 'echoapi'] },
};

/** "<tool> <text> <size>" calls that tool; its outcome is answered in words. */
const script: ScriptInput = {
  rules: [
    { user: '^Greet', reply: { text: 'Hi.' } },
    ...KINDS.map(({ tool }) => ({
      user: `^${tool} (\\S+) (\\d+)$`,
      reply: { toolCalls: [{ tool, args: { text: '{{1}}', size: '{{2}}' } }] },
    })),
    { outcome: 'ok', reply: { text: 'Done.' } },
    { outcome: 'tool_error', reply: { text: 'It failed.' } },
  ],
};

const echoed = (text: string, size: string) => {
  if (text === 'fail') return null;
  return { text, pad: 'x'.repeat(Number(size)) };
};

/** Runs of each kind whose code we hold (the MCP server is a process of its own, the made tool a sandbox). */
const runs = { native: [] as string[], http: [] as string[] };

const nativeEcho = defineTool({
  name: 'Echo',
  description: 'The text back, padded with size x characters.',
  category: 'test',
  readOnly: true,
  input: z.object({ text: z.string(), size: z.string() }),
  async run({ text, size }) {
    runs.native.push(text);
    const answer = echoed(text, size);
    if (!answer) throw new ToolError('echo failed, as asked');
    return answer;
  },
});

const OPENAPI = {
  openapi: '3.0.3',
  info: { title: 'Echo API', version: '1.0.0' },
  paths: {
    '/echo': {
      get: {
        operationId: 'echo',
        summary: 'The text back, padded with size x characters.',
        parameters: ['text', 'size'].map((name) => ({ name, in: 'query', required: true, schema: { type: 'string' } })),
        responses: {
          '200': { description: 'The echo', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
  },
};

const MADE_ECHO = {
  name: 'echo_made',
  description: 'The text back, padded with size x characters.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' }, size: { type: 'string' } },
    required: ['text', 'size'],
    additionalProperties: false,
  },
  code: [
    "if (input.text === 'fail') throw new Error('echo failed, as asked');",
    "return { text: input.text, pad: 'x'.repeat(Number(input.size)) };",
  ].join('\n'),
  examples: ['a', 'b', 'c'].map((text) => ({ input: { text, size: '1' }, output: { text, pad: 'x' } })),
};

describe('every kind of tool goes through the one pipeline', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let echoApi: Server;
  let api: RunningApi;
  /** What the beforeToolCall hook was told: tool and goal. */
  const seen: { tool: string; goalId?: string }[] = [];

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tool-kinds-'));
    echoApi = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const text = url.searchParams.get('text') ?? '';
      runs.http.push(text);
      const answer = echoed(text, url.searchParams.get('size') ?? '0');
      res.writeHead(answer ? 200 : 422, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer ?? { error: 'echo failed, as asked' }));
    });
    await new Promise<void>((resolve) => echoApi.listen(0, '127.0.0.1', resolve));
    writeFileSync(path.join(dir, 'echo.json'), JSON.stringify(OPENAPI));
    writeFileSync(
      path.join(dir, 'mcp.json'),
      JSON.stringify({
        mcpServers: { echo: { command: process.execPath, args: [...TSX, 'test/fixtures/mcp/echo-server.ts'] } },
        httpApis: {
          echoapi: {
            openapi: path.join(dir, 'echo.json'),
            baseUrl: `http://127.0.0.1:${(echoApi.address() as AddressInfo).port}`,
          },
        },
      }),
    );
    writeFileSync(path.join(dir, `${goal.id}.json`), JSON.stringify(goal));
    const settings = testSettings({
      AGENT_GOAL: goal.id,
      GOALS_DIR: dir,
      MCP_ENDPOINTS_FILE: path.join(dir, 'mcp.json'),
      VALIDATE_PROMPTS: 'false',
      SHOW_CONFIRM: 'false',
      CLAIM_CHECK_CHARS: String(CLAIM_CHECK_CHARS),
    });
    const made = new MadeTools({ ...settings.madeTools, reserved: () => null });
    const created = await made.create(MADE_ECHO, {
      createdBy: 'tool-kinds-test',
      callId: 'call-1',
      createdAt: new Date().toISOString(),
      request: 'an echo',
    });
    expect(created).toMatchObject({ name: 'echo_made' });
    env = await startTemporal();
    worker = await startWorker(env, {
      script,
      settings,
      tools: new ToolRegistry([...loadNativeTools().all(), nativeEcho]),
      hooks: [
        defineHook({
          name: 'echo-guard',
          on: 'beforeToolCall',
          run: ({ tool, args }, ctx) => {
            seen.push({ tool, ...(ctx.goalId ? { goalId: ctx.goalId } : {}) });
            if (args.text === 'forbidden') return { block: 'forbidden words are not echoed' };
            if (args.text === 'secret') return { rewrite: { args: { ...args, text: 'hidden' } }, note: 'hid a secret' };
            return undefined;
          },
        }),
      ],
    });
    const agents = new AgentClient(env.client, settings.taskQueue, { files: openBlobStore(settings.files.blobs) });
    api = await startApi({
      agents,
      bus: worker.streamBus,
      defaultGoal: goal.id,
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: new ApiKeys([`alice=${ALICE}`, `bob=${BOB}`], []),
        bodyLimitBytes: 16 * 1024,
        corsOrigins: [],
      },
    });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await env?.teardown();
    await new Promise((resolve) => echoApi?.close(resolve));
  });

  /** A conversation of Alice's that calls `tool` once with `text` and `size`: that call, and the hooks' decisions. */
  async function callOnce(tool: string, text: string, size = 0) {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: goal.id,
      owner: 'alice',
    });
    await say(handle, `${tool} ${text} ${size}`);
    const messages = await history(handle);
    const [call] = toolOutcomes(messages, tool);
    expect(call).toBeDefined();
    const decisions = messages.flatMap((m) => (m.kind === 'note' && m.hook ? [m.hook] : []));
    return { ...call!, decisions };
  }

  const get = (route: string, key: string) =>
    fetch(`${api.url}${route}`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

  describe.each(KINDS)('$kind ($tool)', ({ kind, tool }) => {
    it('runs with the arguments a hook rewrote, the hook told the goal, its decision recorded', async () => {
      const call = await callOnce(tool, 'secret');
      expect(call.outcome.status).toBe('ok');
      expect(JSON.stringify(call.outcome)).toContain('hidden');
      expect(JSON.stringify(call.outcome)).not.toContain('secret');
      expect(call.decisions).toEqual([expect.objectContaining({ hook: 'echo-guard', action: 'rewrite', tool })]);
      expect(seen.filter((s) => s.tool === tool)).toContainEqual({ tool, goalId: goal.id });
    });

    it('never runs when a hook blocks it: the model reads why', async () => {
      const before = { native: runs.native.length, http: runs.http.length };
      const call = await callOnce(tool, 'forbidden');
      expect(call.outcome).toMatchObject({ status: 'tool_error', error: expect.stringContaining('forbidden words') });
      expect({ native: runs.native.length, http: runs.http.length }).toEqual(before);
    });

    it('reports a failure as the tool said it', async () => {
      const call = await callOnce(tool, 'fail');
      expect(call.outcome.status).toBe('tool_error');
      expect(JSON.stringify(call.outcome)).toContain('echo failed, as asked');
    });

    it(`keeps a result over CLAIM_CHECK_CHARS whole, for the conversation's owner only (${kind})`, async () => {
      const call = await callOnce(tool, 'big', BIG);
      expect(call.outcome.status).toBe('ok');
      const stored = call.outcome.status === 'ok' ? call.outcome.stored : undefined;
      expect(stored).toBeDefined();
      expect(stored!.size).toBeGreaterThan(BIG);
      expect(await get(`/api/files/${stored!.id}`, ALICE)).toBe(200);
      expect(await get(`/api/files/${stored!.id}`, BOB)).toBe(404);
    });
  });
});
