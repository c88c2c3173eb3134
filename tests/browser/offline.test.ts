// The driver's phone without a network, for real (CONTRACT §16): the phone's page is served through a
// TCP proxy (cut-proxy.ts) in front of a private server, and "cut" both stops the proxy and puts the
// browser context offline — `setOffline` alone would leave the service worker's own requests going
// through. Staff pages and the test's API calls go straight to the server. A private server: a fresh
// clock (the browser's clock is real time, and the server compares `client_time` with its own) and a
// yard of this file's tasks only.
//   1. a reload with no network shows the active task, the time clock and the offline indicator;
//   2. a task completed offline is sent once on restore: finalizada, one completion event, one more
//      move for the driver, and a staff board opened before shows it in Finalizada without a reload;
//   3. an Entrada tapped offline keeps its own time (not the restore's) and is marked offline;
//   4. a completion the server refuses on replay (staff took the task away meanwhile) shows the
//      server's reason once, `Entendido` removes it, and the queue is empty.
// Screenshots at 390×844 go to /tmp/torre-screens (driver-offline-*.png).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { AdminUser, DailySummary, SearchTask, Task } from '@shared/schemas';
import { OFFLINE_RETRY_MS } from '@shared/constants';
import { ERR, TIMECLOCK_STATUS_LABELS, UI_DRIVER, UI_HEADER } from '@shared/labels';
import { launch, openPage, PHONE, screenshot, WALL } from './chromium';
import { startCutProxy, type CutProxy } from './cut-proxy';
import { startAppProcess } from './global-setup';
import { ADMIN, adminToken, apiCall, createUser, loginApi, loginUi, type TestAccount } from './helpers';

const O = UI_DRIVER.offline;
const A = UI_DRIVER.activeTask;
const T = UI_DRIVER.timeclock;

