// The admin's activity log (CONTRACT §10, §15) in Chromium: every filter (type, user, Madrid days)
// shows exactly the rows the API gives for the same filter, `Cargar más` walks through all of them
// with no duplicates and no gaps, and `Limpiar filtros` brings the whole log back; it fits a phone.
// Then the dialogs (Modal, ConfirmDialog): closing one with Escape or Cancelar puts keyboard focus
// back on the button that opened it.
//
// Runs on its OWN server process (like live-link.test.ts): the test knows every row of the log, and
// it moves that server's clock a day forward so the rows span two Madrid days, which must not touch
// the shared server of the other browser tests.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { LOGS_DEFAULT_LIMIT } from '@shared/constants';
import type { LogType, Role } from '@shared/enums';
import {
  CARD_ACTION_NAME,
  LOG_TYPE_LABELS,
  ROLE_LABELS,
  UI_BOARD,
  UI_COMMON,
  UI_HEADER,
  UI_SYSTEM,
  UI_USERS,
  VIEW_LABELS,
} from '@shared/labels';
import type { AdminUser, AuthResponse, LogEntry, Task } from '@shared/schemas';
import { formatDate, formatTimeWithSeconds, madridDay } from '@shared/time';
import { launch, openPage, PHONE, screenshot, WALL } from './chromium';
import { startAppProcess } from './global-setup';
import { ADMIN, PASSWORD, apiCall, loginApi, loginUi, uniqueEmail } from './helpers';

const T = UI_SYSTEM.logs;
const F = T.filters;
const PAGE = LOGS_DEFAULT_LIMIT;
/** Seeding ~130 rows through the API, then several hundred row reads in the page. */
const TEST_TIMEOUT_MS = 120_000;

let browser: Browser;
let server: ChildProcess | undefined;
let dataDir: string;
const port = 5800 + Math.floor(Math.random() * 800);
const baseUrl = `http://127.0.0.1:${port}`;
const clientDist = () => path.join(inject('dataDir'), 'client');

const api = <T>(method: string, p: string, token?: string, body?: unknown) =>
  apiCall<T>(method, p, { token, body, baseUrl });
const login = (account: { email: string; password: string }) =>
  loginApi(account.email, account.password, baseUrl);

interface Account {
  id: string;
  name: string;
  role: Role;
  email: string;
  password: string;
}

/** What the seed made, for the checks' own expectations (the API stays the reference). */
const seed = {
  adminToken: '',
  ana: undefined as unknown as Account,
  bruno: undefined as unknown as Account,
  carmen: undefined as unknown as Account,
  /** Madrid days of the two phases. */
  day1: '',
  day2: '',
  punches: 0,
  tasks: [] as Task[],
};

async function register(name: string, role: Role, adminToken: string): Promise<Account> {
  const email = uniqueEmail(role);
  const { user } = await api<AuthResponse>('POST', '/auth/register', undefined, {
    email,
    password: PASSWORD,
    name,
    role,
  });
  await api('POST', '/admin/approve-user', adminToken, { user_id: user.id, approved: true });
  return { id: user.id, name, role, email, password: PASSWORD };
}

/** Logins, punches (entrada/salida pairs: the driver ends clocked out) and tasks of one day. */
async function activity(phase: number, logins: Record<'ana' | 'bruno' | 'carmen', number>) {
  const tokens = { ana: '', bruno: '', carmen: '' };
  for (const who of ['ana', 'bruno', 'carmen'] as const) {
    for (let i = 0; i < logins[who]; i++) tokens[who] = await login(seed[who]);
  }
  const pairs = { ana: 6, bruno: 3 };
  for (const who of ['ana', 'bruno'] as const) {
    for (let i = 0; i < pairs[who]; i++) {
      await api('POST', '/timeclock/punch?clock_type=entrada', tokens[who]);
      await api('POST', '/timeclock/punch?clock_type=salida', tokens[who]);
      seed.punches += 2;
    }
  }
  for (let i = 0; i < 5; i++) {
    const task = await api<Task>('POST', '/tasks', tokens.carmen, {
      title: 'Mover',
      origin: `Muelle ${i + 1}`,
      destination: 'Campa Norte',
      trailer_id: `LOG-${phase}-${i}-${Date.now().toString(36).toUpperCase()}`,
      // Swap tasks are never auto-assigned: no rows nobody asked for.
      vehicle_type: 'swap',
    });
    seed.tasks.push(task);
  }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-activity-'));
  server = await startAppProcess(port, dataDir, clientDist());
  browser = await launch();

  // Day 1.
  let admin = await login(ADMIN);
  seed.ana = await register('Ana Registro', 'conductor', admin);
  seed.bruno = await register('Bruno Registro', 'conductor', admin);
  seed.carmen = await register('Carmen Registro', 'gestor', admin);
  await activity(1, { ana: 18, bruno: 8, carmen: 1 });
  // Day 2: 26 h later is always a later Madrid day (even across a 25 h DST day).
  await api('POST', '/test/clock', undefined, { advance_ms: 26 * 3_600_000 });
  admin = await login(ADMIN);
  // A backup now, so the server's own daily backup (its first look comes a minute after start) finds
  // a fresh one and writes no row in the middle of the test.
  await api('POST', '/admin/system/backup', admin);
  await activity(2, { ana: 18, bruno: 8, carmen: 1 });
  seed.adminToken = admin;
}, TEST_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  const child = server;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Filter {
  type?: LogType;
  user_id?: string;
  date_from?: string;
  date_to?: string;
}

