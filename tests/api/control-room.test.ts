// The control room's server rules (CONTRACT §5, §6, §15): holding and releasing pool tasks, the damaged
// return that holds a task, last_return_reason, staff finishing a driver's task, the workload alert's
// rule and `since`, and the derived presence of a task's assignee.
import { beforeEach, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { activityLog, notifications, taskEvents, tasks, users } from '../../server/db/tables';
import { runAssignment } from '../../server/tasks/assignment';
import { presence } from '../../server/services/presence';
import {
  advanceClock,
  db,
  makePunch,
  makeTask,
  makeUser,
  now,
  setupApp,
  type TestUser,
} from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});

const row = async (id: string) => (await db.select().from(tasks).where(eq(tasks.id, id)))[0]!;
const eventsOf = (id: string) =>
  db.select().from(taskEvents).where(eq(taskEvents.taskId, id)).orderBy(asc(taskEvents.id));
const notesOf = (userId: string) => db.select().from(notifications).where(eq(notifications.userId, userId));
const movements = async (id: string) =>
  (await db.select().from(users).where(eq(users.id, id)))[0]!.movementsCount;
const logsOf = (action: string) => db.select().from(activityLog).where(eq(activityLog.action, action));
const put = (id: string, body: object, who: TestUser) =>
  api().put(`/api/tasks/${id}`).set(who.auth).send(body);

/** An approved conductor who is online and clocked in, with no task: available to the engine. */
async function availableDriver(taskTypes?: ('semiremolque' | 'swap')[]): Promise<TestUser> {
  const driver = await makeUser('conductor', { online: true, taskTypes });
  await makePunch(driver.user.id, 'entrada');
  return driver;
}

