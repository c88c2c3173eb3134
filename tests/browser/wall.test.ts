// The control room's wall screen in Chromium at 1920×1080 (CONTRACT §15, issue 14): its own URL
// /pantalla (a kiosk logs in and comes back to it, a reload keeps it, Esc goes to /dashboard, a
// conductor is sent to their screen); the pool by urgency across its pages (held last, high priority
// first, oldest first), the page marks and `+N más`, fonts readable from 5 m, a long driver name whole;
// the Attention list on the wall and on the dashboard. Screenshot: /tmp/torre-screens/wall-1920.png.
// The database is shared with the other browser files: the expected order is the API's whole pool.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Priority } from '@shared/enums';
import type { Task } from '@shared/schemas';
import { UI_ATTENTION, UI_HEADER, UI_LOGIN, UI_WALL } from '@shared/labels';
import { WALL_PAGE_MS } from '@shared/constants';
import { byUrgency } from '@shared/urgency';
import { launch, openPage, screenshot, WALL } from './chromium';
import { ADMIN, adminToken, advanceClock, apiCall, createUser, loginUi, type TestAccount } from './helpers';

const LONG_NAME = 'María de los Ángeles Fernández-Villalobos de la Santísima Trinidad';
const POOL_TASKS = 60;

let browser: Browser;
let token: string;
let driver: TestAccount;
let held: Task[];
let running: Task;
beforeAll(async () => {
  browser = await launch();
  token = await adminToken();
  driver = await createUser('conductor', { name: LONG_NAME });
  await apiCall('POST', '/admin/update-user-task-types', {
    token,
    body: { user_id: driver.id, task_types: ['semiremolque', 'semiremolque_out_km0', 'swap'] },
  });
  const run = Date.now().toString(36).toUpperCase();
  const places = ['Muelle 1', 'Campa Norte, plaza 12', 'Báscula', 'Playa 7', 'Taller', 'Puerta 2'];
  const priorities: Priority[] = ['normal', 'high', 'low', 'normal', 'high', 'normal'];
  const created: Task[] = [];
  for (let i = 0; i < POOL_TASKS; i++) {
    created.push(
      await apiCall<Task>('POST', '/tasks', {
        token,
        body: {
          title: i % 3 ? 'Mover' : 'Recolocar',
          origin: places[i % places.length],
          destination: places[(i * 5 + 1) % places.length],
          trailer_id: `WAL-${run}-${i}`,
          priority: priorities[i % priorities.length],
          // Swap tasks are never auto-assigned: they stay in the pool.
          vehicle_type: 'swap',
        },
      }),
    );
    // Ages differ: each task is 30 s younger than the one before.
    await advanceClock(30_000);
  }
  // The two oldest high-priority tasks go on hold: they must come last, not first.
  held = created.filter((t) => t.priority === 'high').slice(0, 2);
  for (const t of held)
    await apiCall('PUT', `/tasks/${t.id}`, {
      token,
      body: { on_hold: true, hold_reason: 'Remolque dañado' },
    });
  running = await apiCall<Task>('POST', '/tasks', {
    token,
    body: {
      title: 'Mover',
      origin: 'Muelle 4',
      destination: 'Campa Sur',
      trailer_id: `WAL-${run}-RUN`,
      vehicle_type: 'swap',
    },
  });
  await apiCall('PUT', `/tasks/${running.id}`, {
    token,
    body: { status: 'en_proceso', assigned_to: driver.id },
  });
}, 180_000);
afterAll(async () => {
  await browser.close();
});

/** The pool as the wall must order it: every pool task the API has, by urgency. */
async function expectedPool(): Promise<string[]> {
  const all = await apiCall<Task[]>('GET', '/tasks', { token });
  return (
    all
      .filter((t) => t.status === 'bolsa_trabajo')
      // These tasks have no deadline: the order does not depend on the clock.
      .sort(byUrgency(Date.now()))
      .map((t) => t.id)
  );
}

const column = (page: Page, id: string) => page.getByTestId(`wall-column-${id}`);
/** The cards on screen (each column also lays out an unseen copy of all its cards, to measure pages). */
const shownIds = (col: Locator) =>
  col
    .getByTestId('wall-page')
    .locator('[data-testid=wall-card]')
    .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-task-id')!));

/** Font sizes of every text on the visible cards: the trailer, the places, and the smallest of the rest. */
const cardFonts = (col: Locator) =>
  col
    .getByTestId('wall-page')
    .locator('article')
    .evaluateAll((cards) =>
      cards.map((card) => {
        const size = (el: Element) => parseFloat(getComputedStyle(el).fontSize);
        let other = Infinity;
        for (const el of card.querySelectorAll('*')) {
          const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim());
          if (!ownText || el.closest('[data-wall=trailer],[data-wall=places]')) continue;
          other = Math.min(other, size(el));
        }
        return {
          trailer: size(card.querySelector('[data-wall=trailer]')!),
          places: Math.min(...[...card.querySelectorAll('[data-wall=places] *')].map(size)),
          other,
        };
      }),
    );

async function openWall(account: { email: string; password: string }) {
  const { context, page } = await openPage(browser, inject('baseUrl'), WALL);
  await loginUi(page, account);
  await page.getByText(UI_HEADER.linkOnline).waitFor();
  await page.goto('/pantalla');
  await page.getByTestId('wall-board').waitFor();
  return { context, page };
}

