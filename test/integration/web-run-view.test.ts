// The run view in the web chat (headless Chromium, the API, a real dev server, real worker processes, the scripted
// model): an orchestrator hands two tasks of one step to two delegates at once; the PTO assistant's booking waits for
// the user's approval while the order agent works. The view shows both branches live, the wait in amber, then
// everything done with totals (time, tokens, cost at the configured prices) and a Temporal UI link per workflow. Then
// the same turn with the worker SIGKILLed while the order agent's model call streams: the next worker retries it, the
// view shows attempt 2 and why, and the run ends with the same steps and statuses as without the kill.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { delegationGoalsDir } from '../fixtures/delegation';
import { launchBrowser, openPage, screenshot, scrollWidth, SCREENSHOTS_DIR, type OpenedPage } from '../helpers/browser';
import { startTemporal } from '../../testkit/temporal';
import { week } from '../../testkit/days';
import { builtWebChat } from '../../testkit/web-build';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

const UI = 'http://temporal-ui.test:8233';
const EMAIL = '([\\w.]+@[\\w.]+\\w)';
const ask = (goalId: string, task: string) => ({ tool: 'AskAgent', args: { goalId, task } });
/** The order agent's answer: long enough, streamed a chunk per pause, for a kill to land while it is written. */
const ORDER_REPLY = `{{result.id}} is {{result.status}}. ${'It left the warehouse and is on its way to you. '.repeat(3)}`;

const script: ScriptInput = {
  rules: [
    { goal: 'goal_boss', user: '^Greet the user', reply: { text: 'Boss here.' } },
    {
      goal: 'goal_boss',
      user: `take (\\S+) off for ${EMAIL} and check (ORD-\\d+)`,
      reply: {
        toolCalls: [ask('goal_hr_pto', 'book {{1}} to {{1}} for {{2}}'), ask('goal_order_status', 'where is {{3}}')],
      },
    },
    { goal: 'goal_boss', afterTool: 'AskAgent', reply: { text: 'Both done.' } },
    {
      goal: 'goal_hr_pto',
      user: `book (\\S+) to (\\S+) for ${EMAIL}`,
      reply: { toolCalls: [{ tool: 'BookPTO', args: { email: '{{3}}', startDate: '{{1}}', endDate: '{{2}}' } }] },
    },
    { goal: 'goal_hr_pto', afterTool: 'BookPTO', outcome: 'ok', reply: { text: 'Booked.' } },
    {
      goal: 'goal_order_status',
      user: 'where is (ORD-\\d+)',
      reply: { toolCalls: [{ tool: 'GetOrder', args: { orderId: '{{1}}' } }] },
    },
    { goal: 'goal_order_status', afterTool: 'GetOrder', outcome: 'ok', reply: { text: ORDER_REPLY } },
  ],
  fallback: { text: 'Say that again?' },
};

// What the tests read in the page (their TypeScript has no DOM types; these functions run in the page).
const kindsAndStatuses = (es: unknown[]) =>
  es.map((e) => {
    const d = (e as { dataset: Record<string, string> }).dataset;
    return `${d.kind} ${d.status}`;
  });
const colour = (l: Locator) =>
  l.evaluate((e) => {
    const el = e as unknown as { ownerDocument: { defaultView: { getComputedStyle(x: unknown): { color: string } } } };
    return el.ownerDocument.defaultView.getComputedStyle(el).color;
  });

