// The driver's phone (issue 6) in Chromium at 390×844: clocking in and out as the server's flags allow;
// a task created by staff reaching the open page without reload with the alert (sound hook + toast);
// complete and return through their confirmations; self-assigning a Swap task; 'Asignarme' on the
// driver board; no horizontal scroll and 44 px touch targets; the web app manifest; and screenshots
// of each state (written to /tmp/torre-screens) for a human to look at.
import { describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Priority, VehicleType } from '@shared/enums';
import type { Task } from '@shared/schemas';
import { madridDay } from '@shared/time';
import { ERR, PUNCH_MSG, STATUS_LABELS, TASK_MSG, TOAST, UI_BOARD, UI_DRIVER } from '@shared/labels';
import { screenshot } from './chromium';
import { AUTO, driverScene } from './driver-scene';
import { advanceClock, apiCall, loginApi, type TestAccount } from './helpers';

const A = UI_DRIVER.activeTask;
const T = UI_DRIVER.timeclock;
const S = UI_DRIVER.swap;
const TABLET = { width: 820, height: 1180 };

const scene = driverScene('DRV');

function createTask(vehicle_type: VehicleType, priority: Priority = 'normal'): Promise<Task> {
  return apiCall<Task>('POST', '/tasks', {
    token: scene.token,
    body: {
      title: 'Mover',
      description: 'Junto a la báscula',
      origin: 'Muelle 4',
      destination: 'Campa Sur',
      trailer_id: scene.trailer(),
      priority,
      vehicle_type,
    },
  });
}

const taskById = async (id: string): Promise<Task | undefined> =>
  (await apiCall<Task[]>('GET', '/tasks', { token: scene.token })).find((t) => t.id === id);

const driver = (types: VehicleType[]) => scene.driver(types);
const openDriver = (account: TestAccount) => scene.open(account);

const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
const textOf = (locator: Locator) => locator.textContent();

/**
 * A page wider than the phone, and tappable controls under 44 px in the driver's cards and the return
 * reasons (the board's cards are the board's own business, checked in its tests).
 */
