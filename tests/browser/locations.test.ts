// The yard's catalogue in Chromium (CONTRACT §17): the admin opens Ubicaciones from the header, creates a
// place through the dialog, imports a CSV (a bad line is named inside the dialog, a good file adds its
// rows) and deactivates one; in the board's create form the origin and destination suggest catalogue
// places (picked ones are sent by id), free text is marked `Fuera del catálogo`, and a full destination's
// 409 lands on its field. Screenshots of the view at 1920×1080 and of the form with its suggestions.
// Every browser test file shares one database: the places and trailers here carry this run's tag.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Location, Task } from '@shared/schemas';
import {
  LOCATION_KIND_LABELS,
  TOAST,
  UI_BOARD,
  UI_HEADER,
  UI_LOCATIONS,
  UI_PLACE_INPUT,
  VIEW_LABELS,
  YARD_ERR,
  YARD_MSG,
} from '@shared/labels';
import { openPage, launch, screenshot, WALL } from './chromium';
import { ADMIN, adminToken, apiCall, deleteOpenTasksTagged, loginUi } from './helpers';

const RUN = Date.now().toString(36).toUpperCase();
const T = UI_LOCATIONS;

let browser: Browser;
let token: string;
beforeAll(async () => {
  browser = await launch();
  token = await adminToken();
});
afterAll(async () => {
  await browser.close();
  await deleteOpenTasksTagged(RUN);
});

let seq = 0;
/** A catalogue place of this run, made through the API. */
async function createPlace(name: string, capacity: number): Promise<Location> {
  seq += 1;
  return apiCall<Location>('POST', '/admin/locations', {
    token,
    body: {
      code: `API-${RUN}-${seq}`,
      name,
      kind: 'campa',
      zone: `Ensayo ${RUN}`,
      capacity,
      x: 20 + seq,
      y: 30,
    },
  });
}

async function openAsAdmin(): Promise<Page> {
  const { page } = await openPage(browser, inject('baseUrl'), WALL);
  await loginUi(page, ADMIN);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  return page;
}

/** Ubicaciones, opened from the header as the admin. */
async function openLocations(): Promise<Page> {
  const page = await openAsAdmin();
  await page
    .getByRole('navigation', { name: UI_HEADER.nav })
    .getByRole('button', { name: VIEW_LABELS.locations, exact: true })
    .click();
  await page.getByRole('heading', { name: T.title }).waitFor();
  return page;
}

const row = (page: Page, name: string) => page.getByTestId('location-row').filter({ hasText: name });

