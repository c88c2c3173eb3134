// The Portería in Chromium (issue 27, CONTRACT §19): on a gate tablet (1280×800) staff open /porteria,
// type the trailer's plate, the truck and its carrier, take the suggested place, mark one checklist item
// Mal with a note, take a photo and register the entry: the truck shows in "Camiones en el patio" and the
// trailer stands at that place, damaged. An hour later (the test clock) `Dar salida` closes the visit and
// the truck leaves the list; an admin then finds the carrier in Informes → Tiempos de espera.
// Screenshots (/tmp/torre-screens): porteria-1280.png (the form filled, with the photo), porteria-390.png
// porteria-1280-patio.png (the truck in the list) and informes-tiempos-espera.png.
// Every browser file shares one database: places, plates and the carrier here carry this run's tag.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import type { ImportLocationsResult, TrailerDetail } from '@shared/schemas';
import {
  INSPECTION_ITEM_LABELS,
  LOAD_STATE_LABELS,
  UI_GATE,
  UI_HEADER,
  UI_TRUCK_STAYS,
  VIEW_LABELS,
} from '@shared/labels';
import { DESKTOP, launch, openPage, PHONE, screenshot, TABLET } from './chromium';
import { ADMIN, adminToken, advanceClock, apiCall, createUser, loginUi, submitLogin } from './helpers';

const RUN = Date.now().toString(36).toUpperCase();

let browser: Browser;
let token: string;
beforeAll(async () => {
  browser = await launch();
  token = await adminToken();
});
afterAll(async () => {
  await browser.close();
});

/** Opens /porteria in a fresh context: the login it asks for comes back to the Portería. */
async function openGate(account: { email: string; password: string }, viewport = TABLET): Promise<Page> {
  const { page } = await openPage(browser, inject('baseUrl'), viewport);
  await page.goto('/porteria');
  await page.waitForURL('**/login');
  await submitLogin(page, account);
  await page.waitForURL('**/porteria');
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  return page;
}

describe('the Portería', () => {
  it('an entry with a damaged item and a photo puts the trailer at the suggested place; the exit closes the visit', async () => {
    // A loaded trailer goes to a campa with the most room: this one, as big as a place may be.
    const place = `PORT-${RUN}`;
    const placeName = `Campa portería ${RUN}`;
    const result = await apiCall<ImportLocationsResult>('POST', '/admin/locations/import', {
      token,
      body: { csv: `code,name,kind,zone,capacity,x,y\n${place},${placeName},campa,Portería ${RUN},500,0,0` },
    });
    expect(result.created).toBe(1);

    const trailer = `GT-${RUN}`;
    const truck = `TR-${RUN}`;
    const carrier = `Transportes ${RUN}`;
    const staff = await createUser('manager');
    const page = await openGate(staff);
    const form = page.getByRole('form', { name: UI_GATE.entryTitle });
    await form.waitFor();

    await form.getByLabel(UI_GATE.trailerPlate).fill(trailer);
    await form.getByText(UI_GATE.newTrailer).waitFor();
    await form.getByLabel(UI_GATE.truckPlate).fill(truck);
    await form.getByLabel(UI_GATE.carrier, { exact: true }).fill(carrier);
    await form
      .getByRole('group', { name: UI_GATE.loadState })
      .getByRole('button', { name: LOAD_STATE_LABELS.cargado, exact: true })
      .click();
    // The suggestions: the best is preselected; this run's campa (the most room there is) among them.
    const places = form.getByRole('radiogroup', { name: UI_GATE.placeSection });
    // The suggestions arrive after the form: polled, not read once (a loaded shared server answers late).
    await expect.poll(() => places.getByRole('radio').first().getAttribute('aria-checked')).toBe('true');
    const suggested = places.getByRole('radio').filter({ hasText: placeName });
    await suggested.click();
    await expect(suggested.getAttribute('aria-checked')).resolves.toBe('true');

    const lights = INSPECTION_ITEM_LABELS.luces;
    await form
      .getByRole('group', { name: lights })
      .getByRole('button', { name: UI_GATE.itemNotOk, exact: true })
      .click();
    await form.getByLabel(UI_GATE.itemNote(lights)).fill('Piloto trasero roto');

    const jpeg = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 60, b: 40 } },
    })
      .jpeg()
      .toBuffer();
    await form
      .locator('input[type="file"]')
      .setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await form.getByRole('img', { name: UI_GATE.photo(1) }).waitFor();
    await expect.poll(() => form.getByText(UI_GATE.photoUploading).count()).toBe(0);
    await form.getByRole('img', { name: UI_GATE.photo(1) }).scrollIntoViewIfNeeded();
    await screenshot(page, 'porteria-1280');

    await form.getByRole('button', { name: UI_GATE.submit, exact: true }).click();
    const row = page.getByTestId('open-visit').filter({ hasText: truck });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(carrier);
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'porteria-1280-patio');
    await expect(row.textContent()).resolves.toContain(UI_GATE.dropped(trailer));

    const { trailer: record, visits } = await apiCall<TrailerDetail>(
      'GET',
      `/trailers/${encodeURIComponent(trailer)}`,
      { token },
    );
    expect(record.location?.code).toBe(place);
    expect(record.in_yard).toBe(true);
    expect(record.damaged).toBe(true);
    expect(record.damage_note).toBe(`${lights} (Piloto trasero roto)`);
    expect(visits[0]?.truck_plate).toBe(truck);

    // The truck waits more than an hour before it leaves (the server's test clock).
    await advanceClock(65 * 60_000);
    await row.getByRole('button', { name: UI_GATE.exit, exact: true }).click();
    await row
      .getByRole('form', { name: UI_GATE.exitTitle(truck) })
      .getByRole('button', { name: UI_GATE.confirmExit })
      .click();
    await row.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('form', { name: UI_GATE.entryTitle }).waitFor();
    await expect(page.getByTestId('open-visit').filter({ hasText: truck }).count()).resolves.toBe(0);

    // An admin sees the carrier's wait in Informes → Tiempos de espera, and the visit among those over 1 h.
    const { page: desk } = await openPage(browser, inject('baseUrl'), DESKTOP);
    await loginUi(desk, ADMIN);
    await desk.getByRole('button', { name: VIEW_LABELS.reports }).click();
    const waits = desk.getByRole('region', { name: UI_TRUCK_STAYS.title });
    const carrierRow = waits.getByTestId('carrier-waits').filter({ hasText: carrier });
    await carrierRow.waitFor();
    const cells = await carrierRow.getByRole('cell').allTextContents();
    expect(cells[0]).toBe(carrier);
    expect(cells[1]).toBe('1');
    expect(cells[4]).toMatch(/^1 h 0[5-6] min$/);
    expect(cells[5]).toBe('1');
    await waits.getByTestId('long-wait').filter({ hasText: truck }).waitFor();
    await waits.scrollIntoViewIfNeeded();
    await screenshot(desk, 'informes-tiempos-espera');
    await desk.context().close();

    await page.setViewportSize(PHONE);
    await page.getByLabel(UI_GATE.trailerPlate).fill(`GT2-${RUN}`);
    await page.getByLabel(UI_GATE.truckPlate).fill(`TR2-${RUN}`);
    await screenshot(page, 'porteria-390');
    // Nothing wider than the phone (a squeezed grid once pushed the form sideways).
    await expect(
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).resolves.toBeLessThanOrEqual(0);
    await page.context().close();
  });
});
