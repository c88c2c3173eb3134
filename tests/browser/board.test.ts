// The live board in Chromium (issue 5): a task created in one browser appears in another without reload,
// and a manager's figures (the pool's card, the online drivers) follow by push;
// a pool card dragged to En Proceso goes through the driver picker and stays there after a reload; a
// refused move rolls back with the server's detail; delete asks first; the gestor has no Finalizada
// column; keyboard dragging; the trailer's 409 inside the create form; screenshots of the board and the
// wall screen at 1920×1080.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Priority, TaskStatus, VehicleType } from '@shared/enums';
import type { DashboardStats, Task } from '@shared/schemas';
import { byUrgency } from '@shared/urgency';
import {
  CARD_ACTION_NAME,
  ERR,
  STATUS_LABELS,
  TOAST,
  UI_ATTENTION,
  UI_BOARD,
  UI_COMMON,
  UI_HEADER,
  VEHICLE_TYPE_OPTIONS,
} from '@shared/labels';
import { launch, openPage, PHONE, screenshot, WALL } from './chromium';
import {
  ADMIN,
  adminToken,
  apiCall,
  createUser,
  keyboardDrag,
  loginApi,
  loginUi,
  mouseDrag,
} from './helpers';

let browser: Browser;
let token: string;
beforeAll(async () => {
  browser = await launch();
  token = await adminToken();
});
afterAll(async () => {
  await browser.close();
});

let plate = 0;
/** Trailer ids unique to this run: every browser test file shares one database. */
const trailer = () => `BRD-${Date.now().toString(36).toUpperCase()}-${plate++}`;

async function createTask(
  fields: Partial<{
    title: string;
    origin: string;
    destination: string;
    priority: Priority;
    vehicle_type: VehicleType;
    description: string;
  }> = {},
): Promise<Task> {
  return apiCall<Task>('POST', '/tasks', {
    token,
    body: {
      title: 'Mover',
      origin: 'Muelle 3',
      destination: 'Campa Norte',
      trailer_id: trailer(),
      // Swap tasks are never auto-assigned, so a card stays where the test put it.
      vehicle_type: 'swap',
      ...fields,
    },
  });
}

const taskById = async (id: string): Promise<Task | undefined> =>
  (await apiCall<Task[]>('GET', '/tasks', { token })).find((t) => t.id === id);

const column = (page: Page, status: TaskStatus) => page.getByTestId(`column-${status}`);
const card = (scope: Page | Locator, task: Pick<Task, 'trailer_id'>) =>
  scope.getByRole('article', { name: new RegExp(task.trailer_id) });

async function openBoard(account: { email: string; password: string }, viewport = WALL) {
  const { context, page } = await openPage(browser, inject('baseUrl'), viewport);
  await loginUi(page, account);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  await page.getByTestId('kanban').waitFor();
  return { context, page };
}

