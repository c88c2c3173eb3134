// The foundation's screens at the sizes they are used at, with screenshots for a human to look at
// (written to /tmp/torre-screens): login, pending approval, the admin shell on the control-room wall
// and the driver shell on a phone.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  APP_SUBTITLE,
  APP_TITLE,
  UI_APPROVAL,
  UI_HEADER,
  UI_LOGIN,
  UI_PENDING,
  VIEW_LABELS,
} from '@shared/labels';
import { DESKTOP, launch, openPage, PHONE, screenshot, WALL } from './chromium';
import { ADMIN, createUser, loginUi, PASSWORD, uniqueEmail } from './helpers';

/** Header controls that stick out of the viewport (the nav row scrolls by design, so it is left out). */
const headerOverflow = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('header button, header h1, header [role=status]')]
      .filter((e) => !e.closest('nav') && e.getBoundingClientRect().width > 0)
      .filter(
        (e) => e.getBoundingClientRect().right > window.innerWidth || e.getBoundingClientRect().left < 0,
      )
      .map((e) => e.textContent),
  );

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

describe('screens', () => {
  it('login and register at a phone size', async () => {
    const { context, page } = await openPage(browser, inject('baseUrl'), PHONE);
    await page.goto('/login');
    await page.getByRole('heading', { name: APP_TITLE }).waitFor();
    await expect(page.getByText(APP_SUBTITLE, { exact: true }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'login-phone');
    await page.getByRole('tab', { name: UI_LOGIN.registerMode }).click();
    await expect(page.getByLabel(UI_LOGIN.name).isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: UI_LOGIN.submitRegister }).click();
    await expect(page.getByText('El nombre es obligatorio').isVisible()).resolves.toBe(true);
    await screenshot(page, 'register-phone-errors');
    await context.close();
  });

  it('login and pending screen on a desktop', async () => {
    const { context, page } = await openPage(browser, inject('baseUrl'), WALL);
    await page.goto('/login');
    await screenshot(page, 'login-wall');
    await page.getByRole('tab', { name: UI_LOGIN.registerMode }).click();
    await page.getByLabel(UI_LOGIN.name).fill('Lucía Fernández');
    await page.getByLabel(UI_LOGIN.email).fill(uniqueEmail('pending'));
    await page.getByLabel(UI_LOGIN.password).fill(PASSWORD);
    await page.getByRole('button', { name: UI_LOGIN.submitRegister }).click();
    await page.getByRole('heading', { name: UI_PENDING.title }).waitFor();
    await screenshot(page, 'pending-wall');
    await context.close();
  });

  it('admin shell at 1920×1080 with pending users and the approval dialog', async () => {
    await createUser('gestor', { name: 'Marta Gil', approve: false });
    await createUser('conductor', { name: 'Javier Ruiz', approve: false });
    const { context, page } = await openPage(browser, inject('baseUrl'), WALL);
    await loginUi(page, ADMIN);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    for (const v of Object.values(VIEW_LABELS))
      await expect(page.getByRole('button', { name: v, exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: UI_HEADER.newTask }).isVisible()).resolves.toBe(true);
    const approve = page.getByRole('button', { name: /^Aprobar Usuarios \(\d+\)$/ });
    await approve.waitFor();
    await screenshot(page, 'admin-shell-wall');
    await approve.click();
    await page.getByRole('dialog', { name: UI_APPROVAL.title }).waitFor();
    await screenshot(page, 'admin-approval-wall');
    await page.keyboard.press('Escape');

    // The bell's badge counts unread notifications (admins get one per registration); reading one lowers it.
    const badge = page.getByTestId('unread-count');
    const before = Number(await badge.textContent());
    expect(before).toBeGreaterThan(0);
    await page.getByRole('button', { name: UI_HEADER.unreadNotifications(before) }).click();
    await page.getByRole('menuitem').filter({ hasText: 'Javier Ruiz' }).first().click();
    await expect.poll(() => badge.textContent()).toBe(String(before - 1));
    await context.close();
  });

  it('admin shell at 1440×900: every view button clear of the header actions (issue 28)', async () => {
    await createUser('gestor', { name: 'Lucía Prieto', approve: false });
    const { context, page } = await openPage(browser, inject('baseUrl'), DESKTOP);
    await loginUi(page, ADMIN);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    const approve = page.getByRole('button', { name: /^Aprobar Usuarios \(\d+\)$/ });
    await approve.waitFor();
    const actions = [
      (await approve.boundingBox())!,
      (await page.getByRole('button', { name: UI_HEADER.newTask }).boundingBox())!,
    ];
    for (const v of Object.values(VIEW_LABELS)) {
      const view = page.getByRole('button', { name: v, exact: true });
      await expect(view.isVisible(), v).resolves.toBe(true);
      const box = (await view.boundingBox())!;
      expect(box.x + box.width, v).toBeLessThanOrEqual(DESKTOP.width);
      for (const action of actions)
        expect(
          box.x + box.width <= action.x ||
            action.x + action.width <= box.x ||
            box.y + box.height <= action.y ||
            action.y + action.height <= box.y,
          v,
        ).toBe(true);
    }
    await expect(headerOverflow(page)).resolves.toEqual([]);
    await screenshot(page, 'admin-shell-1440');
    await context.close();
  });

  it('driver shell at 390×844: simplified header, no view buttons', async () => {
    const driver = await createUser('conductor', { name: 'Pedro Sánchez' });
    const { context, page } = await openPage(browser, inject('baseUrl'), PHONE);
    await loginUi(page, driver);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    await expect(page.getByRole('navigation').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: UI_HEADER.logout }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: UI_HEADER.mute }).isVisible()).resolves.toBe(true);
    await expect(headerOverflow(page)).resolves.toEqual([]);
    await screenshot(page, 'driver-shell-phone');

    // The mute switch is remembered across reloads.
    await page.getByRole('button', { name: UI_HEADER.mute }).click();
    await page.reload();
    await page.getByRole('button', { name: UI_HEADER.unmute }).waitFor();
    await context.close();
  });

  it('admin shell at 390×844 keeps every header control on screen', async () => {
    await createUser('manager', { name: 'Raúl Ortega', approve: false });
    const { context, page } = await openPage(browser, inject('baseUrl'), PHONE);
    await loginUi(page, ADMIN);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    await page.getByRole('button', { name: /^Aprobar Usuarios \(\d+\)$/ }).waitFor();
    await expect(headerOverflow(page)).resolves.toEqual([]);
    await screenshot(page, 'admin-shell-phone');
    await context.close();
  });

  it('gestor shell at 390×844 fits without horizontal scroll', async () => {
    const gestor = await createUser('gestor', { name: 'Elena Martín Domínguez' });
    const { context, page } = await openPage(browser, inject('baseUrl'), PHONE);
    await loginUi(page, gestor);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    await expect(
      page.getByRole('button', { name: VIEW_LABELS.searcher, exact: true }).isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByRole('button', { name: VIEW_LABELS.users, exact: true }).count()).resolves.toBe(0);
    await expect(headerOverflow(page)).resolves.toEqual([]);
    await screenshot(page, 'gestor-shell-phone');
    await context.close();
  });
});