let browser: Browser;
let server: ChildProcess;
let baseUrl: string;
let dataDir: string;
let proxy: CutProxy;
let admin: string;
const opened: BrowserContext[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-offline-'));
  const port = 5000 + Math.floor(Math.random() * 800);
  server = await startAppProcess(port, dataDir, path.join(inject('dataDir'), 'client'));
  baseUrl = `http://127.0.0.1:${port}`;
  proxy = await startCutProxy(port);
  browser = await launch();
  admin = await adminToken(baseUrl);
});
afterEach(async () => {
  for (const context of opened.splice(0)) await context.close();
  await proxy.restore();
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  server?.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const api = <T>(method: string, route: string, opts: { token?: string; body?: unknown } = {}) =>
  apiCall<T>(method, route, { token: admin, ...opts, baseUrl });

let plate = 0;
const trailer = () => `OFF-${Date.now().toString(36).toUpperCase()}-${plate++}`;

/** An approved conductor of Swap tasks (never auto-assigned: a task stays where the test puts it). */
async function newDriver(): Promise<TestAccount & { token: string }> {
  const account = await createUser('conductor', { name: `Conductor ${trailer().slice(4, 10)}`, baseUrl });
  await api('POST', '/admin/update-user-task-types', { body: { user_id: account.id, task_types: ['swap'] } });
  return { ...account, token: await loginApi(account.email, account.password, baseUrl) };
}

/** A Swap task that staff assign to the driver: their active task. */
async function assignedTask(driverId: string): Promise<Task> {
  const task = await api<Task>('POST', '/tasks', {
    body: {
      title: 'Mover',
      origin: 'Muelle 4',
      destination: 'Campa Sur',
      trailer_id: trailer(),
      priority: 'normal',
      vehicle_type: 'swap',
    },
  });
  return api<Task>('PUT', `/tasks/${task.id}`, { body: { assigned_to: driverId } });
}

const taskById = async (id: string) => (await api<Task[]>('GET', '/tasks')).find((t) => t.id === id);
const timelineOf = async (task: Task) => {
  const found = await api<SearchTask[]>(
    'GET',
    `/admin/search/tasks?search_type=trailer&query=${encodeURIComponent(task.trailer_id)}`,
  );
  return found.find((t) => t.id === task.id)?.timeline ?? [];
};
const movesOf = async (userId: string) =>
  (await api<AdminUser[]>('GET', '/admin/users')).find((u) => u.id === userId)!.movements_count;

/** The driver's phone: its origin is the proxy; logged in, live, and controlled by the service worker. */
async function openPhone(account: TestAccount): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await openPage(browser, proxy.url, PHONE);
  opened.push(context);
  await loginUi(page, account);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  await page.getByTestId('timeclock-status').waitFor();
  // Cutting before the worker controls the page would test the browser's offline page, not the app.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return { context, page };
}

/** A staff page straight to the server (not through the proxy). */
async function openStaffBoard(): Promise<Page> {
  const { context, page } = await openPage(browser, baseUrl, WALL);
  opened.push(context);
  await loginUi(page, ADMIN);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  await page.getByTestId('kanban').waitFor();
  return page;
}

async function cut(context: BrowserContext): Promise<void> {
  await proxy.cut();
  await context.setOffline(true);
}
async function restore(context: BrowserContext): Promise<void> {
  await proxy.restore();
  await context.setOffline(false);
}

const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
const indicator = (page: Page) => page.getByTestId('offline-indicator');
/** The indicator's first line (the second is the hint). */
const indicatorTitle = (page: Page) => indicator(page).locator('span').first();

/**
 * Where an element is against the sticky header and the screen: shown whole, below the header (it
 * neither covers nor hides under the header's link state, sound and logout).
 */
async function placement(page: Page, target: Locator) {
  const header = (await page.getByRole('banner').boundingBox())!;
  const box = (await target.boundingBox())!;
  return {
    belowHeader: box.y >= header.y + header.height - 0.5,
    onScreen: box.y >= 0 && box.y + box.height <= PHONE.height,
  };
}
const scrollToBottom = (page: Page) =>
  page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
const scrollToTop = (page: Page) => page.evaluate(() => window.scrollTo(0, 0));

/** Completes the active task through its button and the confirmation dialog. */
async function completeActive(page: Page): Promise<void> {
  await button(page.getByTestId('active-task'), A.complete).click();
  const dialog = page.getByRole('dialog', { name: UI_DRIVER.completeConfirm.title });
  await button(dialog, UI_DRIVER.completeConfirm.confirm).click();
}

/** The actions waiting in the phone's IndexedDB queue (client/src/offline/outbox-db.ts). */
const queuedInDb = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const req = indexedDB.open('torre-offline');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('actions')) return resolve(0);
          const count = db.transaction('actions').objectStore('actions').count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => reject(count.error);
        };
      }),
  );

/**
 * Screenshots to look at; the docs take copies of the good ones. Taken once the toasts of the steps
 * before (login, the queued action) are gone, so the picture shows the state itself.
 */
async function shoot(page: Page, what: string): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[data-sonner-toast]'), undefined, {
    timeout: 15_000,
  });
  await screenshot(page, `driver-offline-${what}`);
}