describe('Ubicaciones', () => {
  it('the admin creates a place, imports a CSV (a bad line first) and deactivates a place', async () => {
    const page = await openLocations();

    // Create through the dialog.
    const created = `Dársena Ensayo ${RUN}`;
    await page.getByRole('button', { name: T.actions.create }).click();
    const form = page.getByRole('dialog', { name: T.form.createTitle });
    await form.getByLabel(T.form.code).fill(`ens-${RUN}-1`);
    await form.getByLabel(T.form.name).fill(created);
    await form.getByRole('combobox', { name: T.form.kind }).click();
    await page.getByRole('option', { name: LOCATION_KIND_LABELS.zona_swap }).click();
    await form.getByLabel(T.form.zone).fill(`Ensayo ${RUN}`);
    await form.getByLabel(T.form.capacity).fill('2');
    await form.getByLabel(T.form.x).fill('3');
    await form.getByLabel(T.form.y).fill('4');
    await form.getByRole('button', { name: T.form.create }).click();
    await page.getByText(T.toast.created(created)).waitFor();
    await form.waitFor({ state: 'detached' });
    await expect(row(page, created).textContent()).resolves.toContain(`ENS-${RUN}-1`);
    await expect(row(page, created).textContent()).resolves.toContain(LOCATION_KIND_LABELS.zona_swap);

    // Import: a file with a bad line is refused whole, the line named inside the dialog.
    const south = `Dársena Ensayo Sur ${RUN}`;
    const east = `Dársena Ensayo Este ${RUN}`;
    const header = 'code,name,kind,zone,capacity,x,y';
    await page.getByRole('button', { name: T.actions.import }).click();
    const importer = page.getByRole('dialog', { name: T.importDialog.title });
    await importer.getByText(header).waitFor();
    await importer
      .getByLabel(T.importDialog.text)
      .fill(
        [
          header,
          `ENS-${RUN}-2,${south},campa,Ensayo ${RUN},3,5,1`,
          `ENS-${RUN}-3,${east},hangar,Ensayo ${RUN},1,6,1`,
        ].join('\n'),
      );
    await importer.getByRole('button', { name: T.importDialog.confirm }).click();
    const bad = importer.getByRole('list', { name: T.importDialog.linesTitle }).getByRole('listitem');
    await bad.first().waitFor();
    await expect(bad.allTextContents()).resolves.toEqual([expect.stringMatching(/^Línea 3: /)]);
    await expect(row(page, south).count()).resolves.toBe(0);

    // The same file fixed, chosen as a file (semicolons, as Excel writes it in Spain): both rows appear.
    const csv = [
      header.replaceAll(',', ';'),
      `ENS-${RUN}-2;${south};campa;Ensayo ${RUN};3;5;1`,
      `ENS-${RUN}-3;${east};lavadero;Ensayo ${RUN};1;6;1`,
    ].join('\r\n');
    await importer
      .getByLabel(T.importDialog.chooseFile)
      .setInputFiles({ name: 'patio.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    // A text box keeps its line ends as \n.
    await expect
      .poll(() => importer.getByLabel(T.importDialog.text).inputValue())
      .toBe(csv.replaceAll('\r\n', '\n'));
    await importer.getByRole('button', { name: T.importDialog.confirm }).click();
    await page.getByText(YARD_MSG.imported(2, 0)).waitFor();
    await importer.waitFor({ state: 'detached' });
    await row(page, south).waitFor();
    await expect(row(page, east).textContent()).resolves.toContain(LOCATION_KIND_LABELS.lavadero);

    // Deactivate one, after the confirmation.
    await row(page, east)
      .getByRole('button', { name: T.actionLabels.deactivate(east) })
      .click();
    await page
      .getByRole('dialog', { name: T.deactivateDialog.title })
      .getByRole('button', { name: T.deactivateDialog.confirm })
      .click();
    await page.getByText(YARD_MSG.deactivated).first().waitFor();
    await row(page, east).getByText(T.state.inactive).waitFor();
    await row(page, east)
      .getByRole('button', { name: T.actionLabels.reactivate(east) })
      .waitFor();

    // The filter finds this run's places, accents and case aside.
    await page.getByRole('searchbox', { name: T.filter }).fill(`darsena ensayo ${RUN.toLowerCase()}`);
    await expect(page.getByTestId('location-row').count()).resolves.toBe(1);
    await page.getByRole('searchbox', { name: T.filter }).fill('');
    console.log(`[screens] ${await screenshot(page, 'locations-view-1920')}`);
    await page.context().close();
  });
});

describe('Ubicaciones: a CSV saved by Excel in Spain', () => {
  it('imports a Windows-1252, semicolon-separated file with its accents intact (CONTRACT §23)', async () => {
    const page = await openLocations();
    const name = `Almacén Peñón – Nº ${RUN}`;
    const text = [
      'code;name;kind;zone;capacity;x;y',
      `WIN-${RUN};${name};campa;Exportación ${RUN};2;7;2`,
    ].join('\r\n');
    // What Excel's «CSV (delimitado por punto y coma)» writes: one byte a character, the en dash as 0x96.
    const bytes = Buffer.from([...text].map((c) => (c === '–' ? 0x96 : c.charCodeAt(0))));
    expect(bytes.toString('utf8')).toContain('\uFFFD'); // not UTF-8: a plain text read would mangle it
    await page.getByRole('button', { name: T.actions.import }).click();
    const importer = page.getByRole('dialog', { name: T.importDialog.title });
    await importer
      .getByLabel(T.importDialog.chooseFile)
      .setInputFiles({ name: 'ubicaciones-excel.csv', mimeType: 'text/csv', buffer: bytes });
    await expect
      .poll(() => importer.getByLabel(T.importDialog.text).inputValue())
      .toBe(text.replaceAll('\r\n', '\n'));
    await importer.getByRole('button', { name: T.importDialog.confirm }).click();
    await page.getByText(YARD_MSG.imported(1, 0)).waitFor();
    await importer.waitFor({ state: 'detached' });
    await expect(row(page, name).textContent()).resolves.toContain(`Exportación ${RUN}`);
    await page.context().close();
  });
});

describe('the create form and the catalogue', () => {
  it('suggests places (sent by id), marks free text and shows a full destination on its field', async () => {
    const south = await createPlace(`Explanada Ensayo Sur ${RUN}`, 4);
    const full = await createPlace(`Explanada Ensayo Llena ${RUN}`, 1);
    // An open task heading there takes its only slot.
    await apiCall<Task>('POST', '/tasks', {
      token,
      body: {
        title: 'Mover',
        origin: 'Puerta ensayo',
        destination: full.name,
        trailer_id: `ENS-${RUN}-A`,
        vehicle_type: 'swap',
      },
    });

    const page = await openAsAdmin();
    await page.getByTestId('kanban').waitFor();
    await page.getByRole('button', { name: UI_HEADER.newTask }).click();
    const dialog = page.getByRole('dialog', { name: UI_BOARD.form.createTitle });
    const suggestions = dialog.getByRole('listbox', { name: UI_PLACE_INPUT.suggestions });
    await dialog.getByLabel(UI_BOARD.form.movement).selectOption('Mover');
    const trailer = `ENS-${RUN}-B`;
    await dialog.getByLabel(UI_BOARD.form.trailer).fill(trailer);

    // Part of the name, no accents, lower case: the place is offered with its code and zone.
    const origin = dialog.getByLabel(UI_BOARD.form.origin);
    await origin.pressSequentially(`ensayo sur ${RUN.toLowerCase()}`);
    const option = suggestions.getByRole('option', { name: new RegExp(south.name) });
    await option.waitFor();
    await expect(option.textContent()).resolves.toContain(south.code);
    await expect(origin.getAttribute('aria-expanded')).resolves.toBe('true');
    console.log(`[screens] ${await screenshot(page, 'task-form-suggestions-1920')}`);
    await option.click();
    await expect(origin.inputValue()).resolves.toBe(south.name);
    await suggestions.waitFor({ state: 'detached' });

    // Free text is allowed, and marked.
    const destination = dialog.getByLabel(UI_BOARD.form.destination);
    await destination.fill(`Nave libre ${RUN}`);
    await dialog.getByText(UI_PLACE_INPUT.offCatalogue).waitFor();
    // Escape closes the suggestions, not the dialog.
    await destination.fill('');
    await destination.pressSequentially('llena');
    await suggestions.waitFor();
    await page.keyboard.press('Escape');
    await suggestions.waitFor({ state: 'detached' });
    await expect(dialog.isVisible()).resolves.toBe(true);

    // The full place, picked with the keyboard: its 409 is the destination's error.
    await destination.fill(`ensayo llena ${RUN.toLowerCase()}`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(destination.inputValue()).resolves.toBe(full.name);
    await expect(dialog.getByText(UI_PLACE_INPUT.offCatalogue).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: UI_BOARD.form.create }).click();
    await dialog.getByText(YARD_ERR.locationFull(full.name)).waitFor();
    await expect(destination.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(dialog.getByLabel(UI_BOARD.form.trailer).getAttribute('aria-invalid')).resolves.toBe(
      'false',
    );

    // Free text instead: created, the picked origin by its id, the destination unmapped.
    await destination.fill(`Nave libre ${RUN}`);
    await dialog.getByRole('button', { name: UI_BOARD.form.create }).click();
    await page.getByText(TOAST.taskCreated).waitFor();
    const task = (await apiCall<Task[]>('GET', '/tasks', { token })).find((t) => t.trailer_id === trailer);
    expect(task).toMatchObject({
      origin: south.name,
      origin_location_id: south.id,
      destination: `Nave libre ${RUN}`,
      destination_location_id: null,
    });
    await page.context().close();
  });
});
