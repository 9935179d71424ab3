/**
 * Real-browser tests: Playwright (playwright-core, no browser download) driving the system's
 * Chromium (Debian's `chromium` package; `.ci/run` installs it), headless. One browser per test
 * file; each test gets a fresh context (its own storage) and fails on any console error or
 * uncaught exception the page had.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type ConsoleMessage, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

/** Screenshots of every run (git-ignored); docs/console.png is refreshed on request only. */
export const artifactsDir = resolve(import.meta.dirname, '..', 'artifacts');
export const docsScreenshot = resolve(import.meta.dirname, '..', '..', '..', 'docs', 'console.png');

/** Where Chromium is: CHROMIUM_PATH, else `chromium` on PATH; a clear error when it is missing. */
export function chromiumPath(): string {
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    if (!existsSync(given)) throw new Error(`CHROMIUM_PATH=${given} does not exist`);
    return given;
  }
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    } catch {
      /* try the next name */
    }
  }
  throw new Error('The browser tests need Chromium: apt-get install -y chromium (or set CHROMIUM_PATH)');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Chromium's sandbox refuses to run as root (CI and this machine run as root).
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

/** A page in a fresh context, collecting what would show in the browser's console as errors. */
export async function openPage(browser: Browser): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  return { context, page, problems };
}

/**
 * The hooks of a browser test file: one browser for the file, a fresh page per test (handed to
 * `opened` before each test), and after each test its context closed and the test failed on any
 * error the page had (a test that expects one empties `problems`).
 *
 * @example
 *   let page: Page;
 *   let problems: string[];
 *   pagePerTest((opened) => ({ page, problems } = opened));
 */
export function pagePerTest(opened: (tab: { page: Page; problems: string[] }) => void): void {
  let browser: Browser | undefined;
  let tab: { context: BrowserContext; page: Page; problems: string[] } | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    tab = await openPage(browser!);
    opened(tab);
  });
  afterEach(async () => {
    await tab?.context.close();
    expect(tab?.problems, 'errors in the page').toEqual([]);
  });
}

/** Opens a console URL and waits until its view has drawn (or failed: main.ts sets data-ready either way). */
export async function openView(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('main[data-ready="true"]', { timeout: 15_000 });
}

/**
 * Clicks a console button and waits until the action it started has finished: its request answered
 * and the view redrawn, or the failure shown (dom.ts's busy() counts each finished action in the
 * button's data-settled). The wait holds the clicked element itself, since a redraw may replace it.
 */
export async function clickAndSettle(button: Locator): Promise<void> {
  // Both functions run in the page (each is sent as its source, so neither may use the other). The
  // test code is compiled without the DOM's types: the element is typed by the one thing read of it.
  type Settling = { dataset: { settled?: string } };
  const clicked = await button.elementHandle({ timeout: 15_000 });
  if (!clicked) throw new Error(`nothing to click: ${String(button)}`);
  const before = await clicked.evaluate((el) => Number((el as unknown as Settling).dataset.settled ?? 0));
  await clicked.click();
  await button
    .page()
    .waitForFunction(({ el, n }) => Number((el as unknown as Settling).dataset.settled ?? 0) > n, { el: clicked, n: before }, { timeout: 30_000 });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
