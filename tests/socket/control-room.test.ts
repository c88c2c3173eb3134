// The control room's pushes (CONTRACT §6, §9, §15): hold and release reach the boards with a new version,
// the workload alert's `since` holds across stats pushes until the status changes, staff finishing a
// driver's task sends `task_closed_by_staff` (not the congratulations), and a driver's presence reaches
// the boards as drivers:updated — never as a task push or a new version.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isNull } from 'drizzle-orm';
import type { Task } from '@shared/schemas';
import { tasks } from '../../server/db/tables';
import {
  advanceClock,
  collect,
  db,
  makePunch,
  makeTask,
  makeUser,
  nextEvent,
  now,
  liveServer,
  nextMatching,
  tx,
  type TestUser,
} from '../helpers/context';

const server = liveServer();

let admin: TestUser;

beforeAll(async () => {
  admin = await makeUser('admin');
});
afterEach(async () => {
  // Each test starts from an empty yard: what one left in the pool would move another's alert.
  await tx(() => db.update(tasks).set({ deletedAt: now() }).where(isNull(tasks.deletedAt)));
});

const connect = (user: TestUser) => server.connect(user.token);
const createTask = (body: Record<string, unknown> = {}) => server.createTask(admin, body);
const put = (id: string, body: object, who: TestUser = admin) => server.put(id, body, who);

describe('the workload alert over stats:updated', () => {
  it('keeps `since` across pushes while the status holds; a new status starts a new since', async () => {
    const sa = await connect(admin);
    // A fresh server knows no past: its first status counts from its start.
    const fresh = (await server.api().get('/api/dashboard/stats').set(admin.auth)).body.workload_alert;
    expect(fresh.status).toBe('normal');
    expect(Date.parse(fresh.since)).toBeLessThan(now().getTime());
    const first = nextMatching(
      sa,
      'stats:updated',
      (p) => p.stats.workload_alert.metrics.pending_tasks === 1,
    );
    const a = await createTask(); // nobody can take it: critical
    const critical = (await first).stats.workload_alert;
    expect(critical.status).toBe('critical');
    expect(Math.abs(Date.parse(critical.since) - now().getTime())).toBeLessThan(2000);

    await advanceClock(90_000);
    const second = nextMatching(
      sa,
      'stats:updated',
      (p) => p.stats.workload_alert.metrics.pending_tasks === 2,
    );
    const b = await createTask();
    const still = (await second).stats.workload_alert;
    expect(still.status).toBe('critical');
    expect(still.since).toBe(critical.since);

    // Holding one leaves one pending: still critical, same since. Holding both: normal, since now.
    await advanceClock(90_000);
    const oneHeld = nextMatching(
      sa,
      'stats:updated',
      (p) => p.stats.workload_alert.metrics.pending_tasks === 1,
    );
    expect((await put(a.id, { on_hold: true })).status).toBe(200);
    const stillCritical = (await oneHeld).stats;
    expect(stillCritical.workload_alert).toMatchObject({ status: 'critical', since: critical.since });
    expect(stillCritical.bolsa_trabajo).toBe(2);

    const bothHeld = nextMatching(
      sa,
      'stats:updated',
      (p) => p.stats.workload_alert.metrics.pending_tasks === 0,
    );
    expect((await put(b.id, { on_hold: true })).status).toBe(200);
    const normal = (await bothHeld).stats.workload_alert;
    expect(normal.status).toBe('normal');
    expect(Date.parse(normal.since)).toBeGreaterThanOrEqual(Date.parse(critical.since) + 180_000);
  });
});

