// The agent's replies in the web chat, in headless Chromium against the API, a real dev server and a worker whose
// scripted model streams its replies a few words at a time. Markdown: a table and a code block render while they stream
// without ever showing half a table, the code's copy button copies it, links open safely and say where they go; and
// replies carrying XSS payloads (raw HTML, handlers, javascript: and data: links, SVG, a lying link, a foreign image)
// run nothing: a hook set before the page loads records any script, dialog or request to another site. Steering: a
// message sent while a reply streams interrupts it (the agent's whileBusy, or the message's choice), or is refused
// with the draft kept; the composer says which before it is sent.
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
import { ptoScript } from '../fixtures/scripts';
import { CARRY_OVER_ANSWER, LONG_ANSWER, steeringScript } from '../fixtures/steering';
import { launchBrowser, openPage, screenshot, scrollWidth, type OpenedPage } from '../helpers/browser';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { builtWebChat } from '../../testkit/web-build';

const CODE = 'const hours = balance(ada);\nif (hours < 24) console.log(`short by ${24 - hours}`);';
const TABLE_REPLY = [
  'Here are the **balances** you asked for:',
  '',
  '| Person | Hours | Rolls over |',
  '| --- | ---: | --- |',
  '| Ada | 40 | yes |',
  '| Grace | 16 | no |',
  '| Alan | 8 | no |',
  '',
  'Check one yourself:',
  '',
  '```ts',
  CODE,
  '```',
  '',
  '- Ask before booking',
  '- See [the policy](https://intranet.example/pto) for the cap',
].join('\n');

/** Each tries to run `window.__xss(n)` or call home; none may. */
const XSS_REPLY = [
  'Payloads follow.',
  '',
  '<img src="x" onerror="window.__xss(1)">',
  '',
  '<script>window.__xss(2)</script>',
  '',
  '[click me](javascript:window.__xss(3))',
  '',
  '<svg onload="window.__xss(4)"><circle r="5" /></svg>',
  '',
  '[https://bank.example/login](https://evil.example/steal)',
  '',
  '![tracker](https://evil.example/pixel.png)',
  '',
  '<a href="javascript:window.__xss(5)">html link</a>',
  '',
  '[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '',
  '<iframe src="javascript:window.__xss(6)"></iframe>',
].join('\n');

/** Long enough (about 90 chunks, 40 ms apart) to send a second message while it streams. */
const SLOW_ANSWER = `${LONG_ANSWER} ${LONG_ANSWER} ${LONG_ANSWER}`;

const script: ScriptInput = {
  ...ptoScript,
  rules: [
    { user: 'show the balances', reply: { text: TABLE_REPLY } },
    { user: 'try the payloads', reply: { text: XSS_REPLY } },
    { user: 'explain the policy', reply: { text: SLOW_ANSWER } },
    ...steeringScript.rules,
    { user: '^Greet the user', reply: { text: 'Hello.' } },
  ],
};

/** Agents that say what a message sent while they work does. */
const goalsDir = mkdtempSync(path.join(tmpdir(), 'web-replies-goals-'));
for (const [id, whileBusy] of [
  ['goal_steer', 'interrupt'],
  ['goal_strict', 'reject'],
] as const) {
  const goal = {
    id,
    category: 'test',
    agentName: `Agent that says ${whileBusy}`,
    agentFriendlyDescription: 'Explains the PTO policy.',
    description: 'Explains the PTO policy.',
    starterPrompt: 'Greet the user.',
    tools: [],
    settings: { whileBusy },
  };
  writeFileSync(path.join(goalsDir, `${id}.json`), JSON.stringify(goal));
}

/** Set before any page script: what would show that an injected script ran or the page called another site. */
const HOOK = `(() => {
  window.__ran = [];
  window.__xss = (n) => window.__ran.push('script ' + n);
  window.alert = window.confirm = window.prompt = (m) => window.__ran.push('dialog ' + m);
})()`;