/** Every row the API has for a filter, newest first, through its own paging (`before`). */
async function apiLogs(filter: Filter): Promise<LogEntry[]> {
  const all: LogEntry[] = [];
  for (;;) {
    const q = new URLSearchParams({ limit: '500' });
    for (const [k, v] of Object.entries(filter)) if (v) q.set(k, v);
    if (all.length) q.set('before', String(all.at(-1)!.id));
    const page = await api<LogEntry[]>('GET', `/admin/system/logs?${q}`, seed.adminToken);
    all.push(...page);
    if (page.length < 500) break;
  }
  expect(new Set(all.map((l) => l.id)).size).toBe(all.length);
  return all;
}

/** One row as the table shows it: type, user, action, details, the Madrid time with seconds. */
const asShown = (l: LogEntry) =>
  [
    LOG_TYPE_LABELS[l.type],
    l.user,
    l.action,
    l.details,
    `${formatDate(l.timestamp)}, ${formatTimeWithSeconds(l.timestamp)}`,
    l.timestamp,
  ].join(' | ');

/** The rows in the page, in order (none while the empty state shows). */
const shownRows = (page: Page): Promise<string[]> =>
  page
    .getByTestId('activity-log')
    .locator('tr')
    .evaluateAll((trs) =>
      trs.map((tr) =>
        [
          ...[...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim()),
          tr.querySelector('time')?.getAttribute('datetime') ?? '',
        ].join(' | '),
      ),
    );

const filterBar = (page: Page) => page.getByRole('group', { name: F.label });

