// Sistema → Integraciones › Claves de API (CONTRACT §21) in Chromium at 1440×900: the admin creates a key,
// sees it once and copies it, the key works against the API, the list shows it without the key, and
// Revocar (confirmed) makes it stop working at once. Webhooks: one made for one event (its secret shown
// once), pinged, its delivery to a receiver of the test watched and retried (same webhook-id), deleted.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Task } from '@shared/schemas';
import {
  API_SCOPE_LABELS,
  UI_COMMON,
  UI_HEADER,
  UI_INTEGRATIONS,
  UI_WEBHOOKS,
  WEBHOOK_EVENT_LABELS,
} from '@shared/labels';
import { DESKTOP, launch, openPage, screenshot } from './chromium';
import { ADMIN, adminToken, apiCall, loginUi, showView } from './helpers';

const T = UI_INTEGRATIONS;
const W = UI_WEBHOOKS;
let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const tasksWith = (key: string) =>
  fetch(`${inject('baseUrl')}/api/tasks`, { headers: { Authorization: `Bearer ${key}` } });

/** The admin on Sistema → Integraciones at 1440×900, allowed to copy. */
async function openIntegrations() {
  const { context, page } = await openPage(browser, inject('baseUrl'), DESKTOP);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await loginUi(page, ADMIN);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  await showView(page, 'admin-panel');
  await page.getByRole('tab', { name: T.tab }).click();
  return { context, page };
}

describe('Integraciones', () => {
  it('creates a key shown once, copies it, lists it and revokes it', async () => {
    const { context, page } = await openIntegrations();
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
    await shown.getByRole('button', { name: T.shownOnce.copy }).click();
    await page.getByText(T.shownOnce.copied).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await screenshot(page, 'integrations-key-shown');
    await shown.getByRole('button', { name: T.shownOnce.done }).click();
    // The page behind is hidden from roles (aria-hidden) until the dialog has gone.
    await shown.waitFor({ state: 'detached' });

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

  it('a webhook: created for one event with its secret shown once, pinged, its delivery watched and retried, deleted', async () => {
    // The receiver: a server of this test on loopback (the test server allows it: WEBHOOK_ALLOW_LOOPBACK).
    const got: { type: string; id: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const parsed = JSON.parse(body) as { type: string };
        got.push({ type: parsed.type, id: String(req.headers['webhook-id']) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/torre`;

    const { context, page } = await openIntegrations();
    await page.getByRole('button', { name: W.create }).click();
    const form = page.getByRole('dialog', { name: W.form.createTitle });
    await form.getByLabel(W.form.url).fill(url);
    // Every event is ticked at first: only task.created.
    await form.getByLabel(W.form.all).uncheck();
    await form.getByLabel(WEBHOOK_EVENT_LABELS['task.created']).check();
    await screenshot(page, 'integrations-webhook-form');
    await form.getByRole('button', { name: W.form.submitCreate }).click();

    const shown = page.getByRole('dialog', { name: W.secretShown.title });
    await expect(shown.getByTestId('webhook-secret').textContent()).resolves.toMatch(/^whsec_/);
    await shown.getByRole('button', { name: T.shownOnce.done }).click();
    // The page behind is hidden from roles (aria-hidden) until the dialog has gone.
    await shown.waitFor({ state: 'detached' });

    const hook = page.getByTestId('webhook').filter({ hasText: url });
    await expect(hook.textContent()).resolves.toContain(W.events(1));
    await expect(hook.textContent()).resolves.toContain(W.active);

    await hook.getByRole('button', { name: W.test }).click();
    await page.getByText(/^Respondió 200 en \d+ ms$/).waitFor();
    expect(got.map((g) => g.type)).toEqual(['ping']);

    // A task created: its event reaches the receiver, and the deliveries say so.
    await apiCall<Task>('POST', '/tasks', {
      token: await adminToken(),
      body: {
        title: 'Mover',
        origin: 'Muelle 1',
        destination: 'Campa 2',
        trailer_id: `WH-${Date.now().toString(36)}`,
      },
    });
    await expect.poll(() => got.map((g) => g.type)).toEqual(['ping', 'task.created']);
    await hook.getByRole('button', { name: W.deliveries }).click();
    const deliveries = page.getByRole('dialog', { name: W.deliveriesDialog.title(url) });
    const row = deliveries.getByTestId('webhook-delivery').first();
    await expect(row.getAttribute('data-status')).resolves.toBe('delivered');
    await expect(row.textContent()).resolves.toContain(WEBHOOK_EVENT_LABELS['task.created']);
    await screenshot(page, 'integrations-webhook-deliveries');
    await row.getByRole('button', { name: W.deliveriesDialog.retry }).click();
    await page.getByText(W.deliveriesDialog.retried).waitFor();
    // Sent again with the same webhook-id.
    await expect.poll(() => got.length).toBe(3);
    expect(got[2]).toEqual(got[1]);
    await deliveries.getByRole('button', { name: UI_COMMON.close }).last().click();

    await hook.getByRole('button', { name: W.remove }).click();
    await page.getByRole('dialog', { name: W.removeTitle }).getByRole('button', { name: W.remove }).click();
    await page.getByText(W.removed).waitFor();
    await hook.waitFor({ state: 'detached' });
    await context.close();
    await new Promise((ok) => receiver.close(ok));
  }, 90_000);
});
