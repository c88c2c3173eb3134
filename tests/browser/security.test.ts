// The built SPA under the server's helmet CSP (CONTRACT §1, §3): every view, as the admin on the wall and
// as a driver on a phone, loads with no Content-Security-Policy violation; and task text that looks like
// HTML is shown as inert text on the board, the searcher and the driver screen.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { UI_HEADER, UI_SEARCH, VIEW_LABELS } from '@shared/labels';
import type { Task } from '@shared/schemas';
import { launch, openPage, PHONE, WALL } from './chromium';
import { ADMIN, adminToken, apiCall, createUser, loginUi, watch } from './helpers';

const XSS_ORIGIN = '<img src=x onerror=alert(1)>';
const XSS_DESCRIPTION = '<script>alert("xss")</script><b>negrita</b>';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

/** No element built from the task text: no <img src=x>, no injected <script> or <b>. */
const injectedNodes = (page: Page) =>
  page.evaluate(
    () =>
      document.querySelectorAll('img[src="x"], img[onerror], script:not([src]), b').length +
      [...document.querySelectorAll('script')].filter((s) => s.textContent?.includes('xss')).length,
  );

describe('content security policy', () => {
  it('every view as the admin on the wall: no CSP violation', async () => {
    const { context, page } = await openPage(browser, inject('baseUrl'), WALL);
    const w = await watch(page);
    await loginUi(page, ADMIN);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    for (const label of Object.values(VIEW_LABELS)) {
      await page.getByRole('button', { name: label, exact: true }).click();
      await page.waitForLoadState('networkidle');
    }
    expect(w.violations).toEqual([]);
    expect(w.dialogs).toEqual([]);
    await context.close();
  });

  it('the driver screen on a phone: no CSP violation', async () => {
    const driver = await createUser('conductor');
    const { context, page } = await openPage(browser, inject('baseUrl'), PHONE);
    const w = await watch(page);
    await loginUi(page, driver);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    await page.waitForLoadState('networkidle');
    expect(w.violations).toEqual([]);
    await context.close();
  });
});

describe('task text is inert', () => {
  it('HTML in a task shows as literal text on the board, the searcher and the driver screen', async () => {
    const token = await adminToken();
    const driver = await createUser('conductor', { name: 'Conductor Seguro' });
    const trailer = `XSS-${Date.now().toString(36).toUpperCase()}`;
    const task = await apiCall<Task>('POST', '/tasks', {
      token,
      body: {
        title: 'Mover',
        origin: XSS_ORIGIN,
        destination: 'Campa 1',
        trailer_id: trailer,
        description: XSS_DESCRIPTION,
      },
    });
    expect(task.origin).toBe(XSS_ORIGIN);
    await apiCall('PUT', `/tasks/${task.id}`, {
      token,
      body: { status: 'en_proceso', assigned_to: driver.id },
    });

    // The board, on the wall.
    const wall = await openPage(browser, inject('baseUrl'), WALL);
    const w = await watch(wall.page);
    await loginUi(wall.page, ADMIN);
    await wall.page.getByText(trailer).first().waitFor();
    await expect(wall.page.getByText(XSS_ORIGIN).first().isVisible()).resolves.toBe(true);
    expect(await injectedNodes(wall.page)).toBe(0);

    // The searcher.
    await wall.page.getByRole('button', { name: VIEW_LABELS.searcher, exact: true }).click();
    await wall.page.getByLabel(UI_SEARCH.term).fill(trailer);
    await wall.page.getByRole('button', { name: UI_SEARCH.search, exact: true }).click();
    await wall.page.getByText(XSS_ORIGIN).first().waitFor();
    expect(await injectedNodes(wall.page)).toBe(0);
    expect(w.dialogs).toEqual([]);
    expect(w.violations).toEqual([]);
    await wall.context.close();

    // The driver's phone.
    const phone = await openPage(browser, inject('baseUrl'), PHONE);
    const d = await watch(phone.page);
    await loginUi(phone.page, driver);
    await phone.page.getByText(XSS_ORIGIN).first().waitFor();
    expect(await injectedNodes(phone.page)).toBe(0);
    expect(d.dialogs).toEqual([]);
    expect(d.violations).toEqual([]);
    await phone.context.close();
  });
});
