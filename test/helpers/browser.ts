// Headless Chromium for the web chat's tests, driven by playwright-core (which downloads nothing). The browser is
// CHROMIUM_PATH, else a Chromium on PATH, else the one `npm install` brought (@sparticuz/chromium, unpacked once into
// node_modules/.cache by testkit/chromium.ts; it needs no system packages). Code that runs in the page is written as strings:
// the tests' TypeScript has no DOM types.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from '../../testkit/chromium';
import { PROJECT_ROOT } from '../../worker/worker-settings';

export { findChromium };

export async function launchBrowser(): Promise<Browser> {
  const { path: executablePath, from } = await findChromium();
  try {
    return await chromium.launch({
      executablePath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-zygote'],
    });
  } catch (err) {
    throw new Error(`Chromium at ${executablePath} (from ${from}) did not start: ${(err as Error).message}`);
  }
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions in the page: a test expects none. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** A fresh browser profile (its own localStorage) with one page, at a desktop size unless told. */
export async function openPage(browser: Browser, opts: { width?: number; height?: number } = {}): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  return { context, page, pageErrors, close: () => context.close() };
}

/** Presses Tab until the focused element matches `selector`; fails after `max` presses. Returns how many it took. */
export async function tabTo(page: Page, selector: string, max = 60): Promise<number> {
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press('Tab');
    if (await focused(page, selector)) return presses;
  }
  throw new Error(`Tab never reached ${selector} in ${max} presses.`);
}

export async function focused(page: Page, selector: string): Promise<boolean> {
  return Boolean(
    await page.evaluate(
      `Boolean(document.activeElement && document.activeElement.matches(${JSON.stringify(selector)}))`,
    ),
  );
}

/** The texts of the elements with this data-testid, in document order. */
export async function texts(page: Page, testId: string): Promise<string[]> {
  return page.locator(`[data-testid="${testId}"]`).allTextContents();
}

/** Whether the page scrolls sideways (wider than its viewport). */
export async function scrollWidth(page: Page): Promise<number> {
  return Number(await page.evaluate('document.documentElement.scrollWidth'));
}

export interface TraceSample {
  /** ms since the trace started. */
  t: number;
  /** The text of the reply being written, null when none shows. */
  streaming: string | null;
  agents: string[];
}

/**
 * Records, at every change of the page, the reply being written (`streaming`) and the agent's messages, so a
 * test can tell what showed before what. Returns the function that reads the samples so far.
 */
export async function traceReplies(page: Page): Promise<() => Promise<TraceSample[]>> {
  await page.evaluate(`(() => {
    const start = performance.now();
    const trace = (window.__replyTrace = []);
    const snap = () => trace.push({
      t: performance.now() - start,
      streaming: document.querySelector('[data-testid="streaming"]')?.textContent ?? null,
      agents: [...document.querySelectorAll('[data-testid="message-agent"]')].map((e) => e.textContent ?? ''),
    });
    snap();
    new MutationObserver(snap).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
  return async () => (await page.evaluate('window.__replyTrace')) as TraceSample[];
}

export const SCREENSHOTS_DIR = path.join(PROJECT_ROOT, 'docs', 'screenshots');

/** Saves docs/screenshots/<name>.png, only when SAVE_SCREENSHOTS=1 (so ordinary runs leave the docs alone). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.SAVE_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}.png`), animations: 'disabled', caret: 'hide' });
}