/** docs/screenshots/<name>.png of one part of the page, only when SAVE_SCREENSHOTS=1 (as `screenshot` does). */
async function shoot(part: Locator, name: string): Promise<void> {
  if (process.env.SAVE_SCREENSHOTS !== '1') return;
  await part.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

/** A step as the page shows it, under the agent whose branch holds it. */
type Shape = string[];

describe('web chat: the run view', () => {
  let env: TestWorkflowEnvironment;
  let bus: StreamBus;
  let api: RunningApi;
  let browser: Browser;
  let webRoot: string;
  let workerEnv: Record<string, string>;
  const work = mkdtempSync(path.join(tmpdir(), 'web-run-view-'));
  const workers: WorkerProcess[] = [];
  const opened: OpenedPage[] = [];
  /** The first test's run, which the run with a kill must end the same as. */
  let unbroken: Shape[] = [];

  beforeAll(async () => {
    const built = builtWebChat();
    writeFileSync(path.join(work, 'script.json'), JSON.stringify(script));
    // Prices for the scripted model, so the view has costs to show.
    writeFileSync(path.join(work, 'prices.json'), JSON.stringify({ 'scripted:*': { input: 3, output: 15 } }));
    [env, browser] = await Promise.all([startTemporal(), launchBrowser()]);
    workerEnv = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: `web-run-view-${process.pid}`,
      AGENT_GOAL: 'goal_boss',
      GOALS_DIR: delegationGoalsDir(),
      DATA_DIR: work,
      LLM_MODEL: `scripted:${path.join(work, 'script.json')}`,
      PRICES_FILE: path.join(work, 'prices.json'),
      SCRIPTED_STREAM_DELAY_MS: '400',
      VALIDATE_PROMPTS: 'false',
      SHOW_CONFIRM: 'true',
      MCP_ENDPOINTS_FILE: path.join(work, 'no-mcp-endpoints.json'),
    };
    const [worker] = await Promise.all([startWorkerProcess(workerEnv), built.then((root) => (webRoot = root))]);
    workers.push(worker);
    bus = createStreamBus();
    api = await startApi({
      agents: new AgentClient(env.client, workerEnv.TASK_QUEUE!),
      bus,
      defaultGoal: 'goal_boss',
      feedTiming: { busyMs: 50, idleMs: 200 },
      webRoot,
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: null,
        bodyLimitBytes: 64 * 1024,
        corsOrigins: [],
        temporalUiUrl: UI,
      },
    });
  }, 120_000);

  afterAll(async () => {
    for (const p of opened) await p.close().catch(() => {});
    await browser?.close();
    await api?.close();
    for (const w of workers) await w.kill();
    await bus?.close();
    await env?.teardown();
    rmSync(work, { recursive: true, force: true });
  });

  afterEach(async () => {
    const errors = opened.flatMap((p) => p.pageErrors);
    for (const p of opened.splice(0)) await p.close().catch(() => {});
    expect(errors).toEqual([]);
  });

  /** A new conversation with the orchestrator, its run view open beside the transcript. */
  /** Tall enough for the whole tree of a turn to show beside the transcript. */
  async function openRun(id: string, size = { width: 1280, height: 1100 }): Promise<Page> {
    const res = await fetch(`${api.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ conversationId: id, goalId: 'goal_boss' }),
    });
    expect(res.status).toBe(201);
    const o = await openPage(browser, size);
    opened.push(o);
    await o.page.goto(`${api.url}/#/c/${id}`);
    await o.page.getByTestId('message-agent').filter({ hasText: 'Boss here.' }).waitFor();
    await o.page.getByTestId('run-toggle').click();
    await branch(o.page, 'Boss').waitFor();
    return o.page;
  }

  async function say(p: Page, text: string): Promise<void> {
    await p.getByTestId('prompt-input').fill(text);
    await p.getByTestId('prompt-input').press('Enter');
    await p.getByTestId('message-user').filter({ hasText: text }).waitFor();
  }

  const branch = (p: Page | Locator, agent: string) => p.locator(`[data-testid="run-branch"][data-agent="${agent}"]`);
  /** A branch's own steps (not those of delegates drawn inside it). */
  const ownSteps = (b: Locator, attrs = '') =>
    b.locator(
      [':scope > .run-turns > .run-turn > details > .run-steps', ':scope > .run-turns > .run-turn > .run-steps']
        .map((list) => `${list} > [data-testid="run-step"]${attrs}`)
        .join(', '),
    );
  const latestTurn = (b: Locator) => b.locator(':scope > .run-turns > .run-turn').last();

  /** Every step on the page as [agent, kind, label, status], and every branch's and turn's status, in order. */
  async function shape(p: Page): Promise<Shape[]> {
    return (await p.evaluate(`[...document.querySelectorAll('[data-testid="run-branch"], [data-testid="run-turn"], [data-testid="run-step"]')]
      .map((e) => [e.dataset.testid, e.closest('[data-testid="run-branch"]')?.dataset.agent ?? '', e.dataset.kind ?? e.dataset.index ?? '', e.dataset.label ?? '', e.dataset.status])`)) as Shape[];
  }

  it('shows both delegates live, the approval wait in amber, then everything done with totals and Temporal links', async () => {
    const p = await openRun('web-run-view-1');
    await say(p, `take ${week(4)} off for ada@example.com and check ORD-1001`);

    // Both branches, each named after its agent, while the PTO assistant waits for the user's approval.
    const boss = branch(p, 'Boss');
    const pto = branch(boss, 'PTO assistant');
    const order = branch(boss, 'Order status');
    await pto.and(p.locator('[data-status="waiting"]')).waitFor();
    const approval = ownSteps(pto, '[data-kind="approval"]');
    expect(await approval.getAttribute('data-status')).toBe('waiting');
    expect(await approval.getAttribute('data-label')).toBe('BookPTO');
    expect(await ownSteps(pto, '[data-kind="model"]').count()).toBe(1);
    // Live side by side: the order agent is still at work (its answer streams for seconds) while the other waits.
    expect(await order.getAttribute('data-status')).toBe('running');
    // The turn, and the conversation, wait for the user: there is something to answer.
    expect(await latestTurn(boss).getAttribute('data-status')).toBe('waiting');
    expect(await boss.getAttribute('data-status')).toBe('waiting');
    // Waiting reads amber, and says so in words too.
    const ptoStatus = pto.locator(':scope > .run-branch-head [data-testid="run-status"]');
    expect(await ptoStatus.textContent()).toBe('waiting for you');
    expect(await colour(ptoStatus)).toBe('rgb(180, 83, 9)');
    await screenshot(p, 'run-view-live');
    // The order agent done, only the approval is left.
    await order.and(p.locator('[data-status="done"]')).waitFor();
    expect(await ownSteps(order).evaluateAll(kindsAndStatuses)).toEqual(['model done', 'tool done', 'model done']);
    expect(await latestTurn(boss).getAttribute('data-status')).toBe('waiting');
    await shoot(p.locator('.run-view-inner'), 'run-view-waiting');

    // Approved in the chat: the booking runs and both delegates end; so does the turn.
    await p.locator('[data-testid="tool-card"][data-tool="BookPTO"]').getByTestId('approve').click();
    // After the kill, each of the three workflows takes its next task on the new worker (the boss with the approval,
    // the PTO desk with BookPTO, the order desk with its retried answer), then the boss plans and streams its reply:
    // a few seconds when the machine is quiet, past the default 15 s once beside three test files and a browser
    // (one clean-clone CI run in six). The same allowance as the retry above.
    await p.getByTestId('message-agent').filter({ hasText: 'Both done.' }).waitFor({ timeout: 40_000 });
    await latestTurn(boss).and(p.locator('[data-status="done"]')).waitFor();
    await pto.and(p.locator('[data-status="done"]')).waitFor();
    await order.and(p.locator('[data-status="done"]')).waitFor();
    expect(await ownSteps(pto).evaluateAll(kindsAndStatuses)).toEqual([
      'model done',
      'approval done',
      'tool done',
      'model done',
    ]);

    // Totals per turn and per branch: time, tokens and cost (the scripted model priced at $3/$15 per million).
    const totals = /^\d[\d.]* (ms|s) · [\d,]+ tokens · (free|\$0\.\d{4}) · \d model calls?/;
    expect(await latestTurn(boss).getByTestId('run-turn-totals').first().textContent()).toMatch(totals);
    for (const b of [pto, order])
      expect(await b.getByTestId('run-branch-totals').first().textContent()).toMatch(totals);
    expect(await pto.getByTestId('run-branch-totals').first().textContent()).toMatch(
      /1 tool call · .* waiting for you$/,
    );
    // A link to each workflow in the Temporal UI.
    const links = await p
      .getByTestId('run-temporal-link')
      .evaluateAll((es) => es.map((e) => (e as unknown as { href: string }).href));
    expect(links).toHaveLength(3);
    for (const [i, id] of [
      'web-run-view-1',
      'web-run-view-1/1-goal_hr_pto',
      'web-run-view-1/2-goal_order_status',
    ].entries())
      expect(decodeURIComponent((links as string[])[i]!)).toMatch(
        new RegExp(`^${UI}/namespaces/default/workflows/${id}/[\\w-]+/history$`),
      );
    await shoot(p.locator('.run-view-inner'), 'run-view-done');
    unbroken = await shape(p);
    // Read again from the histories, after a reload (the view stays open): the same run.
    await p.reload();
    await latestTurn(branch(p, 'Boss')).and(p.locator('[data-status="done"]')).waitFor();
    expect(await shape(p)).toEqual(unbroken);
    expect(await p.getByTestId('run-announce').textContent()).toBe('Boss: done, ready for your next message');

    // On a phone: the same view, nothing wider than the screen.
    const phone = await openPage(browser, { width: 390, height: 844 });
    opened.push(phone);
    await phone.page.goto(`${api.url}/#/c/web-run-view-1`);
    await phone.page.getByTestId('run-toggle').click();
    await branch(phone.page, 'Order status').and(phone.page.locator('[data-status="done"]')).waitFor();
    expect(await scrollWidth(phone.page)).toBeLessThanOrEqual(390);
    await screenshot(phone.page, 'run-view-phone');
  }, 60_000);

  it('shows the retry after the worker is killed mid-call, and ends as the run without the kill', async () => {
    expect(unbroken.length).toBeGreaterThan(0);
    const p = await openRun('web-run-view-2');
    await say(p, `take ${week(5)} off for grace@example.com and check ORD-1001`);
    const order = branch(p, 'Order status');
    // The order agent is writing its answer (a model call streaming) when the worker dies.
    await ownSteps(order, '[data-kind="tool"][data-label="GetOrder"][data-status="done"]').waitFor();
    const answering = ownSteps(order, '[data-kind="model"][data-status="running"]');
    await answering.waitFor();
    await workers[0]!.kill();
    workers.push(await startWorkerProcess(workerEnv));

    // The next worker runs the call again: attempt 2, and why the first ended, shown on the step.
    const retried = ownSteps(order, '[data-kind="model"][data-attempt="2"]');
    await retried.waitFor({ timeout: 40_000 });
    expect(await retried.getByTestId('run-retry').textContent()).toMatch(/^Attempt 2, after: .*(heartbeat|timeout)/i);
    await retried.scrollIntoViewIfNeeded();
    await shoot(order, 'run-view-retry');

    await p.locator('[data-testid="tool-card"][data-tool="BookPTO"]').getByTestId('approve').click();
    // After the kill, each of the three workflows takes its next task on the new worker (the boss with the approval,
    // the PTO desk with BookPTO, the order desk with its retried answer), then the boss plans and streams its reply:
    // a few seconds when the machine is quiet, past the default 15 s once beside three test files and a browser
    // (one clean-clone CI run in six). The same allowance as the retry above.
    await p.getByTestId('message-agent').filter({ hasText: 'Both done.' }).waitFor({ timeout: 40_000 });
    await latestTurn(branch(p, 'Boss')).and(p.locator('[data-status="done"]')).waitFor();
    await order.and(p.locator('[data-status="done"]')).waitFor();
    // Once done, the step keeps its retry (from the history), and the run reads as the one without the kill.
    expect(await retried.getAttribute('data-status')).toBe('done');
    expect(await shape(p)).toEqual(unbroken);
  }, 120_000);

  it('says so for a conversation it does not know, and stops asking', async () => {
    const o = await openPage(browser);
    opened.push(o);
    const runRequests: string[] = [];
    o.page.on('request', (r) => void (r.url().includes('/run') && runRequests.push(r.url())));
    await o.page.goto(`${api.url}/#/c/no-such-conversation`);
    await o.page.getByTestId('run-toggle').click();
    expect(await o.page.getByTestId('run-error').textContent()).toMatch(/no-such-conversation/);
    const asked = runRequests.length;
    await new Promise((r) => setTimeout(r, 2_500));
    expect(runRequests).toHaveLength(asked);
  });
});