describe('wall screen /pantalla', () => {
  it('a kiosk opening /pantalla logs in and comes back to it; a conductor is sent to their screen', async () => {
    const { context, page } = await openPage(browser, inject('baseUrl'), WALL);
    await page.goto('/pantalla');
    await page.waitForURL('**/login');
    await page.getByLabel(UI_LOGIN.email).fill(ADMIN.email);
    await page.getByLabel(UI_LOGIN.password).fill(ADMIN.password);
    await page.getByRole('button', { name: UI_LOGIN.submitLogin, exact: true }).click();
    await page.waitForURL('**/pantalla');
    await page.getByRole('main', { name: UI_WALL.label }).waitFor();
    await context.close();

    const other = await openPage(browser, inject('baseUrl'), WALL);
    await loginUi(other.page, driver);
    await other.page.goto('/pantalla');
    await other.page.waitForURL('**/dashboard');
    await expect(other.page.getByTestId('wall-board').count()).resolves.toBe(0);
    await other.context.close();
  });

  it('pages the pool by urgency with marks and +N más, readable from 5 m, names whole; reload stays, Esc leaves', async () => {
    const { context, page } = await openWall(ADMIN);
    const expected = await expectedPool();
    expect(expected.length).toBeGreaterThanOrEqual(POOL_TASKS);
    const pool = column(page, 'bolsa_trabajo');
    // The board mounts before its first answer: wait for the count rather than read it once.
    await expect.poll(() => pool.getByTestId('wall-count').textContent()).toBe(String(expected.length));

    // Page 1 at once: the oldest high-priority task that is not held leads it.
    const mark = pool.getByTestId('wall-page-mark');
    await mark.waitFor();
    const pages = Number((await mark.textContent())!.split('/')[1]);
    expect(pages).toBeGreaterThan(1);
    await expect(mark.textContent()).resolves.toBe(UI_WALL.page(1, pages));
    const first = await shownIds(pool);
    expect(first[0]).toBe(expected[0]);
    await expect(
      pool.getByTestId('wall-page').locator(`[data-task-id="${expected[0]}"]`).isVisible(),
    ).resolves.toBe(true);
    const shot = await screenshot(page, 'wall-1920');

    // Fonts: trailer ≥ 28 px, places ≥ 22 px, everything else ≥ 18 px, on every visible card.
    for (const id of ['bolsa_trabajo', 'en_proceso', 'attention']) {
      for (const f of await cardFonts(column(page, id))) {
        expect(f.trailer).toBeGreaterThanOrEqual(28);
        expect(f.places).toBeGreaterThanOrEqual(22);
        expect(f.other).toBeGreaterThanOrEqual(18);
      }
    }
    // Nothing needs a mouse: the pages turn by themselves, and every card is within the screen.
    const outside = await page
      .getByTestId('wall-page')
      .locator('article')
      .evaluateAll(
        (cards) =>
          cards.filter((c) => {
            const r = c.getBoundingClientRect();
            return r.bottom > window.innerHeight || r.right > window.innerWidth;
          }).length,
      );
    expect(outside).toBe(0);

    // Every page in turn, every WALL_PAGE_MS: together they are the whole pool in urgency order.
    const seen: string[] = [...first];
    await expect(pool.getByTestId('wall-more').textContent()).resolves.toBe(
      UI_WALL.more(expected.length - first.length),
    );
    for (let p = 2; p <= pages; p++) {
      await page.waitForFunction(
        ([el, text]) => document.querySelector(el)?.textContent === text,
        ['[data-testid=wall-column-bolsa_trabajo] [data-testid=wall-page-mark]', UI_WALL.page(p, pages)],
        { timeout: WALL_PAGE_MS + 3_000 },
      );
      const ids = await shownIds(pool);
      await expect(pool.getByTestId('wall-more').textContent()).resolves.toBe(
        UI_WALL.more(expected.length - ids.length),
      );
      seen.push(...ids);
    }
    expect(seen).toEqual(expected);
    // Held last: the final cards are the two held ones, saying why.
    expect(seen.slice(-2)).toEqual(held.map((t) => t.id));
    await expect(
      pool.getByTestId('wall-page').getByText(UI_ATTENTION.held('Remolque dañado')).count(),
    ).resolves.toBe(2);

    // The long-named driver's card (En Proceso pages too, if other files left tasks running).
    const card = column(page, 'en_proceso')
      .getByTestId('wall-page')
      .getByRole('article', { name: new RegExp(running.trailer_id) });
    await card.waitFor({ timeout: 6 * WALL_PAGE_MS });
    const name = await card.locator('[data-wall=driver]').evaluate((el) => ({
      text: el.textContent,
      fits: el.scrollWidth <= el.clientWidth,
      cardFits: el.closest('article')!.scrollWidth <= el.closest('article')!.clientWidth,
      overflow: getComputedStyle(el).textOverflow,
      lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
    }));
    expect(name.text).toBe(LONG_NAME);
    expect(name.fits).toBe(true);
    expect(name.cardFits).toBe(true);
    expect(name.overflow).not.toBe('ellipsis');
    expect(name.lines).toBeGreaterThan(1);

    // The Attention column lists the held tasks.
    const attention = column(page, 'attention');
    await expect(attention.getByTestId('wall-count').textContent()).resolves.not.toBe('0');

    // A URL of its own: a reload stays; Esc goes to the dashboard, whose sidebar lists what needs a person.
    await page.reload();
    await page.getByTestId('wall-board').waitFor();
    expect(new URL(page.url()).pathname).toBe('/pantalla');
    await page.keyboard.press('Escape');
    await page.waitForURL('**/dashboard');
    await page.getByTestId('kanban').waitFor();
    const list = page.getByTestId('attention-list');
    await list.getByText(held[0].trailer_id, { exact: true }).waitFor();
    expect(shot).toContain('wall-1920');
    await context.close();
  }, 150_000);
});
