// Deadlines on screen in Chromium (CONTRACT §20, issue 28): tasks created with a `Hora límite` through
// the form at 1440×900 (its selects whole), their deadline on the desktop card, and the wall's order of
// urgency (overdue first, then due within 60 minutes soonest first, then high priority, then other
// deadlines) with its colours (red overdue, amber in the last 30 minutes, none otherwise). The test clock
// makes one task overdue. Screenshots: deadlines-form-1440, deadlines-board-1440, deadlines-wall-1920,
// deadlines-wall-1440 under /tmp/torre-screens.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Task } from '@shared/schemas';
import { TOAST, UI_BOARD, UI_DEADLINE, UI_HEADER } from '@shared/labels';
import { formatTime, madridDay } from '@shared/time';
import { byUrgency } from '@shared/urgency';
import { DESKTOP, launch, openPage, screenshot, WALL } from './chromium';
import { ADMIN, adminToken, advanceClock, apiCall, deleteOpenTasksTagged, loginUi } from './helpers';

const MIN = 60_000;
const TAG = `DLN${Date.now().toString(36).toUpperCase()}`;
let browser: Browser;
let token: string;

beforeAll(async () => {
  browser = await launch();
  token = await adminToken();
}, 60_000);
afterAll(async () => {
  // The shared database: the wall's own test expects a pool without these deadlines.
  await deleteOpenTasksTagged(TAG);
  await browser.close();
});

const serverNow = async () => (await apiCall<{ epoch_ms: number }>('GET', '/server-time')).epoch_ms;

/** The picker's day and time for an instant (Madrid): Hoy or Mañana. */
const pick = (at: number, now: number) => ({
  day: madridDay(at) === madridDay(now) ? UI_DEADLINE.today : UI_DEADLINE.tomorrow,
  time: formatTime(at),
});

async function createThroughForm(page: Page, trailer: string, due: { day: string; time: string }) {
  await page.getByRole('button', { name: UI_HEADER.newTask }).click();
  const dialog = page.getByRole('dialog', { name: UI_BOARD.form.createTitle });
  await dialog.getByLabel(UI_BOARD.form.movement).selectOption('Mover');
  await dialog.getByLabel(UI_BOARD.form.origin).fill(`Muelle ${TAG}`);
  await dialog.getByLabel(UI_BOARD.form.destination).fill('Campa Norte');
  await dialog.getByLabel(UI_BOARD.form.trailer).fill(trailer);
  await dialog.getByLabel(UI_BOARD.form.vehicleType).selectOption('swap');
  await dialog.getByRole('combobox', { name: UI_DEADLINE.day }).selectOption({ label: due.day });
  await dialog.getByLabel(UI_DEADLINE.field, { exact: true }).fill(due.time);
  return dialog;
}

/** Whether every select of a dialog shows its whole chosen value (text width within the box). */
const selectsFit = (dialog: Locator) =>
  dialog.locator('select').evaluateAll((selects) =>
    selects.map((el) => {
      const s = el as HTMLSelectElement;
      const style = getComputedStyle(s);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = s.selectedOptions[0]?.textContent ?? '';
      const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { name: s.name, text, fits: ctx.measureText(text).width <= room };
    }),
  );

