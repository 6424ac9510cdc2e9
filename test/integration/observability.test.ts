// Metrics and cost on a real worker process (worker/main.ts with METRICS_PORT and PRICES_FILE), a real dev server and
// a real MCP server over HTTP: Prometheus's view of /metrics moves as conversations run; each model call's cost is
// its tokens at the price table's rates, and sums to the conversation's and the goal's; a goal's budget stops it.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { serveMcpOverHttp, type HttpMcpServer } from '../../demo/serve';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { freePort } from '../../worker/dev-server';
import { usageQuery } from '../../core/messages';
import type { ChatMessage, Usage } from '../../core/types';
import type { Transcript } from '../../core/conversation-types';
import { history, say, startConversation } from '../helpers/conversation';
import { startTemporal } from '../../testkit/temporal';
import { namesIn, scrapedNames } from '../../testkit/promql';
import { unattendedInput } from '../../client/unattended';
import { startApi } from '../../api/server';
import { readApiSettings } from '../../api/api-settings';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import dashboard from '../../config/grafana/dashboards/agent-orchestrator.json';
import { scriptedWorkerSettings, startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

/** Dollars per million tokens: a token in costs a tenth of a cent, a token out two tenths. */
const PRICE = { input: 1_000, output: 2_000 };

const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi.' } },
    { user: 'note (\\S+)', reply: { toolCalls: [{ tool: 'notes__add', args: { text: '{{1}}' } }] } },
    { afterTool: 'notes__add', outcome: 'ok', reply: { text: 'Noted {{result.text}}.' } },
    { user: '.', reply: { text: 'Go on.' } },
  ],
};

function notesServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool(
    'add',
    {
      description: 'Adds a note.',
      inputSchema: { text: z.string() },
      annotations: { idempotentHint: true, destructiveHint: false },
    },
    async ({ text }) => ({
      content: [{ type: 'text' as const, text: JSON.stringify({ text }) }],
      structuredContent: { text },
    }),
  );
  return server;
}

