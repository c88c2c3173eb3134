// The driver's phone in the yard (CONTRACT §16, issue 15) in Chromium at 390×844 and 360×740: the header
// fits on one line each (no `Torre de Contro…` / `LINE-/HAUL`), the clock-in prompt with its Entrada
// button is at the top before clocking in, the Swap claim is disabled with its reason (not clocked in;
// holding a task), and toasts sit at the top, one at a time, clear of `Marcar como Completada`.
// Screenshots at 390×844 go to /tmp/torre-screens.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { VehicleType } from '@shared/enums';
import type { Task } from '@shared/schemas';
import { APP_TITLE_SHORT, PUNCH_MSG, TOAST, UI_BOARD, UI_DRIVER } from '@shared/labels';
import { PHONE, screenshot } from './chromium';
import { AUTO, driverScene } from './driver-scene';
import { apiCall } from './helpers';

const A = UI_DRIVER.activeTask;
const S = UI_DRIVER.swap;
const T = UI_DRIVER.timeclock;
const SMALL_PHONE = { width: 360, height: 740 };

const scene = driverScene('PHN');

async function createTask(vehicle_type: VehicleType): Promise<Task> {
  return scene.forget(
    await apiCall<Task>('POST', '/tasks', {
      token: scene.token,
      body: {
        title: 'Mover',
        origin: 'Muelle 2',
        destination: 'Campa Este',
        trailer_id: scene.trailer(),
        priority: 'normal',
        vehicle_type,
      },
    }),
  );
}

/** A driver of AUTO and Swap on their screen at this size. */
const openDriver = async (viewport: { width: number; height: number }): Promise<Page> =>
  scene.open(await scene.driver([AUTO, 'swap']), viewport);

const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });

/** Elements sticking out of the viewport to the right, and whether the page scrolls sideways. */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    const out = [...document.querySelectorAll('body *')]
      .filter((e) => (e as HTMLElement).offsetParent !== null || e.tagName === 'svg')
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .map((e) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').trim().slice(0, 30)}"`);
    if (document.documentElement.scrollWidth > window.innerWidth) out.push('page scrolls sideways');
    return out;
  });

/** The header's title and subtitle: text shown, one line each, nothing cut off. */
const headerLines = (page: Page) =>
  page.evaluate(() => {
    const line = (e: HTMLElement) => {
      const lineHeight = parseFloat(getComputedStyle(e).lineHeight);
      return {
        text: e.innerText,
        oneLine: e.getBoundingClientRect().height < lineHeight * 1.5,
        cut: e.scrollWidth > e.clientWidth,
      };
    };
    const header = document.querySelector('header')!;
    const rect = header.getBoundingClientRect();
    return {
      title: line(header.querySelector('h1')!),
      subtitle: line(header.querySelector<HTMLElement>('[data-testid=brand] p')!),
      right: rect.right,
      height: rect.height,
    };
  });

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The toasts shown now (sonner keeps hidden ones in the DOM with data-visible=false). */
const shownToasts = (page: Page) => page.locator('[data-sonner-toast][data-visible=true]');