describe('deadlines on screen', () => {
  it('the form sets deadlines; the wall orders the pool by them and colours them', async () => {
    const t0 = await serverNow();
    const board = await openPage(browser, inject('baseUrl'), DESKTOP);
    await loginUi(board.page, ADMIN);
    await board.page.getByTestId('kanban').waitFor();

    // Through the form: due in 45 minutes (within the hour) and in 3 hours.
    const soonPlate = `${TAG}-SOON`;
    const dialog = await createThroughForm(board.page, soonPlate, pick(t0 + 45 * MIN, t0));
    // The longest vehicle type: every select shows its whole value at 1440×900.
    await dialog.getByLabel(UI_BOARD.form.vehicleType).selectOption('semiremolque_out_km0');
    await dialog.getByLabel(UI_BOARD.form.loadStateAfter).selectOption('vacio');
    await screenshot(board.page, 'deadlines-form-1440');
    for (const s of await selectsFit(dialog)) expect(s, s.name).toMatchObject({ fits: true });
    // The picker's time box is as wide as the day's (not squeezed out by it).
    const width = async (l: Locator) => (await l.boundingBox())!.width;
    expect(await width(dialog.getByLabel(UI_DEADLINE.field, { exact: true }))).toBeGreaterThanOrEqual(
      await width(dialog.getByRole('combobox', { name: UI_DEADLINE.day })),
    );
    await dialog.getByLabel(UI_BOARD.form.vehicleType).selectOption('swap');
    await dialog.getByRole('button', { name: UI_BOARD.form.create }).click();
    await board.page.getByText(TOAST.taskCreated).first().waitFor();
    await dialog.waitFor({ state: 'detached' });

    const laterPlate = `${TAG}-LATER`;
    const again = await createThroughForm(board.page, laterPlate, pick(t0 + 3 * 60 * MIN, t0));
    await again.getByRole('button', { name: UI_BOARD.form.create }).click();
    await again.waitFor({ state: 'detached' });

    const mine = async () =>
      (await apiCall<Task[]>('GET', '/tasks', { token })).filter((t) => t.trailer_id.startsWith(TAG));
    const byPlate = async (plate: string) => (await mine()).find((t) => t.trailer_id === plate)!;
    const soon = await byPlate(soonPlate);
    const later = await byPlate(laterPlate);
    // The picked Madrid minute, as a UTC instant.
    const minute = (ms: number) => Math.floor(ms / MIN) * MIN;
    expect(Date.parse(soon.due_at!)).toBe(minute(t0 + 45 * MIN));
    expect(Date.parse(later.due_at!)).toBe(minute(t0 + 3 * 60 * MIN));

    // The desktop card says it.
    const soonCard = board.page.getByRole('article', { name: new RegExp(soonPlate) });
    await expect(soonCard.getByTestId('deadline').textContent()).resolves.toMatch(/^Faltan \d+ min$/);
    await screenshot(board.page, 'deadlines-board-1440');
    await board.context.close();

    // Through the API: one due in 12 minutes, one in 3 (overdue once the clock moves), a high priority.
    const post = (plate: string, extra: Record<string, unknown>) =>
      apiCall<Task>('POST', '/tasks', {
        token,
        body: {
          title: 'Mover',
          origin: `Muelle ${TAG}`,
          destination: 'Campa Sur',
          trailer_id: plate,
          vehicle_type: 'swap',
          ...extra,
        },
      });
    const t1 = await serverNow();
    const amber = await post(`${TAG}-AMBER`, { due_at: new Date(t1 + 12 * MIN).toISOString() });
    const overdue = await post(`${TAG}-LATE`, { due_at: new Date(t1 + 3 * MIN).toISOString() });
    const high = await post(`${TAG}-HIGH`, { priority: 'high' });
    await advanceClock(5 * MIN);

    // The expected order: the API's whole pool by urgency; mine among it in this order.
    const now = await serverNow();
    const pool = (await apiCall<Task[]>('GET', '/tasks', { token }))
      .filter((t) => t.status === 'bolsa_trabajo')
      .sort(byUrgency(now))
      .map((t) => t.id);
    const order = [overdue, amber, soon, high, later].map((t) => t.id);
    expect(pool.filter((id) => order.includes(id))).toEqual(order);

    for (const [viewport, name] of [
      [WALL, 'deadlines-wall-1920'],
      [DESKTOP, 'deadlines-wall-1440'],
    ] as const) {
      const wall = await openPage(browser, inject('baseUrl'), viewport);
      await loginUi(wall.page, ADMIN);
      await wall.page.getByText(UI_HEADER.linkOnline).waitFor();
      await wall.page.goto('/pantalla');
      const column = wall.page.getByTestId('wall-column-bolsa_trabajo').getByTestId('wall-page');
      const cardOf = (t: Task) => column.locator(`[data-testid=wall-card][data-task-id="${t.id}"]`);
      await cardOf(overdue).waitFor();
      // Page 1 starts as the rule says (overdue first, then due within the hour, soonest first).
      const shown = await column
        .locator('[data-testid=wall-card]')
        .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-task-id')!));
      expect(shown).toEqual(pool.slice(0, shown.length));
      // How many fit on page 1 depends on the wall's size and the rest of the shared pool (a taller card
      // beside them, a longer count): at least the first two rows' worth of the deadline cards.
      expect(shown.length).toBeGreaterThanOrEqual(2);
      const first = [overdue.id, amber.id, soon.id];
      expect(shown.slice(0, 3)).toEqual(first.slice(0, Math.min(3, shown.length)));

      const deadline = (t: Task) => cardOf(t).getByTestId('wall-deadline');
      await expect(deadline(overdue).textContent()).resolves.toMatch(/^Retrasada \d+ min$/);
      await expect(deadline(overdue).getAttribute('data-tone')).resolves.toBe('red');
      await expect(deadline(amber).textContent()).resolves.toMatch(/^Faltan \d+ min$/);
      await expect(deadline(amber).getAttribute('data-tone')).resolves.toBe('amber');
      if (shown.includes(soon.id))
        await expect(deadline(soon).getAttribute('data-tone')).resolves.toBe('neutral');
      // Colours really painted: red and amber backgrounds.
      const bg = (l: Locator) => l.evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(await bg(deadline(overdue))).not.toBe(await bg(deadline(amber)));
      // The fresh high-priority task has no deadline and no alarm colour on its timer.
      await expect(cardOf(high).getByTestId('wall-deadline').count()).resolves.toBe(0);
      if (await cardOf(high).count())
        await expect(cardOf(high).getByTestId('wall-time').getAttribute('data-tone')).resolves.toBe(
          'neutral',
        );
      // Wall sizes: the deadline reads at 18 px or more.
      const size = await deadline(overdue).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(size).toBeGreaterThanOrEqual(18);
      await screenshot(wall.page, name);
      await wall.context.close();
    }
  });
});
