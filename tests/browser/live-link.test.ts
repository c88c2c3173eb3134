// CONTRACT §9 in Chromium: the header's link indicator follows the socket, and a session outlives its
// first token through the hourly refresh. Runs on its OWN server process (stopped and restarted here),
// so the shared server of the other browser tests is never touched.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { TOKEN_REFRESH_MS, TOKEN_TTL_MS } from '@shared/constants';
import { UI_HEADER, UI_LOGIN } from '@shared/labels';
import { launch, openPage } from './chromium';
import { startAppProcess } from './global-setup';
import { ADMIN, advanceClock, loginUi } from './helpers';

let browser: Browser;
let server: ChildProcess | undefined;
let dataDir: string;
const port = 5000 + Math.floor(Math.random() * 800);
const baseUrl = `http://127.0.0.1:${port}`;
const clientDist = () => path.join(inject('dataDir'), 'client');

/** Kills the server outright, as a crash or a pulled cable would: clients get no goodbye. */
async function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-link-'));
  server = await startAppProcess(port, dataDir, clientDist());
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await stopServer();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('link indicator', () => {
  it("shows 'Reconectando…' while the server is down and 'En vivo' once it is back", async () => {
    const { context, page } = await openPage(browser, baseUrl);
    await loginUi(page, ADMIN);
    const link = page.getByRole('status').filter({ hasText: /En vivo|Reconectando…|Conectando…/ });
    await page.getByText(UI_HEADER.linkOnline).waitFor();

    await stopServer();
    await page.getByText(UI_HEADER.linkReconnecting).waitFor();
    await expect(link.getAttribute('data-link')).resolves.toBe('reconnecting');

    server = await startAppProcess(port, dataDir, clientDist());
    await page.getByText(UI_HEADER.linkOnline).waitFor({ timeout: 30_000 });
    // Same session (the JWT secret lives in the data folder): still on the dashboard.
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await context.close();
  }, 120_000);
});

describe('token lifetime (CONTRACT §4, §9)', () => {
  it('a page open for hours keeps its session: the hourly refresh feeds the reconnect', async () => {
    const { context, page } = await openPage(browser, baseUrl);
    await page.clock.install();
    await loginUi(page, ADMIN);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    const first = await page.evaluate(() => localStorage.getItem('torre.token'));

    // An hour passes on both clocks: the page refreshes its token.
    await advanceClock(TOKEN_REFRESH_MS, baseUrl);
    await page.clock.fastForward(TOKEN_REFRESH_MS);
    await page.waitForFunction((t) => localStorage.getItem('torre.token') !== t, first);

    // The first token expires on the server: the socket is dropped and comes back with the new one.
    await advanceClock(TOKEN_TTL_MS - TOKEN_REFRESH_MS + 60_000, baseUrl);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    await page.reload();
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await context.close();
  });

  it('a page whose token expired without refresh goes back to /login', async () => {
    const { context, page } = await openPage(browser, baseUrl);
    await loginUi(page, ADMIN);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    await advanceClock(TOKEN_TTL_MS + 60_000, baseUrl);
    await page.getByRole('tab', { name: UI_LOGIN.loginMode }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    // Whichever notices first (the refused reconnect or a REST 401) ends the session.
    await expect(page.evaluate(() => localStorage.getItem('torre.token'))).resolves.toBeNull();
    await context.close();
  });
});
