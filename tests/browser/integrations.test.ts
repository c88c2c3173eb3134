// Sistema → Integraciones › Claves de API (CONTRACT §21) in Chromium at 1440×900: the admin creates a key,
// sees it once and copies it, the key works against the API, the list shows it without the key, and
// Revocar (confirmed) makes it stop working at once.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { API_SCOPE_LABELS, UI_HEADER, UI_INTEGRATIONS, VIEW_LABELS } from '@shared/labels';
import { DESKTOP, launch, openPage, screenshot } from './chromium';
import { ADMIN, loginUi } from './helpers';

const T = UI_INTEGRATIONS;
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const tasksWith = (key: string) =>
  fetch(`${inject('baseUrl')}/api/tasks`, { headers: { Authorization: `Bearer ${key}` } });

describe('Integraciones', () => {
  it('creates a key shown once, copies it, lists it and revokes it', async () => {
    const { context, page } = await openPage(browser, inject('baseUrl'), DESKTOP);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await loginUi(page, ADMIN);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    await page
      .getByRole('navigation', { name: UI_HEADER.nav })
      .getByRole('button', { name: VIEW_LABELS['admin-panel'], exact: true })
      .click();
    await page.getByRole('tab', { name: T.tab }).click();
    await page.getByRole('button', { name: T.keys.create }).click();

    const name = `WMS navegador ${Date.now().toString(36)}`;
    const dialog = page.getByRole('dialog', { name: T.createDialog.title });
    await dialog.getByLabel(T.createDialog.name).fill(name);
    await dialog.getByLabel(API_SCOPE_LABELS['tasks:read']).check();
    await dialog.getByRole('button', { name: T.createDialog.submit }).click();

    const shown = page.getByRole('dialog', { name: T.keyShown.title });
    await shown.getByText(T.keyShown.warning).waitFor();
    const key = (await shown.getByTestId('api-key').textContent())!.trim();
    expect(key).toMatch(/^trc_/);
    await shown.getByRole('button', { name: T.keyShown.copy }).click();
    await page.getByText(T.keyShown.copied).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await screenshot(page, 'integrations-key-shown');
    await shown.getByRole('button', { name: T.keyShown.done }).click();

    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(key.slice(0, 12));
    await expect(row.textContent()).resolves.not.toContain(key);
    expect((await tasksWith(key)).status).toBe(200);
    // Back to the tab: the list is read again, now with the key's last use.
    await page.getByRole('tab', { name: T.systemTab }).click();
    await page.getByRole('tab', { name: T.tab }).click();
    await row.getByText(/\d{2}:\d{2}/).waitFor(); // last used, Madrid time
    await screenshot(page, 'integrations-list');

    await row.getByRole('button', { name: T.keys.revoke }).click();
    await page
      .getByRole('dialog', { name: T.keys.revokeTitle })
      .getByRole('button', { name: T.keys.revoke })
      .click();
    await page.getByText(T.keys.revoked).waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await tasksWith(key)).status).toBe(401);
    await context.close();
  }, 60_000);
});
