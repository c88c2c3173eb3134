// Escalation in the dashboard's Attention list at 1440×900 (CONTRACT §20): a task running past its
// deadline shows `Retrasada …`, a pool task due within 20 minutes `Vence a las HH:mm` (Madrid), with the
// server's texts, and staff got the task_escalated notification. Screenshot: /tmp/torre-screens/attention-1440.png.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Notification, ServerTime, Task } from '@shared/schemas';
import { UI_ATTENTION, UI_HEADER } from '@shared/labels';
import { formatTime } from '@shared/time';
import { DESKTOP, launch, openPage, screenshot } from './chromium';
import {
  adminToken,
  advanceClock,
  apiCall,
  createUser,
  loginUi,
  loginApi,
  type TestAccount,
} from './helpers';

let browser: Browser;
let token: string;
let manager: TestAccount;
let late: Task;
let soon: Task;
let soonDue: string;
beforeAll(async () => {
  browser = await launch();
  token = await adminToken();
  manager = await createUser('manager');
  const driver = await createUser('conductor');
  await apiCall('POST', '/admin/update-user-task-types', {
    token,
    body: { user_id: driver.id, task_types: ['swap'] },
  });
  const run = Date.now().toString(36).toUpperCase();
  const serverNow = async () => (await apiCall<ServerTime>('GET', '/server-time')).epoch_ms;
  const task = (suffix: string, dueAt: number) =>
    apiCall<Task>('POST', '/tasks', {
      token,
      body: {
        title: 'Mover',
        origin: 'Muelle 2',
        destination: 'Campa Este',
        trailer_id: `ESC-${run}-${suffix}`,
        vehicle_type: 'swap',
        due_at: new Date(dueAt).toISOString(),
      },
    });
  late = await task('LATE', (await serverNow()) + 5 * 60_000);
  await apiCall('PUT', `/tasks/${late.id}`, {
    token,
    body: { status: 'en_proceso', assigned_to: driver.id },
  });
  await advanceClock(7 * 60_000);
  soonDue = new Date((await serverNow()) + 12 * 60_000).toISOString();
  soon = await task('SOON', Date.parse(soonDue));
}, 60_000);
afterAll(async () => {
  await apiCall('DELETE', `/tasks/${late.id}`, { token }).catch(() => {});
  await apiCall('DELETE', `/tasks/${soon.id}`, { token }).catch(() => {});
  await browser.close();
});

describe('escalation in the Attention list', () => {
  it('lists retraso and plazo with their texts; the manager was notified', async () => {
    const { context, page } = await openPage(browser, inject('baseUrl'), DESKTOP);
    await loginUi(page, manager);
    await page.getByText(UI_HEADER.linkOnline).waitFor();
    const list = page.getByTestId('attention-list');
    const item = (t: Task) =>
      list.getByTestId('attention-item').filter({ has: page.getByText(t.trailer_id, { exact: true }) });
    await item(late).waitFor();
    await expect(item(late).getAttribute('data-kind')).resolves.toBe('retraso');
    await expect(item(late).textContent()).resolves.toContain(UI_ATTENTION.late('2 min'));
    await expect(item(soon).getAttribute('data-kind')).resolves.toBe('plazo');
    await expect(item(soon).textContent()).resolves.toContain(UI_ATTENTION.dueSoon(formatTime(soonDue)));
    await item(soon).scrollIntoViewIfNeeded();
    await screenshot(page, 'attention-1440');

    const mine = await apiCall<Notification[]>('GET', '/notifications', {
      token: await loginApi(manager.email, manager.password),
    });
    const escalated = mine.filter((n) => n.type === 'task_escalated').map((n) => n.task_id);
    expect(escalated).toEqual(expect.arrayContaining([late.id, soon.id]));
    await context.close();
  }, 60_000);
});