describe('hold and release (CONTRACT §15)', () => {
  it('a held pool task is never auto-assigned, even with an available driver', async () => {
    const manager = await makeUser('manager');
    const task = await makeTask();
    const res = await put(task.id, { on_hold: true, hold_reason: '  Revisar frenos\u200b ' }, manager);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'bolsa_trabajo',
      on_hold: true,
      hold_reason: 'Revisar frenos',
      version: 2,
    });
    const held = (await eventsOf(task.id)).at(-1)!;
    expect(held).toMatchObject({ type: 'held', actorId: manager.user.id, reason: 'Revisar frenos' });
    expect(await logsOf('Retener tarea')).toHaveLength(1);

    const driver = await availableDriver();
    await runAssignment();
    expect(await row(task.id)).toMatchObject({ status: 'bolsa_trabajo', assignedTo: null, onHold: true });
    // A new task in the same pool is taken at once: the driver really was available.
    const other = await makeTask();
    await runAssignment();
    expect(await row(other.id)).toMatchObject({ status: 'en_proceso', assignedTo: driver.user.id });
  });

  it('a held task is not tried by the engine and is left out of the deficiency report and health', async () => {
    const admin = await makeUser('admin');
    const task = await makeTask();
    expect((await put(task.id, { on_hold: true }, admin)).status).toBe(200);
    await runAssignment();
    expect((await row(task.id)).noDriversAvailable).toBeNull();
    await advanceClock(40 * 60_000);
    const report = await api().get('/api/admin/reports/deficiencies').set(admin.auth);
    expect(report.status).toBe(200);
    expect(report.body.incidents).toEqual([]);
    const health = await api().get('/api/admin/system/health-check').set(admin.auth);
    expect(health.body.checks.auto_assignment).toMatchObject({ status: 'healthy' });

    // Released, it counts again from its release: the engine tries it, health sees it waiting. Its held
    // 40 minutes are not a deficiency; 11 minutes of waiting after the release are.
    expect((await put(task.id, { on_hold: false }, admin)).status).toBe(200);
    expect((await row(task.id)).noDriversAvailable).toBe(true);
    const after = await api().get('/api/admin/reports/deficiencies').set(admin.auth);
    expect(after.body.incidents).toEqual([]);
    await advanceClock(11 * 60_000);
    const waiting = await api().get('/api/admin/system/health-check').set(admin.auth);
    expect(waiting.body.checks.auto_assignment.status).toBe('warning');
    const later = await api().get('/api/admin/reports/deficiencies').set(admin.auth);
    expect(later.body.incidents).toMatchObject([{ task_id: task.id, delay_minutes: 11 }]);
  });

  it('releasing enters matching at once: assigned to the available driver in the same answer', async () => {
    const gestor = await makeUser('gestor');
    const task = await makeTask();
    await put(task.id, { on_hold: true, hold_reason: 'Pendiente de taller' }, gestor);
    const driver = await availableDriver();
    await runAssignment();
    expect((await row(task.id)).status).toBe('bolsa_trabajo');
    const heldVersion = (await row(task.id)).version;

    await advanceClock(60_000);
    const res = await put(task.id, { on_hold: false }, gestor);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'en_proceso',
      assigned_to: driver.user.id,
      on_hold: false,
      hold_reason: null,
    });
    expect(res.body.version).toBe(heldVersion + 2); // released, then assigned
    expect((await eventsOf(task.id)).map((e) => e.type)).toEqual(['held', 'released', 'assigned']);
    expect((await eventsOf(task.id))[1]).toMatchObject({
      actorId: gestor.user.id,
      reason: 'Pendiente de taller',
    });
    expect(await logsOf('Soltar tarea retenida')).toHaveLength(1);
    expect((await notesOf(driver.user.id)).map((n) => n.type)).toEqual(['task_assigned']);
  });

  it('holding restarts the pool clock; {hold_reason} alone changes the reason of a held task', async () => {
    const admin = await makeUser('admin');
    const task = await makeTask();
    await advanceClock(5 * 60_000);
    const held = await put(task.id, { on_hold: true }, admin);
    expect(held.body.status_since).not.toBe((await row(task.id)).createdAt.toISOString());
    expect(held.body).toMatchObject({ on_hold: true, hold_reason: null });
    const reason = await put(task.id, { hold_reason: 'Sin llaves' }, admin);
    expect(reason.body).toMatchObject({ on_hold: true, hold_reason: 'Sin llaves', version: 3 });
    expect(reason.body.status_since).toBe(held.body.status_since);
    // Holding what is already held with nothing new changes nothing.
    const again = await put(task.id, { on_hold: true }, admin);
    expect(again.body).toMatchObject({ hold_reason: 'Sin llaves', version: 3 });
    // Releasing a task that is not held changes nothing either.
    const other = await makeTask({ vehicleType: 'swap' });
    const noop = await put(other.id, { on_hold: false }, admin);
    expect(noop.status).toBe(200);
    expect(noop.body.version).toBe(1);
  });

  it('only pool tasks can be held: 409, nothing written', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor');
    const busy = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const done = await makeTask({ status: 'finalizada' });
    for (const task of [busy, done]) {
      const res = await put(task.id, { on_hold: true, hold_reason: 'x' }, admin);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'Solo se pueden retener tareas de la bolsa' });
      expect(await row(task.id)).toMatchObject({ version: 1, onHold: false, holdReason: null });
    }
    // Assigning and holding in one request cannot both hold: refused, the assignment rolled back.
    const pool = await makeTask();
    const other = await makeUser('conductor');
    const both = await put(pool.id, { assigned_to: other.user.id, on_hold: true }, admin);
    expect(both.status).toBe(409);
    expect(await row(pool.id)).toMatchObject({ status: 'bolsa_trabajo', assignedTo: null, version: 1 });
    // Moving an in-process task to the pool and holding it in one request is fine.
    const moved = await put(busy.id, { status: 'bolsa_trabajo', on_hold: true }, admin);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ status: 'bolsa_trabajo', on_hold: true, assigned_to: null });
  });

  it('refuses bad hold input with a 400 and a Spanish detail', async () => {
    const admin = await makeUser('admin');
    const task = await makeTask();
    const cases: [object, string][] = [
      [{ on_hold: 'sí' }, 'Indica si la tarea queda retenida (sí o no)'],
      [
        { on_hold: true, hold_reason: 'x'.repeat(121) },
        'El motivo de la retención admite como máximo 120 caracteres',
      ],
      [{ on_hold: true, hold_reason: 7 }, 'Motivo de retención no válido'],
      [{ on_hold: false, hold_reason: 'x' }, 'El motivo de la retención solo se indica al retener la tarea'],
    ];
    for (const [body, detail] of cases) {
      const res = await put(task.id, body, admin);
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(detail);
    }
    expect((await row(task.id)).version).toBe(1);
  });

  it('a held task is not claimable and not in swap-available; a driver may not hold', async () => {
    const admin = await makeUser('admin');
    const swapper = await makeUser('conductor', { taskTypes: ['swap'] });
    const task = await makeTask({ vehicleType: 'swap' });
    const free = await makeTask({ vehicleType: 'swap' });
    await put(task.id, { on_hold: true, hold_reason: 'Precinto roto' }, admin);

    const claim = await api().post(`/api/tasks/${task.id}/self-assign`).set(swapper.auth);
    expect(claim.status).toBe(409);
    expect(claim.body).toEqual({ detail: 'Esta tarea está retenida' });
    const drag = await put(task.id, { status: 'en_proceso' }, swapper);
    expect(drag.status).toBe(409);
    expect(drag.body).toEqual({ detail: 'Esta tarea está retenida' });
    expect(await row(task.id)).toMatchObject({ status: 'bolsa_trabajo', assignedTo: null });

    const swaps = await api().get('/api/tasks/swap-available').set(swapper.auth);
    expect(swaps.body.map((t: { id: string }) => t.id)).toEqual([free.id]);
    // Still on their board, marked as held.
    const board = await api().get('/api/tasks').set(swapper.auth);
    expect(board.body.find((t: { id: string }) => t.id === task.id)).toMatchObject({
      on_hold: true,
      hold_reason: 'Precinto roto',
    });

    for (const body of [{ on_hold: true }, { on_hold: false }, { hold_reason: 'x' }]) {
      const res = await put(free.id, body, swapper);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        detail: 'Solo puedes mover tus propias tareas o asignarte tareas disponibles',
      });
    }
    expect(await row(free.id)).toMatchObject({ onHold: false, version: 1 });
  });

  it('staff assigning a held task by hand release it', async () => {
    const manager = await makeUser('manager');
    const driver = await makeUser('conductor');
    const task = await makeTask();
    await put(task.id, { on_hold: true, hold_reason: 'Revisar' }, manager);
    const res = await put(task.id, { assigned_to: driver.user.id }, manager);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'en_proceso',
      assigned_to: driver.user.id,
      on_hold: false,
      hold_reason: null,
    });
    expect((await eventsOf(task.id)).map((e) => e.type)).toEqual(['held', 'released', 'assigned']);
  });
});

