// Issue 13 in Chromium: the admin resets a driver's password in Usuarios and reads the temporary one;
// the driver logs in with it on a phone, must change it first, then works; the admin ends that
// phone's session and it goes back to /login. Also: editing a user (Enter saves, a taken email is
// refused on its field) and Rechazar asking before it deletes a registration.
// Screenshots (for a human, under /tmp/torre-screens): the dialogs at 1440×900, the form at 390×844.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { REVOKE_MESSAGES } from '@shared/events';
import {
  ACCOUNT_MSG,
  ERR,
  TOAST,
  UI_APPROVAL,
  UI_CHANGE_PASSWORD,
  UI_COMMON,
  UI_HEADER,
  UI_LOGIN,
  UI_USERS,
  VIEW_LABELS,
} from '@shared/labels';
import type { AuthResponse, PendingUser } from '@shared/schemas';
import { DESKTOP, launch, openPage, PHONE, screenshot } from './chromium';
import { ADMIN, adminToken, apiCall, createUser, loginUi, type TestAccount } from './helpers';

/** A revoked page is back on /login at once; the margin is for a loaded 2-core CI box. */
const BACK_TO_LOGIN_MS = 5000;
/** Three browsers and several logins per test, on a shared 2-core machine. */
const TEST_TIMEOUT_MS = 150_000;
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

let browser: Browser;
const opened: BrowserContext[] = [];
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  for (const context of opened) await context.close().catch(() => undefined);
  await browser.close();
});

async function open(viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const opening = await openPage(browser, inject('baseUrl'), viewport);
  opened.push(opening.context);
  return opening;
}

async function openAdminUsers(): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await open(DESKTOP);
  await loginUi(page, ADMIN);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  await page
    .getByRole('navigation', { name: UI_HEADER.nav })
    .getByRole('button', { name: VIEW_LABELS.users, exact: true })
    .click();
  return { context, page };
}

/** The driver's phone, logged in and live on the driver screen. */
async function openDriver(account: { email: string; password: string }): Promise<Page> {
  const { page } = await open(PHONE);
  await loginUi(page, account);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  await page.getByTestId('timeclock-status').waitFor();
  return page;
}

async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel(UI_LOGIN.email).fill(email);
  await page.getByLabel(UI_LOGIN.password).fill(password);
  await page.getByRole('button', { name: UI_LOGIN.submitLogin, exact: true }).click();
}

const userRow = (page: Page, id: string) => page.locator(`[data-testid="user-row"][data-user-id="${id}"]`);

/** Opens a row's Cuenta menu and picks one of its items. */
async function accountAction(page: Page, row: Locator, name: string, item: string): Promise<void> {
  await row.getByRole('button', { name: UI_USERS.actionLabels.account(name) }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: item }).click();
}

/** Call right after the click that causes it: the toast saying why lasts only 4 s. */
async function expectBackOnLogin(page: Page, why: string): Promise<void> {
  await page.waitForURL('**/login', { timeout: BACK_TO_LOGIN_MS });
  await page.getByText(why).waitFor({ timeout: BACK_TO_LOGIN_MS });
}

/**
 * Screenshot once the finite animations (a dialog's pop-in, its overlay's fade) have finished; the
 * endless ones (spinners, the live-link pulse) never do, and are not waited for.
 */
async function settledScreenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => {
    const finite = document
      .getAnimations()
      .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity));
    const settled = Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    return Promise.race([settled, new Promise((r) => setTimeout(r, 2000))]);
  });
  await screenshot(page, name);
}

/** The login session id (`sid`) of the token a page holds. */
async function sessionIdOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('torre.token'));
  return JSON.parse(Buffer.from(token!.split('.')[1], 'base64url').toString()).sid as string;
}

