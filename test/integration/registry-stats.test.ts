// The registry's figures against a scripted run with known counts, on a real dev server, two worker processes, a real
// MCP server over HTTP and a price table: two conversations, 6 turns, 9 model calls, 3 MCP tool calls of which 1
// fails. The API (?stats=1) and the CLI (--stats --json) say exactly that, with the cost the conversations themselves
// kept; after one worker is killed (SIGKILL) and another started, and through a second API on its own connection,
// they say the same. A delegation counts each delegate once, under its own agent. A schedule's run is counted under
// its schedule, and its run view says who started it. The pages in Chromium (desktop and 390 px): filtered, sorted,
// no sideways scroll.
// SAVE_SCREENSHOTS=1 writes docs/screenshots/registry-*.png.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser } from 'playwright-core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { serveMcpOverHttp, type HttpMcpServer } from '../../demo/serve';
import { usageQuery } from '../../core/messages';
import type { AgentListing, EndpointListing, ToolListing } from '../../core/listings';
import type { Usage } from '../../core/types';
import { addUsage, ZERO_USAGE } from '../../core/usage';
import { startApi, type RunningApi } from '../../api/server';
import { readApiSettings } from '../../api/api-settings';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { Listings } from '../../client/listings';
import { Schedules } from '../../client/schedules';
import type { Transcript } from '../../core/conversation-types';
import { ptoScript } from '../fixtures/scripts';
import { delegationGoalsDir, delegationScript } from '../fixtures/delegation';
import { scriptedWorkerSettings, startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { builtWebChat } from '../../testkit/web-build';
import { runCli } from '../helpers/cli';
import { say, startConversation, startConversationForFaults, waitUntil } from '../helpers/conversation';
import { launchBrowser, openPage, screenshot, scrollWidth } from '../helpers/browser';

/** Dollars per million tokens. */
const PRICE = { input: 1_000, output: 2_000 };

const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi.' } },
    { user: 'note (\\S+)', reply: { toolCalls: [{ tool: 'notes__add', args: { text: '{{1}}' } }] } },
    { afterTool: 'notes__add', outcome: 'ok', reply: { text: 'Noted {{result.text}}.' } },
    { afterTool: 'notes__add', outcome: 'tool_error', reply: { text: 'That failed.' } },
    { user: '.', reply: { text: 'Go on.' } },
  ],
};

function notesServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool(
    'add',
    { description: 'Adds a note.', inputSchema: { text: z.string() }, annotations: { idempotentHint: true } },
    async ({ text }) =>
      text === 'boom'
        ? { isError: true, content: [{ type: 'text' as const, text: 'the notebook is full' }] }
        : { content: [{ type: 'text' as const, text: JSON.stringify({ text }) }], structuredContent: { text } },
  );
  return server;
}

/** What the figures must be, whoever reads them. */
const AGENT = { goalId: 'goal_general', conversations: 2, delegated: 0, turns: 6, modelCalls: 9, toolCalls: 3 };
const TOOL = { name: 'notes__add', kind: 'mcp', endpoint: 'notes', calls: 3, errors: 1, errorRate: 1 / 3 };
const ENDPOINT = { name: 'notes', status: 'ok', calls: 3, errors: 1 };

/** The figures that must agree exactly between readers (the window's `until` is when each read). */
function figures(agents: AgentListing, tools: ToolListing, endpoints: EndpointListing) {
  return {
    agent: agents.agents.find((a) => a.goalId === 'goal_general'),
    tool: tools.tools.find((t) => t.name === 'notes__add'),
    endpoint: endpoints.endpoints.find((e) => e.name === 'notes'),
    executions: agents.window.executions,
    runsBy: agents.runsBy,
  };
}

