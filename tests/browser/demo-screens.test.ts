// The control room with the demo yard (issue 14): the wall at /pantalla and the dashboard at
// 1920×1080, on a server of their own over a freshly generated demo database. The screenshots
// (/tmp/torre-screens/demo-*.png) are for a human to look at; the asserts check what a room needs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { UI_ATTENTION } from '@shared/labels';
import { prepareDemoYard } from '../../scripts/demo/yard';
import { launch, openPage, screenshot, WALL } from './chromium';
import { startAppProcess } from './global-setup';
import { loginUi } from './helpers';

let browser: Browser;
let server: ChildProcess;
let baseUrl: string;
let admin: { email: string; password: string };
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-demo-screens-'));
  const { accounts } = await prepareDemoYard(
    { dbPath: path.join(dataDir, 'torre.db'), fresh: true, seed: 11 },
    () => {},
  );
  const found = accounts.find((a) => a.role === 'admin');
  if (!found) throw new Error('the demo yard has no admin');
  admin = found;
  const port = 5000 + Math.floor(Math.random() * 800);
  server = await startAppProcess(port, dataDir, path.join(inject('dataDir'), 'client'));
  baseUrl = `http://127.0.0.1:${port}`;
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo yard on the control-room screens', () => {
  it('the wall at /pantalla and the dashboard, readable at 1920×1080', async () => {
    const { context, page } = await openPage(browser, baseUrl, WALL);
    await loginUi(page, admin);
    await page.goto('/pantalla');
    const cards = page.getByTestId('wall-card');
    await cards.first().waitFor();
    // Nothing sticks out of the screen: a wall is never scrolled.
    const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.getByText(UI_ATTENTION.title, { exact: true }).first().isVisible()).resolves.toBe(true);
    await screenshot(page, 'demo-wall-1920');

    await page.keyboard.press('Escape');
    await page.waitForURL('**/dashboard');
    const board = page.getByTestId('kanban');
    await board.waitFor();
    const top = await board.evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeLessThan(400);
    await screenshot(page, 'demo-dashboard-1920');
    await context.close();
  });
});