describe('Markdown in the web chat', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  let browser: Browser;
  const opened: OpenedPage[] = [];

  beforeAll(async () => {
    const built = builtWebChat();
    [env, browser] = await Promise.all([startTemporal(), launchBrowser()]);
    bus = createStreamBus();
    const settings = testSettings({ VALIDATE_PROMPTS: 'false', SCRIPTED_STREAM_DELAY_MS: '40', GOALS_DIR: goalsDir });
    worker = await startWorker(env, { script, settings, streamBus: bus });
    api = await startApi({
      agents: new AgentClient(env.client, settings.taskQueue),
      bus,
      defaultGoal: 'goal_hr_pto',
      feedTiming: { busyMs: 50, idleMs: 200 },
      webRoot: await built,
      settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: 64 * 1024, corsOrigins: [] },
    });
  }, 120_000);

  afterAll(async () => {
    for (const p of opened) await p.close().catch(() => {});
    await browser?.close();
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
    rmSync(goalsDir, { recursive: true, force: true });
  });

  afterEach(async () => {
    const errors = opened.flatMap((p) => p.pageErrors);
    for (const p of opened.splice(0)) await p.close().catch(() => {});
    expect(errors).toEqual([]);
  });

  /** A new conversation in a fresh profile, opened once the greeting shows; `requests` collects every URL asked. */
  async function openChat(id: string, goalId = 'goal_hr_pto'): Promise<{ p: Page; requests: string[] }> {
    const res = await fetch(`${api.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ goalId, conversationId: id }),
    });
    expect(res.status).toBe(201);
    const page = await openPage(browser);
    opened.push(page);
    const requests: string[] = [];
    page.page.on('request', (r) => requests.push(r.url()));
    await page.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
    await page.page.addInitScript(HOOK);
    await page.page.goto(`${api.url}/#/c/${id}`);
    await page.page.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    return { p: page.page, requests };
  }

  async function say(p: Page, text: string): Promise<void> {
    await p.getByTestId('prompt-input').fill(text);
    await p.getByTestId('prompt-input').press('Enter');
    await p.getByTestId('message-user').filter({ hasText: text }).waitFor();
  }

  it('renders a streamed table and code block steadily, then copies the code and opens links safely', async () => {
    const { p } = await openChat('md-table');
    // At every change of the page: the shape of the reply being written.
    await p.evaluate(`(() => {
      const shapes = (window.__shapes = []);
      new MutationObserver(() => {
        const s = document.querySelector('[data-testid="streaming"]');
        if (!s) return;
        shapes.push({
          rows: s.querySelectorAll('tbody tr').length,
          headers: s.querySelectorAll('th').length,
          pipes: [...s.querySelectorAll('p, li')].some((e) => (e.textContent ?? '').includes('|')),
          code: s.querySelector('pre code')?.textContent ?? null,
          text: s.textContent ?? '',
        });
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    await say(p, 'show the balances');
    await p.getByTestId('streaming').waitFor();
    const reply = p.getByTestId('message-agent').filter({ hasText: 'Check one yourself' });
    await reply.waitFor();
    await p.getByTestId('streaming').waitFor({ state: 'detached' });

    type Shape = { rows: number; headers: number; pipes: boolean; code: string | null; text: string };
    const shapes = (await p.evaluate('window.__shapes')) as Shape[];
    expect(shapes.length).toBeGreaterThan(5);
    // Never half a table: no pipes shown as words, a table appears with its three headers at once, and its rows only grow.
    expect(shapes.filter((s) => s.pipes)).toEqual([]);
    expect(new Set(shapes.map((s) => s.headers))).toEqual(new Set([0, 3]));
    for (let i = 1; i < shapes.length; i++) {
      expect(shapes[i]!.rows).toBeGreaterThanOrEqual(shapes[i - 1]!.rows);
      // The code block, once open, stays a code block and its code only grows.
      if (shapes[i - 1]!.code !== null) expect(CODE.startsWith(shapes[i]!.code!.trimEnd())).toBe(true);
    }
    expect(shapes.some((s) => s.rows > 0 && s.rows < 3)).toBe(true);
    expect(shapes.some((s) => s.code !== null && s.code.length < CODE.length)).toBe(true);

    // The whole message: bold, a table of four rows, a list, the code with its language, a link.
    expect(await reply.locator('strong').textContent()).toBe('balances');
    expect(await reply.locator('tr').count()).toBe(4);
    expect(await reply.locator('td').allTextContents()).toEqual([
      'Ada',
      '40',
      'yes',
      'Grace',
      '16',
      'no',
      'Alan',
      '8',
      'no',
    ]);
    expect(await reply.locator('li').count()).toBe(2);
    expect(await reply.locator('pre code').textContent()).toBe(`${CODE}\n`);
    expect(await reply.locator('pre code').getAttribute('class')).toBe('language-ts');
    const link = reply.locator('a', { hasText: 'the policy' });
    expect(await link.getAttribute('href')).toBe('https://intranet.example/pto');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    // Words that name no site need no note of where the link goes.
    expect(await reply.getByTestId('link-host').count()).toBe(0);
    // The look: cells bordered, code in a monospace block, nothing wider than the page.
    const look = (await p.evaluate(`(() => {
      const td = getComputedStyle(document.querySelector('[data-testid="message-agent"] td'));
      const pre = getComputedStyle(document.querySelector('[data-testid="message-agent"] pre'));
      return { border: td.borderTopStyle, font: pre.fontFamily, align: getComputedStyle(document.querySelectorAll('[data-testid="message-agent"] td')[1]).textAlign };
    })()`)) as { border: string; font: string; align: string };
    expect(look).toEqual({ border: 'solid', font: expect.stringMatching(/mono/i), align: 'right' });
    expect(await scrollWidth(p)).toBeLessThanOrEqual(1280);
    await screenshot(p, 'chat-markdown');

    await reply.getByTestId('copy-code').click();
    await reply.getByTestId('copy-code').filter({ hasText: 'Copied' }).waitFor();
    expect(await p.evaluate('navigator.clipboard.readText()')).toBe(`${CODE}\n`);
  });

  it('runs nothing a reply carries: raw HTML shows as text, unsafe links lose their target, foreign images stay out', async () => {
    const { p, requests } = await openChat('md-xss');
    await say(p, 'try the payloads');
    const reply = p.getByTestId('message-agent').filter({ hasText: 'Payloads follow.' });
    await reply.waitFor();
    await p.getByTestId('streaming').waitFor({ state: 'detached' });

    // Raw HTML is words on the page, not elements.
    const text = (await reply.textContent()) ?? '';
    for (const raw of ['<img src="x" onerror=', '<script>window.__xss(2)</script>', '<svg onload=', '<iframe src=']) {
      expect(text).toContain(raw);
    }
    expect(await reply.locator('script, svg, iframe, [onerror], [onload]').count()).toBe(0);
    // javascript: and data: links keep their words and lose their target.
    expect(await reply.getByTestId('link-dropped').allTextContents()).toEqual(['click me', 'data link']);
    for (const href of await reply.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
      expect(href).toMatch(/^https:\/\//);
    }
    await reply.getByText('click me').click();
    // A link whose words name one site and whose target is another says where it really goes.
    const lying = reply.locator('a', { hasText: 'https://bank.example/login' });
    expect(await lying.getAttribute('href')).toBe('https://evil.example/steal');
    expect(await reply.getByTestId('link-host').allTextContents()).toEqual([' (evil.example)']);
    // An image from another site is not fetched; its words say so.
    expect(await reply.locator('img').count()).toBe(0);
    expect(await reply.getByTestId('image-dropped').textContent()).toBe('[image not shown: tracker]');
    await screenshot(p, 'chat-markdown-xss');

    expect(await p.evaluate('window.__ran')).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(api.url))).toEqual([]);
  });

  /** Asks for the slow answer and waits until it is being written. */
  async function startSlowAnswer(p: Page): Promise<void> {
    await say(p, 'explain the policy');
    await p.getByTestId('streaming').waitFor();
  }

  it('interrupt: a message sent while the reply streams drops it, and one reply answers both', async () => {
    const { p } = await openChat('steer-interrupt', 'goal_steer');
    await startSlowAnswer(p);
    // The composer stays usable, and says what sending now does.
    expect(await p.getByTestId('while-busy').getAttribute('data-mode')).toBe('interrupt');
    expect(await p.getByTestId('while-busy').textContent()).toMatch(/will interrupt/);
    expect(await p.getByTestId('prompt-input').isEditable()).toBe(true);
    await screenshot(p, 'chat-steering');
    await say(p, 'only the carry-over part');
    await p.getByTestId('message-agent').filter({ hasText: CARRY_OVER_ANSWER }).waitFor();
    await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    expect(await p.getByTestId('message-user').allTextContents()).toEqual([
      'explain the policy',
      'only the carry-over part',
    ]);
    // What it had streamed is gone, and never became a message.
    expect(await p.getByTestId('streaming').count()).toBe(0);
    expect((await p.getByTestId('message-agent').allTextContents()).join('\n')).not.toContain('Paid time off builds');
    expect(await p.getByTestId('while-busy').count()).toBe(0);
  });

  it("a message's own choice: interrupt an agent that queues", async () => {
    const { p } = await openChat('steer-choice');
    await startSlowAnswer(p);
    expect(await p.getByTestId('while-busy').getAttribute('data-mode')).toBe('enqueue');
    await p.getByTestId('while-busy-choice').selectOption('interrupt');
    expect(await p.getByTestId('while-busy').getAttribute('data-mode')).toBe('interrupt');
    await say(p, 'only the carry-over part');
    await p.getByTestId('message-agent').filter({ hasText: CARRY_OVER_ANSWER }).waitFor();
    expect((await p.getByTestId('message-agent').allTextContents()).join('\n')).not.toContain('Paid time off builds');
  });

  it('reject: the chat says the agent is busy and keeps the draft; it is sent once the agent replies', async () => {
    const { p } = await openChat('steer-reject', 'goal_strict');
    await startSlowAnswer(p);
    expect(await p.getByTestId('while-busy').getAttribute('data-mode')).toBe('reject');
    await p.getByTestId('prompt-input').fill('only the carry-over part');
    await p.getByTestId('prompt-input').press('Enter');
    await p.getByTestId('chat-error').filter({ hasText: 'The agent is busy' }).waitFor();
    expect(await p.getByTestId('prompt-input').inputValue()).toBe('only the carry-over part');
    await p.getByTestId('message-agent').filter({ hasText: 'Paid time off builds' }).waitFor();
    await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    await p.getByTestId('send').click();
    await p.getByTestId('message-agent').filter({ hasText: CARRY_OVER_ANSWER }).waitFor();
  });
});