describe('driver returns and last_return_reason', () => {
  it('a damaged return holds the task with its reason: not reassigned, even after the cooldown', async () => {
    const manager = await makeUser('manager');
    const driver = await availableDriver();
    const other = await availableDriver();
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const res = await api()
      .post(`/api/tasks/${task.id}/return`)
      .set(driver.auth)
      .send({ reason: 'Remolque dañado' });
    expect(res.status).toBe(200);
    expect(await row(task.id)).toMatchObject({
      status: 'bolsa_trabajo',
      assignedTo: null,
      onHold: true,
      holdReason: 'Remolque dañado',
      returnReason: 'Remolque dañado',
      lastReturnReason: 'Remolque dañado',
      version: 2,
    });
    expect((await eventsOf(task.id)).map((e) => [e.type, e.actorId, e.reason])).toEqual([
      ['returned', driver.user.id, 'Remolque dañado'],
      ['held', driver.user.id, 'Remolque dañado'],
    ]);
    await advanceClock(31 * 60_000); // runs a round: the 30-minute rule would allow even the same driver now
    expect(await row(task.id)).toMatchObject({ status: 'bolsa_trabajo', onHold: true });
    expect(await notesOf(other.user.id)).toEqual([]);

    // Staff review: assign it by hand, then move it back to the pool: the last reason stays.
    const assigned = await put(task.id, { assigned_to: other.user.id }, manager);
    expect(assigned.body).toMatchObject({
      on_hold: false,
      return_reason: null,
      last_return_reason: 'Remolque dañado',
    });
    const pooled = await put(task.id, { status: 'bolsa_trabajo', on_hold: true }, manager);
    expect(pooled.body).toMatchObject({ return_reason: null, last_return_reason: 'Remolque dañado' });
    const again = await put(task.id, { assigned_to: other.user.id }, manager);
    expect(again.body.last_return_reason).toBe('Remolque dañado');
    // Completed: forgotten.
    await api().post(`/api/tasks/${task.id}/complete`).set(other.auth).expect(200);
    expect(await row(task.id)).toMatchObject({ status: 'finalizada', lastReturnReason: null, onHold: false });
  });

  it('other returns are not held; each return sets last_return_reason, null without a reason', async () => {
    const driver = await availableDriver();
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    await api()
      .post(`/api/tasks/${task.id}/return`)
      .set(driver.auth)
      .send({ reason: 'Remolque no encontrado' })
      .expect(200);
    expect(await row(task.id)).toMatchObject({ onHold: false, lastReturnReason: 'Remolque no encontrado' });
    const second = await availableDriver();
    await runAssignment(); // the first driver is cooling down: it goes to the second
    expect(await row(task.id)).toMatchObject({
      status: 'en_proceso',
      assignedTo: second.user.id,
      returnReason: null,
      lastReturnReason: 'Remolque no encontrado',
    });
    const mine = await api().get('/api/tasks/my-active').set(second.auth);
    expect(mine.body.last_return_reason).toBe('Remolque no encontrado');
    await api().post(`/api/tasks/${task.id}/return`).set(second.auth).send({}).expect(200);
    expect(await row(task.id)).toMatchObject({ lastReturnReason: null, returnReason: null });
  });
});