/** The value of one series of a Prometheus text exposition: the sum over series whose labels include `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let found = false;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) {
      total += Number(m[3]);
      found = true;
    }
  }
  return found ? total : NaN;
}

const costOf = (u: Usage) => (u.inputTokens * PRICE.input + u.outputTokens * PRICE.output) / 1_000_000;
const steps = (messages: ChatMessage[]) => messages.flatMap((m) => (m.kind === 'agent' && m.usage ? [m.usage] : []));

describe('observability: metrics, cost and budgets on a worker process', () => {
  let env: TestWorkflowEnvironment;
  let notes: HttpMcpServer;
  let worker: WorkerProcess;
  let metricsUrl: string;
  const taskQueue = `observability-${process.pid}`;
  const scrape = async () => (await fetch(metricsUrl)).text();

  beforeAll(async () => {
    env = await startTemporal();
    notes = await serveMcpOverHttp(notesServer, 0);
    const { dir, env: settings } = scriptedWorkerSettings('observability', {
      address: env.address,
      taskQueue,
      script,
      mcpServers: { notes: { url: notes.url, requireApproval: 'never' } },
    });
    writeFileSync(path.join(dir, 'prices.json'), JSON.stringify({ 'scripted:*': PRICE }));
    mkdirSync(path.join(dir, 'goals'));
    // An agent with its own budget: a cent, which its first step (the greeting, ~700 tokens in) already spends.
    writeFileSync(
      path.join(dir, 'goals', 'goal_thrifty.json'),
      JSON.stringify({
        id: 'goal_thrifty',
        category: 'general',
        agentName: 'Thrifty',
        agentFriendlyDescription: 'Spends little.',
        description: 'Answer briefly.',
        starterPrompt: 'Greet the user.',
        settings: { budget: { costUsd: 0.01 } },
      }),
    );
    const port = await freePort(0);
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    worker = await startWorkerProcess({
      ...settings,
      PRICES_FILE: path.join(dir, 'prices.json'),
      GOALS_DIR: path.join(dir, 'goals'),
      DATA_DIR: path.join(dir, 'data'),
      METRICS_PORT: String(port),
    });
  }, 120_000);
  afterAll(async () => {
    await worker?.kill();
    await notes?.close();
    await env?.teardown();
  });

  test('cost per step is its tokens at the table price; steps sum to the conversation and its goal', async () => {
    const { handle } = await startConversation(env.client, taskQueue, { goalId: 'goal_general' });
    expect((await say(handle, 'note milk')).reply).toBe('Noted milk.');
    const used = steps(await history(handle));
    expect(used.length).toBe(3); // greeting, the tool call, the answer
    for (const u of used) {
      expect(u.inputTokens).toBeGreaterThan(0);
      expect(u.costUsd).toBeCloseTo(costOf(u), 8);
    }
    const usage = await handle.query(usageQuery);
    const sum = used.reduce((s, u) => s + costOf(u), 0);
    expect(usage.total.costUsd).toBeCloseTo(sum, 6);
    expect(usage.byGoal?.goal_general?.costUsd).toBeCloseTo(sum, 6);
    expect(usage.byGoal?.goal_general?.totalTokens).toBe(usage.total.totalTokens);
    await handle.terminate();
  }, 60_000);

  test('/metrics: Temporal runtime metrics and ours, moving with a turn', async () => {
    const { handle } = await startConversation(env.client, taskQueue, { goalId: 'goal_general' });
    const before = await scrape();
    const model = { goal: 'goal_general' };
    await say(handle, 'note eggs');
    const after = await scrape();
    // Temporal's own worker metrics are there.
    expect(after).toMatch(/^temporal_\w+/m);
    expect(sample(after, 'temporal_workflow_task_execution_latency_count')).toBeGreaterThan(0);
    // A tool turn: two model calls, one MCP tool call, one turn, tokens and cost by model and goal.
    expect(
      sample(after, 'agent_llm_calls_total', { ...model, outcome: 'ok' }) -
        sample(before, 'agent_llm_calls_total', { ...model, outcome: 'ok' }),
    ).toBe(2);
    expect(
      sample(after, 'agent_tool_calls_total', { tool: 'add', server: 'notes', outcome: 'ok' }) -
        (sample(before, 'agent_tool_calls_total', { tool: 'add', server: 'notes', outcome: 'ok' }) || 0),
    ).toBe(1);
    expect(
      sample(after, 'agent_turns_total', { goal: 'goal_general', then: 'waiting_for_user' }) -
        sample(before, 'agent_turns_total', { goal: 'goal_general', then: 'waiting_for_user' }),
    ).toBe(1);
    expect(sample(after, 'agent_turn_latency_count', model) - sample(before, 'agent_turn_latency_count', model)).toBe(
      1,
    );
    expect(sample(after, 'agent_llm_tokens_total', { ...model, direction: 'input' })).toBeGreaterThan(
      sample(before, 'agent_llm_tokens_total', { ...model, direction: 'input' }),
    );
    // Counted for every call, 0 here: the scripted model reports no input read from a prompt cache.
    expect(sample(after, 'agent_llm_cached_input_tokens_total', model)).toBe(0);
    const usage = await handle.query(usageQuery);
    // The conversations so far: cost by goal on the worker is what they spent.
    expect(sample(after, 'agent_llm_cost_usd_sum', model)).toBeGreaterThanOrEqual(usage.total.costUsd!);
    expect(sample(after, 'agent_mcp_endpoint_up', { endpoint: 'notes' })).toBe(1);
    expect(sample(after, 'agent_mcp_endpoint_tools', { endpoint: 'notes' })).toBe(1);
    await handle.terminate();
  }, 60_000);

  test('the Grafana dashboard names only metrics and labels a real scrape of a worker and the API exposes', async () => {
    // A turn with a tool call, so every series of ours has samples; an API over the same conversations, asked once.
    const { handle } = await startConversation(env.client, taskQueue, { goalId: 'goal_general' });
    await say(handle, 'note tea');
    // A run a trigger started (as POST /api/triggers does), counted by trigger and outcome.
    const run = unattendedInput({
      goalId: 'goal_general',
      prompt: 'note tea',
      run: { source: 'trigger', name: 'observed', approvals: 'deny' },
    });
    await env.client.workflow.execute('AgentGoalWorkflow', { taskQueue, workflowId: 'trig-observed.k1', args: [run] });
    const bus = createStreamBus(undefined);
    const agents = new AgentClient(env.client, taskQueue);
    const api = await startApi({
      agents,
      bus,
      defaultGoal: 'goal_general',
      settings: { ...readApiSettings({}), port: 0, host: '127.0.0.1', keys: null },
    });
    try {
      await fetch(`${api.url}/api/conversations/${handle.workflowId}`);
      const exposed = new Map([
        ...scrapedNames(await scrape()),
        ...scrapedNames(await (await fetch(`${api.url}/metrics`)).text()),
      ]);
      const queries = dashboard.panels.flatMap((p) => p.targets.map((t) => ({ panel: p.title, ...namesIn(t.expr) })));
      for (const q of queries) {
        const missing = q.metrics.filter((m) => !exposed.has(m));
        const seen = new Set(q.metrics.flatMap((m) => [...(exposed.get(m) ?? [])]));
        const unknownLabels = q.labels.filter((l) => !seen.has(l));
        expect({ panel: q.panel, errors: q.errors, missing, unknownLabels }).toEqual({
          panel: q.panel,
          errors: [],
          missing: [],
          unknownLabels: [],
        });
      }
    } finally {
      await api.close();
      await bus.close();
      await handle.terminate();
    }
  }, 60_000);

  test("the image's health check: healthy while the worker serves its metrics, unhealthy when nothing answers; it says the worker's build", async () => {
    const check = (env: Record<string, string>) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'worker/healthcheck.ts'], {
          cwd: path.join(__dirname, '..', '..'),
          env: { PATH: process.env.PATH ?? '', ...env },
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        let out = '';
        child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
        child.once('exit', (code) => resolve({ code, out }));
      });
    const worker = { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: taskQueue, ENV_FILE: '/dev/null' };
    const healthy = await check({ METRICS_PORT: new URL(metricsUrl).port, ...worker });
    expect(healthy.code).toBe(0);
    expect(healthy.out).toMatch(new RegExp(`^healthy; build \\S+ of deployment ${taskQueue}: current\\n$`));
    expect((await check({ METRICS_PORT: new URL(metricsUrl).port, ...worker, WORKER_VERSIONING: 'off' })).out).toBe(
      'healthy; unversioned (WORKER_VERSIONING=off)\n',
    );
    expect((await check({ METRICS_PORT: String(await freePort(0)) })).code).toBe(1);
    expect(await check({ HEALTHCHECK_URL: metricsUrl })).toEqual({ code: 0, out: '' });
  }, 30_000);

  test("a goal's budget stops the conversation with a clear message", async () => {
    const { handle, greeting } = await startConversation(env.client, taskQueue, { goalId: 'goal_thrifty' });
    expect(greeting?.reply).toBe('Hi.');
    const reply = await say(handle, 'hello again');
    expect(reply.ended).toBe(true);
    expect(reply.reply).toMatch(
      /^This conversation has used its budget: \$0\.\d{4} of its \$0\.0100 \(the Thrifty agent's budget\)\. I have stopped here; start a new conversation to go on\.$/,
    );
    const transcript = (await handle.result()) as Transcript;
    expect(transcript.endedBy).toBe('budget');
    // The greeting was the only model call: the prompt after it never reached the model.
    expect(steps(transcript.messages)).toHaveLength(1);
  }, 60_000);
});
