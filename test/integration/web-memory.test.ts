// The Memories page in the web chat (headless Chromium, the API with keys, a real dev server and worker, the scripted
// model, the store PGlite in the worker's folder): memories added through the API are listed newest first; a search
// narrows them; an edit and a delete made on the page are what the API then answers; a refusal shows in the API's
// words; an admin key sees every owner's, each card naming its owner, a page at a time. A conversation whose turn was
// shown a memory is listed on the memory's page, whose link opens that conversation's run view, where the turn's model
// call lists the memory, linking back. A memory proposed when a conversation ended (a goal's memory.extract) is marked
// so, and kept (then an ordinary memory) or dismissed (gone) on the page. No sideways scroll at 390 px.
// SAVE_SCREENSHOTS=1 writes docs/screenshots/memories*.png.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { ApiKeys } from '../../api/auth';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import type { Memory, MemoryUse } from '../../core/memory';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { waitUntil } from '../../testkit/wait-until';
import { builtWebChat } from '../../testkit/web-build';
import { launchBrowser, openPage, screenshot, scrollWidth, type OpenedPage } from '../helpers/browser';
import { extractGoalsDir, extractScript } from '../fixtures/memory-extract';
import { REMEMBER_RULES } from '../fixtures/memory-script';

const [ADA, BOB, ADMIN] = ['ada-key-0123456789abcdef', 'bob-key-0123456789abcdef', 'admin-key-0123456789abcd'];

const script: ScriptInput = {
  rules: [
    ...REMEMBER_RULES,
    { afterTool: 'Remember', outcome: 'ok', reply: { text: 'Noted.' } },
    { user: 'what do you know', reply: { text: 'Here is what I know.' } },
    { user: 'my desk is (\\w+)', reply: { text: 'Noted.' } },
    // What the note taker (goal_notes) proposes when its conversation ends.
    ...extractScript.rules.filter((r) => r.task === 'extract'),
  ],
};

