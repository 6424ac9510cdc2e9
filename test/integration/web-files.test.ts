// Files in the web chat, in headless Chromium, against the API, a real dev server and a worker with the scripted
// model: a 12-page PDF attached through the paperclip and a CSV dropped onto the composer, each uploaded with its
// progress, Send held while they upload; the agent reads page 7 with ReadFile; the message's chips show name, size
// and pages or rows and open the file; a file over FILE_MAX_MB and a malformed PDF are refused in words beside their
// names and nothing of them is sent; a tool result kept whole links to the whole of it; readable on a phone.
// SAVE_SCREENSHOTS=1 also writes docs/screenshots/files-attach.png, files-refused.png and phone-files.png.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser, Page } from 'playwright-core';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { readApiSettings } from '../../api/api-settings';
import { startApi, type RunningApi } from '../../api/server';
import { openBlobStore } from '../../blobs';
import { AgentClient } from '../../client/agent-client';
import type { ChatMessage } from '../../core/types';
import { createStreamBus } from '../../stream';
import { defineTool } from '../../tools/define-tool';
import { loadNativeTools, ToolRegistry } from '../../tools/tool-registry';
import { launchBrowser, openPage, screenshot, scrollWidth, tabTo, type OpenedPage } from '../helpers/browser';
import { makeCsv, makePdf, makeZipBomb } from '../helpers/reader-fixtures';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { builtWebChat } from '../../testkit/web-build';

/** What page 7 of the PDF says (test/helpers/reader-fixtures.ts). */
const PAGE_7 = 'The vault code is 4-8-15-16-23-42.';

/** A native tool whose answer (~20 KB) is over CLAIM_CHECK_CHARS: kept whole in the blob store. */
const report = defineTool({
  name: 'Report',
  description: 'The whole sales report.',
  category: 'test',
  readOnly: true,
  input: z.object({}),
  async run() {
    return { rows: Array.from({ length: 400 }, (_, n) => ({ n, code: `C${(n * 31) % 997}`, pad: 'y'.repeat(20) })) };
  },
});

const goal = {
  id: 'goal_files_web',
  category: 'test',
  agentName: 'File reader',
  agentFriendlyDescription: 'Reads the files you attach.',
  description: 'Reads attached files a part at a time.',
  starterPrompt: 'Greet the user.',
  tools: ['Report'],
};

const script: ScriptInput = {
  rules: [
    { user: '^Greet', reply: { text: 'Hi. Attach a file and ask about it.' } },
    {
      // The user's message lists each attachment with its id (activities/llm/model-messages.ts): read the PDF's page 7.
      user: 'what does page 7 say[\\s\\S]*application/pdf[^\\n]*, id ([0-9a-f]{64})',
      reply: { toolCalls: [{ tool: 'ReadFile', args: { id: '{{1}}', pages: { from: 7, to: 7 } } }] },
    },
    { afterTool: 'ReadFile', outcome: 'ok', reply: { text: '{{result.text}}' } },
    { afterTool: 'ReadFile', outcome: 'tool_error', reply: { text: 'Could not read: {{outcome.error}}' } },
    { user: 'the report', reply: { toolCalls: [{ tool: 'Report', args: {} }] } },
    { afterTool: 'Report', outcome: 'ok', reply: { text: 'The report is kept whole.' } },
  ],
  fallback: { text: 'Noted.' },
};

