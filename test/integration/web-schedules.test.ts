// The Schedules page in the web chat (headless Chromium, the API, a real dev server and worker, the scripted PTO
// model): a schedule made through the form is listed with its next runs; the same name again is refused in the API's
// words; "Run now" makes a run whose answer shows, whose conversation's run view says the schedule started it, and
// which the Agents page counts under the schedule; paused with a note it says so; deleted it is gone. The webhook
// triggers are listed read-only with their latest runs. No sideways scroll at 390 px.
// SAVE_SCREENSHOTS=1 writes docs/screenshots/schedules*.png.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser, Page } from 'playwright-core';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { openBlobStore, readBlobSettings } from '../../blobs';
import type { Transcript } from '../../core/conversation-types';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { sendDelivery } from '../../testkit/trigger-api';
import { builtWebChat } from '../../testkit/web-build';
import { ptoScript } from '../fixtures/scripts';
import { launchBrowser, openPage, SCREENSHOTS_DIR, scrollWidth, type OpenedPage } from '../helpers/browser';

const ANSWER = 'You have 104 hours of PTO left.';
/** A spec that never comes due within the test: its run is the one asked for. */
const YEARLY = '0 0 1 1 *';
const SECRET_VAR = 'WEB_SCHEDULES_TEST_SECRET';

/** docs/screenshots/<name>.png of the whole page, only when SAVE_SCREENSHOTS=1. */
async function shoot(page: Page, name: string): Promise<void> {
  if (process.env.SAVE_SCREENSHOTS !== '1') return;
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
}

