// The dashboard as a control room uses it (issue 14, CONTRACT §15): kept open at 1920×1080 for a minute
// while the yard's load changes every few seconds (tasks created, drivers clocking in and out, tasks
// completed — all through the API, as the yard would), the board never moves on the screen, and the
// workload alert card changes level at most once a minute however often the server's status flaps; a
// crisis that holds shows once it is a minute old.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { DashboardStats, Task } from '@shared/schemas';
import { ALERT_HYSTERESIS_MS } from '@shared/constants';
import { UI_HEADER } from '@shared/labels';
import { launch, openPage, screenshot, WALL } from './chromium';
import { startAppProcess } from './global-setup';
import { ADMIN, adminToken, apiCall, createUser, loginApi, loginUi, PASSWORD } from './helpers';

const WATCH_MS = 60_000;
const SAMPLE_MS = 200;
const STEP_MS = 3000;

// A server of its own on an empty yard: the shared server holds other files' pool tasks, which would
// keep the workload status from changing with this test's load.
let browser: Browser;
let admin: string;
let server: ChildProcess;
let baseUrl: string;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-control-room-'));
  const port = 5800 + Math.floor(Math.random() * 800);
  server = await startAppProcess(port, dataDir, path.join(inject('dataDir'), 'client'));
  baseUrl = `http://127.0.0.1:${port}`;
  browser = await launch();
  admin = await adminToken(baseUrl);
});
afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const api = <T>(method: string, route: string, opts: { token?: string; body?: unknown } = {}) =>
  apiCall<T>(method, route, { ...opts, baseUrl });

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
          const account = await createUser('conductor', { name, baseUrl });
          return { ...account, token: await loginApi(account.email, PASSWORD, baseUrl) };
        }),
      );

      const { context, page } = await openPage(browser, baseUrl, WALL);
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
            api<Task>('POST', '/tasks', {
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
            if (await quietly(api('POST', '/timeclock/punch?clock_type=entrada', { token: d.token })))
              punches++;
          } else if (phase === 1) {
            const active = await api<Task>('GET', '/tasks/my-active', { token: d.token }).catch(() => null);
            if (active && (await quietly(api('POST', `/tasks/${active.id}/complete`, { token: d.token }))))
              completed++;
          } else if (phase === 3) {
            const active = await api<Task>('GET', '/tasks/my-active', { token: d.token }).catch(() => null);
            if (active) await quietly(api('POST', `/tasks/${active.id}/complete`, { token: d.token }));
            if (await quietly(api('POST', '/timeclock/punch?clock_type=salida', { token: d.token })))
              punches++;
          }
        }
        const stats = await api<DashboardStats>('GET', '/dashboard/stats', { token: admin });
        serverStatuses.push(stats.workload_alert.status);
        step++;
        await new Promise((r) => setTimeout(r, Math.max(0, STEP_MS - ((Date.now() - started) % STEP_MS))));
      }

      // Then a steady crisis: everyone off the clock, work waiting. The card shows it once it is a
      // minute old, in its place beside the board.
      for (const d of drivers) {
        const active = await api<Task>('GET', '/tasks/my-active', { token: d.token }).catch(() => null);
        if (active) await quietly(api('POST', `/tasks/${active.id}/complete`, { token: d.token }));
        await quietly(api('POST', '/timeclock/punch?clock_type=salida', { token: d.token }));
      }
      await api<Task>('POST', '/tasks', {
        token: admin,
        body: { title: 'Mover', origin: 'Muelle 9', destination: 'Campa Sur', trailer_id: trailer() },
      });
      const crisis = await api<DashboardStats>('GET', '/dashboard/stats', { token: admin });
      expect(crisis.workload_alert.status).toBe('critical');
      await page
        .locator('[data-testid=workload-alert][data-status=critical]')
        .waitFor({ timeout: ALERT_HYSTERESIS_MS + 10_000 });
      const shownAt = await api<{ epoch_ms: number }>('GET', '/server-time');
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
