// Indicadores in Chromium (CONTRACT §22, issue 30): a manager opens the view, sees today's moves counted
// (one more after a driver completes a move), picks presets and typed dates, puts another figure on the
// charts (uPlot draws them on canvas) and downloads the Excel. The database is shared with the other
// browser files, so counts are compared before and after, never taken as exact. Screenshots at the desk
// (1440×900), the wall (1920×1080) and the phone (390×844) go to /tmp/torre-screens.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { INDICATOR_LABELS, INDICATORS_EXCEL, UI_HEADER, UI_INDICATORS, UI_PERIOD } from '@shared/labels';
import type { ServerTime, Task } from '@shared/schemas';
import { addDays } from '@shared/periods';
import { DESKTOP, launch, openPage, PHONE, screenshot, WALL } from './chromium';
import { adminToken, apiCall, createUser, loginApi, loginUi, showView, type TestAccount } from './helpers';

let browser: Browser;
let admin: string;
beforeAll(async () => {
  browser = await launch();
  admin = await adminToken();
});
afterAll(async () => {
  await browser.close();
});

const tag = () => Math.random().toString(36).slice(2, 7).toUpperCase();
const serverDay = async () => (await apiCall<ServerTime>('GET', '/server-time')).madrid_time.slice(0, 10);

/** A move done now: a task of its own, handed to the driver, completed by them. */
async function move(driver: TestAccount, driverToken: string): Promise<void> {
  const task = await apiCall<Task>('POST', '/tasks', {
    token: admin,
    body: { title: 'Mover', origin: 'Muelle 1', destination: 'Campa Norte', trailer_id: `IND-${tag()}` },
  });
  await apiCall('PUT', `/tasks/${task.id}`, {
    token: admin,
    body: { status: 'en_proceso', assigned_to: driver.id },
  });
  await apiCall('POST', `/tasks/${task.id}/complete`, { token: driverToken });
}

async function open(account: TestAccount, size: { width: number; height: number }): Promise<Page> {
  const { page } = await openPage(browser, inject('baseUrl'), size);
  await loginUi(page, account);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  await showView(page, 'indicators');
  await page.getByTestId('indicator-moves_completed').waitFor();
  return page;
}

/** The tile's big number, as a count. */
const movesShown = async (page: Page) =>
  Number(
    (await page.getByTestId('indicator-moves_completed').locator('span.text-2xl').innerText()).replace(
      /\D/g,
      '',
    ),
  );

describe('Indicadores', () => {
  it('counts today’s moves, switches presets and figures, charts them and downloads the Excel', async () => {
    const driver = await createUser('conductor', { name: `Nerea Indicadora ${tag()}` });
    const driverToken = await loginApi(driver.email, driver.password);
    await move(driver, driverToken);
    const manager = await createUser('manager');
    const today = await serverDay();

    const page = await open(manager, DESKTOP);
    await page.getByRole('button', { name: 'Hoy', exact: true }).click();
    await expect.poll(() => page.getByTestId('indicator-day').count()).toBe(1);
    const before = await movesShown(page);
    expect(before).toBeGreaterThanOrEqual(1);
    // Three charts of the chosen figure, drawn.
    const charts = page.getByTestId('indicator-chart');
    await expect(charts.count()).resolves.toBe(3);
    await expect(charts.first().getAttribute('aria-label')).resolves.toBe(
      UI_INDICATORS.perDay(INDICATOR_LABELS.moves_completed),
    );
    await expect(charts.first().locator('canvas').count()).resolves.toBeGreaterThan(0);

    // One more move: asking again (another preset and back) counts it.
    await move(driver, driverToken);
    await page.getByRole('button', { name: 'Ayer', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('indicator-day').first().innerText())
      .toContain(UI_INDICATORS.day(addDays(today, -1)));
    await page.getByRole('button', { name: 'Hoy', exact: true }).click();
    await expect.poll(() => movesShown(page)).toBeGreaterThanOrEqual(before + 1);

    await page.getByRole('button', { name: '30 días', exact: true }).click();
    await expect.poll(() => page.getByTestId('indicator-day').count()).toBe(30);
    await expect(
      page.getByText(UI_INDICATORS.previous(addDays(today, -59), addDays(today, -30))).isVisible(),
    ).resolves.toBe(true);

    // Another figure on the charts.
    await page.getByTestId('indicator-move_p50_s').click();
    await expect
      .poll(() => charts.first().getAttribute('aria-label'))
      .toBe(UI_INDICATORS.perDay(INDICATOR_LABELS.move_p50_s));
    await expect(page.getByTestId('indicator-move_p50_s').getAttribute('aria-pressed')).resolves.toBe('true');
    await screenshot(page, 'indicators-1440');
    await charts.nth(1).scrollIntoViewIfNeeded();
    await screenshot(page, 'indicators-charts-1440');

    // Typed dates: a custom range of three days.
    await page.getByRole('button', { name: UI_PERIOD.custom }).click();
    await page.getByLabel(UI_PERIOD.from).fill(addDays(today, -2));
    await expect.poll(() => page.getByTestId('indicator-day').count()).toBe(3);

    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: UI_INDICATORS.exportExcel }).click(),
    ]);
    expect(file.suggestedFilename()).toBe(INDICATORS_EXCEL.fileName(addDays(today, -2), today));
    await page.context().close();
  });

  it('reads on the wall and on a phone', async () => {
    const manager = await createUser('manager');
    const wall = await open(manager, WALL);
    await screenshot(wall, 'indicators-wall');
    await wall.context().close();

    const phone = await open(manager, PHONE);
    // No sideways scroll of the page: the day table scrolls inside its card.
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(
      PHONE.width,
    );
    await screenshot(phone, 'indicators-phone');
    await phone.context().close();
  });

  it('is not offered to a gestor', async () => {
    const gestor = await createUser('gestor');
    const { page } = await openPage(browser, inject('baseUrl'), DESKTOP);
    await loginUi(page, gestor);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    await expect(
      page.getByRole('navigation').getByRole('button', { name: UI_INDICATORS.title, exact: true }).count(),
    ).resolves.toBe(0);
    await page.context().close();
  });
});
