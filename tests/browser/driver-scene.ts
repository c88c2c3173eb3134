// The scene of a driver's browser test file. Every browser file shares one server, so before its tests
// the drivers of earlier files drop offline (the presence window) and their leftover pool tasks of AUTO
// go (the engine would hand them to this file's drivers); after each test, what it opened is closed,
// the tasks it asked to forget are deleted and its drivers clock out, so the next test's tasks go to the
// next test's driver.
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { VehicleType } from '@shared/enums';
import type { Task } from '@shared/schemas';
import { PRESENCE_WINDOW_MS } from '@shared/constants';
import { UI_HEADER } from '@shared/labels';
import { launch, openPage, PHONE } from './chromium';
import {
  adminToken,
  advanceClock,
  apiCall,
  createUser,
  loginApi,
  loginUi,
  type TestAccount,
} from './helpers';

/** The auto-assigned type of the driver tests: only their own drivers have it. */
export const AUTO: VehicleType = 'semiremolque_out_km0';

export function driverScene(platePrefix: string) {
  let browser: Browser | undefined;
  let token = '';
  const opened: BrowserContext[] = [];
  const drivers: TestAccount[] = [];
  const forget: string[] = [];

  beforeAll(async () => {
    browser = await launch();
    token = await adminToken();
    await advanceClock(PRESENCE_WINDOW_MS + 5_000);
    const board = await apiCall<Task[]>('GET', '/tasks', { token });
    for (const t of board.filter((t) => t.vehicle_type === AUTO && t.status === 'bolsa_trabajo'))
      await apiCall('DELETE', `/tasks/${t.id}`, { token });
  });
  afterEach(async () => {
    for (const context of opened.splice(0)) await context.close();
    for (const id of forget.splice(0))
      await apiCall('DELETE', `/tasks/${id}`, { token }).catch(() => undefined);
    for (const account of drivers.splice(0)) {
      const driverToken = await loginApi(account.email, account.password);
      await apiCall('POST', '/timeclock/punch?clock_type=salida', { token: driverToken }).catch(
        () => undefined,
      );
    }
  });
  afterAll(async () => {
    await browser?.close();
  });

  let plate = 0;
  const trailer = () => `${platePrefix}-${Date.now().toString(36).toUpperCase()}-${plate++}`;

  return {
    /** The admin's token (staff actions of the test). */
    get token() {
      return token;
    },
    get browser(): Browser {
      if (!browser) throw new Error('driverScene: the browser starts in beforeAll');
      return browser;
    },
    trailer,
    /** A task deleted after the test. */
    forget(task: Task): Task {
      forget.push(task.id);
      return task;
    },
    /** An approved conductor with these task types, clocked out after the test. */
    async driver(types: VehicleType[]): Promise<TestAccount> {
      const account = await createUser('conductor', { name: `Conductor ${trailer().slice(4, 10)}` });
      await apiCall('POST', '/admin/update-user-task-types', {
        token,
        body: { user_id: account.id, task_types: types },
      });
      drivers.push(account);
      return account;
    },
    /** A fresh page at the viewport, closed after the test. */
    async page(viewport = PHONE): Promise<Page> {
      const { context, page } = await openPage(this.browser, inject('baseUrl'), viewport);
      opened.push(context);
      return page;
    },
    /** The driver's screen, logged in and live, closed after the test. */
    async open(account: TestAccount, viewport = PHONE): Promise<Page> {
      const page = await this.page(viewport);
      await loginUi(page, account);
      await page.getByText(UI_HEADER.linkOnline).waitFor();
      await page.getByTestId('timeclock-status').waitFor();
      return page;
    },
  };
}