describe('registry figures from Temporal', () => {
  let env: TestWorkflowEnvironment;
  let notes: HttpMcpServer;
  let workers: WorkerProcess[] = [];
  let workerEnv: Record<string, string>;
  let api: RunningApi;
  let cliEnv: NodeJS.ProcessEnv;
  let spent: Usage = ZERO_USAGE;
  let webRoot: Promise<string>;
  const taskQueue = `registry-${process.pid}`;

  const get = async <T>(base: string, route: string): Promise<T> => {
    const res = await fetch(`${base}${route}`);
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const viaApi = async (base: string) =>
    figures(
      await get<AgentListing>(base, '/api/agents?stats=1'),
      await get<ToolListing>(base, '/api/tools?stats=1'),
      await get<EndpointListing>(base, '/api/endpoints?stats=1'),
    );
  const cli = async (...args: string[]) => {
    const { code, out, err } = await runCli([...args, '--json'], cliEnv);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    return JSON.parse(out);
  };
  const viaCli = async () =>
    figures(await cli('agents', '--stats'), await cli('tools', '--stats'), await cli('endpoints', '--stats'));

  beforeAll(async () => {
    webRoot = builtWebChat();
    env = await startTemporal();
    notes = await serveMcpOverHttp(notesServer, 0);
    const { dir, env: settings } = scriptedWorkerSettings('registry', {
      address: env.address,
      taskQueue,
      script,
      mcpServers: { notes: { url: notes.url, requireApproval: 'never', description: 'A notebook' } },
    });
    writeFileSync(path.join(dir, 'prices.json'), JSON.stringify({ 'scripted:*': PRICE }));
    workerEnv = { ...settings, PRICES_FILE: path.join(dir, 'prices.json'), DATA_DIR: path.join(dir, 'data') };
    workers = await Promise.all([startWorkerProcess(workerEnv), startWorkerProcess(workerEnv)]);
    cliEnv = { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: taskQueue, PATH: process.env.PATH };

    // The scripted run: A greets, notes milk, fails to note boom, chats; B greets and notes eggs.
    const a = (await startConversationForFaults(env.client, taskQueue, { goalId: 'goal_general' })).handle;
    expect((await say(a, 'note milk')).reply).toBe('Noted milk.');
    expect((await say(a, 'note boom')).reply).toBe('That failed.');
    expect((await say(a, 'hello')).reply).toBe('Go on.');
    const b = (await startConversationForFaults(env.client, taskQueue, { goalId: 'goal_general' })).handle;
    expect((await say(b, 'note eggs')).reply).toBe('Noted eggs.');
    for (const h of [a, b]) spent = addUsage(spent, (await h.query(usageQuery)).total);
    expect(spent.costUsd).toBeGreaterThan(0);

    api = await startApi({
      agents: new AgentClient(env.client, taskQueue),
      bus: createStreamBus(undefined),
      defaultGoal: 'goal_general',
      webRoot: await webRoot,
      settings: { ...readApiSettings({}), port: 0, host: '127.0.0.1', keys: null },
    });
  }, 240_000);
  afterAll(async () => {
    await api?.close();
    await Promise.all(workers.map((w) => w.kill()));
    await notes?.close();
    await env?.teardown();
  });

  let first: Awaited<ReturnType<typeof viaApi>>;

  it('counts the scripted run exactly over the API: turns, calls, errors, cost at the table price', async () => {
    first = await viaApi(api.url);
    expect(first.agent).toMatchObject({ ...AGENT, source: 'code' });
    // The cost and tokens the conversations kept themselves, from their own usage query.
    expect(first.agent!.usage.totalTokens).toBe(spent.totalTokens);
    expect(first.agent!.usage.inputTokens).toBe(spent.inputTokens);
    expect(first.agent!.usage.costUsd).toBeCloseTo(spent.costUsd!, 6);
    expect(first.agent!.usage.costUsd).toBeCloseTo(
      (spent.inputTokens * PRICE.input + spent.outputTokens * PRICE.output) / 1e6,
      6,
    );
    expect(first.tool).toMatchObject(TOOL);
    expect(first.endpoint).toMatchObject(ENDPOINT);
    // Plausible where exact cannot be: times ordered, last use just now, the failure's words kept.
    const { agent, tool, endpoint } = first;
    expect(agent!.p50TurnMs!).toBeGreaterThan(0);
    expect(agent!.p50TurnMs!).toBeLessThanOrEqual(agent!.p95TurnMs!);
    expect(tool!.p50Ms!).toBeLessThanOrEqual(tool!.p95Ms!);
    expect(Date.now() - Date.parse(agent!.lastUsed!)).toBeLessThan(120_000);
    expect(endpoint!.lastError).toMatch(/notebook is full/);
    expect(endpoint!.hours.reduce((n, h) => n + h.calls, 0)).toBe(3);
    // 2 conversations, no continue-as-new, no delegates: 2 runs read; none started by a schedule or a trigger.
    expect(first.executions).toBe(2);
    expect(first.runsBy).toEqual([]);
    // Without stats, the routes answer as before.
    expect(Array.isArray(await get(api.url, '/api/tools'))).toBe(true);
    expect(await get(api.url, '/api/agents')).toHaveProperty('goalIds');
    const bad = await fetch(`${api.url}/api/agents?stats=1&since=soon`);
    expect(bad.status).toBe(400);
  }, 60_000);

  it('says the same through the CLI, in words and as JSON', async () => {
    expect(await viaCli()).toEqual(first);
    const { out } = await runCli(['tools', '--stats'], cliEnv);
    expect(out).toMatch(/^tool +kind +endpoint +calls +errors +error % +p50 +p95 +last used$/m);
    expect(out).toMatch(/^notes__add +mcp +notes +3 +1 +33\.3% +\d+ ms/m);
    expect(out).toMatch(/2 workflow run\(s\) read$/m);
    const agents = (await runCli(['agents', '--stats'], cliEnv)).out;
    expect(agents).toMatch(/^goal_general +code +2 +6 /m);
    expect((await runCli(['endpoints', '--stats'], cliEnv)).out).toMatch(/^notes +ok +3 +1 +33\.3% .*[▪x]$/m);
    // Past the cap, the newest runs are read and the answer says so.
    const capped = await runCli(['agents', '--stats'], { ...cliEnv, REGISTRY_MAX_EXECUTIONS: '1' });
    expect(capped.out).toMatch(/: 1 workflow run\(s\) read \(the cap, 1: older runs are left out\)$/m);
    expect(capped.out).toMatch(/^goal_general +code +1 +2 /m);
  }, 60_000);

  it('says the same after a worker is killed and another started, and through a second API', async () => {
    await workers[0]!.kill();
    workers[0] = await startWorkerProcess(workerEnv);
    expect(await viaCli()).toEqual(first);
    const other = await AgentClient.connect(taskQueue, { TEMPORAL_ADDRESS: env.address });
    const second = await startApi({
      agents: other,
      bus: createStreamBus(undefined),
      defaultGoal: 'goal_general',
      settings: { ...readApiSettings({}), port: 0, host: '127.0.0.1', keys: null },
    });
    try {
      expect(await viaApi(second.url)).toEqual(first);
      // The first API again: its closed-run cache holds nothing here (both runs are open), every figure re-read.
      expect(await viaApi(api.url)).toEqual(first);
    } finally {
      await second.close();
      await other.close();
    }
  }, 120_000);

  it('counts a delegate once, as its own agent’s delegated task, and only the conversations of its task queue', async () => {
    const worker = await startWorker(env, {
      script: delegationScript,
      settings: testSettings({ AGENT_GOAL: 'goal_boss', GOALS_DIR: delegationGoalsDir() }),
    });
    try {
      const queue = worker.worker.options.taskQueue;
      const { handle } = await startConversation(env.client, queue, { goalId: 'goal_boss' });
      expect((await say(handle, 'both ada@example.com ORD-1001')).reply).toMatch(/^Boss: ok ok/);
      const spentByBoss = (await handle.query(usageQuery)).total;
      const registry = new Listings(new AgentClient(env.client, queue));
      const [{ agents, window }, { tools }] = await Promise.all([registry.agents(), registry.tools()]);
      const of = (goalId: string) => agents.find((a) => a.goalId === goalId);
      expect(of('goal_boss')).toMatchObject({ source: 'file', conversations: 1, delegated: 0, turns: 2 });
      expect(of('goal_boss')!.delegates).toEqual(expect.arrayContaining(['goal_hr_pto', 'goal_order_status']));
      expect(of('goal_hr_pto')).toMatchObject({ conversations: 1, delegated: 1, turns: 1 });
      expect(of('goal_order_status')).toMatchObject({ conversations: 1, delegated: 1, turns: 1 });
      // The boss's usage includes its delegates'; here each run's counts once, under its own agent.
      const tokens = agents.reduce((n, a) => n + a.usage.totalTokens, 0);
      expect(tokens).toBe(spentByBoss.totalTokens);
      expect(tools.find((t) => t.name === 'AskAgent')).toMatchObject({ kind: 'builtin', calls: 2, errors: 0 });
      // Three runs of this queue: the first queue's two conversations are not this worker's.
      expect(window.executions).toBe(3);
      expect(of('goal_general')?.conversations ?? 0).toBe(0);
    } finally {
      await worker.stop();
    }
  }, 60_000);

  it('counts a scheduled run under its schedule, and its run view says who started it', async () => {
    const worker = await startWorker(env, { script: ptoScript, settings: testSettings({ VALIDATE_PROMPTS: 'false' }) });
    try {
      const queue = worker.worker.options.taskQueue;
      const schedules = new Schedules(env.client, queue);
      // Yearly: nothing comes due by itself; the run is the one triggered, started exactly as a due one is.
      await schedules.create({
        name: 'balance',
        goalId: 'goal_hr_pto',
        prompt: 'balance for ada@example.com',
        cron: '0 0 1 1 *',
      });
      await schedules.trigger('balance');
      let id = '';
      await waitUntil(async () => !!(id = (await schedules.describe('balance')).recentRuns[0]?.conversationId ?? ''));
      const done = (await env.client.workflow.getHandle(id).result()) as Transcript;
      expect(done.envelope?.summary).toBe('You have 104 hours of PTO left.');

      const agents = new AgentClient(env.client, queue);
      const { agents: rows, runsBy } = await new Listings(agents).agents();
      expect(runsBy).toEqual([
        { source: 'schedule', name: 'balance', runs: 1, ok: 1, failed: 0, running: 0, lastRun: expect.any(String) },
      ]);
      // The run is a conversation of its agent's too.
      expect(rows.find((a) => a.goalId === 'goal_hr_pto')).toMatchObject({ conversations: 1, turns: 1 });
      expect((await agents.run(id)).root.startedBy).toEqual({ source: 'schedule', name: 'balance' });
      const { out } = await runCli(['agents', '--stats'], { ...cliEnv, TASK_QUEUE: queue });
      expect(out).toMatch(/^schedule balance +1 +1 +0 +0 /m);
      await schedules.delete('balance');
    } finally {
      await worker.stop();
    }
  }, 60_000);

  describe('in a browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('shows agents and tools with their figures, filtered and sorted, and endpoints with their last day', async () => {
      const { page, pageErrors, close } = await openPage(browser);
      try {
        await page.goto(`${api.url}/#/agents`);
        const row = page.locator('[data-testid="registry-row"][data-goal="goal_general"]');
        await row.waitFor();
        expect(await row.locator('td[data-col="conversations"]').innerText()).toBe('2');
        expect(await row.locator('td[data-col="turns"]').innerText()).toBe('6');
        expect(await page.getByTestId('registry-window').innerText()).toMatch(/2 workflow run\(s\) read/);
        await page.getByTestId('registry-filter').fill('general');
        expect(await page.getByTestId('registry-row').count()).toBe(1);
        await screenshot(page, 'registry-agents');

        await page.getByTestId('tools-link').click();
        const tool = page.locator('[data-testid="registry-row"][data-tool="notes__add"]');
        await tool.waitFor();
        expect(await tool.locator('td[data-col="calls"]').innerText()).toBe('3');
        expect(await tool.locator('td[data-col="errors"]').innerText()).toMatch(/^1 \(33\.3%\)$/);
        // Sorted by calls, most first: the one tool that ran is at the top; a click turns it round.
        expect(await page.getByTestId('registry-row').first().getAttribute('data-tool')).toBe('notes__add');
        await page.getByTestId('sort-calls').click();
        expect(await page.getByTestId('registry-row').last().getAttribute('data-tool')).toBe('notes__add');
        await page.getByTestId('sort-calls').click();
        await screenshot(page, 'registry-tools');

        await page.getByTestId('endpoints-link').click();
        const strip = page.locator('[data-endpoint="notes"] [data-testid="health-strip"]');
        await strip.waitFor();
        expect(await strip.getAttribute('aria-label')).toBe('3 call(s), 1 failed, in the last 24 hours');
        expect(await strip.locator('.hour.failed').count()).toBe(1);
        await screenshot(page, 'registry-endpoints');
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);

    it('reads on a 390 px phone: cards, a sort menu, no sideways scroll', async () => {
      const { page, pageErrors, close } = await openPage(browser, { width: 390, height: 844 });
      try {
        for (const p of ['agents', 'tools', 'endpoints']) {
          await page.goto(`${api.url}/#/${p}`);
          await page
            .locator(p === 'endpoints' ? '[data-testid="health-strip"]' : '[data-testid="registry-row"]')
            .first()
            .waitFor();
          expect({ page: p, width: await scrollWidth(page) }).toEqual({ page: p, width: 390 });
        }
        await page.goto(`${api.url}/#/tools`);
        await page.getByTestId('registry-sort').selectOption('tool:up');
        const names = await page
          .getByTestId('registry-row')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-tool')));
        expect(names).toEqual([...names].sort((x, y) => x!.localeCompare(y!)));
        await page.getByTestId('registry-filter').fill('notes');
        await screenshot(page, 'registry-tools-phone');
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  });
});
