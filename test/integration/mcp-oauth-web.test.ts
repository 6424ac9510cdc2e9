// Connecting an MCP server that needs OAuth from the web chat, in headless Chromium: the Endpoints page says "needs
// connecting" with a Connect button, which goes to a real authorization server (oauth2-mock-server, consenting at
// once) and back to the API's callback page; back in the chat the endpoint is connected and its tool answers with
// this user's token. The API runs without keys, so the user is the default owner, as with `npm start`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser } from 'playwright-core';
import { notesScript as script } from '../fixtures/oauth-notes';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { RegistryFile } from '../../endpoints/endpoint-registry';
import { OAuthEndpoints } from '../../endpoints/mcp/oauth/oauth-endpoints';
import { openTokenStore } from '../../endpoints/mcp/oauth/oauth-settings';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { startOAuthServers, OAUTH_CLIENT_ID, type OAuthServers } from '../../testkit/oauth-servers';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { builtWebChat } from '../../testkit/web-build';
import { launchBrowser, openPage, type OpenedPage } from '../helpers/browser';

describe('the web chat connecting an MCP server behind OAuth', () => {
  let env: TestWorkflowEnvironment;
  let servers: OAuthServers;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;
  let browser: Browser;
  let opened: OpenedPage | undefined;
  const work = mkdtempSync(path.join(tmpdir(), 'mcp-oauth-web-'));
  let webRoot: string;

  beforeAll(async () => {
    const built = builtWebChat();
    [env, servers, browser] = await Promise.all([startTemporal(), startOAuthServers(), launchBrowser()]);
    const registry = path.join(work, 'mcp_endpoints.json');
    const notes = { url: servers.mcpUrl, auth: { type: 'oauth', clientId: OAUTH_CLIENT_ID }, requireApproval: 'never' };
    writeFileSync(registry, JSON.stringify({ mcpServers: { notes } }));
    const shared = { DATA_DIR: path.join(work, 'data'), MCP_TOKEN_KEY: randomBytes(32).toString('hex') };
    const settings = testSettings({
      AGENT_GOAL: 'goal_general',
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: registry,
      ...shared,
    });
    bus = createStreamBus();
    worker = await startWorker(env, { script, settings, streamBus: bus });
    webRoot = await built;
    api = await startApi({
      agents: new AgentClient(env.client, settings.taskQueue),
      bus,
      defaultGoal: 'goal_general',
      webRoot,
      settings: {
        ...{ port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: 64 * 1024, corsOrigins: [] },
        oauth: {
          endpoints: new OAuthEndpoints(new RegistryFile(registry), {}),
          tokens: openTokenStore(shared.DATA_DIR, shared.MCP_TOKEN_KEY),
        },
      },
    });
    expect(api.web).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await opened?.close().catch(() => {});
    await browser?.close();
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await servers?.stop();
    await env?.teardown();
    rmSync(work, { recursive: true, force: true });
  });

  const ask = async (text: string) => {
    const post = (route: string, body: unknown) =>
      fetch(`${api.url}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const { conversationId } = await post('/api/conversations', {});
    return (await post(`/api/conversations/${conversationId as string}/messages`, { text })).reply;
  };

  it('shows Connect for a server not connected, connects through the authorization server, then calls it', async () => {
    opened = await openPage(browser);
    const p = opened.page;
    await p.goto(api.url);
    await p.getByTestId('endpoints-link').click();
    const row = p.locator('[data-testid="endpoints-row"][data-endpoint="notes"]');
    await row.waitFor({ timeout: 30_000 });
    expect(await row.getAttribute('data-status')).toBe('needs_connecting');
    await row.getByText('needs connecting').waitFor();

    await row.getByRole('button', { name: 'Connect' }).click();
    // Off to the authorization server, which consents at once and sends the browser to the API's callback.
    await p.getByRole('heading', { name: 'Connected notes' }).waitFor();
    expect(p.url()).toMatch(new RegExp(`^${api.url}/api/oauth/callback\\?code=`));
    await p.getByRole('link', { name: 'Back to the chat' }).click();
    await p.getByTestId('endpoints-link').click();
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('ok');
    expect(await row.getByRole('button', { name: 'Connect' }).count()).toBe(0);

    expect(await ask('notes on tides')).toBe('Notes on tides, read for johndoe.');
    expect(opened.pageErrors).toEqual([]);
  });
});
