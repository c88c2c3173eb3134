// Debian's Chromium through playwright-core (browsers cannot be downloaded here).
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const PHONE = { width: 390, height: 844 };
export const WALL = { width: 1920, height: 1080 };
export const DESKTOP = { width: 1440, height: 900 };

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS });
}

/** A fresh context (own storage) at a viewport; page errors fail loudly in the test output. */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport,
    baseURL: baseUrl,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[pageerror]', err.message));
  return { context, page };
}

/** Screenshots for a human to look at: written under /tmp/torre-screens (never committed). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.join(os.tmpdir(), 'torre-screens');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
