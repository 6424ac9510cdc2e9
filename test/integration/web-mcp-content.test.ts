// The web chat in headless Chromium showing what the MCP reference server (server-everything, real, over stdio)
// answered in a conversation: its tiny image inline, resource links as links that open through the API, an embedded
// resource as a text block, text as Markdown, annotations as labels, structured content as a table, and a resource attached to the
// user's message folded under its name. SAVE_SCREENSHOTS=1 also writes docs/screenshots/mcp-content.png.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser } from 'playwright-core';
import { readApiSettings } from '../../api/api-settings';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import { launchBrowser, openPage, screenshot, type OpenedPage } from '../helpers/browser';
import { everythingStdio } from '../../testkit/everything-server';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { builtWebChat } from '../../testkit/web-build';

const script = {
  rules: [
    { user: '^image$', reply: { toolCalls: [{ tool: 'ev__get-tiny-image', args: {} }] } },
    { user: '^links$', reply: { toolCalls: [{ tool: 'ev__get-resource-links', args: { count: 2 } }] } },
    {
      user: '^reference$',
      reply: { toolCalls: [{ tool: 'ev__get-resource-reference', args: { resourceType: 'Text', resourceId: 1 } }] },
    },
    {
      user: '^annotated$',
      reply: {
        toolCalls: [{ tool: 'ev__get-annotated-message', args: { messageType: 'success', includeImage: false } }],
      },
    },
    {
      user: '^weather$',
      reply: { toolCalls: [{ tool: 'ev__get-structured-content', args: { location: 'Chicago' } }] },
    },
    {
      user: '^markdown$',
      reply: { toolCalls: [{ tool: 'ev__echo', args: { message: '**bold**, `code` and <b onmouseover=x>tags</b>' } }] },
    },
    { outcome: 'ok' as const, reply: { text: 'Here it is.' } },
  ],
  fallback: { text: 'Noted.' },
};