describe('staff finishing a driver’s task', () => {
  it('credits the driver and tells them the tower closed it, without congratulations', async () => {
    const gestor = await makeUser('gestor');
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id, trailerId: 'R-7788-XY' });
    const res = await put(task.id, { status: 'finalizada' }, gestor);
    expect(res.status).toBe(200);
    expect(await movements(driver.user.id)).toBe(1);
    expect(await notesOf(driver.user.id)).toEqual([
      expect.objectContaining({
        type: 'task_closed_by_staff',
        title: 'Tarea finalizada por la torre',
        message: 'La torre ha finalizado tu tarea R-7788-XY',
        playSound: false,
        taskId: task.id,
      }),
    ]);
    const list = await api().get('/api/notifications').set(driver.auth);
    expect(list.body.map((n: { type: string }) => n.type)).toEqual(['task_closed_by_staff']);
  });

  it('the driver’s own completion still congratulates', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    await api().post(`/api/tasks/${task.id}/complete`).set(driver.auth).expect(200);
    expect((await notesOf(driver.user.id)).map((n) => n.type)).toEqual(['congratulations']);
  });
});

describe('the workload alert (CONTRACT §6)', () => {
  const stats = async (who: TestUser) => (await api().get('/api/dashboard/stats').set(who.auth)).body;

  it('every driver busy with nothing waiting is normal', async () => {
    const admin = await makeUser('admin');
    for (let i = 0; i < 3; i++) {
      const d = await availableDriver();
      await makeTask({ status: 'en_proceso', assignedTo: d.user.id });
    }
    const body = await stats(admin);
    expect(body.workload_alert).toMatchObject({
      status: 'normal',
      severity: 0,
      metrics: { pending_tasks: 0, available_drivers: 0, busy_drivers: 3, driver_utilization: 100 },
    });
  });

  it('busy drivers and a waiting pool is a warning when utilization ≥ 80', async () => {
    const admin = await makeUser('admin');
    for (let i = 0; i < 4; i++) {
      const d = await availableDriver(['swap']);
      await makeTask({ status: 'en_proceso', assignedTo: d.user.id, vehicleType: 'swap' });
    }
    await availableDriver(['swap']);
    await makeTask(); // a semiremolque nobody free has: it waits
    const body = await stats(admin);
    expect(body.workload_alert).toMatchObject({
      status: 'warning',
      metrics: { pending_tasks: 1, available_drivers: 1, busy_drivers: 4, driver_utilization: 80 },
    });
  });

  it('held tasks are left out of pending_tasks (the pool count keeps them)', async () => {
    const admin = await makeUser('admin');
    await makeUser('conductor', { online: true }); // nobody available
    const a = await makeTask();
    const b = await makeTask();
    await put(a.id, { on_hold: true }, admin);
    await put(b.id, { on_hold: true }, admin);
    const body = await stats(admin);
    expect(body.bolsa_trabajo).toBe(2);
    expect(body.workload_alert).toMatchObject({ status: 'normal', metrics: { pending_tasks: 0 } });
    await put(b.id, { on_hold: false }, admin);
    expect((await stats(admin)).workload_alert).toMatchObject({
      status: 'critical',
      metrics: { pending_tasks: 1 },
    });
  });

  it('since: the start time on a fresh server, kept while the status holds, now when it changes', async () => {
    const admin = await makeUser('admin');
    const first = (await stats(admin)).workload_alert;
    expect(first.status).toBe('normal');
    expect(Date.parse(first.since)).toBeLessThanOrEqual(now().getTime());

    await advanceClock(5 * 60_000);
    await makeUser('conductor', { online: true });
    expect((await stats(admin)).workload_alert.since).toBe(first.since); // still normal

    await makeTask();
    const critical = (await stats(admin)).workload_alert;
    expect(critical.status).toBe('critical');
    expect(Math.abs(Date.parse(critical.since) - now().getTime())).toBeLessThan(1000);
    expect(Date.parse(critical.since)).toBeGreaterThan(Date.parse(first.since) + 4 * 60_000);

    await advanceClock(2 * 60_000);
    await makeTask();
    const stillCritical = (await stats(admin)).workload_alert;
    expect(stillCritical).toMatchObject({ status: 'critical', metrics: { pending_tasks: 2 } });
    expect(stillCritical.since).toBe(critical.since);
  });
});

describe('the assignee’s presence on a task (derived, never a new version)', () => {
  it('is null without an assignee; follows the driver going online and offline', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor');
    const pool = await makeTask();
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const find = async (id: string) =>
      (await api().get('/api/tasks').set(admin.auth)).body.find((t: { id: string }) => t.id === id);

    expect(await find(pool.id)).toMatchObject({ assignee_online: null, assignee_offline_since: null });
    await presence.touch(driver.user.id);
    expect(await find(task.id)).toMatchObject({
      assignee_online: true,
      assignee_offline_since: null,
      version: 1,
    });

    await advanceClock(60_000);
    await presence.forget(driver.user.id);
    const offlineAt = now();
    const offline = await find(task.id);
    expect(offline).toMatchObject({ assignee_online: false, version: 1 });
    expect(Math.abs(Date.parse(offline.assignee_offline_since) - offlineAt.getTime())).toBeLessThan(1000);
    const mine = await api().get('/api/tasks/my-active').set(driver.auth);
    expect(mine.body).toMatchObject({ version: 1, assignee_online: true }); // their request: online again
    expect((await row(task.id)).version).toBe(1);
    expect(await eventsOf(task.id)).toEqual([]);
  });
});
