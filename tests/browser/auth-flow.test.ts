// SPEC §2/§4 end to end in Chromium: registration → pending screen → an admin approves it in the
// approval dialog of another browser → the user logs in and lands on /dashboard.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ACCOUNT_MSG,
  ERR,
  ROLE_LABELS,
  TOAST,
  UI_APPROVAL,
  UI_HEADER,
  UI_LOGIN,
  UI_PENDING,
} from '@shared/labels';
import { launch, openPage } from './chromium';
import { ADMIN, loginUi, PASSWORD, uniqueEmail } from './helpers';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

async function register(page: Page, name: string, email: string, role: string) {
  await page.goto('/login');
  await page.getByRole('tab', { name: UI_LOGIN.registerMode }).click();
  await page.getByLabel(UI_LOGIN.name).fill(name);
  await page.getByLabel(UI_LOGIN.email).fill(email);
  await page.getByLabel(UI_LOGIN.password).fill(PASSWORD);
  await page.getByRole('combobox', { name: UI_LOGIN.role }).click();
  await page.getByRole('option', { name: role, exact: true }).click();
  await page.getByRole('button', { name: UI_LOGIN.submitRegister }).click();
}

async function fillLogin(page: Page, email: string) {
  await page.getByLabel(UI_LOGIN.email).fill(email);
  await page.getByLabel(UI_LOGIN.password).fill(PASSWORD);
  await page.getByRole('button', { name: UI_LOGIN.submitLogin, exact: true }).click();
}

const approvalDialog = (page: Page) => page.getByRole('dialog', { name: UI_APPROVAL.title });

describe('registration and approval', () => {
  it('register → pending → approved live in the admin dialog → login lands on /dashboard', async () => {
    const admin = await openPage(browser, inject('baseUrl'));
    await loginUi(admin.page, ADMIN);
    await admin.page.getByText(UI_HEADER.linkOnline).waitFor();

    const user = await openPage(browser, inject('baseUrl'));
    const email = uniqueEmail('flow');
    const name = 'Sofía Navarro';
    await register(user.page, name, email, ROLE_LABELS.gestor);
    await user.page.getByRole('heading', { name: UI_PENDING.title }).waitFor();
    await user.page.getByText(UI_PENDING.message).waitFor();
    await user.page.getByText(TOAST.registerPending).waitFor();
    expect(await user.page.evaluate(() => localStorage.getItem('torre.token'))).toBeNull();

    // A pending account that tries to log in gets the pending screen again, with the SPEC toast.
    await user.page.getByRole('button', { name: UI_PENDING.back }).click();
    await fillLogin(user.page, email);
    await user.page.getByRole('heading', { name: UI_PENDING.title }).waitFor();
    await user.page.getByText(TOAST.pendingApproval).waitFor();
    expect(user.page.url()).toMatch(/\/login$/);

    // The admin's header learnt of the registration over the socket; so did the dashboard's one pending
    // line (CONTRACT §15: no banner per pending user); the dialog lists it.
    await admin.page.getByTestId('pending-users-line').waitFor();
    await expect(
      admin.page.getByTestId('notification-banner').filter({ hasText: email }).count(),
    ).resolves.toBe(0);
    await admin.page.getByRole('button', { name: /^Aprobar Usuarios \(\d+\)$/ }).click();
    const dialog = approvalDialog(admin.page);
    await dialog.waitFor();
    const row = dialog.getByTestId('pending-user').filter({ hasText: email });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(name);
    await expect(row.textContent()).resolves.toContain(`Solicita acceso como ${ROLE_LABELS.gestor}`);
    await expect(row.getByText(ROLE_LABELS.gestor, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(
      dialog.getByText(/^Hay (1 usuario|\d+ usuarios) esperando aprobación$/).isVisible(),
    ).resolves.toBe(true);
    await row.getByRole('button', { name: UI_APPROVAL.approve }).click();
    await admin.page.getByText(ACCOUNT_MSG.approved(name)).waitFor();
    await row.waitFor({ state: 'detached' });

    await user.page.getByRole('button', { name: UI_PENDING.back }).click();
    await fillLogin(user.page, email);
    await user.page.waitForURL('**/dashboard');
    await user.page.getByText(TOAST.loginOk).waitFor();
    await expect(user.page.getByTestId('header-user-name').first().textContent()).resolves.toBe(name);
    expect(await user.page.evaluate(() => localStorage.getItem('torre.token'))).toBeTruthy();

    await admin.context.close();
    await user.context.close();
  }, 120_000);

  it('a registration arriving while the dialog is open appears in it without reload; rejecting removes it', async () => {
    const admin = await openPage(browser, inject('baseUrl'));
    await loginUi(admin.page, ADMIN);
    const first = await openPage(browser, inject('baseUrl'));
    await register(first.page, 'Tomás Vidal', uniqueEmail('early'), ROLE_LABELS.conductor);
    await first.page.getByRole('heading', { name: UI_PENDING.title }).waitFor();

    await admin.page.getByRole('button', { name: /^Aprobar Usuarios \(\d+\)$/ }).click();
    const dialog = approvalDialog(admin.page);
    await dialog.waitFor();

    const email = uniqueEmail('late');
    await register(first.page, 'Irene Campos', email, ROLE_LABELS.manager);
    const row = dialog.getByTestId('pending-user').filter({ hasText: email });
    await row.waitFor();
    await expect(row.getByText(ROLE_LABELS.manager, { exact: true }).isVisible()).resolves.toBe(true);

    await row.getByRole('button', { name: UI_APPROVAL.reject }).click();
    // Rejecting deletes the registration: it is confirmed first (issue 13).
    await admin.page
      .getByRole('dialog', { name: UI_APPROVAL.rejectConfirm.title })
      .getByRole('button', { name: UI_APPROVAL.rejectConfirm.confirm })
      .click();
    await admin.page.getByText(ACCOUNT_MSG.rejected('Irene Campos')).waitFor();
    await row.waitFor({ state: 'detached' });

    // A rejected account is gone: its login is refused like any unknown one.
    await first.page.getByRole('button', { name: UI_PENDING.back }).click();
    await fillLogin(first.page, email);
    await first.page.getByText(ERR.invalidCredentials).waitFor();
    expect(first.page.url()).toMatch(/\/login$/);

    await admin.context.close();
    await first.context.close();
  }, 120_000);
});
