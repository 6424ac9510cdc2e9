// The web chat in headless Chromium, against the API, a real dev server and a worker with the scripted model,
// its replies paced so their words visibly arrive: picking an agent, a reply streaming before it completes,
// approving, editing and rejecting a tool call, a delegate's call approved from its parent's page, a reload
// mid-reply, the conversation list, the keyboard alone, and a phone-width screen. SAVE_SCREENSHOTS=1 also writes
// docs/screenshots/*.png.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser, Page } from 'playwright-core';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { delegationGoalsDir, delegationScript } from '../fixtures/delegation';
import { ptoScript } from '../fixtures/scripts';
import { EXTRACT_URLS_DRAFT, madeToolScript } from '../fixtures/made-tools';
import {
  focused,
  launchBrowser,
  openPage,
  screenshot,
  scrollWidth,
  tabTo,
  texts,
  traceReplies,
  type OpenedPage,
} from '../helpers/browser';
import { waitUntil } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';
import { builtWebChat } from '../../testkit/web-build';

const ACCRUAL =
  'You earn eight hours of paid time off every month you work here. Unused hours roll over into the next year, up to a cap ' +
  'of forty hours, so it pays to plan longer breaks early and book them well ahead of the busy season.';
// Long enough (about 50 chunks of 3 words, 60 ms apart) to reload the page while it is being written.
const POLICY =
  'Here is how paid time off works. Every employee earns eight hours each month, starting from the first day of work. ' +
  'You can book time off as soon as the hours are in your balance, and a booking needs the first and the last day you ' +
  'will be away. Weekends and public holidays are not deducted, so a booking from Monday to Friday costs forty hours. ' +
  'Unused hours roll over into the next year up to a cap of forty hours; anything above the cap is paid out in January. ' +
  'If you are ill during a booked holiday, tell your manager and the days are given back. Bookings longer than two weeks ' +
  'need your manager to agree first, and the assistant will ask before it books anything on your behalf.';

const script: ScriptInput = {
  ...ptoScript,
  rules: [
    { user: 'how does accrual work', reply: { text: ACCRUAL } },
    { user: 'explain the PTO policy', reply: { text: POLICY } },
    // Scoped to the agent builder's goal: first, so the PTO script's greeting does not answer for it.
    ...madeToolScript.rules,
    ...ptoScript.rules,
  ],
};

const GREETING = /work email/;
const agentOption = '[data-testid="agent-option"][data-goal="goal_hr_pto"]';

