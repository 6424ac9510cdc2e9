// Tools that ask, in the web chat (headless Chromium, the API, a real dev server and worker, real MCP servers): a
// form generated from the asking server's schema, checked before it is sent and answered in the page; a link and a
// sampling request answered with their buttons on a phone-width screen; server-everything's richer form (choices,
// several choices, formats, defaults); and a long-running tool's progress shown live.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser, Page } from 'playwright-core';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { ASKING, EVERYTHING, QUESTION_GOALS, questionsScript } from '../fixtures/tool-questions';
import { launchBrowser, openPage, screenshot, scrollWidth, type OpenedPage } from '../helpers/browser';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { builtWebChat } from '../../testkit/web-build';

describe('web chat: tools that ask', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  let browser: Browser;
  const work = mkdtempSync(path.join(tmpdir(), 'web-questions-'));
  let webRoot: string;
  const opened: OpenedPage[] = [];

  beforeAll(async () => {
    const built = builtWebChat();
    const registry = path.join(work, 'mcp.json');
    writeFileSync(
      registry,
      JSON.stringify({ mcpServers: { asking: ASKING(path.join(work, 'asking.log')), everything: EVERYTHING } }),
    );
    // A boss whose delegate's tool asks (goal_question_boss → goal_greeter), beside the general agent.
    const goals = path.join(work, 'goals');
    mkdirSync(goals);
    for (const goal of QUESTION_GOALS) writeFileSync(path.join(goals, `${goal.id}.json`), JSON.stringify(goal));
    [env, browser] = await Promise.all([startTemporal(), launchBrowser()]);
    bus = createStreamBus();
    const settings = testSettings({
      AGENT_GOAL: 'goal_general',
      VALIDATE_PROMPTS: 'false',
      TOOL_SEARCH_THRESHOLD: '0',
      MCP_ENDPOINTS_FILE: registry,
      GOALS_DIR: goals,
    });
    worker = await startWorker(env, { script: questionsScript, settings, streamBus: bus });
    webRoot = await built;
    api = await startApi({
      agents: new AgentClient(env.client, settings.taskQueue),
      bus,
      defaultGoal: 'goal_general',
      feedTiming: { busyMs: 50, idleMs: 200 },
      webRoot,
      settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: 64 * 1024, corsOrigins: [] },
    });
    expect(api.web).toBe(true);
  }, 120_000);

  afterAll(async () => {
    for (const p of opened) await p.close().catch(() => {});
    await browser?.close();
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
    rmSync(work, { recursive: true, force: true });
  });

  afterEach(async () => {
    const errors = opened.flatMap((p) => p.pageErrors);
    for (const p of opened.splice(0)) await p.close().catch(() => {});
    expect(errors).toEqual([]);
  });

  /** A new conversation with the general agent, opened in a fresh page once its greeting shows. */
  async function openChat(id: string, size?: { width: number; height: number }, goalId?: string): Promise<Page> {
    const res = await fetch(`${api.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ conversationId: id, goalId }),
    });
    expect(res.status).toBe(201);
    const o = await openPage(browser, size);
    opened.push(o);
    await o.page.goto(`${api.url}/#/c/${id}`);
    await agentSaid(o.page, 'Hello! My tools may ask you things.').waitFor();
    return o.page;
  }

  async function say(p: Page, text: string): Promise<void> {
    await p.getByTestId('prompt-input').fill(text);
    await p.getByTestId('prompt-input').press('Enter');
    await p.getByTestId('message-user').filter({ hasText: text }).waitFor();
  }

  const agentSaid = (p: Page, text: string | RegExp) => p.getByTestId('message-agent').filter({ hasText: text });
  const field = (p: Page, name: string) => p.locator(`[data-testid="question-field"][data-field="${name}"]`);

  it("fills the asking server's form: defaults filled in, required marked, checked before sending, the tool's answer shown", async () => {
    const p = await openChat('web-ask-greet');
    await say(p, 'greet me');
    const question = p.locator('[data-testid="question"][data-kind="form"]');
    await question.waitFor();
    expect(await question.getByTestId('question-message').textContent()).toBe('What is your name?');
    expect(await field(p, 'name').locator('label').textContent()).toBe('Name *');
    expect(await field(p, 'name').locator('input').getAttribute('aria-required')).toBe('true');
    expect(await field(p, 'title').locator('select').inputValue()).toBe('Dr');
    expect(await field(p, 'title').locator('option').allTextContents()).toEqual(['—', 'Dr', 'Ms', 'Mr']);

    // The name is required: the page says so and sends nothing.
    await question.getByTestId('question-accept').click();
    expect(await question.getByTestId('question-error').textContent()).toBe('Required: Name.');
    expect(await p.locator('[data-testid="state"]').getAttribute('data-state')).toBe('waiting_for_user');

    await field(p, 'name').locator('input').fill('Ada');
    await field(p, 'title').locator('select').selectOption('Ms');
    await screenshot(p, 'tool-question-form');
    await question.getByTestId('question-accept').click();
    await agentSaid(p, 'Hello, Ms Ada!').waitFor();
    await question.waitFor({ state: 'detached' });
  });

  it("shows a delegate's tool question on its parent's page, asked by that agent; the answer goes down to it", async () => {
    const p = await openChat('web-ask-delegate', undefined, 'goal_question_boss');
    await say(p, 'have me greeted');
    const question = p.locator('[data-testid="question"][data-kind="form"]');
    await question.waitFor();
    expect(await question.locator('.tool-delegate').textContent()).toBe('asked by Greeter');
    await field(p, 'name').locator('input').fill('Ada');
    await question.getByTestId('question-accept').click();
    await agentSaid(p, 'The greeter says: Hello, Dr Ada!').waitFor();
    await question.waitFor({ state: 'detached' });
    // The AskAgent card says what the tool does in one sentence, not the model's list of every agent.
    const card = p.locator('[data-testid="tool-card"][data-tool="AskAgent"]');
    expect(await card.locator('.tool-about').textContent()).toBe('Hand a task to another agent and get its result.');
  });

  it('answers a link and a sampling request with their buttons, on a phone-width screen', async () => {
    const phone = { width: 375, height: 740 };
    const p = await openChat('web-ask-phone', phone);
    await say(p, 'visit');
    const link = p.locator('[data-testid="question"][data-kind="url"]');
    await link.waitFor();
    expect(await link.getByTestId('question-url').getAttribute('href')).toBe('https://example.com/sign');
    expect(await scrollWidth(p)).toBeLessThanOrEqual(phone.width);
    await link.getByTestId('question-accept').click();
    await agentSaid(p, 'visit: accept').waitFor();

    await say(p, 'poem about rain');
    const sampling = p.locator('[data-testid="question"][data-kind="sampling"]');
    await sampling.waitFor();
    expect(await sampling.getByTestId('question-prompt').textContent()).toMatch(/A poem about rain/);
    await p.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await screenshot(p, 'phone-tool-question');
    expect(await scrollWidth(p)).toBeLessThanOrEqual(phone.width);
    await sampling.getByTestId('question-decline').click();
    await agentSaid(p, /declined the sampling request/).waitFor();
    await sampling.waitFor({ state: 'detached' });
  });

  it("renders server-everything's form (choices, several choices, formats, defaults) and sends what was filled", async () => {
    const p = await openChat('web-ask-everything');
    await say(p, 'fill the form');
    const question = p.locator('[data-testid="question"][data-kind="form"]');
    await question.waitFor();
    expect(await field(p, 'email').locator('input').getAttribute('type')).toBe('email');
    expect(await field(p, 'homepage').locator('input').getAttribute('type')).toBe('url');
    expect(await field(p, 'birthdate').locator('input').getAttribute('type')).toBe('date');
    expect(await field(p, 'integer').locator('input').inputValue()).toBe('42');
    expect(await field(p, 'check').locator('input[type="checkbox"]').isChecked()).toBe(false);
    const hero = field(p, 'titledSingleSelectEnum').locator('select');
    expect(await hero.inputValue()).toBe('hero-1');
    expect(await hero.locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['Superman', 'Green Lantern', 'Wonder Woman']),
    );
    const fish = field(p, 'titledMultipleSelectEnum').locator('input[type="checkbox"]');
    expect(await fish.count()).toBeGreaterThanOrEqual(3);
    expect(await field(p, 'untitledMultipleSelectEnum').locator('input:checked').count()).toBe(1); // Guitar

    await field(p, 'name').locator('input').fill('Ada Lovelace');
    await field(p, 'check').locator('input').check();
    await field(p, 'integer').locator('input').fill('7');
    await fish.nth(1).check();
    await question.getByTestId('question-accept').click();
    await agentSaid(p, /User provided the requested information!/).waitFor();
    // Its Markdown list is a list.
    const items = await p.getByTestId('message-agent').locator('li').allTextContents();
    expect(items).toEqual(expect.arrayContaining(['Name: Ada Lovelace', 'Favorite Integer: 7']));
  });

  it("shows a long-running tool's progress live, and takes it away with the result", async () => {
    const p = await openChat('web-ask-progress');
    await say(p, 'long op');
    const progress = p.locator('[data-testid="tool-progress"][data-tool="everything__trigger-long-running-operation"]');
    await progress.waitFor();
    expect(await progress.getByTestId('tool-progress-text').textContent()).toMatch(/^[1-4]\/4 \((25|50|75|100)%\)/);
    expect(await progress.locator('progress').getAttribute('max')).toBe('4');
    await agentSaid(p, /Long running operation completed/).waitFor();
    await progress.waitFor({ state: 'detached' });
  });
});