async function pick(page: Page, label: string, option: string): Promise<void> {
  await filterBar(page).getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const userOption = (a: Account) => `${a.name} · ${ROLE_LABELS[a.role]}`;

/**
 * The list for the filter in the page equals the API's, page by page: the first page, then each
 * `Cargar más` adds exactly the next rows (so nothing repeats and nothing is skipped), until the end.
 */
async function expectPagedThrough(page: Page, expected: LogEntry[]): Promise<void> {
  const rows = expected.map(asShown);
  if (rows.length === 0) {
    await page.getByText(T.emptyFiltered).waitFor();
    expect(await shownRows(page)).toEqual([]);
    return;
  }
  const more = page.getByRole('button', { name: T.loadMore });
  for (let shown = Math.min(PAGE, rows.length); ; shown = Math.min(shown + PAGE, rows.length)) {
    await expect.poll(() => shownRows(page)).toEqual(rows.slice(0, shown));
    await page.getByText(T.count(shown), { exact: true }).waitFor();
    // A full last page cannot know it was the last: `Cargar más` then brings nothing and says so.
    if (shown === rows.length && shown % PAGE !== 0) break;
    await more.click();
    if (shown === rows.length) break;
  }
  await page.getByText(T.end).waitFor();
  await expect(more.count()).resolves.toBe(0);
  expect(await shownRows(page)).toEqual(rows);
}

async function openAdmin(viewport = WALL): Promise<Page> {
  const { page } = await openPage(browser, baseUrl, viewport);
  await loginUi(page, ADMIN);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  return page;
}

async function goTo(page: Page, view: keyof typeof VIEW_LABELS): Promise<void> {
  await page
    .getByRole('navigation', { name: UI_HEADER.nav })
    .getByRole('button', { name: VIEW_LABELS[view], exact: true })
    .click();
}

describe('activity log', () => {
  it(
    'each filter shows exactly the API rows, Cargar más pages through all of them, Limpiar filtros restores the log',
    async () => {
      const { ana, bruno } = seed;
      const page = await openAdmin();
      await goTo(page, 'admin-panel');
      await page.getByTestId('activity-log').waitFor();

      // The whole log, after the admin's own login in this page: more than two pages, two days.
      const all = await apiLogs({});
      expect(all.length).toBeGreaterThan(2 * PAGE);
      const days = [...new Set(all.map((l) => madridDay(l.timestamp)))].sort();
      expect(days).toHaveLength(2);
      [seed.day1, seed.day2] = days;
      await expect.poll(() => shownRows(page)).toEqual(all.slice(0, PAGE).map(asShown));
      await expect(filterBar(page).getByRole('button', { name: F.clear }).isDisabled()).resolves.toBe(true);
      await screenshot(page, 'activity-log-wall');

      // Type: the punches, and nothing else.
      await pick(page, F.type, LOG_TYPE_LABELS.timeclock);
      const punches = await apiLogs({ type: 'timeclock' });
      expect(punches).toHaveLength(seed.punches);
      expect(punches.every((l) => l.type === 'timeclock')).toBe(true);
      await expectPagedThrough(page, punches);

      // Type + user: Ana's punches.
      await pick(page, F.user, userOption(ana));
      const anaPunches = await apiLogs({ type: 'timeclock', user_id: ana.id });
      expect(anaPunches.length).toBeGreaterThan(0);
      expect(anaPunches.every((l) => l.user === ana.name && l.type === 'timeclock')).toBe(true);
      expect(anaPunches.length).toBeLessThan(punches.length);
      await expectPagedThrough(page, anaPunches);

      // User alone: everything Ana did — more than one page.
      await pick(page, F.type, F.anyType);
      const anaAll = await apiLogs({ user_id: ana.id });
      expect(anaAll.length).toBeGreaterThan(PAGE);
      expect(anaAll.every((l) => l.user === ana.name)).toBe(true);
      await expectPagedThrough(page, anaAll);

      // User + Desde day 2: Ana's second day only.
      await filterBar(page).getByLabel(F.dateFrom).fill(seed.day2);
      const anaDay2 = await apiLogs({ user_id: ana.id, date_from: seed.day2 });
      expect(anaDay2.length).toBeGreaterThan(0);
      expect(anaDay2.length).toBeLessThan(anaAll.length);
      expect(anaDay2.every((l) => l.user === ana.name && madridDay(l.timestamp) === seed.day2)).toBe(true);
      await expectPagedThrough(page, anaDay2);
      // The filters and the first rows in view (Cargar más scrolled the table and the page down).
      await page.evaluate(() => {
        window.scrollTo(0, 0);
        document.querySelector('[data-testid=activity-log]')?.closest('.overflow-auto')?.scrollTo(0, 0);
      });
      await screenshot(page, 'activity-log-filtered-wall');

      // Another user, same day: Bruno's second day.
      await pick(page, F.user, userOption(bruno));
      const brunoDay2 = await apiLogs({ user_id: bruno.id, date_from: seed.day2 });
      expect(brunoDay2.length).toBeGreaterThan(0);
      expect(brunoDay2.every((l) => l.user === bruno.name && madridDay(l.timestamp) === seed.day2)).toBe(
        true,
      );
      await expectPagedThrough(page, brunoDay2);

      // Desde and Hasta the same day: that day, both bounds inclusive.
      await filterBar(page).getByLabel(F.dateTo).fill(seed.day2);
      await expect(apiLogs({ user_id: bruno.id, date_from: seed.day2, date_to: seed.day2 })).resolves.toEqual(
        brunoDay2,
      );
      await expectPagedThrough(page, brunoDay2);

      // Hasta day 1 alone, every user: the whole first day, over a page.
      await pick(page, F.user, F.anyUser);
      await filterBar(page).getByLabel(F.dateFrom).fill('');
      await filterBar(page).getByLabel(F.dateTo).fill(seed.day1);
      const day1 = await apiLogs({ date_to: seed.day1 });
      expect(day1.length).toBeGreaterThan(PAGE);
      expect(day1.length).toBeLessThan(all.length);
      expect(day1.every((l) => madridDay(l.timestamp) === seed.day1)).toBe(true);
      expect(new Set(day1.map((l) => l.user)).size).toBeGreaterThan(2);
      await expectPagedThrough(page, day1);

      // Limpiar filtros: every control back to "any" and the whole log, all of it through Cargar más.
      const clear = filterBar(page).getByRole('button', { name: F.clear });
      await clear.click();
      await expect(filterBar(page).getByRole('combobox', { name: F.type }).textContent()).resolves.toBe(
        F.anyType,
      );
      await expect(filterBar(page).getByRole('combobox', { name: F.user }).textContent()).resolves.toBe(
        F.anyUser,
      );
      await expect(filterBar(page).getByLabel(F.dateFrom).inputValue()).resolves.toBe('');
      await expect(filterBar(page).getByLabel(F.dateTo).inputValue()).resolves.toBe('');
      await expect(clear.isDisabled()).resolves.toBe(true);
      await expect(apiLogs({})).resolves.toEqual(all);
      await expectPagedThrough(page, all);
      await page.context().close();
    },
    TEST_TIMEOUT_MS,
  );

  it('fits a 390 px phone without sideways scrolling', async () => {
    const page = await openAdmin(PHONE);
    await goTo(page, 'admin-panel');
    await page.getByTestId('activity-log').locator('tr').first().waitFor();
    await filterBar(page).scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - window.innerWidth,
      filters: [...document.querySelectorAll('[role=group] input, [role=group] button')]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map((e) => e.outerHTML.slice(0, 80)),
    }));
    await screenshot(page, 'activity-log-phone');
    expect(overflow).toEqual({ page: 0, filters: [] });
    await page.context().close();
  });
});