describe('web chat: files', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let api: RunningApi;
  let agents: AgentClient;
  let browser: Browser;
  const bus = createStreamBus();
  const goalsDir = mkdtempSync(path.join(tmpdir(), 'web-files-'));
  const opened: OpenedPage[] = [];
  let pdf: Buffer;
  let csv: Buffer;

  beforeAll(async () => {
    const built = builtWebChat();
    writeFileSync(path.join(goalsDir, `${goal.id}.json`), JSON.stringify(goal));
    [env, browser, pdf] = await Promise.all([startTemporal(), launchBrowser(), makePdf(12).then(Buffer.from)]);
    csv = Buffer.from(makeCsv(250));
    // FILE_MAX_MB=1: a file of 1.5 MB is over it; CLAIM_CHECK_CHARS=8000: the Report tool's 400 rows are kept whole.
    // The API keeps files in the worker's store, as npm start does.
    const settings = testSettings({
      AGENT_GOAL: goal.id,
      GOALS_DIR: goalsDir,
      VALIDATE_PROMPTS: 'false',
      SHOW_CONFIRM: 'false',
      FILE_MAX_MB: '1',
      CLAIM_CHECK_CHARS: '8000',
    });
    worker = await startWorker(env, {
      script,
      settings,
      streamBus: bus,
      tools: new ToolRegistry([...loadNativeTools().all(), report]),
    });
    agents = new AgentClient(env.client, settings.taskQueue, { files: openBlobStore(settings.files.blobs) });
    api = await startApi({
      agents,
      bus,
      defaultGoal: goal.id,
      feedTiming: { busyMs: 50, idleMs: 200 },
      webRoot: await built,
      settings: { ...readApiSettings({}), port: 0, host: '127.0.0.1', keys: null },
    });
    expect(api.web).toBe(true);
  }, 120_000);

  afterAll(async () => {
    for (const p of opened) await p.close().catch(() => {});
    await browser?.close();
    await api?.close();
    await worker?.stop();
    await bus.close();
    await env?.teardown();
    rmSync(goalsDir, { recursive: true, force: true });
  });

  afterEach(async () => {
    const errors = opened.flatMap((p) => p.pageErrors);
    for (const p of opened.splice(0)) await p.close().catch(() => {});
    expect(errors).toEqual([]);
  });

  /** A new conversation, opened in the browser once its greeting shows. */
  async function openChat(id: string, size?: { width: number; height: number }): Promise<Page> {
    const res = await fetch(`${api.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ goalId: goal.id, conversationId: id }),
    });
    expect(res.status).toBe(201);
    return show(id, size);
  }

  async function show(id: string, size?: { width: number; height: number }): Promise<Page> {
    const o = await openPage(browser, size);
    opened.push(o);
    await o.page.goto(`${api.url}/#/c/${id}`);
    await o.page.getByTestId('message-agent').first().waitFor();
    await o.page.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    return o.page;
  }

  /** Attaches through the paperclip: the button opens the browser's file chooser, which is given the files. */
  async function attachByButton(
    p: Page,
    files: { name: string; mimeType: string; buffer: Buffer }[],
    by: 'mouse' | 'keyboard' = 'mouse',
  ) {
    const press = async () => {
      if (by === 'mouse') return p.getByTestId('attach').click();
      await tabTo(p, '[data-testid="attach"]');
      await p.keyboard.press('Enter');
    };
    const [chooser] = await Promise.all([p.waitForEvent('filechooser'), press()]);
    expect(chooser.isMultiple()).toBe(true);
    await chooser.setFiles(files);
  }

  /** Drags a file over the composer (the drop zone shows) and drops it. */
  async function dropOnComposer(p: Page, file: { name: string; type: string; text: string }) {
    const transfer = await p.evaluateHandle(
      `(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(file.text)}], ${JSON.stringify(file.name)}, { type: ${JSON.stringify(file.type)} })); return t; })()`,
    );
    const composer = p.getByTestId('composer');
    await composer.dispatchEvent('dragenter', { dataTransfer: transfer });
    await composer.dispatchEvent('dragover', { dataTransfer: transfer });
    await p.locator('.drop-zone').waitFor();
    expect(await p.locator('.composer.dragging').count()).toBe(1);
    await composer.dispatchEvent('drop', { dataTransfer: transfer });
    await p.locator('.drop-zone').waitFor({ state: 'detached' });
  }

  /** The conversation's messages as the API holds them. */
  async function messages(id: string): Promise<ChatMessage[]> {
    const c = (await (await fetch(`${api.url}/api/conversations/${id}`)).json()) as {
      messages: { message: ChatMessage }[];
    };
    return c.messages.map((m) => m.message);
  }

  it('attaches a PDF by the button and a CSV by drop, and the agent reads page 7; the chips open the files', async () => {
    const id = 'web-files-read';
    const p = await openChat(id, { width: 1100, height: 900 });
    // Every change of the page: how many files upload, and whether Send can be pressed meanwhile.
    await p.evaluate(`(() => {
      const trace = (window.__sendTrace = []);
      new MutationObserver(() => trace.push({
        uploading: document.querySelectorAll('[data-status="uploading"]').length,
        progress: document.querySelectorAll('[data-testid="upload-progress"]').length,
        sendDisabled: document.querySelector('[data-testid="send"]')?.disabled ?? null,
      })).observe(document.body, { subtree: true, childList: true, attributes: true });
    })()`);
    await p.getByTestId('prompt-input').fill('what does page 7 say');

    await attachByButton(p, [{ name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf }]);
    await dropOnComposer(p, { name: 'cities.csv', type: 'text/csv', text: csv.toString() });
    // Dropped beside the composer, a file is neither attached nor opened by the browser in place of the chat.
    const opened = await p.evaluate(`(() => {
      const t = new DataTransfer();
      t.items.add(new File(['x'], 'stray.txt', { type: 'text/plain' }));
      const drop = new DragEvent('drop', { dataTransfer: t, bubbles: true, cancelable: true });
      document.querySelector('.log').dispatchEvent(drop);
      return !drop.defaultPrevented;
    })()`);
    expect(opened).toBe(false);
    const pending = p.getByTestId('pending-file');
    await p.locator('[data-testid="pending-file"][data-status="ready"]').nth(1).waitFor();
    expect(await pending.locator('.pending-name').allTextContents()).toEqual(['report.pdf', 'cities.csv']);
    const trace = (await p.evaluate('window.__sendTrace')) as {
      uploading: number;
      progress: number;
      sendDisabled: boolean;
    }[];
    const whileUploading = trace.filter((s) => s.uploading > 0);
    expect(whileUploading.length).toBeGreaterThan(0);
    expect(whileUploading.every((s) => s.sendDisabled && s.progress === s.uploading)).toBe(true);
    // The API stated the limit when the composer opened (GET /api/files/limits).
    expect(await p.getByTestId('file-limits').textContent()).toBe('Up to 10 files, each up to 1 MB.');

    await p.getByTestId('send').click();
    await p.getByTestId('message-agent').filter({ hasText: PAGE_7 }).waitFor();
    await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    expect(await p.getByTestId('pending-file').count()).toBe(0);

    // The message carries both files; the agent read page 7 of the PDF, by its id.
    const all = await messages(id);
    const sent = all.find((m) => m.kind === 'user' && m.text === 'what does page 7 say');
    expect(sent?.kind === 'user' && sent.attachments?.map((f) => [f.name, f.type, f.size])).toEqual([
      ['report.pdf', 'application/pdf', pdf.length],
      ['cities.csv', 'text/csv', csv.length],
    ]);
    const read = all.find((m) => m.kind === 'tool' && m.call.tool === 'ReadFile');
    expect(read?.kind === 'tool' && read.call.args).toEqual({
      id: sent?.kind === 'user' ? sent.attachments?.[0]?.id : null,
      pages: { from: 7, to: 7 },
    });

    // The chips: an icon by type, the name, the size and pages or rows.
    const chips = p.getByTestId('file-chip');
    expect(await chips.getByTestId('file-name').allTextContents()).toEqual(['report.pdf', 'cities.csv']);
    const facts = await chips.getByTestId('file-facts').allTextContents();
    expect(facts[0]).toMatch(/^\d+(\.\d)? KB · 12 pages$/);
    expect(facts[1]).toMatch(/^\d+(\.\d)? KB · 250 rows$/);
    expect(await chips.locator('.file-icon').allTextContents()).toEqual(['PDF', 'CSV']);
    await screenshot(p, 'files-attach');

    // Each opens from its link: the browser gets the file's own bytes.
    for (const [i, bytes] of [pdf, csv].entries()) {
      const [download] = await Promise.all([p.waitForEvent('download'), chips.nth(i).getByTestId('file-link').click()]);
      expect(download.suggestedFilename()).toBe(i === 0 ? 'report.pdf' : 'cities.csv');
      expect(readFileSync(await download.path())).toEqual(bytes);
    }
  });

  it('refuses a file over the limit, a malformed PDF and a zip bomb in words beside them, and sends none', async () => {
    const id = 'web-files-refused';
    const p = await openChat(id);
    const uploads: string[] = [];
    p.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/files') uploads.push(r.url());
    });
    const big = Buffer.alloc(1.5 * 1024 * 1024, 'a');
    const broken = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> oops, not a PDF at all\n');

    // The API states the limit up front (GET /api/files/limits): said in words, and a file over it refused beside its
    // name before any byte is sent; the others are refused by the API, in its words.
    await p
      .locator('[data-testid="attach"][title="Attach files (up to 10, each up to 1 MB), or drop them here"]')
      .waitFor();
    await attachByButton(p, [
      { name: 'huge.txt', mimeType: 'text/plain', buffer: big },
      { name: 'broken.pdf', mimeType: 'application/pdf', buffer: broken },
      { name: 'sales.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from(makeZipBomb(120 * 1024 * 1024)) },
    ]);
    const errors = p.getByTestId('file-error');
    await errors.nth(2).waitFor();
    const huge = p.locator('[data-testid="pending-file"]', { hasText: 'huge.txt' });
    const pdfRow = p.locator('[data-testid="pending-file"]', { hasText: 'broken.pdf' });
    expect(await huge.getAttribute('data-status')).toBe('refused');
    expect(await huge.getByTestId('file-error').textContent()).toMatch(/over the 1 MB a file may be \(FILE_MAX_MB\)/);
    expect(await pdfRow.getAttribute('data-status')).toBe('refused');
    expect(await pdfRow.getByTestId('file-error').textContent()).toMatch(/PDF/);
    const bomb = p.locator('[data-testid="pending-file"]', { hasText: 'sales.xlsx' });
    expect(await bomb.getByTestId('file-error').textContent()).toMatch(/^a zip bomb/);
    expect(uploads).toHaveLength(2);
    expect(await p.getByTestId('file-limits').textContent()).toBe('Up to 10 files, each up to 1 MB.');

    // The paperclip by keyboard alone this time.
    await attachByButton(p, [{ name: 'huge-again.txt', mimeType: 'text/plain', buffer: big }], 'keyboard');
    const again = p.locator('[data-testid="pending-file"]', { hasText: 'huge-again.txt' });
    expect(await again.getByTestId('file-error').textContent()).toBe(
      'huge-again.txt is 1.5 MB, over the 1 MB a file may be (FILE_MAX_MB).',
    );
    expect(uploads).toHaveLength(2);
    await screenshot(p, 'files-refused');

    // Removable before sending; the message goes without the refused files.
    await again.getByTestId('remove-file').click();
    expect(await p.getByTestId('pending-file').count()).toBe(3);
    await p.getByTestId('prompt-input').fill('just words');
    await p.getByTestId('send').click();
    await p.getByTestId('message-user').filter({ hasText: 'just words' }).waitFor();
    await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
    const sent = (await messages(id)).find((m) => m.kind === 'user' && m.text === 'just words');
    expect(sent?.kind === 'user' && sent.attachments).toBeFalsy();
    expect(await p.getByTestId('file-chip').count()).toBe(0);
  });

  it('links a tool result kept whole to the whole of it', async () => {
    const id = 'web-files-stored';
    const p = await openChat(id);
    await p.getByTestId('prompt-input').fill('show me the report');
    await p.getByTestId('send').click();
    await p.getByTestId('message-agent').filter({ hasText: 'The report is kept whole.' }).waitFor();
    const stored = p.locator('[data-testid="tool-card"][data-tool="Report"]').getByTestId('stored-result');
    expect(await stored.textContent()).toMatch(/^kept as a file: Report result \(application\/json, \d+ KB/);
    const [download] = await Promise.all([p.waitForEvent('download'), stored.getByTestId('file-link').click()]);
    const whole = JSON.parse(readFileSync(await download.path(), 'utf8')) as { rows: unknown[] };
    expect(whole.rows).toHaveLength(400);
  });

  it("shows an upload's progress as it goes, with Send held until it is done", async () => {
    const p = await openChat('web-files-progress');
    // The upload throttled to ~256 KB/s, so a 900 KB file takes a few seconds.
    const cdp = await p.context().newCDPSession(p);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    await p.getByTestId('prompt-input').fill('here it is');
    const size = 900 * 1024;
    await attachByButton(p, [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.alloc(size, 'notes ') }]);
    const bar = p.getByTestId('upload-progress');
    await bar.waitFor();
    expect(await p.getByTestId('send').isDisabled()).toBe(true);
    expect(await p.getByTestId('send').textContent()).toBe('Uploading…');
    const seen = new Set<number>();
    while ((await p.locator('[data-testid="pending-file"][data-status="uploading"]').count()) > 0) {
      const value = await bar.evaluate((e) => (e as unknown as { value: number }).value).catch(() => null);
      if (typeof value === 'number') seen.add(value);
      await p.waitForTimeout(100);
    }
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    // Part-way values showed before the end.
    expect([...seen].filter((v) => v > 0 && v < size).length).toBeGreaterThan(1);
    await p.locator('[data-testid="pending-file"][data-status="ready"]').waitFor();
    expect(await p.getByTestId('send').isEnabled()).toBe(true);
  });

  it('uploads and opens files with the API key when the API needs one', async () => {
    const key = 'ada-key-for-files';
    const keyed = await startApi({
      agents,
      bus,
      defaultGoal: goal.id,
      feedTiming: { busyMs: 50, idleMs: 200 },
      webRoot: await builtWebChat(),
      settings: { ...readApiSettings({ API_KEYS: `ada=${key}` }), port: 0, host: '127.0.0.1' },
    });
    try {
      const id = 'web-files-keyed';
      const started = await fetch(`${keyed.url}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ goalId: goal.id, conversationId: id }),
      });
      expect(started.status).toBe(201);
      const o = await openPage(browser);
      opened.push(o);
      const p = o.page;
      await o.context.addInitScript(`localStorage.setItem('agent-orchestrator.api-key', ${JSON.stringify(key)})`);
      await p.goto(`${keyed.url}/#/c/${id}`);
      await p.locator('[data-testid="state"][data-state="waiting_for_user"]').waitFor();
      await p.getByTestId('prompt-input').fill('what does page 7 say');
      await attachByButton(p, [{ name: 'report.pdf', mimeType: 'application/pdf', buffer: pdf }]);
      await p.locator('[data-testid="pending-file"][data-status="ready"]').waitFor();
      await p.getByTestId('send').click();
      await p.getByTestId('message-agent').filter({ hasText: PAGE_7 }).waitFor();
      // A plain link would carry no key (401): the chip fetches the bytes with it.
      const link = p.getByTestId('file-chip').getByTestId('file-link');
      expect((await fetch(`${keyed.url}${await link.getAttribute('href')}`)).status).toBe(401);
      const [download] = await Promise.all([p.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe('report.pdf');
      expect(readFileSync(await download.path())).toEqual(pdf);
    } finally {
      await keyed.close();
    }
  });

  it('is readable on a phone: no sideways scroll with files pending and chips in the transcript', async () => {
    const p = await show('web-files-read', { width: 390, height: 844 });
    await p.getByTestId('file-chip').first().waitFor();
    const name = 'a-very-long-file-name-for-the-quarterly-report-of-the-northern-region-2026.csv';
    await attachByButton(p, [{ name, mimeType: 'text/csv', buffer: csv }]);
    await p.locator('[data-testid="pending-file"][data-status="ready"]').waitFor();
    expect(await scrollWidth(p)).toBeLessThanOrEqual(390);
    // The paperclip keeps its name for screen readers.
    expect(await p.getByTestId('attach').getAttribute('title')).toMatch(/^Attach files/);
    expect(await p.getByRole('button', { name: 'Attach files' }).count()).toBe(1);
    await screenshot(p, 'phone-files');
  });
});
