// SPEC §2 routes and start-up validation, and SPEC §4/CONTRACT §9 session endings in an open page.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { REVOKE_MESSAGES } from '@shared/events';
import { UI_HEADER, UI_LOGIN } from '@shared/labels';
import { launch, openPage } from './chromium';
import { adminToken, apiCall, createUser, loginUi } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const path = (page: Page) => new URL(page.url()).pathname;
const stored = (page: Page) =>
  page.evaluate(() => ({
    token: localStorage.getItem('torre.token'),
    user: localStorage.getItem('torre.user'),
  }));
const loginScreen = (page: Page) => page.getByRole('tab', { name: UI_LOGIN.loginMode }).waitFor();

describe('routes (SPEC §2)', () => {
  it('sends an anonymous visitor to /login from /, /dashboard and unknown paths', async () => {
    const { context, page } = await openPage(browser, inject('baseUrl'));
    for (const p of ['/', '/dashboard', '/no-existe']) {
      await page.goto(p);
      await loginScreen(page);
      expect(path(page)).toBe('/login');
    }
    await context.close();
  });

  it('sends a logged-in user to /dashboard from / and /login, and logout back to /login', async () => {
    const gestor = await createUser('gestor');
    const { context, page } = await openPage(browser, inject('baseUrl'));
    await loginUi(page, gestor);
    for (const p of ['/', '/login']) {
      await page.goto(p);
      await page.getByRole('button', { name: UI_HEADER.logout }).waitFor();
      expect(path(page)).toBe('/dashboard');
    }
    await page.getByRole('button', { name: UI_HEADER.logout }).click();
    await loginScreen(page);
    expect(path(page)).toBe('/login');
    await expect(stored(page)).resolves.toEqual({ token: null, user: null });
    await page.goto('/dashboard');
    await loginScreen(page);
    expect(path(page)).toBe('/login');
    await context.close();
  });

  it('validates a stored session on start and clears it when the server refuses it', async () => {
    const { context, page } = await openPage(browser, inject('baseUrl'));
    await page.goto('/login');
    await page.evaluate(() => {
      localStorage.setItem('torre.token', 'token-falso');
      localStorage.setItem(
        'torre.user',
        JSON.stringify({ id: 'x', name: 'X', email: 'x@x.es', role: 'admin' }),
      );
    });
    const validation = page.waitForRequest((r) => r.url().endsWith('/api/dashboard/stats'));
    await page.goto('/dashboard');
    expect((await validation).headers().authorization).toBe('Bearer token-falso');
    await loginScreen(page);
    expect(path(page)).toBe('/login');
    await expect(stored(page)).resolves.toEqual({ token: null, user: null });
    await context.close();
  });

  it('keeps a valid stored session across a reload', async () => {
    const manager = await createUser('manager');
    const { context, page } = await openPage(browser, inject('baseUrl'));
    await loginUi(page, manager);
    await page.reload();
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    expect(path(page)).toBe('/dashboard');
    await context.close();
  });
});

describe('a session ending in an open page', () => {
  it('returns to /login with the reason when an admin changes the role (session:revoked)', async () => {
    const gestor = await createUser('gestor');
    const { context, page } = await openPage(browser, inject('baseUrl'));
    await loginUi(page, gestor);
    await page.getByText(UI_HEADER.linkOnline).waitFor();

    await apiCall('POST', '/admin/update-user-role', {
      token: await adminToken(),
      body: { user_id: gestor.id, new_role: 'manager' },
    });
    await page.getByText(REVOKE_MESSAGES.role_changed).waitFor();
    await loginScreen(page);
    expect(path(page)).toBe('/login');
    await expect(stored(page)).resolves.toEqual({ token: null, user: null });

    // Logging in again gives the new role.
    await loginUi(page, gestor);
    await page.locator('header').getByText('Manager', { exact: true }).waitFor();
    await context.close();
  });

  it('returns to /login on a 401 from a REST call while the socket is down (SPEC §4)', async () => {
    const manager = await createUser('manager');
    const { context, page } = await openPage(browser, inject('baseUrl'));
    // No socket (WebSocket only: every connection closed at once): the page lives on the SPEC §9
    // fallback polling, so only REST can tell it.
    await page.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
    await loginUi(page, manager);
    await page.getByText(UI_HEADER.linkReconnecting).waitFor();

    const unauthorized = page.waitForResponse((r) => r.url().includes('/api/') && r.status() === 401);
    await apiCall('DELETE', `/admin/delete-user/${manager.id}`, { token: await adminToken() });
    await unauthorized;
    await loginScreen(page);
    expect(path(page)).toBe('/login');
    await expect(stored(page)).resolves.toEqual({ token: null, user: null });
    await expect(page.getByLabel(UI_LOGIN.email).isVisible()).resolves.toBe(true);
    await context.close();
  });
});
