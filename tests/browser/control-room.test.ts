// The dashboard as a control room uses it (issue 14, CONTRACT §15): kept open at 1920×1080 for a minute
// while the yard's load changes every few seconds (tasks created, drivers clocking in and out, tasks
// completed — all through the API, as the yard would), the board never moves on the screen, and the
// workload alert card changes level at most once a minute however often the server's status flaps; a
// crisis that holds shows once it is a minute old.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DashboardStats, Task } from '@shared/schemas';
import { ALERT_HYSTERESIS_MS } from '@shared/constants';
import { UI_HEADER } from '@shared/labels';
import { launch, openPage, screenshot, WALL } from './chromium';
import { ADMIN, adminToken, apiCall, createUser, loginApi, loginUi, PASSWORD } from './helpers';

const WATCH_MS = 60_000;
const SAMPLE_MS = 200;
const STEP_MS = 3000;

let browser: Browser;
let admin: string;
beforeAll(async () => {
  browser = await launch();
  admin = await adminToken();
});
afterAll(async () => {
  await browser.close();
});

let plate = 0;
const trailer = () => `CTL-${Date.now().toString(36).toUpperCase()}-${plate++}`;
const quietly = (p: Promise<unknown>) =>
  p.then(
    () => true,
    () => false,
  );

interface Sample {
  t: number;
  top: number;
  left: number;
  level: string;
}

/** Starts sampling in the page: the kanban's box and the alert card's level every SAMPLE_MS. */
async function startSampling(page: Page): Promise<void> {
  await page.evaluate((every) => {
    const samples: Sample[] = [];
    (window as unknown as { __samples: Sample[] }).__samples = samples;
    setInterval(() => {
      const board = document.querySelector('[data-testid=kanban]')!.getBoundingClientRect();
      const card = document.querySelector<HTMLElement>('[data-testid=workload-alert]');
      samples.push({
        t: performance.now(),
        top: board.top,
        left: board.left,
        level: card?.dataset.status ?? 'hidden',
      });
    }, every);
  }, SAMPLE_MS);
}

