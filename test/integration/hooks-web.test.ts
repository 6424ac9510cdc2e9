// Hook decisions in the web chat, in headless Chromium, against the API, a real dev server and a worker running the
// shipped examples (HOOKS=pii-redaction,topic-guardrail) on the scripted model: each decision is its own line, a
// block in the danger colour, and the user's message shows what the model saw. SAVE_SCREENSHOTS=1 also writes
// docs/screenshots/hooks.png.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser } from 'playwright-core';
import { readApiSettings } from '../../api/api-settings';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import { launchBrowser, openPage, screenshot, texts, type OpenedPage } from '../helpers/browser';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { builtWebChat } from '../../testkit/web-build';
import { ordersScript } from '../record-hooks';

const REASON = "I can't help with medical advice here. Please ask about something else.";

describe('web chat: hook decisions in a browser', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let api: RunningApi;
  let browser: Browser;
  const bus = createStreamBus();
  let page: OpenedPage | undefined;

  beforeAll(async () => {
    const built = builtWebChat();
    [env, browser] = await Promise.all([startTemporal(), launchBrowser()]);
    const settings = testSettings({
      AGENT_GOAL: 'goal_order_status',
      VALIDATE_PROMPTS: 'true',
      HOOKS: 'pii-redaction,topic-guardrail',
    });
    worker = await startWorker(env, { script: ordersScript, settings, streamBus: bus });
    api = await startApi({
      agents: new AgentClient(env.client, settings.taskQueue),
      bus,
      defaultGoal: 'goal_order_status',
      feedTiming: { busyMs: 50, idleMs: 200 },
      webRoot: await built,
      settings: { ...readApiSettings({}), port: 0, host: '127.0.0.1', keys: null },
    });
  }, 120_000);

  afterAll(async () => {
    await page?.close().catch(() => {});
    await browser?.close();
    await api?.close();
    await worker?.stop();
    await bus.close();
    await env?.teardown();
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

  it('shows each decision as its own line, beside the message as the model saw it', async () => {
    const id = 'web-hooks';
    await post('/api/conversations', { goalId: 'goal_order_status', conversationId: id });
    await post(`/api/conversations/${id}/messages`, { text: 'Where is ORD-1001? Mail ada@example.com' });
    const blocked = await post(`/api/conversations/${id}/messages`, { text: 'What dosage of ibuprofen is safe?' });
    expect(blocked).toMatchObject({ reply: REASON });

    page = await openPage(browser, { width: 900, height: 900 });
    const p = page.page;
    await p.goto(`${api.url}/#/c/${id}`);
    const hooks = p.locator('[data-testid="message-hook"]');
    await hooks.nth(2).waitFor();
    expect(await texts(p, 'message-hook')).toEqual([
      'hook pii-redaction rewrote your message: 1 e-mail address redacted',
      "hook pii-redaction rewrote GetOrder's result: 1 e-mail address redacted",
      `hook topic-guardrail blocked your message: ${REASON}`,
    ]);
    expect(await hooks.evaluateAll((els) => els.map((e) => e.className))).toEqual([
      'note hook hook-rewrite',
      'note hook hook-rewrite',
      'note hook hook-block',
    ]);
    // A block stands out: the danger colour, not the muted one of other notes.
    const colours = (await p.evaluate(
      `[...document.querySelectorAll('[data-testid="message-hook"]')].map((e) => getComputedStyle(e).color)`,
    )) as string[];
    expect(colours[2]).not.toBe(colours[0]);
    expect(await texts(p, 'message-user')).toEqual([
      'Where is ORD-1001? Mail [email]',
      '[message withheld: blocked by the hook topic-guardrail]',
    ]);
    expect(await texts(p, 'message-agent')).toEqual([
      'Hi! Which order?',
      'It is shipped; we will write to [email].',
      REASON,
    ]);
    expect(page.pageErrors).toEqual([]);
    await screenshot(p, 'hooks');
  });
});