describe('web chat: the Memories page', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let agents: AgentClient;
  let bus: StreamBus;
  let api: RunningApi;
  let browser: Browser;
  const opened: OpenedPage[] = [];

  beforeAll(async () => {
    const built = builtWebChat();
    [env, browser] = await Promise.all([startTemporal(), launchBrowser()]);
    bus = createStreamBus();
    const settings = testSettings({ VALIDATE_PROMPTS: 'false', MEMORY_MAX_BYTES: '200', GOALS_DIR: extractGoalsDir() });
    worker = await startWorker(env, { script, settings, streamBus: bus });
    agents = new AgentClient(env.client, settings.taskQueue);
    api = await startApi({
      agents,
      bus,
      defaultGoal: 'goal_hr_pto',
      webRoot: await built,
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: new ApiKeys([`ada=${ADA}`, `bob=${BOB}`], [ADMIN]),
        bodyLimitBytes: 64 * 1024,
        corsOrigins: [],
      },
    });
  }, 120_000);

  afterAll(async () => {
    for (const p of opened) await p.close().catch(() => {});
    await browser?.close();
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
  });

  afterEach(async () => {
    const errors = opened.flatMap((p) => p.pageErrors);
    for (const p of opened.splice(0)) await p.close().catch(() => {});
    expect(errors).toEqual([]);
  });

  const call = async <T = Record<string, unknown>>(key: string, method: string, route: string, payload?: unknown) => {
    const res = await fetch(`${api.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
    });
    return { status: res.status, body: (await res.json()) as T };
  };
  const add = async (key: string, text: string, tags: string[] = [], owner = '') =>
    (await call<{ memory: Memory }>(key, 'POST', `/api/memories${owner ? `?owner=${owner}` : ''}`, { text, tags })).body
      .memory;

  /** The page with `key` stored, as the key prompt would have stored it. */
  async function open(key: string, hash: string, size?: { width: number; height: number }): Promise<Page> {
    const o = await openPage(browser, size);
    opened.push(o);
    await o.context.addInitScript(`localStorage.setItem('agent-orchestrator.api-key', ${JSON.stringify(key)})`);
    await o.page.goto(`${api.url}/${hash}`);
    return o.page;
  }
  const cards = (page: Page) => page.getByTestId('memory');
  const card = (page: Page, id: string) => page.locator(`[data-testid="memory"][data-id="${id}"]`);
  const texts = (page: Page) => page.getByTestId('memory-text').allInnerTexts();
  const tags = (memory: Locator) => memory.getByTestId('memory-tags').locator('li').allInnerTexts();
  const owners = (page: Page) => page.getByTestId('memory-owner').allTextContents();

  it('lists newest first, search narrows, edit and delete reach the store, a refusal is shown in words', async () => {
    const fridays = await add(ADA, 'prefers Fridays off', ['pto']);
    const manager = await add(ADA, 'manager is Grace Hopper', ['work']);
    const train = await add(ADA, 'takes the 8:15 train', ['commute']);
    await add(BOB, 'bob likes tea');

    const page = await open(ADA, '#/memories');
    await page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
    await page.getByText('3 memories newest first.').waitFor();
    expect(await texts(page)).toEqual(['takes the 8:15 train', 'manager is Grace Hopper', 'prefers Fridays off']);
    expect(await owners(page)).toEqual(['owner ada', 'owner ada', 'owner ada']);
    const first = card(page, fridays.id);
    expect(await tags(first)).toEqual(['#pto']);
    expect(await first.getByTestId('memory-source').innerText()).toBe('added through the API');
    expect(await first.innerText()).toContain(`kept ${fridays.createdAt.slice(0, 16).replace('T', ' ')}`);
    await screenshot(page, 'memories');

    // Search narrows; "Show all" brings the list back.
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('manager');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1 memory matching “manager”, best first.').waitFor();
    expect(await texts(page)).toEqual(['manager is Grace Hopper']);
    await page.getByRole('searchbox', { name: 'Search memories' }).fill('holidays abroad');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('No memory matches “holidays abroad”.').waitFor();
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.getByText('3 memories newest first.').waitFor();
    // Another owner named by a key that is not an admin's: its own are listed, and it is told why.
    await page.getByRole('textbox', { name: 'Owner' }).fill('bob');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('memories-own-only').waitFor();
    expect(await owners(page)).toEqual(['owner ada', 'owner ada', 'owner ada']);
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.getByTestId('memories-own-only').waitFor({ state: 'detached' });

    // Edit the words and tags in place: the API answers the change.
    await first.getByRole('button', { name: 'Edit' }).click();
    await first.getByRole('textbox', { name: 'Text' }).fill('prefers Mondays off');
    await first.getByRole('textbox', { name: 'Tags (separated by commas)' }).fill('pto, days, pto');
    await first.getByRole('button', { name: 'Save' }).click();
    // (The text box holds those words too until the answer comes: the card's own text is waited for.)
    await first.getByTestId('memory-text').filter({ hasText: 'prefers Mondays off' }).waitFor();
    expect(await tags(first)).toEqual(['#pto', '#days']);
    expect(await first.innerText()).toMatch(/ · changed \d{4}-\d\d-\d\d \d\d:\d\d \(UTC\)/);
    const edited = await call<{ memory: Memory }>(ADA, 'GET', `/api/memories/${fridays.id}`);
    expect(edited.body.memory).toMatchObject({ text: 'prefers Mondays off', tags: ['pto', 'days'] });

    // Delete after a second click: gone from the page and from the store.
    const second = card(page, manager.id);
    await second.getByRole('button', { name: 'Delete…' }).click();
    await second.getByRole('group', { name: 'Delete this memory?' }).getByRole('button', { name: 'Keep' }).click();
    expect(await cards(page).count()).toBe(3);
    await second.getByRole('button', { name: 'Delete…' }).click();
    await second.getByRole('button', { name: 'Delete', exact: true }).click();
    await second.waitFor({ state: 'detached' });
    expect(await texts(page)).toEqual(['takes the 8:15 train', 'prefers Mondays off']);
    expect((await call(ADA, 'GET', `/api/memories/${manager.id}`)).status).toBe(404);

    // Refusals in the API's words: one deleted meanwhile, one too long (MEMORY_MAX_BYTES).
    expect((await call(ADA, 'DELETE', `/api/memories/${train.id}`)).status).toBe(200);
    const gone = card(page, train.id);
    await gone.getByRole('button', { name: 'Edit' }).click();
    await gone.getByRole('textbox', { name: 'Text' }).fill('takes the 9:15 train');
    await gone.getByRole('button', { name: 'Save' }).click();
    expect(await gone.getByRole('alert').innerText()).toBe(`No memory ${train.id}.`);
    await gone.getByRole('button', { name: 'Cancel' }).click();
    await first.getByRole('button', { name: 'Edit' }).click();
    await first.getByRole('textbox', { name: 'Text' }).fill('y'.repeat(250));
    await first.getByRole('button', { name: 'Save' }).click();
    expect(await first.getByRole('alert').innerText()).toMatch(/the most is 200 \(MEMORY_MAX_BYTES\)/);
    await first.getByRole('button', { name: 'Cancel' }).click();
    expect(await first.getByTestId('memory-text').innerText()).toBe('prefers Mondays off');
  }, 60_000);

  it("an admin key sees every owner's, each named, a page at a time, and narrows to one owner", async () => {
    // Carol's, more than a page: kept one after another so the newest is known.
    for (let i = 1; i <= 22; i++) await add(ADMIN, `carol fact ${i}`, [], 'carol');
    const page = await open(ADMIN, '#/memories');
    await page.getByText('20 memories newest first; more below.').waitFor();
    expect((await texts(page))[0]).toBe('carol fact 22');
    expect((await owners(page))[0]).toBe('owner carol');
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByText(/^\d+ memories newest first\.$/).waitFor();
    const all = await page
      .getByTestId('memory')
      .evaluateAll((es) => es.map((e) => (e as unknown as { dataset: { owner: string } }).dataset.owner));
    expect(new Set(all)).toEqual(new Set(['ada', 'bob', 'carol']));
    expect(all.filter((o) => o === 'carol')).toHaveLength(22);

    await page.getByRole('textbox', { name: 'Owner' }).fill('bob');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('1 memory of bob newest first.').waitFor();
    expect(await texts(page)).toEqual(['bob likes tea']);
    expect(await owners(page)).toEqual(['owner bob']);
  }, 60_000);

  it("a memory's page lists the conversations that used it; the run view shows the turn's recalled memory", async () => {
    // Kept in a conversation (Remember, approved), then recalled by that conversation's next turn.
    const { id: talk } = await agents.start('goal_hr_pto', 'web-memory-talk', 'ada');
    expect((await agents.say(talk, 'remember that I prefer Tuesdays off')).pendingToolCall).toMatchObject({
      tool: 'Remember',
    });
    await agents.confirm(talk, { approve: true });
    await agents.say(talk, 'what do you know about me?');
    const listed = await call<{ memories: Memory[] }>(ADA, 'GET', '/api/memories?q=Tuesdays');
    const kept = listed.body.memories[0]!;
    expect(kept.source).toMatchObject({ kind: 'conversation', conversationId: talk });
    // What used it is noted while the model works, not waited for.
    await waitUntil(async () => {
      const { body } = await call<{ uses?: MemoryUse[] }>(ADA, 'GET', `/api/memories/${kept.id}`);
      return body.uses?.some((u) => u.conversationId === talk) ?? false;
    }, 15_000);

    const page = await open(ADA, '#/memories');
    const listedCard = card(page, kept.id);
    await listedCard.waitFor();
    expect(await listedCard.getByTestId('memory-source').innerText()).toBe(talk);
    expect(await listedCard.innerText()).toContain(`saved in conversation ${talk}`);
    await listedCard.getByRole('link', { name: kept.id }).click();
    await page.waitForURL(`**/#/memories/${kept.id}`);
    await page.getByRole('heading', { name: `Memory ${kept.id}` }).waitFor();
    const use = page.locator(`[data-testid="memory-use"][data-conversation="${talk}"]`);
    await use.waitFor();
    expect(await use.innerText()).toContain('PTO assistant');
    await screenshot(page, 'memory-uses');

    // Its run view: the turn that was shown it lists it, linking back to the memory's page.
    await use.getByRole('link', { name: `Run view of ${talk}` }).click();
    await page.waitForURL(`**/#/c/${talk}`);
    // The latest turn (earlier ones fold away): its model call was shown the memory.
    const recalled = page.getByTestId('run-turn').last().getByTestId('run-memories').filter({ hasText: kept.id });
    await recalled.waitFor();
    expect(await recalled.innerText()).toMatch(new RegExp(`^recalled \\d+ memor(y|ies): .*${kept.id}`));
    await screenshot(page, 'run-view-memories');
    await recalled.getByRole('link', { name: kept.id }).click();
    await page.waitForURL(`**/#/memories/${kept.id}`);
    await page.getByTestId('memory-text').filter({ hasText: 'prefers Tuesdays off' }).waitFor();

    // Deleted from its own page: the API no longer knows it.
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByTestId('memory-deleted').waitFor();
    expect((await call(ADA, 'GET', `/api/memories/${kept.id}`)).status).toBe(404);
  }, 90_000);

  it('a proposed memory is marked, and kept or dismissed on the page', async () => {
    const { id: talk } = await agents.start('goal_notes', 'web-memory-extract', 'ada');
    await agents.say(talk, 'my desk is 42');
    await agents.end(talk);
    const { body } = await call<{ memories: Memory[] }>(ADA, 'GET', '/api/memories?limit=500');
    const desk = body.memories.find((m) => m.text === 'sits at desk 42')!;
    const quiet = body.memories.find((m) => m.text === 'likes a quiet floor')!;
    expect([desk.proposed, quiet.proposed]).toEqual([true, true]);

    const page = await open(ADA, '#/memories');
    const deskCard = card(page, desk.id);
    await deskCard.waitFor();
    expect(await deskCard.getByTestId('memory-proposed').innerText()).toBe('proposed');
    expect(await deskCard.innerText()).toContain(`from conversation ${talk}`);
    expect(await deskCard.innerText()).toContain('no agent is shown it until you keep it');
    await deskCard.getByRole('button', { name: 'Keep' }).click();
    await deskCard.getByTestId('memory-proposed').waitFor({ state: 'detached' });
    await deskCard.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await deskCard.innerText()).toContain(`saved in conversation ${talk}`);
    const kept = await call<{ memory: Memory }>(ADA, 'GET', `/api/memories/${desk.id}`);
    expect(kept.body.memory.proposed).toBeUndefined();

    // Dismissed: gone at once, from the page and the store.
    const quietCard = card(page, quiet.id);
    await quietCard.getByRole('button', { name: 'Dismiss' }).click();
    await quietCard.waitFor({ state: 'detached' });
    expect((await call(ADA, 'GET', `/api/memories/${quiet.id}`)).status).toBe(404);
  }, 60_000);

  it('reads on a 390 px phone: no sideways scroll', async () => {
    const page = await open(ADMIN, '#/memories', { width: 390, height: 844 });
    await cards(page).first().waitFor();
    expect(await scrollWidth(page)).toBe(390);
    await screenshot(page, 'memories-phone');
  }, 30_000);
});