describe('control room', () => {
  it(
    'for a minute of changing load the board never moves and the alert changes level at most once a minute',
    { timeout: WATCH_MS + ALERT_HYSTERESIS_MS + 90_000 },
    async () => {
      // Drivers of the automatic type: clocked in and idle they take pool tasks by themselves.
      const drivers = await Promise.all(
        ['Jesús Jiménez Fernández', 'María del Carmen Rodríguez', 'Ana Ruiz'].map(async (name) => {
          const account = await createUser('conductor', { name });
          return { ...account, token: await loginApi(account.email, PASSWORD) };
        }),
      );

      const { context, page } = await openPage(browser, inject('baseUrl'), WALL);
      await loginUi(page, ADMIN);
      await page.getByText(UI_HEADER.linkOnline).waitFor();
      await page.getByTestId('kanban').waitFor();
      // The board starts high on a 1920×1080 screen: nothing tall above it.
      const top = await page.getByTestId('kanban').evaluate((e) => e.getBoundingClientRect().top);
      expect(top).toBeLessThan(320);
      await page.waitForTimeout(1500);
      await startSampling(page);

      // The yard moves: every STEP_MS some new work, and drivers come, finish and go.
      const serverStatuses: string[] = [];
      const started = Date.now();
      let step = 0;
      let created = 0;
      let completed = 0;
      let punches = 0;
      while (Date.now() - started < WATCH_MS) {
        const phase = step % 4;
        for (let i = 0; i < 2; i++) {
          const ok = await quietly(
            apiCall<Task>('POST', '/tasks', {
              token: admin,
              body: {
                title: 'Mover',
                origin: `Muelle ${step}`,
                destination: 'Campa Norte',
                trailer_id: trailer(),
                vehicle_type: 'semiremolque',
                priority: i === 0 ? 'high' : 'normal',
              },
            }),
          );
          if (ok) created++;
        }
        for (const [n, d] of drivers.entries()) {
          if (phase === 0 || (phase === 2 && n === 0)) {
            if (await quietly(apiCall('POST', '/timeclock/punch?clock_type=entrada', { token: d.token })))
              punches++;
          } else if (phase === 1) {
            const active = await apiCall<Task>('GET', '/tasks/my-active', { token: d.token }).catch(
              () => null,
            );
            if (
              active &&
              (await quietly(apiCall('POST', `/tasks/${active.id}/complete`, { token: d.token })))
            )
              completed++;
          } else if (phase === 3) {
            const active = await apiCall<Task>('GET', '/tasks/my-active', { token: d.token }).catch(
              () => null,
            );
            if (active) await quietly(apiCall('POST', `/tasks/${active.id}/complete`, { token: d.token }));
            if (await quietly(apiCall('POST', '/timeclock/punch?clock_type=salida', { token: d.token })))
              punches++;
          }
        }
        const stats = await apiCall<DashboardStats>('GET', '/dashboard/stats', { token: admin });
        serverStatuses.push(stats.workload_alert.status);
        step++;
        await new Promise((r) => setTimeout(r, Math.max(0, STEP_MS - ((Date.now() - started) % STEP_MS))));
      }

      // Then a steady crisis: everyone off the clock, work waiting. The card shows it once it is a
      // minute old, in its place beside the board.
      for (const d of drivers) {
        const active = await apiCall<Task>('GET', '/tasks/my-active', { token: d.token }).catch(() => null);
        if (active) await quietly(apiCall('POST', `/tasks/${active.id}/complete`, { token: d.token }));
        await quietly(apiCall('POST', '/timeclock/punch?clock_type=salida', { token: d.token }));
      }
      await apiCall<Task>('POST', '/tasks', {
        token: admin,
        body: { title: 'Mover', origin: 'Muelle 9', destination: 'Campa Sur', trailer_id: trailer() },
      });
      const crisis = await apiCall<DashboardStats>('GET', '/dashboard/stats', { token: admin });
      expect(crisis.workload_alert.status).toBe('critical');
      await page
        .locator('[data-testid=workload-alert][data-status=critical]')
        .waitFor({ timeout: ALERT_HYSTERESIS_MS + 10_000 });
      const shownAt = await apiCall<{ epoch_ms: number }>('GET', '/server-time');
      expect(shownAt.epoch_ms - Date.parse(crisis.workload_alert.since)).toBeGreaterThanOrEqual(
        ALERT_HYSTERESIS_MS - 1000,
      );
      await page.waitForTimeout(1000);
      await screenshot(page, 'control-room-steady-alert');

      const samples = await page.evaluate(() => (window as unknown as { __samples: Sample[] }).__samples);
      await context.close();

      // The load really changed, and the server's status with it (more than once).
      expect(created).toBeGreaterThan(20);
      const flips = serverStatuses.filter((st, i) => i > 0 && st !== serverStatuses[i - 1]).length;
      expect(flips).toBeGreaterThanOrEqual(2);
      expect(completed + punches).toBeGreaterThan(5);
      expect(samples.length).toBeGreaterThan((WATCH_MS / SAMPLE_MS) * 0.8);

      // The board never moved.
      const moved = samples.filter(
        (s) => Math.abs(s.top - samples[0].top) > 0.5 || Math.abs(s.left - samples[0].left) > 0.5,
      );
      expect(moved).toEqual([]);

      // The card's level changed at most once in any minute (a sample's jitter allowed).
      const changes: number[] = [];
      for (let i = 1; i < samples.length; i++)
        if (samples[i].level !== samples[i - 1].level) changes.push(samples[i].t);
      for (let i = 1; i < changes.length; i++)
        expect(changes[i] - changes[i - 1]).toBeGreaterThanOrEqual(ALERT_HYSTERESIS_MS - 2 * SAMPLE_MS);
      expect(changes.length).toBeGreaterThanOrEqual(1);
      expect(samples.at(-1)!.level).toBe('critical');
      console.log(
        `[control-room] server statuses: ${serverStatuses.join(' ')}; card levels: ${[
          ...new Set(samples.map((s) => s.level)),
        ].join(', ')}; changes: ${changes.length}`,
      );
    },
  );
});
