// A damaged trailer's task on the board in Chromium (issue 27, CONTRACT §19 "Damage"): a gestor creates a
// task with `Carga al terminar: Vacío`; the trailer is marked damaged through the API and its pool card
// shows the hold; dragged onto En Proceso it asks `El remolque tiene daños. ¿Moverlo igualmente?` first:
// Cancelar keeps it held, accepting opens the driver picker and assigns it (the page and the API agree).
// Screenshot (/tmp/torre-screens): damage-confirm-1440.png (the question, at 1440×900).
// Every browser file shares one database: the plate and the driver carry this run's tag.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Task } from '@shared/schemas';
import {
  LOAD_STATE_LABELS,
  TOAST,
  UI_ATTENTION,
  UI_BOARD,
  UI_COMMON,
  UI_HEADER,
  VEHICLE_TYPE_OPTIONS,
} from '@shared/labels';
import { DESKTOP, launch, openPage, screenshot } from './chromium';
import {
  adminToken,
  apiCall,
  cardInColumn,
  createUser,
  deleteOpenTasksTagged,
  keyboardDrag,
  loginUi,
} from './helpers';

const RUN = Date.now().toString(36).toUpperCase();

let browser: Browser;
let token: string;
beforeAll(async () => {
  [browser, token] = await Promise.all([launch(), adminToken()]);
});
// The task this file leaves open (with its driver) leaves the shared board with the browser.
afterAll(() => Promise.all([browser.close(), deleteOpenTasksTagged(RUN)]));

const taskOf = async (plate: string): Promise<Task | undefined> =>
  (await apiCall<Task[]>('GET', '/tasks', { token })).find((t) => t.trailer_id === plate);

describe('a damaged trailer on the board', () => {
  it('its held task asks before it is moved: Cancelar keeps the hold, accepting assigns it', async () => {
    const plate = `DMG-${RUN}`;
    const driver = await createUser('conductor', { name: `Conductor Daños ${RUN}` });
    await apiCall('POST', '/admin/update-user-task-types', {
      token,
      body: { user_id: driver.id, task_types: ['swap'] },
    });
    const gestor = await createUser('gestor');
    const { context, page } = await openPage(browser, inject('baseUrl'), DESKTOP);
    await loginUi(page, gestor);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    await page.getByTestId('kanban').waitFor();

    // The gestor creates the move, the trailer to be empty once it is done.
    await page.getByRole('button', { name: UI_HEADER.newTask }).click();
    const form = page.getByRole('dialog', { name: UI_BOARD.form.createTitle });
    await form.getByLabel(UI_BOARD.form.movement).selectOption('Mover');
    await form.getByLabel(UI_BOARD.form.trailer).fill(plate);
    await form.getByLabel(UI_BOARD.form.origin).fill('Muelle 4');
    await form.getByLabel(UI_BOARD.form.destination).fill('Campa Este');
    // Swap tasks are never auto-assigned: the card stays in the pool for the test.
    await form.getByLabel(UI_BOARD.form.vehicleType).selectOption({ label: VEHICLE_TYPE_OPTIONS.swap });
    await form.getByLabel(UI_BOARD.form.loadStateAfter).selectOption({ label: LOAD_STATE_LABELS.vacio });
    await form.getByRole('button', { name: UI_BOARD.form.create }).click();
    await page.getByText(TOAST.taskCreated).waitFor();
    await form.waitFor({ state: 'detached' });
    const task = (await taskOf(plate))!;
    expect(task).toMatchObject({ status: 'bolsa_trabajo', load_state_after: 'vacio', on_hold: false });

    // Staff mark the trailer damaged: its pool task is held for it, and the card says so (pushed).
    await apiCall('POST', `/trailers/${encodeURIComponent(plate)}/damage`, {
      token,
      body: { note: 'Lona rota' },
    });
    // Held tasks come last in the pool (CONTRACT §20's order of urgency).
    const card = await cardInColumn(page, 'bolsa_trabajo', new RegExp(plate));
    await card.getByText(UI_ATTENTION.held('Remolque con daños: Lona rota')).waitFor();
    const held = (await taskOf(plate))!;
    expect(held).toMatchObject({ on_hold: true, hold_source: 'damage' });

    // Dragged onto En Proceso: the question first, no driver picker yet.
    await keyboardDrag(page, held, 'en_proceso');
    const confirm = page.getByRole('dialog', { name: UI_BOARD.heldConfirm.damageTitle });
    await confirm.getByText('El remolque tiene daños. ¿Moverlo igualmente?').waitFor();
    await expect(page.getByRole('dialog', { name: UI_BOARD.picker.title }).count()).resolves.toBe(0);
    await page.waitForTimeout(300); // the dialog's entrance animation
    console.log('screenshot:', await screenshot(page, 'damage-confirm-1440'));

    // Cancelar: nothing sent, still held in the pool.
    await confirm.getByRole('button', { name: UI_COMMON.cancel }).click();
    await confirm.waitFor({ state: 'detached' });
    await card.getByText(UI_ATTENTION.held('Remolque con daños: Lona rota')).waitFor();
    expect(await taskOf(plate)).toMatchObject({
      status: 'bolsa_trabajo',
      on_hold: true,
      hold_source: 'damage',
      version: held.version,
    });

    // Again, and accepted: the picker, then the driver has it.
    await keyboardDrag(page, held, 'en_proceso');
    await confirm.getByRole('button', { name: UI_BOARD.heldConfirm.move }).click();
    const picker = page.getByRole('dialog', { name: UI_BOARD.picker.title });
    await picker.getByRole('radio', { name: new RegExp(driver.name) }).check();
    await picker.getByRole('button', { name: UI_BOARD.picker.confirm, exact: true }).click();
    await page.getByText(TOAST.taskUpdated).waitFor();
    const moved = page.getByTestId('column-en_proceso').getByRole('article', { name: new RegExp(plate) });
    await moved.getByText(driver.name).waitFor();
    await expect(card.count()).resolves.toBe(0);
    expect(await taskOf(plate)).toMatchObject({
      status: 'en_proceso',
      assigned_to: driver.id,
      on_hold: false,
      hold_reason: null,
      hold_source: null,
      load_state_after: 'vacio',
    });
    await context.close();
  });
});