describe('web chat: MCP content in a browser', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let api: RunningApi;
  let browser: Browser;
  const bus = createStreamBus();
  const work = mkdtempSync(path.join(tmpdir(), 'web-mcp-'));
  let webRoot: string;
  let page: OpenedPage | undefined;

  beforeAll(async () => {
    const built = builtWebChat();
    const registry = path.join(work, 'mcp_endpoints.json');
    writeFileSync(registry, JSON.stringify({ mcpServers: { ev: everythingStdio() } }));
    [env, browser] = await Promise.all([startTemporal(), launchBrowser()]);
    const settings = testSettings({
      AGENT_GOAL: 'goal_general',
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: registry,
    });
    worker = await startWorker(env, { script, settings, streamBus: bus });
    webRoot = await built;
    api = await startApi({
      agents: new AgentClient(env.client, settings.taskQueue),
      bus,
      defaultGoal: 'goal_general',
      feedTiming: { busyMs: 50, idleMs: 200 },
      webRoot,
      settings: { ...readApiSettings({}), port: 0, host: '127.0.0.1', keys: null },
    });
    expect(api.web).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
    await api?.close();
    await worker?.stop();
    await bus.close();
    await env?.teardown();
    rmSync(work, { recursive: true, force: true });
  });

  const post = async (route: string, body: unknown) => {
    const res = await fetch(`${api.url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };

  it('shows the tiny image, resource links, an embedded resource, annotations, structured content and an attachment', async () => {
    const id = 'web-mcp-content';
    await post('/api/conversations', { goalId: 'goal_general', conversationId: id });
    for (const text of ['image', 'links', 'reference', 'annotated', 'weather', 'markdown'])
      await post(`/api/conversations/${id}/messages`, { text });
    await post(`/api/conversations/${id}/messages`, {
      text: 'what is in this?',
      resource: { endpoint: 'ev', uri: 'demo://resource/dynamic/text/5' },
    });

    page = await openPage(browser, { width: 1100, height: 1400 });
    const p = page.page;
    await p.goto(`${api.url}/#/c/${id}`);
    const card = (tool: string) => p.locator(`[data-testid="tool-card"][data-tool="ev__${tool}"]`);

    // The image is shown, decoded by the browser (a broken one has no natural width).
    const image = card('get-tiny-image').getByTestId('content-image');
    await image.waitFor();
    expect(
      await image.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth),
    ).toBe(20);
    expect(await card('get-tiny-image').getByTestId('content-text').allTextContents()).toEqual([
      "Here's the image you requested:",
      'The image above is the MCP logo.',
    ]);
    // A tool's result in words is Markdown too, its HTML shown as text.
    const echoed = card('echo').locator('.tool-result .markdown');
    expect(await echoed.locator('strong').textContent()).toBe('bold');
    expect(await echoed.locator('code').textContent()).toBe('code');
    expect(await echoed.textContent()).toBe('Echo: bold, code and <b onmouseover=x>tags</b>');
    expect(await echoed.locator('b').count()).toBe(0);

    // Resource links are links; one that is no web address opens through the API, which reads it in the worker.
    const links = card('get-resource-links').getByTestId('resource-link');
    expect(await links.allTextContents()).toEqual(['Blob Resource 1', 'Text Resource 2']);
    const href = (await links.nth(1).getAttribute('href'))!;
    expect(href).toBe(`/api/endpoints/ev/resource?uri=${encodeURIComponent('demo://resource/dynamic/text/2')}`);
    const opened = (await (await fetch(`${api.url}${href}`)).json()) as { contents: { text: string }[] };
    expect(opened.contents[0]!.text).toMatch(/^Resource 2: This is a plaintext resource/);

    await expect(card('get-resource-reference').getByTestId('content-resource').textContent()).resolves.toMatch(
      /demo:\/\/resource\/dynamic\/text\/1 · text\/plain\s*Resource 1: This is a plaintext resource/,
    );
    await expect(card('get-annotated-message').getByTestId('content-annotations').textContent()).resolves.toBe(
      'for you · priority 0.7',
    );
    const fields = card('get-structured-content').getByTestId('result-fields');
    expect(await fields.locator('tr').allInnerTexts()).toEqual([
      'temperature\t36',
      'conditions\tLight rain / drizzle',
      'humidity\t82',
    ]);

    // The attached resource: the user's words, and the resource folded under its name.
    const mine = p.getByTestId('message-user').filter({ hasText: 'what is in this?' });
    expect(await mine.textContent()).toBe('what is in this?');
    const attachment = p.getByTestId('attachment');
    expect(await attachment.locator('summary').textContent()).toBe(
      'attached resource demo://resource/dynamic/text/5 from ev',
    );
    await card('get-tiny-image').scrollIntoViewIfNeeded();
    await screenshot(p, 'mcp-content');
    expect(page.pageErrors).toEqual([]);
  });

  it("lists an endpoint's resources and prompts, and starts a conversation with a prompt", async () => {
    const opened = await openPage(browser);
    const p = opened.page;
    try {
      await p.goto(`${api.url}/#/endpoints`);
      const row = p.locator('[data-testid="endpoints-row"][data-endpoint="ev"]');
      await row.getByText('Resources and prompts').click();
      await row
        .getByTestId('endpoint-resources')
        .getByText('demo://resource/static/document/architecture.md')
        .waitFor();
      await row.getByTestId('endpoint-resources').getByText('demo://resource/dynamic/text/{resourceId}').waitFor();
      const prompt = row.locator('[data-testid="endpoint-prompt"][data-prompt="args-prompt"]');
      await prompt.locator('input[data-arg="city"]').fill('Chicago');
      await prompt.getByTestId('start-with-prompt').click();
      await p.waitForURL(/#\/c\/.+/);
      // The prompt's message opens the conversation, shown as the user's words; the agent answers it.
      await p.getByTestId('message-user').filter({ hasText: "What's weather in Chicago?" }).waitFor();
      await p.getByTestId('message-agent').filter({ hasText: 'Noted.' }).waitFor();
      expect(opened.pageErrors).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
