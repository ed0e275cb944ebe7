/// <reference lib="dom" />
// (Functions passed to page.evaluate / waitForFunction run in the page.)
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Browser tests run in Debian's Chromium (apt-get install chromium), driven by playwright-core,
 * which downloads no browser of its own. Without the browser they are skipped locally with the
 * reason printed, and fail under CI=true: CI installs it (.ci/run), so a missing one is a defect.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS_DIR = 'test-artifacts';

export function browserPresent(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true') throw new Error(`Chromium not found at ${CHROMIUM_PATH}: CI must install it (apt-get install -y chromium)`);
  console.warn(`browser tests skipped: Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  return false;
}

/** Headless and quiet: no GPU, no QUIC, no background calls home (a fresh profile per launch). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page whose requests and console errors are recorded, for the checks every page must pass. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  requests: string[];
  consoleErrors: string[];
}

export async function watchedPage(browser: Browser): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('websocket', (ws) => requests.push(ws.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
  return { page, context, requests, consoleErrors };
}

/** Every request of the page went to the server under test (data: and blob: URLs stay inside the page). */
export function foreignRequests(w: WatchedPage, serverUrl: string): string[] {
  const host = new URL(serverUrl).host;
  return w.requests.filter((u) => {
    const url = new URL(u);
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return false;
    return url.host !== host;
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS_DIR}/${name}.png`, fullPage: true });
}

/** axe-core's WCAG 2 A/AA violations on the page as it stands (injected from npm, no request made). */
export async function accessibilityViolations(page: Page): Promise<{ id: string; help: string; nodes: number }[]> {
  const source = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; help: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.length }));
  });
}