const layoutProblems = (page: Page) =>
  page.evaluate(() => {
    const describe = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.getAttribute('data-testid') ? `[${e.getAttribute('data-testid')}]` : ''} "${(e.textContent ?? '').trim().slice(0, 30)}"`;
    const visible = (e: Element) => (e as HTMLElement).offsetParent !== null;
    // The innermost elements sticking out to the right (their parents stick out because of them).
    const wide = [...document.querySelectorAll('body *')].filter(
      (e) => visible(e) && e.getBoundingClientRect().right > window.innerWidth + 1,
    );
    const overflow = wide.filter((e) => !wide.some((o) => o !== e && e.contains(o))).map(describe);
    if (document.documentElement.scrollWidth > window.innerWidth) overflow.push('page scrolls sideways');
    const small = [...document.querySelectorAll('#main section button, [role=dialog] label')]
      .filter((e) => visible(e) && !e.closest('[data-testid=kanban]'))
      .filter((e) => e.getBoundingClientRect().height < 44)
      .map((e) => `${describe(e)} ${Math.round(e.getBoundingClientRect().height)}px`);
    return { overflow, small };
  });

const madridClock = (ms: number) =>
  new Intl.DateTimeFormat('es-ES', {
    timeZone: 'Europe/Madrid',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(ms);
const secondsOfDay = (hms: string) => {
  const [h, m, sec] = hms.split(':').map(Number);
  return h * 3600 + m * 60 + sec;
};

/** Lets the toasts (4 s each) go, so a screenshot shows the screen under them. */
async function clearToasts(page: Page) {
  await page.mouse.move(1, 1); // a pointer resting on a toast pauses it
  await page.waitForFunction(() => !document.querySelector('[data-sonner-toast]'), undefined, {
    timeout: 15_000,
  });
}

async function shoot(page: Page, name: string) {
  await clearToasts(page);
  await screenshot(page, name);
}

async function punch(page: Page, name: string, message: string) {
  await button(page, name).click();
  await page.getByText(message).first().waitFor();
}

describe('driver phone', () => {
  it('clock in and out: the buttons follow the server flags, the widget shows the day', async () => {
    const account = await driver([AUTO]);
    const page = await openDriver(account);

    await page.getByText(A.noneTitle).waitFor();
    await expect(textOf(page.getByTestId('timeclock-status'))).resolves.toBe('Sin fichar');
    await expect(button(page, T.entrada).isEnabled()).resolves.toBe(true);
    await expect(button(page, T.salida).isDisabled()).resolves.toBe(true);
    await expect(textOf(page.getByTestId('last-entrada'))).resolves.toBe('N/A');
    await expect(page.getByText(T.punchesToday(0)).isVisible()).resolves.toBe(true);
    await expect(page.getByText(A.noneHint).isVisible()).resolves.toBe(true);
    expect(await layoutProblems(page)).toEqual({ overflow: [], small: [] });
    await shoot(page, 'driver-no-task');

    // The live clock shows the server's Madrid time (the test clock is ahead of this machine) and ticks.
    const { epoch_ms } = await apiCall<{ epoch_ms: number }>('GET', '/server-time');
    const shown = await textOf(page.getByTestId('timeclock-clock'));
    expect(Math.abs(secondsOfDay(shown ?? '') - secondsOfDay(madridClock(epoch_ms)))).toBeLessThanOrEqual(3);
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid=timeclock-clock]')?.textContent !== before,
      shown,
    );

    await punch(page, T.entrada, PUNCH_MSG.entrada);
    const { epoch_ms: entradaAt } = await apiCall<{ epoch_ms: number }>('GET', '/server-time');
    await expect(page.getByText(/^Registrado a las \d{2}:\d{2}:\d{2}$/).isVisible()).resolves.toBe(true);
    await page.getByTestId('worked-today').waitFor();
    await expect(textOf(page.getByTestId('timeclock-status'))).resolves.toBe('Trabajando');
    await expect(button(page, T.entrada).isDisabled()).resolves.toBe(true);
    await expect(button(page, T.salida).isEnabled()).resolves.toBe(true);
    expect(await textOf(page.getByTestId('worked-today'))).toMatch(/^\d{1,2} s$/);
    await expect(page.getByText(T.punchesToday(1)).isVisible()).resolves.toBe(true);
    expect(await textOf(page.getByTestId('last-entrada'))).toMatch(/^\d{2}:\d{2}$/);
    await page.getByTestId('punches-today').scrollIntoViewIfNeeded();
    await shoot(page, 'driver-clocked-in');

    // Worked time is server now − entrada: move the server clock 75 minutes; a reload measures the new
    // offset (a real phone's clock moves with the server's, the test clock jumps alone). Until it has, the
    // screen counts with the offset it last knew (CONTRACT §16: it opens without a server too).
    const { epoch_ms: salidaAt } = await advanceClock(75 * 60_000);
    await page.reload();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=worked-today]')?.textContent === '1 h 15 min',
    );

    await punch(page, T.salida, PUNCH_MSG.salida);
    await page.getByText('Fuera de turno').waitFor();
    await expect(button(page, T.entrada).isEnabled()).resolves.toBe(true);
    await expect(button(page, T.salida).isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('worked-today').count()).resolves.toBe(0);
    // Today's punches are the Madrid day's: run in the 75 minutes before midnight, the Entrada was yesterday.
    const punchesToday = madridDay(entradaAt) === madridDay(salidaAt) ? 2 : 1;
    await expect(page.getByText(T.punchesToday(punchesToday)).isVisible()).resolves.toBe(true);
  });

  it('a task created by staff arrives without reload with the alert; Salida is refused; complete asks first', async () => {
    const account = await driver([AUTO]);
    const page = await openDriver(account);
    await punch(page, T.entrada, PUNCH_MSG.entrada);
    await page.getByTestId('worked-today').waitFor();
    const playedBefore = await page.evaluate(() =>
      Number(document.documentElement.dataset.alertsPlayed ?? 0),
    );

    const task = await createTask(AUTO, 'high');
    const card = page.getByTestId('active-task');
    await card.waitFor();
    await expect(textOf(page.getByTestId('active-trailer'))).resolves.toBe(task.trailer_id);
    await page.getByText(TOAST.newTaskAssigned, { exact: true }).first().waitFor();
    await page.waitForFunction(
      (before) => Number(document.documentElement.dataset.alertsPlayed ?? 0) > before,
      playedBefore,
    );
    for (const text of [
      'EN PROCESO',
      'SEMI OUT KM0',
      'Alta',
      'Muelle 4',
      'Campa Sur',
      'Junto a la báscula',
      'Remolque',
    ])
      await expect(card.getByText(text, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(card.getByText(A.assignedAt).isVisible()).resolves.toBe(true);
    // While it rings, the alert is the one sign of it: its banner waits (issue 28).
    await expect(page.getByTestId('new-task-alert').getByText(task.trailer_id).isVisible()).resolves.toBe(
      true,
    );
    const banner = page.getByTestId('notification-banner').filter({ hasText: task.trailer_id });
    await expect(banner.count()).resolves.toBe(0);
    expect(await layoutProblems(page)).toEqual({ overflow: [], small: [] });
    await shoot(page, 'driver-active-task');

    // Salida is allowed by the flags but refused by the server while a task is held.
    await button(page, T.salida).click();
    await page.getByText(ERR.salidaWithTask).waitFor();
    await expect(textOf(page.getByTestId('timeclock-status'))).resolves.toBe('Trabajando');

    // Complete: nothing happens until confirmed.
    await button(card, A.complete).click();
    const dialog = page.getByRole('dialog', { name: UI_DRIVER.completeConfirm.title });
    await dialog.waitFor();
    await screenshot(page, 'driver-complete-confirm');
    await button(dialog, 'Cancelar').click();
    expect((await taskById(task.id))?.status).toBe('en_proceso');

    await button(card, A.complete).click();
    await button(dialog, UI_DRIVER.completeConfirm.confirm).click();
    await page.getByText(TASK_MSG.completed).first().waitFor();
    await page.getByText(A.noneTitle).waitFor();
    expect((await taskById(task.id))?.status).toBe('finalizada');
    // The congratulations arrives as a banner.
    await page.getByTestId('notification-banner').filter({ hasText: '¡Buen trabajo!' }).first().waitFor();

    // Return with a reason, through its confirmation.
    const second = await createTask(AUTO);
    await page.getByTestId('active-trailer').filter({ hasText: second.trailer_id }).waitFor();
    await button(card, A.returnToPool).click();
    const back = page.getByRole('dialog', { name: UI_DRIVER.returnConfirm.title });
    await back.waitFor();
    await back.getByRole('radio', { name: 'Remolque dañado' }).check();
    expect(await layoutProblems(page)).toEqual({ overflow: [], small: [] });
    await screenshot(page, 'driver-return-confirm');
    await button(back, UI_DRIVER.returnConfirm.confirm).click();
    await page.getByText(TASK_MSG.returned).first().waitFor();
    await page.getByText(A.noneTitle).waitFor();
    const returned = await taskById(second.id);
    expect(returned).toMatchObject({
      status: 'bolsa_trabajo',
      assigned_to: null,
      return_reason: 'Remolque dañado',
    });

    // Leave nothing behind for other tests: the returned task, and this driver off the clock.
    await apiCall('DELETE', `/tasks/${second.id}`, { token: scene.token });
    await punch(page, T.salida, PUNCH_MSG.salida);
  });

  it('self-assigns a Swap task published while the page is open', async () => {
    const account = await driver(['swap']);
    const page = await openDriver(account);
    // CONTRACT §16: the Swap panel asks to clock in before claiming (the claim is disabled until then).
    await punch(page, T.entrada, PUNCH_MSG.entrada);
    await page.getByTestId('swap-count').waitFor();

    const task = await createTask('swap', 'high');
    const item = page.getByTestId('swap-item').filter({ hasText: task.trailer_id });
    await item.waitFor();
    for (const text of ['SWAP', 'Alta', 'Muelle 4', 'Campa Sur', 'Junto a la báscula', 'hace menos de 1 min'])
      await expect(item.getByText(text, { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByText(S.note).isVisible()).resolves.toBe(true);
    const count = Number((await textOf(page.getByTestId('swap-count')))?.split(' ')[0]);
    expect(count).toBeGreaterThanOrEqual(1);
    await item.scrollIntoViewIfNeeded();
    expect(await layoutProblems(page)).toEqual({ overflow: [], small: [] });
    await shoot(page, 'driver-swap-list');

    await button(item, S.selfAssign).click();
    const dialog = page.getByRole('dialog', { name: S.confirmTitle });
    await dialog.waitFor();
    await button(dialog, S.confirm).click();
    await page.getByText(TASK_MSG.selfAssigned).first().waitFor();
    await expect(item.count()).resolves.toBe(0);
    await expect(textOf(page.getByTestId('swap-count'))).resolves.toBe(`${count - 1} disponibles`);
    await expect(textOf(page.getByTestId('active-trailer'))).resolves.toBe(task.trailer_id);
    await expect(
      page.getByTestId('active-task').getByText('SWAP', { exact: true }).isVisible(),
    ).resolves.toBe(true);
    expect(await taskById(task.id)).toMatchObject({ status: 'en_proceso', assigned_to: account.id });
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, 'driver-swap-claimed');

    // The same screen on a tablet: the two columns side by side, nothing sticking out.
    await page.setViewportSize(TABLET);
    const [left, right] = await Promise.all([
      page.getByTestId('active-task').boundingBox(),
      page.getByTestId('driver-status').boundingBox(),
    ]);
    expect(right!.x).toBeGreaterThan(left!.x + left!.width);
    expect((await layoutProblems(page)).overflow).toEqual([]);
    await shoot(page, 'driver-tablet');

    await apiCall('POST', `/tasks/${task.id}/complete`, {
      token: await loginApi(account.email, account.password),
    });
  });

  it("'Asignarme' on the driver board (phone tabs) makes a pool task the active task", async () => {
    // Not clocked in, so the engine leaves the AUTO task in the pool for the driver to claim.
    const account = await driver([AUTO]);
    const page = await openDriver(account);
    const task = await createTask(AUTO);

    const tabs = page.getByRole('tablist', { name: UI_BOARD.kanban.tabs });
    await tabs.waitFor();
    await expect(tabs.getByRole('tab').count()).resolves.toBe(3);
    await tabs.getByRole('tab', { name: new RegExp(STATUS_LABELS.bolsa_trabajo) }).click();
    const card = page.getByRole('article', { name: new RegExp(task.trailer_id) });
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    await shoot(page, 'driver-board-pool');
    await button(card, UI_BOARD.card.selfAssign).click();

    await page.getByText(TASK_MSG.selfAssigned).first().waitFor();
    await expect(textOf(page.getByTestId('active-trailer'))).resolves.toBe(task.trailer_id);
    expect(await taskById(task.id)).toMatchObject({ status: 'en_proceso', assigned_to: account.id });

    // On the En Proceso tab it is theirs, with 'Devolver'.
    await tabs.getByRole('tab', { name: new RegExp(STATUS_LABELS.en_proceso) }).click();
    const mine = page.getByRole('article', { name: new RegExp(task.trailer_id) });
    await expect(button(mine, UI_BOARD.card.giveBack).isVisible()).resolves.toBe(true);
    expect(await layoutProblems(page)).toMatchObject({ overflow: [] });

    await apiCall('POST', `/tasks/${task.id}/complete`, {
      token: await loginApi(account.email, account.password),
    });
    await page.getByText(A.noneTitle).waitFor();
  });

  it('is installable: the manifest names the app, is standalone and has 192/512 icons', async () => {
    const page = await scene.page();
    await page.goto('/login');
    const href = await page.locator('link[rel=manifest]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await fetch(`${inject('baseUrl')}${href}`);
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as {
      name: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Torre de Control',
      display: 'standalone',
      theme_color: '#0f172a',
    });
    for (const size of ['192x192', '512x512']) {
      const icon = manifest.icons.find((i) => i.sizes === size && i.type === 'image/png');
      expect(icon).toBeDefined();
      const res = await fetch(`${inject('baseUrl')}${icon!.src}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
    }
    const touch = await page.locator('link[rel=apple-touch-icon]').getAttribute('href');
    expect((await fetch(`${inject('baseUrl')}${touch}`)).status).toBe(200);
  });

  it('a new release reaches the phones: sw.js and the manifest are revalidated, hashed files never change', async () => {
    const base = inject('baseUrl');
    const sw = await fetch(`${base}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(await sw.text()).toContain('index.html');
    expect((await fetch(`${base}/manifest.webmanifest`)).headers.get('cache-control')).toBe('no-cache');
    const html = await (await fetch(`${base}/login`)).text();
    const entry = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const asset = await fetch(`${base}${entry}`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