describe('web chat in a browser', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  /** The boss agent and its delegates: a worker of its own (goals, script, and a PTO ledger no other test books from) and an API for it. */
  let delegationWorker: Awaited<ReturnType<typeof startWorker>>;
  let delegationApi: RunningApi;
  const goalsDir = delegationGoalsDir();
  let browser: Browser;
  const work = mkdtempSync(path.join(tmpdir(), 'web-chat-'));
  let webRoot: string;
  const opened: OpenedPage[] = [];

  beforeAll(async () => {
    const built = builtWebChat();
    const registry = path.join(work, 'mcp_endpoints.json');
    writeFileSync(
      registry,
      JSON.stringify({
        mcpServers: {
          fx: {
            command: process.execPath,
            args: ['--require', 'tsx/cjs', 'demo/fx.ts'],
            description: 'Demo foreign-exchange desk with offline rates',
            categories: ['finance'],
          },
          crm: { url: 'http://127.0.0.1:9/mcp', description: 'A remote server that is not running', timeoutMs: 3000 },
          everything: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-everything'],
            description: 'The MCP reference server (disabled)',
            enabled: false,
          },
        },
        httpApis: { pets: { openapi: path.join(__dirname, '..', 'fixtures', 'openapi', 'petstore.json') } },
      }),
    );
    [env, browser] = await Promise.all([startTemporal(), launchBrowser()]);
    bus = createStreamBus();
    const settings = testSettings({
      VALIDATE_PROMPTS: 'false',
      SCRIPTED_STREAM_DELAY_MS: '60',
      MCP_ENDPOINTS_FILE: registry,
    });
    const delegation = testSettings({ VALIDATE_PROMPTS: 'false', AGENT_GOAL: 'goal_boss', GOALS_DIR: goalsDir });
    [worker, delegationWorker] = await Promise.all([
      startWorker(env, { script, settings, streamBus: bus }),
      startWorker(env, { script: delegationScript, settings: delegation, streamBus: bus }),
    ]);
    webRoot = await built;
    const serve = (taskQueue: string, defaultGoal: string) =>
      startApi({
        agents: new AgentClient(env.client, taskQueue),
        bus,
        defaultGoal,
        feedTiming: { busyMs: 50, idleMs: 200 },
        webRoot,
        settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: 64 * 1024, corsOrigins: [] },
      });
    [api, delegationApi] = await Promise.all([
      serve(settings.taskQueue, 'goal_hr_pto'),
      serve(delegation.taskQueue, 'goal_boss'),
    ]);
    expect(api.web).toBe(true);
  }, 120_000);

  afterAll(async () => {
    for (const p of opened) await p.close().catch(() => {});
    await browser?.close();
    await api?.close();
    await delegationApi?.close();
    await worker?.stop();
    await delegationWorker?.stop();
    await bus?.close();
    await env?.teardown();
    rmSync(work, { recursive: true, force: true });
    rmSync(goalsDir, { recursive: true, force: true });
  });

  /** A page in a fresh profile; checked for uncaught errors when the test ends. */
  async function page(size?: { width: number; height: number }): Promise<Page> {
    const p = await openPage(browser, size);
    opened.push(p);
    return p.page;
  }
  afterEach(async () => {
    const errors = opened.flatMap((p) => p.pageErrors);
    for (const p of opened.splice(0)) await p.close().catch(() => {});
    expect(errors).toEqual([]);
  });

  async function startConversation(id: string, goalId = 'goal_hr_pto'): Promise<void> {
    const res = await fetch(`${api.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ goalId, conversationId: id }),
    });
    expect(res.status).toBe(201);
  }

  /** A new conversation, opened in the browser once its greeting shows. */
  async function openChat(id: string, size?: { width: number; height: number }): Promise<Page> {
    await startConversation(id);
    const p = await page(size);
    await p.goto(`${api.url}/#/c/${id}`);
    await p.getByTestId('message-agent').filter({ hasText: GREETING }).waitFor();
    await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    return p;
  }

  async function say(p: Page, text: string): Promise<void> {
    await p.getByTestId('prompt-input').fill(text);
    await p.getByTestId('prompt-input').press('Enter');
    await p.getByTestId('message-user').filter({ hasText: text }).waitFor();
  }

  const agentSaid = (p: Page, text: string | RegExp) => p.getByTestId('message-agent').filter({ hasText: text });

  /** Asks to book, and waits for the BookPTO card to offer approval. */
  async function proposeBooking(p: Page, from: string, to: string) {
    await say(p, `book ${from} to ${to} for ada@example.com`);
    const card = p.locator('[data-testid="tool-card"][data-tool="BookPTO"]').last();
    await card.getByTestId('approve').waitFor();
    await p.locator('[data-testid="state"][data-state="awaiting_approval"]').waitFor();
    expect(JSON.parse((await card.locator('.tool-args').textContent()) ?? '')).toEqual({
      email: 'ada@example.com',
      startDate: from,
      endDate: to,
    });
    return card;
  }

  it('starts a conversation with the agent picked, which greets the user', async () => {
    const p = await page();
    await p.goto(api.url);
    await p.locator(agentOption).waitFor();
    await p.getByTestId('agent-default').waitFor();
    await screenshot(p, 'picker');
    await p.locator(agentOption).click();
    await p.waitForURL(/#\/c\/.+/);
    await agentSaid(p, GREETING).waitFor();
    expect(await p.getByTestId('current-agent').textContent()).toMatch(/PTO/i);
    // The goal's starter prompt made the agent speak first: it is not shown as the user's words, nor as the title.
    expect(await texts(p, 'message-user')).toEqual([]);
    expect(await p.locator('#chat-title').textContent()).toBe('New conversation');
    await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    expect(await focused(p, '[data-testid="prompt-input"]')).toBe(true);
  });

  it('shows the reply being written before it completes, then the whole message once', async () => {
    const p = await openChat('web-stream');
    const trace = await traceReplies(p);
    await say(p, 'how does accrual work?');
    await p.getByTestId('streaming').waitFor();
    await p.getByTestId('working').waitFor();
    await agentSaid(p, ACCRUAL).waitFor();
    await p.getByTestId('streaming').waitFor({ state: 'detached' });

    const samples = await trace();
    const final = samples.find((s) => s.agents.includes(ACCRUAL))!;
    const partials = samples.filter((s) => s.t < final.t && s.streaming).map((s) => s.streaming!);
    // Several growing prefixes of the reply showed before the reply itself did.
    expect(partials.length).toBeGreaterThan(2);
    for (const text of partials) expect(ACCRUAL.startsWith(text)).toBe(true);
    expect(partials.some((text) => text.length < ACCRUAL.length)).toBe(true);
    expect(partials[0]!.length).toBeLessThan(partials[partials.length - 1]!.length);
    // Whole and once: the streamed text made way for the message.
    expect((await texts(p, 'message-agent')).filter((t) => t === ACCRUAL)).toHaveLength(1);
    await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    const usage = (await p.getByTestId('usage').textContent()) ?? '';
    expect(Number(/^([\d,]+) tokens/.exec(usage)?.[1]?.replace(/,/g, ''))).toBeGreaterThan(0);
    // The scripted model's price is nothing (config/prices.json): the cost says so ("free", not "$0.0000").
    expect(await p.getByTestId('cost').textContent()).toBe(' · free');
    // The list names the open conversation by its first message as its header does, not "New conversation" while
    // Temporal's visibility store catches up with the title.
    expect(await p.locator('#chat-title').textContent()).toBe('how does accrual work?');
    const row = p.locator('[data-testid="conversation-row"][data-id="web-stream"] .row-title');
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toBe('how does accrual work?');
  });

  it('runs a tool call once the user approves it', async () => {
    const p = await openChat('web-approve');
    const [from, to] = [week(4, 0), week(4, 1)];
    const card = await proposeBooking(p, from, to);
    await agentSaid(p, 'Booking that now.').waitFor();
    expect(await card.locator('.tool-status').textContent()).toBe('waiting for your approval');
    await card.getByTestId('approve').click();
    await agentSaid(p, new RegExp(`^Booked ${from} to ${to}; \\d+ hours left\\.$`)).waitFor();
    expect(await card.locator('.tool-status').textContent()).toBe('done');
    await expect(card.getByTestId('approve').count()).resolves.toBe(0);
    await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
  });

  it("shows a made tool's draft with its code and how each example ran, and the tool runs once approved", async () => {
    await startConversation('web-create-tool', 'goal_agent_builder');
    const p = await page();
    await p.goto(`${api.url}/#/c/web-create-tool`);
    await agentSaid(p, 'What should I build?').waitFor();
    await say(p, 'I need to extract the URLs from texts and count the domains');
    const card = p.locator('[data-testid="tool-card"][data-tool="CreateTool"]');
    await card.getByTestId('approve').waitFor();
    const about = await card.locator('.tool-about').textContent();
    expect(about).toMatch(/^Save this tool to the tools folder/);
    expect(about).toContain(
      '2. {"text":"see https://a.com/x"} → {"count":1,"urls":["https://a.com/x"],"domains":{"a.com":1}} ✓',
    );
    expect(await card.getByLabel('Code').textContent()).toBe(EXTRACT_URLS_DRAFT.code);
    await card.getByTestId('approve').click();
    await agentSaid(p, /^extract_urls works: 3 URLs in the sample/).waitFor();
  });

  it('checks edited arguments before approving, and runs the call with them', async () => {
    const p = await openChat('web-edit');
    const [monday, tuesday, wednesday] = [week(6, 0), week(6, 1), week(6, 2)];
    const card = await proposeBooking(p, monday, tuesday);
    await card.getByTestId('edit-args').click();
    const editor = card.getByTestId('args-editor');
    await editor.fill('{ "email": "ada@example.com", ');
    await expect(card.getByTestId('args-error').textContent()).resolves.toMatch(/Not valid JSON/);
    await expect(card.getByTestId('approve').isDisabled()).resolves.toBe(true);
    await editor.fill(JSON.stringify({ email: 'ada@example.com', startDate: monday }, null, 2));
    await expect(card.getByTestId('args-error').textContent()).resolves.toBe('endDate is required.');
    await p.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await screenshot(p, 'approval-edit-args');
    await editor.fill(JSON.stringify({ email: 'ada@example.com', startDate: monday, endDate: 7 }, null, 2));
    await expect(card.getByTestId('args-error').textContent()).resolves.toMatch(/endDate must be string/);
    await editor.fill(JSON.stringify({ email: 'ada@example.com', startDate: monday, endDate: wednesday }, null, 2));
    await card.getByTestId('args-error').waitFor({ state: 'detached' });
    await card.getByTestId('approve').click();
    await agentSaid(p, new RegExp(`^Booked ${monday} to ${wednesday};`)).waitFor();
    await card.getByText('Run with the arguments as you edited them.').waitFor();
    expect(JSON.parse((await card.locator('.tool-args').textContent()) ?? '')).toMatchObject({ endDate: wednesday });
  });

  it('tells the agent why the user rejected a tool call', async () => {
    const p = await openChat('web-reject');
    const card = await proposeBooking(p, week(10, 0), week(10, 1));
    await card.getByTestId('reject-reason').fill('wrong week');
    await card.getByTestId('reject').click();
    await agentSaid(p, 'OK, I did not book it (wrong week).').waitFor();
    expect(await card.locator('.tool-status').textContent()).toBe('rejected');
  });

  it("shows a delegate's tool call on the parent's page as asked by that agent; approving it lets the delegate run it", async () => {
    const started = await fetch(`${delegationApi.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ goalId: 'goal_boss', conversationId: 'web-delegate' }),
    });
    expect(started.status).toBe(201);
    const p = await page();
    await p.goto(`${delegationApi.url}/#/c/web-delegate`);
    await agentSaid(p, 'Boss here.').waitFor();
    await say(p, `book ${week(4, 0)} to ${week(4, 1)} for ada@example.com`);
    // The call is the PTO assistant's (the boss has no BookPTO), waiting here for this user.
    const card = p.locator('[data-testid="tool-card"][data-tool="BookPTO"]');
    await card.getByTestId('approve').waitFor();
    await p.locator('[data-testid="state"][data-state="awaiting_approval"]').waitFor();
    expect(await card.locator('.tool-delegate').textContent()).toBe('asked by PTO assistant');
    expect(JSON.parse((await card.locator('.tool-args').textContent()) ?? '')).toEqual({
      email: 'ada@example.com',
      startDate: week(4, 0),
      endDate: week(4, 1),
    });
    await card.getByTestId('approve').click();
    await agentSaid(p, 'Boss: ok | Booked; 88 hours left.').waitFor();
    await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    expect(await texts(p, 'message-agent')).toEqual(['Boss here.', 'Boss: ok | Booked; 88 hours left.']);
  });

  it('after a reload mid-reply, shows the same conversation, the reply going on, and the message once', async () => {
    const p = await openChat('web-reload');
    await say(p, 'explain the PTO policy');
    await p.waitForFunction('(document.querySelector(\'[data-testid="streaming"]\')?.textContent ?? "").length > 200');
    await screenshot(p, 'chat-streaming');
    const before = (await p.getByTestId('streaming').textContent()) ?? '';
    expect(POLICY.startsWith(before)).toBe(true);

    await p.reload();
    expect(new URL(p.url()).hash).toBe('#/c/web-reload');
    const trace = await traceReplies(p);
    await agentSaid(p, POLICY).waitFor();
    const samples = await trace();
    const final = samples.find((s) => s.agents.includes(POLICY))!;
    const partials = samples.filter((s) => s.t < final.t && s.streaming).map((s) => s.streaming!);
    // After the reload the text being written showed again, and went on growing, before the message came.
    expect(partials.length).toBeGreaterThan(1);
    for (const text of partials) expect(POLICY.startsWith(text)).toBe(true);
    expect(partials[partials.length - 1]!.length).toBeGreaterThan(partials[0]!.length);
    expect(partials[partials.length - 1]!.length).toBeGreaterThan(before.length);

    await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    await p.getByTestId('streaming').waitFor({ state: 'detached' });
    expect((await texts(p, 'message-agent')).filter((t) => t === POLICY)).toHaveLength(1);
    expect(await texts(p, 'message-user')).toEqual(['explain the PTO policy']);
  });

  it('lists conversations; a row resumes one with its messages', async () => {
    await startConversation('web-list');
    const said = await fetch(`${api.url}/api/conversations/web-list/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'What is my balance for ada@example.com?' }),
    });
    expect(said.status).toBe(200);
    // The list comes from Temporal's visibility store, which catches up a moment later.
    await waitUntil(async () => {
      const list = (await (await fetch(`${api.url}/api/conversations`)).json()) as { id: string; state: string }[];
      return list.some((c) => c.id === 'web-list' && c.state === 'waiting_for_user');
    }, 10_000);

    const p = await page();
    await p.goto(api.url);
    const row = p.locator('[data-testid="conversation-row"][data-id="web-list"]');
    await row.waitFor();
    expect(await row.getAttribute('data-state')).toBe('waiting_for_user');
    await row.click();
    await p.waitForURL(/#\/c\/web-list$/);
    await p.getByTestId('message-user').filter({ hasText: 'What is my balance for ada@example.com?' }).waitFor();
    await agentSaid(p, /hours of PTO left/).waitFor();
    expect(await texts(p, 'message-agent')).toEqual([
      expect.stringMatching(GREETING),
      expect.stringMatching(/^You have \d+ hours of PTO left\.$/),
    ]);
    expect(await row.getAttribute('aria-current')).toBe('page');
    // The conversation goes on from where it was.
    await say(p, 'how does accrual work');
    await agentSaid(p, ACCRUAL).waitFor();
  });

  it('works from the keyboard alone', async () => {
    const p = await page();
    await p.goto(api.url);
    await p.locator(agentOption).waitFor();
    await tabTo(p, agentOption);
    await p.keyboard.press('Enter');
    await agentSaid(p, GREETING).waitFor();
    // The message box has the focus; it is also reachable by Tab from the controls before it.
    await p.keyboard.press('Shift+Tab');
    expect(await focused(p, '[data-testid="prompt-input"]')).toBe(false);
    await tabTo(p, '[data-testid="prompt-input"]', 10);
    await p.keyboard.type('What is my balance for ada@example.com?');
    await p.keyboard.press('Enter');
    await p.getByTestId('message-user').filter({ hasText: 'What is my balance for ada@example.com?' }).waitFor();
    await agentSaid(p, /hours of PTO left/).waitFor();
    expect(await p.getByTestId('prompt-input').inputValue()).toBe('');
    // Approving from the keyboard: Tab to the card's button, Enter.
    const day = week(14);
    await p.keyboard.type(`book ${day} to ${day} for ada@example.com`);
    await p.keyboard.press('Enter');
    await p.getByTestId('approve').waitFor();
    await p.getByTestId('prompt-input').focus();
    for (let i = 0; i < 10 && !(await focused(p, '[data-testid="approve"]')); i++) await p.keyboard.press('Shift+Tab');
    expect(await focused(p, '[data-testid="approve"]')).toBe(true);
    await p.keyboard.press('Enter');
    await agentSaid(p, new RegExp(`^Booked ${day} to ${day};`)).waitFor();
  });

  it('fits a 375 px phone screen without scrolling sideways', async () => {
    const phone = { width: 375, height: 740 };
    const p = await openChat('web-phone', phone);
    await proposeBooking(p, week(19, 0), week(19, 4));
    expect(await scrollWidth(p)).toBeLessThanOrEqual(phone.width);
    // At the end of the page the composer (sticky at the bottom) covers none of the card.
    await p.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await screenshot(p, 'phone-chat');
    await p.getByTestId('edit-args').click();
    await p.getByTestId('args-editor').waitFor();
    expect(await scrollWidth(p)).toBeLessThanOrEqual(phone.width);

    // From a conversation scrolled to its end, "New" opens the picker at its top.
    await p.getByRole('link', { name: 'New', exact: true }).click();
    await p.locator(agentOption).waitFor();
    await p.locator('[data-testid="conversation-row"]').first().waitFor();
    expect(Number(await p.evaluate('window.scrollY'))).toBe(0);
    expect(await scrollWidth(p)).toBeLessThanOrEqual(phone.width);
    await screenshot(p, 'phone-picker');

    await p.getByTestId('endpoints-link').click();
    await p.locator('[data-testid="endpoints-row"]').first().waitFor({ timeout: 30_000 });
    expect(await scrollWidth(p)).toBeLessThanOrEqual(phone.width);
  });

  it('shows the endpoints, MCP servers and HTTP APIs, with their status', async () => {
    const p = await page();
    await p.goto(api.url);
    await p.getByTestId('endpoints-link').click();
    await p.waitForURL(/#\/endpoints$/);
    const row = (name: string) => p.locator(`[data-testid="endpoints-row"][data-endpoint="${name}"]`);
    await row('fx').waitFor({ timeout: 30_000 });
    expect(await row('fx').getAttribute('data-status')).toBe('ok');
    expect(await row('crm').getAttribute('data-status')).toBe('unavailable');
    expect(await row('everything').getAttribute('data-status')).toBe('disabled');
    // Each endpoint's tools, by the names its server gives them.
    await row('fx')
      .getByText(/\bconvert\b/)
      .waitFor();
    // An HTTP API's operations, by operationId.
    expect(await row('pets').getAttribute('data-status')).toBe('ok');
    await row('pets')
      .getByText(/\bshowPetById\b/)
      .waitFor();
    await screenshot(p, 'endpoints');
  });
});