describe('hold and release pushes', () => {
  it('staff and the drivers having its type hear the hold and the release, each with version+1', async () => {
    const gestor = await makeUser('gestor');
    const driver = await makeUser('conductor');
    const [sg, sd] = await Promise.all([gestor, driver].map(connect));
    const task = await createTask();

    const heard = [sg, sd].map((s) => nextMatching(s, 'task:updated', (p) => p.task.id === task.id));
    expect((await put(task.id, { on_hold: true, hold_reason: 'Revisar luces' }, gestor)).status).toBe(200);
    for (const p of heard)
      expect((await p).task).toMatchObject({ on_hold: true, hold_reason: 'Revisar luces', version: 2 });

    const released = [sg, sd].map((s) => nextMatching(s, 'task:updated', (p) => p.task.id === task.id));
    expect((await put(task.id, { on_hold: false }, gestor)).status).toBe(200);
    for (const p of released)
      expect((await p).task).toMatchObject({ on_hold: false, hold_reason: null, version: 3 });
  });

  it('a damaged return reaches the board held, and the free driver is not sent to it', async () => {
    const manager = await makeUser('manager');
    const holder = await makeUser('conductor');
    const free = await makeUser('conductor');
    await makePunch(holder.user.id, 'entrada');
    await makePunch(free.user.id, 'entrada');
    const [sm, sh, sf] = await Promise.all([manager, holder, free].map(connect));
    const task = await makeTask({ status: 'en_proceso', assignedTo: holder.user.id });
    const freeNotes = collect(sf, 'notification:new');

    const board = nextMatching(sm, 'task:updated', (p) => p.task.id === task.id);
    await server
      .api()
      .post(`/api/tasks/${task.id}/return`)
      .set(holder.auth)
      .send({ reason: 'Remolque dañado' })
      .expect(200);
    expect((await board).task).toMatchObject({
      status: 'bolsa_trabajo',
      on_hold: true,
      hold_reason: 'Remolque dañado',
      last_return_reason: 'Remolque dañado',
      assigned_to: null,
    });
    // Barrier: a new task goes to the free driver; anything about the held one would have come first.
    const assigned = nextMatching(sf, 'notification:new', (p) => p.notification.type === 'task_assigned');
    const fresh = await createTask();
    expect((await assigned).notification.task_id).toBe(fresh.id);
    expect(freeNotes.map((n) => n.notification.task_id)).toEqual([fresh.id]);
    void sh;
  });
});

describe('staff finishing a driver’s task', () => {
  it('the driver hears task_closed_by_staff (no sound), never the congratulations', async () => {
    const driver = await makeUser('conductor', { taskTypes: ['semiremolque', 'swap'] });
    const sd = await connect(driver);
    const notes = collect(sd, 'notification:new');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id, trailerId: 'R-CLOSE-1' });
    const got = nextEvent(sd, 'notification:new');
    expect((await put(task.id, { status: 'finalizada' })).status).toBe(200);
    expect((await got).notification).toMatchObject({
      type: 'task_closed_by_staff',
      title: 'Tarea finalizada por la torre',
      message: 'La torre ha finalizado tu tarea R-CLOSE-1',
      play_sound: false,
      task_id: task.id,
    });
    // Barrier: the driver hears of a new swap pool task (never auto-assigned) after anything the
    // finish sent.
    const created = nextEvent(sd, 'task:created');
    await createTask({ vehicle_type: 'swap' });
    await created;
    expect(notes.map((n) => n.notification.type)).toEqual(['task_closed_by_staff']);
  });
});

describe('the assignee’s presence', () => {
  it('reaches the boards as drivers:updated; the task keeps its version and is not pushed', async () => {
    const driver = await makeUser('conductor', { name: 'Presencia Prueba' });
    const sa = await connect(admin);
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const taskPushes = collect(sa, 'task:updated');
    const read = async () =>
      (await server.api().get('/api/tasks').set(admin.auth)).body.find((t: Task) => t.id === task.id) as Task;
    expect(await read()).toMatchObject({ assignee_online: false, version: 1 });

    const online = nextMatching(sa, 'drivers:updated', (p) =>
      p.online_drivers.some((d) => d.id === driver.user.id),
    );
    const sd = await connect(driver);
    await online;
    expect(await read()).toMatchObject({ assignee_online: true, assignee_offline_since: null, version: 1 });

    const offline = nextMatching(
      sa,
      'drivers:updated',
      (p) => !p.online_drivers.some((d) => d.id === driver.user.id),
    );
    sd.close();
    await offline;
    const after = await read();
    expect(after).toMatchObject({ assignee_online: false, version: 1 });
    expect(Math.abs(Date.parse(after.assignee_offline_since!) - now().getTime())).toBeLessThan(2000);

    // Barrier: a task created now reaches the admin after anything pushed before it.
    const created = nextEvent(sa, 'task:created');
    await createTask();
    await created;
    expect(taskPushes.filter((p) => p.task.id === task.id)).toEqual([]);
  });
});