describe('dialogs give focus back to the button that opened them', () => {
  const isFocused = (l: Locator) => l.evaluate((el) => el === document.activeElement);
  /** Opens like a keyboard user: focus on the button, Enter. */
  const byKeyboard = (page: Page, button: Locator) => async () => {
    await button.focus();
    await page.keyboard.press('Enter');
  };

  /** Opens a dialog with `open`, closes it with Escape or its Cancelar, and expects focus on `opener`. */
  async function closesBackTo(
    page: Page,
    opener: Locator,
    open: () => Promise<void>,
    title: string,
    how: 'Escape' | 'Cancelar',
  ): Promise<void> {
    await open();
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    if (how === 'Escape') await page.keyboard.press('Escape');
    else await dialog.getByRole('button', { name: UI_COMMON.cancel, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(opener), { timeout: 2000 }).toBe(true);
  }

  it(
    'Usuarios: the Cuenta menu, Rol and Eliminar',
    async () => {
      const { ana } = seed;
      const page = await openAdmin();
      await goTo(page, 'users');
      const row = page.locator(`[data-testid="user-row"][data-user-id="${ana.id}"]`);
      const account = row.getByRole('button', { name: UI_USERS.actionLabels.account(ana.name) });
      const editItem = page.getByRole('menu').getByRole('menuitem', { name: UI_USERS.accountMenu.edit });
      // Keyboard: Enter opens the menu on its first item (Editar nombre y email), Enter picks it.
      const editByKeyboard = async () => {
        await byKeyboard(page, account)();
        await expect.poll(() => isFocused(editItem)).toBe(true);
        await page.keyboard.press('Enter');
      };
      const editByMouse = async () => {
        await account.click();
        await editItem.click();
      };
      await closesBackTo(page, account, editByKeyboard, UI_USERS.editDialog.title, 'Escape');
      await closesBackTo(page, account, editByMouse, UI_USERS.editDialog.title, 'Cancelar');

      const role = row.getByRole('button', { name: UI_USERS.actionLabels.role(ana.name) });
      await closesBackTo(page, role, byKeyboard(page, role), UI_USERS.roleDialog.title, 'Escape');
      await closesBackTo(page, role, () => role.click(), UI_USERS.roleDialog.title, 'Escape');

      // ConfirmDialog.
      const remove = row.getByRole('button', { name: UI_USERS.actionLabels.delete(ana.name) });
      await closesBackTo(page, remove, byKeyboard(page, remove), UI_USERS.deleteDialog.title, 'Escape');
      await closesBackTo(page, remove, () => remove.click(), UI_USERS.deleteDialog.title, 'Cancelar');
      // Nothing was changed or deleted.
      const users = await api<AdminUser[]>('GET', '/admin/users', seed.adminToken);
      expect(users.find((u) => u.id === ana.id)).toMatchObject({ name: ana.name, role: ana.role });
      await page.context().close();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the board: a card's Editar and Eliminar",
    async () => {
      const task = seed.tasks.at(-1)!;
      const page = await openAdmin();
      await page.getByTestId('kanban').waitFor();
      const card = page.getByRole('article', { name: new RegExp(task.trailer_id) });
      const edit = card.getByRole('button', {
        name: CARD_ACTION_NAME(UI_BOARD.card.edit, task.trailer_id),
        exact: true,
      });
      // A click on a card's button leaves focus where it was (the card is a drag handle): the dialog
      // still gives it to the button that opened it.
      await closesBackTo(page, edit, byKeyboard(page, edit), UI_BOARD.form.editTitle, 'Escape');
      await closesBackTo(page, edit, () => edit.click(), UI_BOARD.form.editTitle, 'Escape');
      await closesBackTo(page, edit, () => edit.click(), UI_BOARD.form.editTitle, 'Cancelar');
      const remove = card.getByRole('button', {
        name: CARD_ACTION_NAME(UI_BOARD.card.delete, task.trailer_id),
        exact: true,
      });
      await closesBackTo(page, remove, byKeyboard(page, remove), UI_BOARD.deleteConfirm.title, 'Escape');
      await closesBackTo(page, remove, () => remove.click(), UI_BOARD.deleteConfirm.title, 'Cancelar');
      // The task is still there, untouched.
      const tasks = await api<Task[]>('GET', '/tasks', seed.adminToken);
      expect(tasks.find((t) => t.id === task.id)?.version).toBe(task.version);
      await page.context().close();
    },
    TEST_TIMEOUT_MS,
  );
});
