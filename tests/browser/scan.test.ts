// Proof of the move in Chromium (CONTRACT §20): a phone completes its task by scanning a place's label
// fed to the camera — Chromium's fake camera plays a .y4m made from the label's QR code (fake-camera.ts),
// the page on http://127.0.0.1 (a secure context) — once at the destination (proof scan) and once at
// another place (the question confirmed: dropped_at_location_id and the yard's position there). Also the
// A4 label sheet. Screenshots at 390×844 and A4 go to /tmp/torre-screens.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Location, Task, YardTrailer } from '@shared/schemas';
import { PROOF_TEXT, TASK_MSG, UI_DRIVER, UI_SEARCH } from '@shared/labels';
import { DESKTOP, launch, openPage, PHONE, screenshot } from './chromium';
import { writeQrY4m } from './fake-camera';
import { ADMIN, adminToken, apiCall, createUser, loginUi, showView } from './helpers';

const stamp = Date.now().toString(36).toUpperCase();
let token = '';
let dest: Location;
let other: Location;
const browsers: Browser[] = [];

async function place(code: string, name: string): Promise<Location> {
  return apiCall<Location>('POST', '/admin/locations', {
    token,
    body: { code, name, kind: 'campa', zone: `Escaneo ${stamp}`, capacity: 5, x: 0, y: 0 },
  });
}

beforeAll(async () => {
  token = await adminToken();
  dest = await place(`SC-${stamp}-D`, `Campa destino ${stamp}`);
  other = await place(`SC-${stamp}-O`, `Campa otra ${stamp}`);
});
afterAll(async () => {
  for (const b of browsers) await b.close();
});

let seq = 0;
/** A driver (Swap only: the engine leaves them alone) given a move to the destination place. */
async function driverWithTask() {
  const driver = await createUser('conductor', { name: `Conductor scan ${stamp}-${seq}` });
  await apiCall('POST', '/admin/update-user-task-types', {
    token,
    body: { user_id: driver.id, task_types: ['swap'] },
  });
  const created = await apiCall<Task>('POST', '/tasks', {
    token,
    body: {
      title: 'Mover',
      origin: 'Puerta',
      destination: dest.name,
      destination_location_id: dest.id,
      trailer_id: `SC-${stamp}-${seq++}`,
      vehicle_type: 'swap',
    },
  });
  const task = await apiCall<Task>('PUT', `/tasks/${created.id}`, {
    token,
    body: { assigned_to: driver.id },
  });
  return { driver, task };
}

/** The driver's phone in a Chromium whose camera shows the label of `code`. */
async function phoneSeeing(code: string, driver: Awaited<ReturnType<typeof createUser>>) {
  const browser = await launch([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${writeQrY4m(code)}`,
  ]);
  browsers.push(browser);
  const { page } = await openPage(browser, inject('baseUrl'), PHONE);
  await loginUi(page, driver);
  await page.getByTestId('active-task').waitFor();
  return page;
}

const finished = async (id: string): Promise<Task> => {
  const all = await apiCall<Task[]>('GET', '/tasks', { token });
  return all.find((t) => t.id === id)!;
};
const standsAt = async (trailerId: string): Promise<string | undefined> =>
  (await apiCall<YardTrailer[]>('GET', '/yard/trailers', { token })).find((t) => t.trailer_id === trailerId)
    ?.location.id;

describe('Escanear ubicación on the phone', () => {
  it('the destination’s label completes the task with proof scan', async () => {
    const { driver, task } = await driverWithTask();
    const page = await phoneSeeing(dest.code, driver);
    const button = page.getByRole('button', { name: PROOF_TEXT.scanButton, exact: true });
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await button.click();
    await page.getByRole('dialog', { name: PROOF_TEXT.scanTitle }).waitFor();
    await screenshot(page, 'scan-dialog-390');
    await page.getByText(TASK_MSG.completed).waitFor({ timeout: 15_000 });
    await page.getByText(UI_DRIVER.activeTask.noneTitle).waitFor();
    expect(await finished(task.id)).toMatchObject({
      status: 'finalizada',
      proof: 'scan',
      dropped_at_location_id: null,
    });
    expect(await standsAt(task.trailer_id)).toBe(dest.id);
  });

  it('another place’s label asks ¿Lo has dejado en …? and, confirmed, leaves the trailer there', async () => {
    const { driver, task } = await driverWithTask();
    const page = await phoneSeeing(other.code, driver);
    await page.getByRole('button', { name: PROOF_TEXT.scanButton, exact: true }).click();
    const question = page.getByRole('dialog', { name: PROOF_TEXT.otherPlace(other.name) });
    await question.waitFor({ timeout: 15_000 });
    await screenshot(page, 'scan-other-place-390');
    const confirm = question.getByRole('button', { name: PROOF_TEXT.confirmOther });
    expect((await confirm.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await confirm.click();
    await page.getByText(TASK_MSG.completed).waitFor({ timeout: 15_000 });
    expect(await finished(task.id)).toMatchObject({
      status: 'finalizada',
      proof: 'scan',
      dropped_at_location_id: other.id,
      dropped_at_location_name: other.name,
    });
    expect(await standsAt(task.trailer_id)).toBe(other.id);

    // The tower's Buscador says where it was really left.
    const desk = await openPage(browsers.at(-1)!, inject('baseUrl'), DESKTOP);
    await loginUi(desk.page, ADMIN);
    await showView(desk.page, 'searcher');
    await desk.page.getByLabel(UI_SEARCH.term).fill(task.trailer_id);
    await desk.page.getByRole('button', { name: UI_SEARCH.search }).click();
    const found = desk.page.locator(`[data-testid=search-result]`).filter({ hasText: task.trailer_id });
    await expect(found.getByTestId('dropped-at').first().innerText()).resolves.toBe(
      PROOF_TEXT.droppedAt(other.name),
    );
    await screenshot(desk.page, 'scan-dropped-at-search-1440');
    await desk.context.close();
  });
});

describe('Imprimir etiquetas', () => {
  it('an A4 sheet of labels: each active place’s name, code and QR code, no app chrome in print', async () => {
    const browser = await launch();
    browsers.push(browser);
    // A4 at 96 dpi.
    const { page } = await openPage(browser, inject('baseUrl'), { width: 794, height: 1123 });
    await loginUi(page, ADMIN);
    await page.goto('/ubicaciones/etiquetas');
    const label = page.locator(`[data-testid=place-label][data-code="${dest.code}"]`);
    await label.waitFor();
    await expect(label.innerText()).resolves.toContain(dest.name);
    expect(await label.locator('svg').count()).toBe(1);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: PROOF_TEXT.print }).isVisible()).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'labels-a4');
  });
});