async function login(email: string, password: string, userAgent?: string): Promise<Response> {
  return fetch(`${inject('baseUrl')}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(userAgent ? { 'User-Agent': userAgent } : {}) },
    body: JSON.stringify({ email, password }),
  });
}

describe('password reset and sessions (CONTRACT §14)', () => {
  it(
    'reset → temporary password → forced change on the phone → driver screen; ending the session sends it to /login',
    async () => {
      const driver = await createUser('conductor', { name: 'Pablo Reinicio' });
      const oldPhone = await openDriver(driver);
      const { context: adminContext, page } = await openAdminUsers();
      await adminContext.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: inject('baseUrl'),
      });
      const row = userRow(page, driver.id);

      // Reset: asked first; then shown once, with copy.
      await accountAction(page, row, driver.name, UI_USERS.accountMenu.resetPassword);
      const confirm = page.getByRole('dialog', { name: UI_USERS.resetDialog.title });
      await confirm.getByText(UI_USERS.resetDialog.message(driver.name, driver.email)).waitFor();
      await confirm.getByRole('button', { name: UI_USERS.resetDialog.confirm }).click();
      const shown = page.getByRole('dialog', { name: UI_USERS.temporaryPassword.title });
      const temporary = ((await shown.getByTestId('temporary-password').textContent()) ?? '').trim();
      expect(temporary.length).toBeGreaterThanOrEqual(8);
      await shown.getByText(UI_USERS.temporaryPassword.mustChange(driver.name)).waitFor();
      await shown.getByText(UI_USERS.temporaryPassword.sessionsClosed).waitFor();
      // The reset ended the driver's open session: their phone is back on /login, saying why.
      await expectBackOnLogin(oldPhone, REVOKE_MESSAGES.password_reset);

      await shown.getByRole('button', { name: UI_USERS.temporaryPassword.copy }).click();
      await shown.getByRole('button', { name: UI_USERS.temporaryPassword.copied }).waitFor();
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(temporary);
      await page.getByText(TOAST.copied).waitFor({ state: 'hidden', timeout: 8000 });
      await settledScreenshot(page, 'accounts-temporary-password-1440');
      await shown.getByRole('button', { name: UI_USERS.temporaryPassword.done }).click();
      await shown.waitFor({ state: 'detached' });

      // The old password is gone.
      expect((await login(driver.email, driver.password)).status).toBe(401);

      // The driver, on a second phone, logs in with the temporary password: the change form, no session yet.
      const { page: phone } = await open(PHONE);
      await phone.goto('/login');
      await submitLogin(phone, driver.email, temporary);
      await phone.getByRole('heading', { name: UI_CHANGE_PASSWORD.title }).waitFor();
      expect(new URL(phone.url()).pathname).toBe('/login');
      await expect(phone.evaluate(() => localStorage.getItem('torre.token'))).resolves.toBeNull();
      await expect(phone.getByLabel(UI_LOGIN.password, { exact: true }).count()).resolves.toBe(0);

      const newPassword = 'nueva-clave-conductor-1';
      await phone.getByLabel(UI_CHANGE_PASSWORD.newPassword, { exact: true }).fill(newPassword);
      await phone.getByLabel(UI_CHANGE_PASSWORD.repeat).fill(`${newPassword}x`);
      await phone.getByRole('button', { name: UI_CHANGE_PASSWORD.submit }).click();
      await phone.getByText(UI_CHANGE_PASSWORD.mismatch).waitFor();
      await phone.getByLabel(UI_CHANGE_PASSWORD.repeat).fill(newPassword);
      await phone.getByLabel(UI_CHANGE_PASSWORD.repeat).blur();
      await settledScreenshot(phone, 'accounts-change-password-390');
      await phone.getByRole('button', { name: UI_CHANGE_PASSWORD.submit }).click();
      await phone.waitForURL('**/dashboard');
      await phone.getByTestId('timeclock-status').waitFor();
      await phone.getByText(UI_HEADER.linkOnline).waitFor();
      const phoneSid = await sessionIdOf(phone);

      // A second device of the driver (an Android phone, through the API) so the list has two rows.
      const android = await login(driver.email, newPassword, ANDROID_UA);
      expect(((await android.json()) as AuthResponse).status).toBe('approved');

      // The admin lists the driver's sessions and ends the browser phone's.
      await accountAction(page, row, driver.name, UI_USERS.accountMenu.sessions);
      const S = UI_USERS.sessionsDialog;
      const sessions = page.getByRole('dialog', { name: S.title });
      const rows = sessions.getByTestId('session-row');
      await rows.nth(1).waitFor();
      // The reset ended the first phone's session; the temporary-password login kept its own through the change.
      await expect(rows.count()).resolves.toBe(2);
      await sessions.getByText('Chrome · Android').waitFor();
      await expect(sessions.getByText(S.current).count()).resolves.toBe(0);
      await settledScreenshot(page, 'accounts-sessions-1440');

      const phoneRow = sessions.locator(`[data-session-id="${phoneSid}"]`);
      await phoneRow.getByRole('button', { name: /^Cerrar la sesión de / }).click();
      const endConfirm = page.getByRole('dialog', { name: S.confirmTitle });
      await endConfirm.getByText(/volverá a la pantalla de inicio de sesión/).waitFor();
      await settledScreenshot(page, 'accounts-sessions-confirm-1440');
      await endConfirm.getByRole('button', { name: S.confirm }).click();
      await expectBackOnLogin(phone, REVOKE_MESSAGES.logged_out);
      await page.getByText(ACCOUNT_MSG.sessionEnded).waitFor();
      await phoneRow.waitFor({ state: 'detached' });
      await expect(rows.count()).resolves.toBe(1);

      // The new password is the driver's now; the temporary one is not.
      expect((await login(driver.email, temporary)).status).toBe(401);
      expect(((await (await login(driver.email, newPassword)).json()) as AuthResponse).status).toBe(
        'approved',
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the admin's own sessions list marks the one in use",
    async () => {
      // A driver with every task type: the widest row there is.
      const wide = await createUser('conductor', { name: 'Maximiliano Fernández-Castañeda' });
      await apiCall('POST', '/admin/update-user-task-types', {
        token: await adminToken(),
        body: { user_id: wide.id, task_types: ['semiremolque', 'semiremolque_out_km0', 'swap'] },
      });
      const { page } = await openAdminUsers();
      await userRow(page, wide.id).getByText('Swap', { exact: true }).waitFor();
      const me = page.locator('[data-testid="user-row"]', { hasText: UI_USERS.you });
      await me.waitFor();
      // With the Cuenta menu, a row's actions fit a 1440 px screen: the table does not scroll sideways.
      const overflow = await page
        .locator('table')
        .evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth);
      await settledScreenshot(page, 'accounts-users-table-1440');
      expect(overflow).toBeLessThanOrEqual(0);
      await me.getByRole('button', { name: /^Cuenta de / }).click();
      // One's own password is reset by another admin: the item is there, disabled, saying so.
      const menu = page.getByRole('menu');
      await menu.getByText(UI_USERS.resetSelf).waitFor();
      await expect(
        menu
          .getByRole('menuitem', { name: new RegExp(`^${UI_USERS.accountMenu.resetPassword}`) })
          .getAttribute('aria-disabled'),
      ).resolves.toBe('true');
      await settledScreenshot(page, 'accounts-menu-own-1440');
      await menu.getByRole('menuitem', { name: UI_USERS.accountMenu.sessions }).click();
      const sessions = page.getByRole('dialog', { name: UI_USERS.sessionsDialog.title });
      await sessions.getByTestId('session-row').first().waitFor();
      await expect(
        sessions.getByText(UI_USERS.sessionsDialog.current, { exact: true }).count(),
      ).resolves.toBe(1);
      await sessions.getByRole('button', { name: UI_COMMON.close, exact: true }).last().click();
      await sessions.waitFor({ state: 'detached' });
    },
    TEST_TIMEOUT_MS,
  );
});

describe('editing a user', () => {
  it(
    'Enter saves the name; a taken email is refused on its field',
    async () => {
      const user = await createUser('gestor', { name: 'Olga Editar' });
      const other: TestAccount = await createUser('gestor', { name: 'Otro Gestor' });
      const { page } = await openAdminUsers();
      const row = userRow(page, user.id);
      const D = UI_USERS.editDialog;

      await accountAction(page, row, user.name, UI_USERS.accountMenu.edit);
      const dialog = page.getByRole('dialog', { name: D.title });
      await dialog.getByLabel(D.name).fill('Olga Editada');
      await dialog.getByLabel(D.name).press('Enter');
      await page.getByText(D.saved('Olga Editada')).waitFor();
      await dialog.waitFor({ state: 'detached' });
      await row.getByText('Olga Editada', { exact: true }).waitFor();

      await accountAction(page, row, 'Olga Editada', UI_USERS.accountMenu.edit);
      await dialog.getByLabel(D.email).fill(other.email.toUpperCase());
      await dialog.getByRole('button', { name: D.confirm }).click();
      await dialog.getByText(ERR.emailTaken).waitFor();
      await settledScreenshot(page, 'accounts-edit-taken-1440');
      await dialog.getByRole('button', { name: UI_COMMON.cancel }).click();
      await expect(row.getByText(user.email).count()).resolves.toBe(1);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('approval modal', () => {
  it(
    'Rechazar asks for confirmation before deleting the registration',
    async () => {
      const pending = await createUser('gestor', { name: 'Nora Rechazo', approve: false });
      const { page } = await openAdminUsers();
      await page.getByRole('button', { name: /^Aprobar Usuarios \(\d+\)$/ }).click();
      await page.getByRole('dialog', { name: UI_APPROVAL.title }).waitFor();
      // Not through the dialog's role: the confirmation hides the list from the accessibility tree.
      const row = page.getByTestId('pending-user').filter({ hasText: pending.email });
      const R = UI_APPROVAL.rejectConfirm;

      await row.getByRole('button', { name: UI_APPROVAL.reject }).click();
      const confirm = page.getByRole('dialog', { name: R.title });
      await confirm.getByText(R.message(pending.name, pending.email)).waitFor();
      await settledScreenshot(page, 'accounts-reject-confirm-1440');
      await confirm.getByRole('button', { name: UI_COMMON.cancel }).click();
      await confirm.waitFor({ state: 'detached' });
      const token = await adminToken();
      const stillPending = await apiCall<PendingUser[]>('GET', '/admin/pending-users', { token });
      expect(stillPending.map((u) => u.id)).toContain(pending.id);

      await row.getByRole('button', { name: UI_APPROVAL.reject }).click();
      await confirm.getByRole('button', { name: R.confirm }).click();
      await page.getByText(ACCOUNT_MSG.rejected(pending.name)).waitFor();
      await row.waitFor({ state: 'detached' });
      const after = await apiCall<PendingUser[]>('GET', '/admin/pending-users', { token });
      expect(after.map((u) => u.id)).not.toContain(pending.id);
    },
    TEST_TIMEOUT_MS,
  );
});