describe.each([
  { name: '390×844', viewport: PHONE, shots: true, taskFits: true },
  { name: '360×740', viewport: SMALL_PHONE, shots: false, taskFits: false },
])('driver phone at $name', ({ viewport, shots, taskFits }) => {
  const shoot = (page: Page, what: string) =>
    shots ? screenshot(page, `driver-phone-${what}`) : Promise.resolve('');

  it('header fits; clock-in prompt first; claims disabled with the reason; toasts at the top', async () => {
    const page = await openDriver(viewport);

    // The header: short title and subtitle, one line each, nothing cut, nothing out of the screen.
    const header = await headerLines(page);
    expect(header.title).toEqual({ text: APP_TITLE_SHORT, oneLine: true, cut: false });
    expect(header.subtitle).toEqual({ text: 'LINE-HAUL', oneLine: true, cut: false });
    expect(header.right).toBeLessThanOrEqual(viewport.width);
    expect(await overflowing(page)).toEqual([]);

    // Not clocked in: the prompt at the top with the Entrada button in it, above 'Sin Tarea Asignada'.
    const prompt = page.getByTestId('clock-in-prompt');
    await expect(prompt.getByText(A.clockInPrompt).isVisible()).resolves.toBe(true);
    const entrada = button(prompt, T.entrada);
    await expect(entrada.isEnabled()).resolves.toBe(true);
    const promptBox = (await prompt.boundingBox())!;
    const noTaskBox = (await page.getByText(A.noneTitle).boundingBox())!;
    expect(promptBox.y).toBeLessThan(noTaskBox.y);
    expect((await entrada.boundingBox())!.y + 48).toBeLessThanOrEqual(viewport.height);

    // A Swap task published now: listed, but the claim asks to clock in first.
    const swap = await createTask('swap');
    const item = page.getByTestId('swap-item').filter({ hasText: swap.trailer_id });
    await item.waitFor();
    await expect(button(item, S.selfAssign).isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('swap-blocked').textContent()).resolves.toBe(S.clockInFirst);
    await shoot(page, 'clock-in-prompt');

    // Clock in: the prompt goes; the claim is enabled while the driver holds nothing.
    await entrada.click();
    await page.getByText(PUNCH_MSG.entrada).first().waitFor();
    await prompt.waitFor({ state: 'detached' });
    await expect(button(item, S.selfAssign).isEnabled()).resolves.toBe(true);
    // The board's `Asignarme` on a pool card (the first by urgency; this run's task may sit further down
    // the pool among other runs' tasks): a 44 px touch target too (issue 28).
    const boardClaim = page
      .getByTestId('task-card')
      .getByRole('button', { name: UI_BOARD.card.selfAssign, exact: true })
      .first();
    await boardClaim.scrollIntoViewIfNeeded();
    expect((await boardClaim.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await page.evaluate(() => window.scrollTo(0, 0));

    // An automatic task reaches the driver: the toast sits at the top, alone, clear of the actions.
    const auto = await createTask(AUTO);
    const card = page.getByTestId('active-task');
    await card.getByText(auto.trailer_id).waitFor();
    await page.getByTestId('new-task-alert').waitFor();
    const complete = button(card, A.complete);
    await page.locator('[data-sonner-toast]').filter({ hasText: TOAST.newTaskAssigned }).waitFor();
    await expect(shownToasts(page).count()).resolves.toBe(1);
    const toastBox = (await shownToasts(page).first().boundingBox())!;
    expect(toastBox.y).toBeLessThan(viewport.height / 4);
    expect(overlaps(toastBox, (await complete.boundingBox())!)).toBe(false);
    // Nor the alert's own `Entendido`, right under the header.
    const acknowledge = button(page.getByTestId('new-task-alert'), UI_DRIVER.alert.acknowledge);
    expect(overlaps(toastBox, (await acknowledge.boundingBox())!)).toBe(false);
    expect(await overflowing(page)).toEqual([]);
    // One alert on the page for one new task (issue 28): the ringing bar, not also its banner.
    const banners = page.getByTestId('notification-banner').filter({ hasText: TOAST.newTaskAssigned });
    await expect(banners.count()).resolves.toBe(0);
    if (taskFits) {
      // Unscrolled, the destination and `Marcar como Completada` show under the alert.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const destination = (await card.getByText(A.destination, { exact: true }).boundingBox())!;
      const action = (await complete.boundingBox())!;
      expect(destination.y + destination.height).toBeLessThanOrEqual(viewport.height);
      expect(action.y + action.height).toBeLessThanOrEqual(viewport.height);
    }
    await shoot(page, 'new-task-alert');
    // Scoped to the alert: the push card's own dismiss button may read the same.
    await acknowledge.click();
    await page.getByTestId('new-task-alert').waitFor({ state: 'detached' });
    // `Entendido` read the notification: its banner does not come up in the alert's place.
    await page.waitForTimeout(300);
    await expect(banners.count()).resolves.toBe(0);

    // Holding a task: the Swap claim is disabled and says why.
    await expect(button(item, S.selfAssign).isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('swap-blocked').textContent()).resolves.toBe(S.holdingTask);
    await item.scrollIntoViewIfNeeded();
    await shoot(page, 'swap-holding-task');

    // With the complete button in the middle of the screen, an error toast (Salida refused while a task
    // is held; clicked without scrolling) still lands above it, one at a time.
    await complete.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -100));
    await page.evaluate((label) => {
      const salida = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === label);
      salida?.click();
    }, T.salida);
    await page.locator('[data-sonner-toast][data-type=error]').first().waitFor();
    await expect(shownToasts(page).count()).resolves.toBe(1);
    const errorBox = (await shownToasts(page).first().boundingBox())!;
    const completeBox = (await complete.boundingBox())!;
    expect(completeBox.y).toBeGreaterThan(0);
    expect(completeBox.y + completeBox.height).toBeLessThanOrEqual(viewport.height);
    expect(errorBox.y).toBeLessThan(viewport.height / 4);
    expect(overlaps(errorBox, completeBox)).toBe(false);
    await shoot(page, 'toast-over-actions');
  });
});