describe('web chat: the Schedules page', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  let browser: Browser;
  const work = mkdtempSync(path.join(tmpdir(), 'web-schedules-'));
  const opened: OpenedPage[] = [];

  beforeAll(async () => {
    process.env[SECRET_VAR] = 'whsec-web-schedules-0123';
    const triggers = path.join(work, 'triggers.json');
    writeFileSync(
      triggers,
      JSON.stringify({
        triggers: {
          orders: {
            goal: 'goal_hr_pto',
            prompt: 'balance for ada@example.com ({{event}})',
            signature: 'github',
            secret: `\${env:${SECRET_VAR}}`,
            description: 'Order events from the shop',
          },
        },
      }),
    );
    const built = builtWebChat();
    [env, browser] = await Promise.all([startTemporal(), launchBrowser()]);
    bus = createStreamBus();
    const blobDir = path.join(work, 'blobs');
    const settings = testSettings({ VALIDATE_PROMPTS: 'false', BLOB_DIR: blobDir });
    worker = await startWorker(env, { script: ptoScript, settings, streamBus: bus });
    api = await startApi({
      agents: new AgentClient(env.client, settings.taskQueue, {
        files: openBlobStore(readBlobSettings({ BLOB_DIR: blobDir }, blobDir)),
      }),
      bus,
      defaultGoal: 'goal_hr_pto',
      webRoot: await built,
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: null,
        bodyLimitBytes: 64 * 1024,
        corsOrigins: [],
        triggers: { file: triggers, maxBytes: 8 * 1024 },
      },
    });
    // One delivery of the trigger, so the page has a trigger's run to list.
    const sent = await sendDelivery(api.url, 'orders', 'github', process.env[SECRET_VAR]!, '{"order":{"id":"A-1"}}', {
      headers: { 'x-github-delivery': 'web-1', 'x-github-event': 'order' },
    });
    expect(sent.status).toBe(202);
    const done = (await env.client.workflow.getHandle(sent.body.conversationId as string).result()) as Transcript;
    expect(done.envelope?.summary).toBe(ANSWER);
  }, 120_000);

  afterAll(async () => {
    for (const p of opened) await p.close().catch(() => {});
    await browser?.close();
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
    rmSync(work, { recursive: true, force: true });
    delete process.env[SECRET_VAR];
  });

  afterEach(async () => {
    const errors = opened.flatMap((p) => p.pageErrors);
    for (const p of opened.splice(0)) await p.close().catch(() => {});
    expect(errors).toEqual([]);
  });

  it('create, refuse a second of the same name, run now and read the answer, pause with a note, delete', async () => {
    const opening = await openPage(browser);
    opened.push(opening);
    const { page } = opening;
    await page.goto(`${api.url}/#/schedules`);
    await page.getByText('No schedules yet.').waitFor();

    // The trigger, read-only, with the run its delivery made.
    const trigger = page.locator('[data-testid="trigger"][data-name="orders"]');
    await trigger.getByText(ANSWER).waitFor();
    expect(await trigger.locator('[data-testid="unattended-run"]').getAttribute('data-status')).toBe('ok');
    expect(await trigger.innerText()).toMatch(/Order events from the shop/);

    const create = async () => {
      await page.getByTestId('schedule-name').fill('balance');
      await page.getByTestId('schedule-goal').selectOption('goal_hr_pto');
      await page.getByTestId('schedule-prompt').fill('balance for ada@example.com');
      await page.getByTestId('schedule-when-kind').selectOption('cron');
      await page.getByTestId('schedule-when').fill(YEARLY);
      await page.getByTestId('schedule-timezone').fill('UTC');
      await page.getByTestId('schedule-overlap').selectOption('skip');
      await page.getByTestId('schedule-approvals').selectOption('deny');
      await page.getByTestId('schedule-create').click();
    };
    await create();
    const card = page.locator('[data-testid="schedule"][data-name="balance"]');
    await card.waitFor();
    expect(await card.getAttribute('data-paused')).toBe('false');
    // Midnight on the first of January, UTC: the spec's next runs, a year apart.
    expect(await card.getByTestId('schedule-next').innerText()).toMatch(
      /^Next \(UTC\): (\d{4})-01-01 00:00, \d{4}-01-01 00:00, \d{4}-01-01 00:00$/,
    );
    expect(await card.innerText()).toMatch(/balance for ada@example\.com/);
    await card.getByText('No runs yet.').waitFor();

    // The same name again: the API's refusal, in its words.
    await create();
    expect(await page.getByTestId('schedule-form-error').innerText()).toBe('A schedule named balance exists already.');

    await card.getByTestId('schedule-trigger').click();
    const run = card.locator('[data-testid="unattended-run"]');
    await run.getByText(ANSWER).waitFor({ timeout: 30_000 });
    expect(await run.getAttribute('data-status')).toBe('ok');
    const conversationId = await run.getAttribute('data-conversation');
    expect(conversationId).toMatch(/^sched-balance-/);
    await shoot(page, 'schedules');

    // Its conversation: the run view says the schedule started it.
    await run.locator('a').click();
    await page.waitForURL(`**/#/c/${encodeURIComponent(conversationId!)}`);
    await page.getByTestId('run-toggle').click();
    expect(await page.getByTestId('run-started-by').innerText()).toBe('started by schedule balance');

    // The registry counts it under the schedule, and the trigger's under the trigger.
    await page.getByTestId('agents-link').click();
    const counted = page.locator('[data-testid="runs-by-row"][data-name="balance"]');
    await counted.waitFor();
    expect(await counted.getAttribute('data-source')).toBe('schedule');
    expect(await counted.locator('td[data-col="runs"]').innerText()).toBe('1');
    expect(await counted.locator('td[data-col="ok"]').innerText()).toBe('1');
    expect(await page.locator('[data-testid="runs-by-row"][data-name="orders"] td[data-col="runs"]').innerText()).toBe(
      '1',
    );

    await page.getByTestId('schedules-link').click();
    await card.getByTestId('schedule-pause-note').fill('holidays');
    await card.getByTestId('schedule-pause').click();
    await page.locator('[data-testid="schedule"][data-name="balance"][data-paused="true"]').waitFor();
    expect(await card.getByTestId('schedule-note').innerText()).toBe('Paused: holidays');
    expect(await card.getByTestId('schedule-state').innerText()).toBe('paused');

    await card.getByTestId('schedule-delete').click();
    await card.getByTestId('schedule-delete-confirm').click();
    await page.getByText('No schedules yet.').waitFor();
    const listed = (await (await fetch(`${api.url}/api/schedules`)).json()) as { schedules: unknown[] };
    expect(listed.schedules).toEqual([]);
  }, 60_000);

  it('reads on a 390 px phone: no sideways scroll', async () => {
    const opening = await openPage(browser, { width: 390, height: 844 });
    opened.push(opening);
    const { page } = opening;
    await page.goto(`${api.url}/#/schedules`);
    await page.locator('[data-testid="trigger"][data-name="orders"]').getByText(ANSWER).waitFor();
    expect(await scrollWidth(page)).toBe(390);
    await shoot(page, 'schedules-phone');
  }, 30_000);
});