describe('live board', () => {
  it('a task created in one browser appears in another without reload, in the pool by urgency', async () => {
    const manager = await createUser('manager');
    const a = await openBoard(ADMIN);
    const b = await openBoard(manager);
    const plateId = trailer();

    await a.page.getByRole('button', { name: UI_HEADER.newTask }).click();
    const dialog = a.page.getByRole('dialog', { name: UI_BOARD.form.createTitle });
    // SPEC §5: the movement type, origin, destination and trailer are required.
    await dialog.getByRole('button', { name: UI_BOARD.form.create }).click();
    await dialog.getByText('El tipo de movimiento es obligatorio').waitFor();
    await dialog.getByText('El origen es obligatorio').waitFor();

    await dialog.getByLabel(UI_BOARD.form.movement).selectOption('Recolocar');
    await dialog.getByLabel(UI_BOARD.form.origin).fill('Muelle 7');
    await dialog.getByLabel(UI_BOARD.form.destination).fill('Campa Sur');
    await dialog.getByLabel(UI_BOARD.form.trailer).fill(plateId.toLowerCase());
    await dialog.getByLabel(UI_BOARD.form.description).fill('Con lona azul');
    await dialog.getByLabel(UI_BOARD.form.priority).selectOption('high');
    await dialog.getByLabel(UI_BOARD.form.vehicleType).selectOption({ label: VEHICLE_TYPE_OPTIONS.swap });
    await dialog.getByRole('button', { name: UI_BOARD.form.create }).click();
    await a.page.getByText(TOAST.taskCreated).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The other browser got it over the socket: no reload happened there.
    const other = card(column(b.page, 'bolsa_trabajo'), { trailer_id: plateId });
    await other.waitFor();
    await expect(other.textContent()).resolves.toMatch(/Recolocar.*Muelle 7.*Campa Sur.*Con lona azul/);
    await expect(other.getByText('Alta').isVisible()).resolves.toBe(true);
    await expect(other.getByText('SWAP', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(other.getByText(UI_BOARD.card.unassigned).isVisible()).resolves.toBe(true);
    // CONTRACT §20: the pool column in the order of urgency (the wall's), not newest first.
    const { epoch_ms } = await apiCall<{ epoch_ms: number }>('GET', '/server-time');
    const expected = (await apiCall<Task[]>('GET', '/tasks', { token }))
      .filter((t) => t.status === 'bolsa_trabajo')
      .sort(byUrgency(epoch_ms))
      .slice(0, 5)
      .map((t) => t.trailer_id);
    const shown = await column(b.page, 'bolsa_trabajo')
      .getByRole('article')
      .evaluateAll(
        (cards, n) => cards.slice(0, n).map((c) => c.getAttribute('aria-label') ?? ''),
        expected.length,
      );
    expect(shown.map((label, i) => label.includes(expected[i]!))).toEqual(expected.map(() => true));
    await a.context.close();
    await b.context.close();
  });

  // The figures reach the page within this on a loaded box (the whole suite running beside it).
  const PUSHED = { timeout: 5000 };

  it("a manager's figures follow the yard without reload: the pool's card, the online drivers' list", async () => {
    const manager = await createUser('manager');
    const { page, context } = await openBoard(manager);
    const figures = page.getByTestId('stat-cards');
    await figures.waitFor();
    // The pool card's figure: the value under its label.
    const pool = figures
      .getByText(UI_BOARD.stats.pool, { exact: true })
      .locator('xpath=following-sibling::p[1]');
    const poolNow = async () => Number(await pool.textContent());
    // Its first figure shown (a placeholder, not a number, until the stats arrive on a loaded box).
    await expect.poll(async () => Number.isNaN(await poolNow()), PUSHED).toBe(false);
    const before = await poolNow();

    await createTask();
    // Pushed (stats:updated): the card reaches the server's own count, the new task in it.
    await expect
      .poll(async () => {
        const shown = await poolNow();
        const stats = await apiCall<DashboardStats>('GET', '/dashboard/stats', { token });
        return shown > before && shown === stats.bolsa_trabajo;
      }, PUSHED)
      .toBe(true);

    // A driver who logs in is online: pushed to the list (drivers:updated).
    const driver = await createUser('conductor');
    await loginApi(driver.email, driver.password);
    await page.getByTestId('online-drivers').getByText(driver.name, { exact: true }).waitFor();
    await screenshot(page, 'board-figures-pushed');
    await context.close();
  });

  it('shows the trailer 409 inside the create form and keeps the dialog open', async () => {
    const open = await createTask();
    const { context, page } = await openBoard(ADMIN);
    await page.getByRole('button', { name: UI_HEADER.newTask }).click();
    const dialog = page.getByRole('dialog', { name: UI_BOARD.form.createTitle });
    await dialog.getByLabel(UI_BOARD.form.movement).selectOption('Mover');
    await dialog.getByLabel(UI_BOARD.form.origin).fill('Muelle 1');
    await dialog.getByLabel(UI_BOARD.form.destination).fill('Muelle 2');
    await dialog.getByLabel(UI_BOARD.form.trailer).fill(open.trailer_id);
    await dialog.getByRole('button', { name: UI_BOARD.form.create }).click();
    await dialog.getByText(ERR.trailerBusy(open.trailer_id)).waitFor();
    await expect(dialog.getByLabel(UI_BOARD.form.trailer).getAttribute('aria-invalid')).resolves.toBe('true');
    await context.close();
  });

  it("two staff edit one task: the later save is refused inside the form, which shows the other's change", async () => {
    const task = await createTask({ origin: 'Muelle 3', destination: 'Campa Norte' });
    const { context, page } = await openBoard(ADMIN);
    await card(page, task).getByRole('button', { name: UI_BOARD.card.edit }).click();
    const dialog = page.getByRole('dialog', { name: UI_BOARD.form.editTitle });
    await dialog.getByLabel(UI_BOARD.form.origin).fill('Puerta 3');
    // Someone else saves the same task first (CONTRACT §5: the version they opened).
    await apiCall('PUT', `/tasks/${task.id}`, {
      token,
      body: { destination: 'Muelle 12', version: task.version },
    });
    await dialog.getByRole('button', { name: UI_BOARD.form.save }).click();
    await dialog.getByRole('alert').filter({ hasText: ERR.versionConflict }).waitFor();
    // Still open, now showing the task as it is: their destination, the origin to redo.
    await expect.poll(() => dialog.getByLabel(UI_BOARD.form.destination).inputValue()).toBe('Muelle 12');
    await expect(dialog.getByLabel(UI_BOARD.form.origin).inputValue()).resolves.toBe('Muelle 3');
    await dialog.getByLabel(UI_BOARD.form.origin).fill('Puerta 3');
    await dialog.getByRole('button', { name: UI_BOARD.form.save }).click();
    await dialog.waitFor({ state: 'hidden' });
    const saved = (await apiCall<Task[]>('GET', '/tasks', { token })).find((t) => t.id === task.id)!;
    expect(saved).toMatchObject({ origin: 'Puerta 3', destination: 'Muelle 12', version: task.version + 2 });
    await context.close();
  });

  it('a pool card dragged to En Proceso asks for the driver and stays there after reload', async () => {
    const driver = await createUser('conductor', { name: `Conductor Arrastre ${plate}` });
    await apiCall('POST', '/admin/update-user-task-types', {
      token,
      body: { user_id: driver.id, task_types: ['semiremolque', 'swap'] },
    });
    const task = await createTask();
    const { context, page } = await openBoard(ADMIN);

    await mouseDrag(page, card(column(page, 'bolsa_trabajo'), task), 'en_proceso');
    const picker = page.getByRole('dialog', { name: UI_BOARD.picker.title });
    await picker.waitFor();
    await picker.getByRole('radio', { name: new RegExp(driver.name) }).check();
    await picker.getByRole('button', { name: UI_BOARD.picker.confirm, exact: true }).click();
    await page.getByText(TOAST.taskUpdated).waitFor();
    const moved = card(column(page, 'en_proceso'), task);
    await moved.getByText(driver.name).waitFor();

    await page.reload();
    await card(column(page, 'en_proceso'), task).getByText(driver.name).waitFor();
    await expect(card(column(page, 'bolsa_trabajo'), task).count()).resolves.toBe(0);
    const saved = (await apiCall<Task[]>('GET', '/tasks', { token })).find((t) => t.id === task.id)!;
    expect(saved).toMatchObject({
      status: 'en_proceso',
      assigned_to: driver.id,
      assigned_to_name: driver.name,
    });
    await context.close();
  });

  it('a refused move rolls back, with the server detail as the toast', async () => {
    const driver = await createUser('conductor', { name: `Conductor Ocupado ${plate}` });
    await apiCall('POST', '/admin/update-user-task-types', {
      token,
      body: { user_id: driver.id, task_types: ['swap'] },
    });
    const task = await createTask();
    const other = await createTask();
    const { context, page } = await openBoard(ADMIN);

    await card(column(page, 'bolsa_trabajo'), task)
      .getByRole('button', { name: UI_BOARD.picker.confirm })
      .click();
    const picker = page.getByRole('dialog', { name: UI_BOARD.picker.title });
    await picker.getByRole('radio', { name: new RegExp(driver.name) }).check();
    // Meanwhile someone else gives that driver another task: the choice is no longer valid.
    await apiCall('PUT', `/tasks/${other.id}`, {
      token,
      body: { status: 'en_proceso', assigned_to: driver.id },
    });
    await picker.getByRole('button', { name: UI_BOARD.picker.confirm, exact: true }).click();

    await page.getByText(ERR.driverBusy).waitFor();
    await card(column(page, 'bolsa_trabajo'), task).waitFor();
    await expect(card(column(page, 'en_proceso'), task).count()).resolves.toBe(0);
    await context.close();
  });

  it('Retener asks a reason and marks the card; Liberar sends it back to matching (CONTRACT §15)', async () => {
    const task = await createTask();
    const { context, page } = await openBoard(ADMIN);
    const pool = column(page, 'bolsa_trabajo');
    await card(pool, task)
      .getByRole('button', { name: CARD_ACTION_NAME(UI_BOARD.card.hold, task.trailer_id), exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: UI_BOARD.holdConfirm.title });
    await dialog.getByLabel(UI_BOARD.holdConfirm.reason).fill('Remolque dañado, esperando taller');
    await dialog.getByRole('button', { name: UI_BOARD.holdConfirm.confirm, exact: true }).click();
    await card(pool, task).getByText(UI_ATTENTION.held('Remolque dañado, esperando taller')).waitFor();
    const held = await taskById(task.id);
    expect(held).toMatchObject({ on_hold: true, hold_reason: 'Remolque dañado, esperando taller' });

    await card(pool, task)
      .getByRole('button', { name: CARD_ACTION_NAME(UI_BOARD.card.release, task.trailer_id), exact: true })
      .click();
    await card(pool, task)
      .getByText(/Retenida/)
      .waitFor({ state: 'detached' });
    expect(await taskById(task.id)).toMatchObject({ on_hold: false, hold_reason: null });
    await context.close();
  });

  it("dropping a driver's En Proceso card on Finalizada asks first; Cancelar leaves it with the driver", async () => {
    const driver = await createUser('conductor', { name: `Conductor Finaliza ${plate}` });
    await apiCall('POST', '/admin/update-user-task-types', {
      token,
      body: { user_id: driver.id, task_types: ['swap'] },
    });
    const task = await createTask();
    await apiCall('PUT', `/tasks/${task.id}`, {
      token,
      body: { status: 'en_proceso', assigned_to: driver.id },
    });
    const { context, page } = await openBoard(ADMIN);
    const finish = async () => {
      await keyboardDrag(page, { id: task.id, status: 'en_proceso' }, 'finalizada');
      return page.getByRole('dialog', { name: UI_BOARD.finishConfirm.title(driver.name) });
    };
    const first = await finish();
    await first.getByRole('button', { name: UI_COMMON.cancel, exact: true }).click();
    await first.waitFor({ state: 'detached' });
    await card(column(page, 'en_proceso'), task).waitFor();
    expect(await taskById(task.id)).toMatchObject({ status: 'en_proceso', assigned_to: driver.id });

    const second = await finish();
    await second.getByRole('button', { name: UI_BOARD.finishConfirm.confirm, exact: true }).click();
    await card(column(page, 'finalizada'), task).waitFor();
    expect(await taskById(task.id)).toMatchObject({ status: 'finalizada' });
    await context.close();
  });

  it('keyboard: Space, arrow, Space moves a card (here to Finalizada, no driver needed)', async () => {
    const task = await createTask();
    const { context, page } = await openBoard(ADMIN);
    await keyboardDrag(page, task, 'finalizada');
    await card(column(page, 'finalizada'), task).waitFor();
    await page.getByText(TOAST.taskUpdated).waitFor();
    await context.close();
  });

  it('delete asks for confirmation; cancel keeps the card, confirm removes it for good', async () => {
    const task = await createTask();
    const { context, page } = await openBoard(ADMIN);
    const target = card(column(page, 'bolsa_trabajo'), task);

    await target.getByRole('button', { name: UI_BOARD.card.delete }).click();
    const confirm = page.getByRole('dialog', { name: UI_BOARD.deleteConfirm.title });
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect(target.isVisible()).resolves.toBe(true);

    await target.getByRole('button', { name: UI_BOARD.card.delete }).click();
    await confirm.getByRole('button', { name: UI_BOARD.deleteConfirm.confirm }).click();
    await page.getByText(TOAST.taskDeleted).waitFor();
    await target.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('kanban').waitFor();
    await column(page, 'bolsa_trabajo').getByRole('article').first().waitFor();
    await expect(target.count()).resolves.toBe(0);
    await context.close();
  });

  it('the gestor has no Finalizada column and no ranking (on a phone: columns stacked)', async () => {
    const gestor = await createUser('gestor');
    const { context, page } = await openBoard(gestor, PHONE);
    await column(page, 'bolsa_trabajo').waitFor();
    await column(page, 'en_proceso').waitFor();
    await expect(column(page, 'finalizada').count()).resolves.toBe(0);
    await expect(page.getByRole('heading', { name: STATUS_LABELS.finalizada }).count()).resolves.toBe(0);
    await page.getByRole('heading', { name: UI_BOARD.sidebar.queueTitle }).waitFor();
    await expect(page.getByRole('heading', { name: UI_BOARD.sidebar.rankingTitle }).count()).resolves.toBe(0);
    await column(page, 'bolsa_trabajo').scrollIntoViewIfNeeded();
    await screenshot(page, 'board-gestor-phone');
    await context.close();
  });

  it('screenshots: the admin board at 1920×1080 and the wall screen', async () => {
    const drivers = await Promise.all(
      ['Lucía Romero', 'Javier Ortega', 'Marta Gil', 'Pablo Serrano', 'Elena Vidal', 'Raúl Campos'].map(
        (name) => createUser('conductor', { name }),
      ),
    );
    for (const d of drivers)
      await apiCall('POST', '/admin/update-user-task-types', {
        token,
        body: { user_id: d.id, task_types: ['semiremolque', 'semiremolque_out_km0', 'swap'] },
      });
    const places = [
      'Muelle 1',
      'Muelle 4',
      'Campa Norte',
      'Campa Sur',
      'Playa 12',
      'Báscula',
      'Taller',
      'Puerta 2',
    ];
    const priorities: Priority[] = ['high', 'normal', 'normal', 'low'];
    const types: VehicleType[] = ['swap', 'semiremolque', 'semiremolque_out_km0'];
    const created: Task[] = [];
    for (let i = 0; i < 44; i++)
      created.push(
        await createTask({
          title: i % 3 ? 'Mover' : 'Recolocar',
          origin: places[i % places.length],
          destination: places[(i * 3 + 1) % places.length],
          priority: priorities[i % priorities.length],
          vehicle_type: types[i % types.length],
          description: i % 4 === 0 ? 'Comprobar precinto antes de mover' : undefined,
        }),
      );
    // Six in progress, eight finished.
    for (let i = 0; i < drivers.length; i++)
      await apiCall('PUT', `/tasks/${created[i].id}`, {
        token,
        body: { status: 'en_proceso', assigned_to: drivers[i].id },
      });
    for (let i = 0; i < 8; i++)
      await apiCall('PUT', `/tasks/${created[10 + i].id}`, { token, body: { status: 'finalizada' } });

    const { context, page } = await openBoard(ADMIN, WALL);
    await card(column(page, 'finalizada'), created[10]).waitFor();
    const boardShot = await screenshot(page, 'board-admin-1920');

    // «Modo pantalla» opens the wall screen at its own URL (CONTRACT §15); Esc comes back.
    await page.getByRole('button', { name: UI_BOARD.wall.enter }).click();
    await page.waitForURL('**/pantalla');
    const wall = page.getByTestId('wall-column-bolsa_trabajo');
    await wall.getByTestId('wall-card').first().waitFor();
    await expect(page.getByRole('button', { name: UI_BOARD.card.delete }).count()).resolves.toBe(0);
    const wallShot = await screenshot(page, 'board-wall-1920');

    await page.keyboard.press('Escape');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('kanban').waitFor();
    expect([boardShot, wallShot]).toHaveLength(2);
    await context.close();
  });
});