describe('the driver phone with the network cut', () => {
  it('a reload with no network shows the active task, the time clock and the offline indicator', async () => {
    const driver = await newDriver();
    await apiCall('POST', '/timeclock/punch?clock_type=entrada', { token: driver.token, baseUrl });
    const task = await assignedTask(driver.id);
    const { context, page } = await openPhone(driver);
    const card = page.getByTestId('active-task');
    await card.getByText(task.trailer_id).waitFor();
    const lastEntrada = await page.getByTestId('last-entrada').textContent();
    expect(lastEntrada).toMatch(/\d/);

    await cut(context);
    // The network is really gone for this origin: the server cannot be reached from the page.
    const reached = await page.evaluate(() =>
      fetch('/api/server-time').then(
        () => true,
        () => false,
      ),
    );
    expect(reached).toBe(false);
    await page.reload();

    // The app, not Chromium's offline page: the task as last seen, the clock state and the indicator.
    await page.getByTestId('active-task').getByText(task.trailer_id).waitFor();
    await expect(page.getByTestId('active-trailer').textContent()).resolves.toBe(task.trailer_id);
    await expect(card.getByText(task.origin, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(card.getByText(task.destination, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('timeclock-status').textContent()).resolves.toBe(
      TIMECLOCK_STATUS_LABELS.clocked_in,
    );
    await expect(page.getByTestId('last-entrada').textContent()).resolves.toBe(lastEntrada);
    await expect(button(page, T.salida).isEnabled()).resolves.toBe(true);
    await indicatorTitle(page).getByText(O.indicator(0), { exact: true }).waitFor();
    await expect(page.getByText(O.indicatorHint).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('clock-in-prompt').count()).resolves.toBe(0);
    await shoot(page, 'reload');

    // Back online: the indicator goes and the task is still the driver's on the server.
    await restore(context);
    await indicator(page).waitFor({ state: 'detached' });
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    expect((await taskById(task.id))?.status).toBe('en_proceso');
  });

  it('a task completed offline is sent once on restore and reaches the staff board live', async () => {
    const driver = await newDriver();
    await apiCall('POST', '/timeclock/punch?clock_type=entrada', { token: driver.token, baseUrl });
    const task = await assignedTask(driver.id);
    const movesBefore = await movesOf(driver.id);
    const board = await openStaffBoard();
    const boardCard = (status: string) =>
      board.getByTestId(`column-${status}`).getByRole('article', { name: new RegExp(task.trailer_id) });
    await boardCard('en_proceso').waitFor();
    const { context, page } = await openPhone(driver);
    await page.getByTestId('active-task').getByText(task.trailer_id).waitFor();

    await cut(context);
    await completeActive(page);
    await indicatorTitle(page).getByText(O.indicator(1), { exact: true }).waitFor();
    await expect(indicatorTitle(page).textContent()).resolves.toBe('Sin conexión · 1 acción pendiente');
    // One truth: the status card says it too, not `Online` (issue 28).
    const status = page.getByTestId('driver-status');
    await status.getByText(UI_DRIVER.status.offline, { exact: true }).waitFor();
    await expect(status.getByText(UI_DRIVER.status.online, { exact: true }).count()).resolves.toBe(0);
    // Done for the driver at once; kept on the phone; the server has not heard of it.
    await page.getByText(A.noneTitle).waitFor();
    await expect(page.getByTestId('active-task').getByText(task.trailer_id).count()).resolves.toBe(0);
    await expect(queuedInDb(page)).resolves.toBe(1);
    expect((await taskById(task.id))?.status).toBe('en_proceso');
    // The one persistent sign stays in sight on a scrolled page, under the header.
    await scrollToBottom(page);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await expect(placement(page, indicator(page))).resolves.toEqual({ belowHeader: true, onScreen: true });
    await scrollToTop(page);
    await shoot(page, 'pending');
    await scrollToBottom(page);
    await shoot(page, 'pending-scrolled');

    await restore(context);
    await indicator(page).waitFor({ state: 'detached' });
    await expect(queuedInDb(page)).resolves.toBe(0);
    // The staff board, open all along, moves the card to Finalizada without a reload.
    await boardCard('finalizada').waitFor();
    await expect(boardCard('en_proceso').count()).resolves.toBe(0);

    const done = await taskById(task.id);
    expect(done?.status).toBe('finalizada');
    expect(done?.assigned_to).toBe(driver.id);
    const completions = (await timelineOf(task)).filter((e) => e.type === 'completed');
    expect(completions).toHaveLength(1);
    await expect(movesOf(driver.id)).resolves.toBe(movesBefore + 1);
    // The phone shows no task and no refusal.
    await expect(page.getByTestId('refused-action').count()).resolves.toBe(0);
    await expect(page.getByText(A.noneTitle).isVisible()).resolves.toBe(true);
  });

  it('an Entrada punched offline keeps its time and is marked offline', async () => {
    const driver = await newDriver();
    const { context, page } = await openPhone(driver);
    const prompt = page.getByTestId('clock-in-prompt');
    await prompt.getByText(A.clockInPrompt).waitFor();

    await cut(context);
    const t1 = await page.evaluate(() => Date.now());
    await button(prompt, T.entrada).click();
    const t1After = await page.evaluate(() => Date.now());
    await indicatorTitle(page).getByText(O.indicator(1), { exact: true }).waitFor();
    // The screen follows the punch at once: clocked in, the prompt gone.
    await prompt.waitFor({ state: 'detached' });
    await expect(page.getByTestId('timeclock-status').textContent()).resolves.toBe(
      TIMECLOCK_STATUS_LABELS.clocked_in,
    );
    const noPunches = await api<DailySummary[]>('GET', '/admin/timeclock/daily?last_24h=true');
    expect(noPunches.find((r) => r.user_id === driver.id)?.punches ?? []).toEqual([]);

    // Some seconds without a network: the punch must carry its own time, not the restore's.
    await new Promise((r) => setTimeout(r, 3_500));
    const restoredAt = Date.now();
    await restore(context);
    await indicator(page).waitFor({ state: 'detached' });
    await expect(queuedInDb(page)).resolves.toBe(0);

    const rows = await api<DailySummary[]>('GET', '/admin/timeclock/daily?last_24h=true');
    const punches = rows.find((r) => r.user_id === driver.id)?.punches ?? [];
    expect(punches).toHaveLength(1);
    const [punch] = punches;
    expect(punch.clock_type).toBe('entrada');
    expect(punch.offline).toBe(true);
    const at = Date.parse(punch.timestamp);
    expect(at).toBeGreaterThanOrEqual(t1 - 1500);
    expect(at).toBeLessThanOrEqual(t1After + 1500);
    expect(restoredAt - at).toBeGreaterThanOrEqual(3_000);
    // The driver's own status agrees.
    const status = await apiCall<{ status: string }>('GET', '/timeclock/status', {
      token: driver.token,
      baseUrl,
    });
    expect(status.status).toBe('clocked_in');
  });

  it('a completion refused on replay shows the server reason once, until Entendido', async () => {
    const driver = await newDriver();
    await apiCall('POST', '/timeclock/punch?clock_type=entrada', { token: driver.token, baseUrl });
    const task = await assignedTask(driver.id);
    const { context, page } = await openPhone(driver);
    await page.getByTestId('active-task').getByText(task.trailer_id).waitFor();

    await cut(context);
    await completeActive(page);
    await indicatorTitle(page).getByText(O.indicator(1), { exact: true }).waitFor();
    // The driver carries on further down the screen.
    await scrollToBottom(page);
    // Meanwhile the control room takes the task back to the pool.
    await api('PUT', `/tasks/${task.id}`, { body: { status: 'bolsa_trabajo' } });
    expect((await taskById(task.id))?.status).toBe('bolsa_trabajo');

    await restore(context);
    const refused = page.getByTestId('refused-action');
    await refused.waitFor();
    await indicator(page).waitFor({ state: 'detached' });
    await expect(refused.count()).resolves.toBe(1);
    await expect(refused.getByText(O.refusedTitle, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(refused.getByText(ERR.notYourTask, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(refused.textContent()).resolves.toContain(task.trailer_id);
    // Brought into sight, below the header, though the page was scrolled down.
    await expect(placement(page, refused)).resolves.toEqual({ belowHeader: true, onScreen: true });
    await shoot(page, 'refused');

    // Said once: a few retry periods later it is still one, and nowhere else on the page.
    await new Promise((r) => setTimeout(r, 3 * OFFLINE_RETRY_MS));
    await expect(refused.count()).resolves.toBe(1);
    await expect(page.getByText(ERR.notYourTask, { exact: true }).count()).resolves.toBe(1);
    await expect(queuedInDb(page)).resolves.toBe(0);

    await button(refused, O.dismiss).click();
    await refused.waitFor({ state: 'detached' });
    await expect(page.getByText(ERR.notYourTask).count()).resolves.toBe(0);
    await expect(indicator(page).count()).resolves.toBe(0);
    await expect(queuedInDb(page)).resolves.toBe(0);
    // The server kept the staff's decision: in the pool, never completed.
    const now = await taskById(task.id);
    expect(now?.status).toBe('bolsa_trabajo');
    expect(now?.assigned_to).toBeNull();
    expect((await timelineOf(task)).filter((e) => e.type === 'completed')).toHaveLength(0);
  });
});
