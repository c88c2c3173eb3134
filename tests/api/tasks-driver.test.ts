// Tasks API for conductors (CONTRACT §5, SPEC §4): my-active, swap-available, self-assign (and its
// race), complete, return, and the driver's own PUT moves — every 409 with its exact text.
import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import crypto from 'node:crypto';
import { notifications, taskEvents, tasks, users } from '../../server/db/tables';
import { db, makePunch, makeTask, makeUser, setupApp, tx } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});

const row = async (id: string) => (await db.select().from(tasks).where(eq(tasks.id, id)).limit(1))[0]!;
const eventsOf = (id: string) => db.select().from(taskEvents).where(eq(taskEvents.taskId, id));
const userRow = async (id: string) => (await db.select().from(users).where(eq(users.id, id)).limit(1))[0]!;
const notesOf = (userId: string) => db.select().from(notifications).where(eq(notifications.userId, userId));

describe('GET /api/tasks/my-active and /api/tasks/swap-available', () => {
  it('my-active: 404 with the Spanish detail when none, the task when there is one', async () => {
    const driver = await makeUser('conductor');
    const none = await api().get('/api/tasks/my-active').set(driver.auth);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: 'No tienes ninguna tarea activa' });
    await makeTask({ status: 'finalizada', assignedTo: driver.user.id });
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const res = await api().get('/api/tasks/my-active').set(driver.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: task.id, status: 'en_proceso', assigned_to: driver.user.id });
  });

  it('swap-available: pool swap tasks for a driver with swap, empty for one without', async () => {
    const withSwap = await makeUser('conductor', { taskTypes: ['swap'] });
    const without = await makeUser('conductor');
    const pool = await makeTask({ vehicleType: 'swap' });
    await makeTask({ vehicleType: 'swap', status: 'en_proceso', assignedTo: withSwap.user.id });
    await makeTask({ vehicleType: 'semiremolque' });
    const res = await api().get('/api/tasks/swap-available').set(withSwap.auth);
    expect(res.status).toBe(200);
    expect(res.body.map((t: { id: string }) => t.id)).toEqual([pool.id]);
    const empty = await api().get('/api/tasks/swap-available').set(without.auth);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
  });
});

describe('POST /api/tasks/{id}/self-assign', () => {
  it('claims a pool task of their types without being clocked in', async () => {
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    const task = await makeTask({ vehicleType: 'swap' });
    const res = await api().post(`/api/tasks/${task.id}/self-assign`).set(driver.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Te has asignado esta tarea' });
    expect(await row(task.id)).toMatchObject({
      status: 'en_proceso',
      assignedTo: driver.user.id,
      version: 2,
    });
    expect(await eventsOf(task.id)).toEqual([
      expect.objectContaining({ type: 'assigned', actorId: driver.user.id, driverId: driver.user.id }),
    ]);
    // They took it themselves: no "new task" notification.
    expect(await notesOf(driver.user.id)).toEqual([]);
  });

  it('answers each refusal with its 409', async () => {
    const driver = await makeUser('conductor');
    const swap = await makeTask({ vehicleType: 'swap' });
    const lacking = await api().post(`/api/tasks/${swap.id}/self-assign`).set(driver.auth);
    expect(lacking.status).toBe(409);
    expect(lacking.body.detail).toBe('Este tipo de tarea no está habilitado para ti');

    const other = await makeUser('conductor');
    const taken = await makeTask({ status: 'en_proceso', assignedTo: other.user.id });
    const res = await api().post(`/api/tasks/${taken.id}/self-assign`).set(driver.auth);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('Esta tarea ya está asignada');

    await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const pool = await makeTask();
    const active = await api().post(`/api/tasks/${pool.id}/self-assign`).set(driver.auth);
    expect(active.status).toBe(409);
    expect(active.body.detail).toBe('Ya tienes una tarea activa');
    expect(await row(pool.id)).toMatchObject({ status: 'bolsa_trabajo', assignedTo: null, version: 1 });
    expect(await eventsOf(pool.id)).toEqual([]);

    expect((await api().post(`/api/tasks/${crypto.randomUUID()}/self-assign`).set(driver.auth)).status).toBe(
      404,
    );
  });

  it('of 50 drivers racing for one task exactly one wins', async () => {
    const drivers = await Promise.all(
      Array.from({ length: 50 }, () => makeUser('conductor', { taskTypes: ['swap'] })),
    );
    const task = await makeTask({ vehicleType: 'swap' });
    const answers = await Promise.all(
      drivers.map((d) => api().post(`/api/tasks/${task.id}/self-assign`).set(d.auth)),
    );
    const won = answers.filter((r) => r.status === 200);
    const lost = answers.filter((r) => r.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const r of lost) expect(r.body.detail).toBe('Esta tarea ya está asignada');
    const winner = drivers[answers.indexOf(won[0])];
    expect(await row(task.id)).toMatchObject({
      status: 'en_proceso',
      assignedTo: winner.user.id,
      version: 2,
    });
    expect((await eventsOf(task.id)).map((e) => e.type)).toEqual(['assigned']);
  });
});

describe('POST /api/tasks/{id}/complete', () => {
  it('completes for the assignee only, credits them, congratulates them, and is safe to repeat', async () => {
    const driver = await makeUser('conductor');
    const other = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    await tx(() => db.update(tasks).set({ returnReason: 'Otro' }).where(eq(tasks.id, task.id)));

    const notMine = await api().post(`/api/tasks/${task.id}/complete`).set(other.auth);
    expect(notMine.status).toBe(409);
    expect(notMine.body.detail).toBe('Esta tarea no está asignada a ti');

    const res = await api().post(`/api/tasks/${task.id}/complete`).set(driver.auth);
    expect(res.status).toBe(200);
    const done = await row(task.id);
    expect(done).toMatchObject({
      status: 'finalizada',
      assignedTo: driver.user.id,
      creditedTo: driver.user.id,
      returnReason: null,
      version: 2,
    });
    expect(done.completedAt).not.toBeNull();
    expect((await userRow(driver.user.id)).movementsCount).toBe(1);
    expect((await userRow(driver.user.id)).idleSince).toEqual(done.completedAt);
    expect(await notesOf(driver.user.id)).toEqual([
      expect.objectContaining({ type: 'congratulations', taskId: task.id }),
    ]);

    const again = await api().post(`/api/tasks/${task.id}/complete`).set(driver.auth);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await row(task.id)).toEqual(done);
    expect((await userRow(driver.user.id)).movementsCount).toBe(1);
    expect(await notesOf(driver.user.id)).toHaveLength(1);
    expect((await eventsOf(task.id)).map((e) => e.type)).toEqual(['completed']);

    const stillNotMine = await api().post(`/api/tasks/${task.id}/complete`).set(other.auth);
    expect(stillNotMine.status).toBe(409);
    const pool = await makeTask();
    expect((await api().post(`/api/tasks/${pool.id}/complete`).set(driver.auth)).status).toBe(409);
  });

  it('frees the driver, who is then given the next waiting task', async () => {
    const driver = await makeUser('conductor', { online: true });
    await makePunch(driver.user.id, 'entrada');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const next = await makeTask();
    await api().post(`/api/tasks/${task.id}/complete`).set(driver.auth);
    expect(await row(next.id)).toMatchObject({ status: 'en_proceso', assignedTo: driver.user.id });
    expect((await notesOf(driver.user.id)).map((n) => n.type)).toEqual(['congratulations', 'task_assigned']);
  });
});

describe('POST /api/tasks/{id}/return', () => {
  it('returns to the pool with an optional reason, kept on the task and in the history', async () => {
    const creator = await makeUser('gestor');
    const driver = await makeUser('conductor', { name: 'Rafa' });
    const task = await makeTask({
      status: 'en_proceso',
      assignedTo: driver.user.id,
      createdBy: creator.user.id,
    });
    const res = await api()
      .post(`/api/tasks/${task.id}/return`)
      .set(driver.auth)
      .send({ reason: 'Remolque no encontrado' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Tarea devuelta a bolsa de trabajo' });
    const back = await row(task.id);
    expect(back).toMatchObject({
      status: 'bolsa_trabajo',
      assignedTo: null,
      assignedAt: null,
      returnReason: 'Remolque no encontrado',
      returnedBy: driver.user.id,
    });
    expect(back.returnedAt).toEqual(back.statusSince);
    expect((await userRow(driver.user.id)).idleSince).toEqual(back.returnedAt);
    expect(await eventsOf(task.id)).toEqual([
      expect.objectContaining({
        type: 'returned',
        driverId: driver.user.id,
        reason: 'Remolque no encontrado',
      }),
    ]);
    const [note] = await notesOf(creator.user.id);
    expect(note).toMatchObject({ type: 'task_returned' });
    expect(note.message).toContain('Rafa');

    // The reason is gone once the task is assigned again.
    const claimed = await api().post(`/api/tasks/${task.id}/self-assign`).set(driver.auth);
    expect(claimed.status).toBe(200);
    expect((await row(task.id)).returnReason).toBeNull();
  });

  it('works without a body, refuses a bad reason and another driver', async () => {
    const driver = await makeUser('conductor');
    const other = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const bad = await api()
      .post(`/api/tasks/${task.id}/return`)
      .set(driver.auth)
      .send({ reason: 'Me aburro' });
    expect(bad.status).toBe(400);
    const notMine = await api().post(`/api/tasks/${task.id}/return`).set(other.auth);
    expect(notMine.status).toBe(409);
    expect(notMine.body.detail).toBe('Esta tarea no está asignada a ti');
    const ok = await api().post(`/api/tasks/${task.id}/return`).set(driver.auth);
    expect(ok.status).toBe(200);
    expect(await row(task.id)).toMatchObject({ status: 'bolsa_trabajo', returnReason: null });
    const twice = await api().post(`/api/tasks/${task.id}/return`).set(driver.auth);
    expect(twice.status).toBe(409);
  });
});

describe('PUT /api/tasks/{id} by a conductor', () => {
  const RULE = 'Solo puedes mover tus propias tareas o asignarte tareas disponibles';

  it('claims a pool task of their types by moving it to en_proceso', async () => {
    const driver = await makeUser('conductor', { name: 'Pepa' });
    const task = await makeTask();
    const res = await api().put(`/api/tasks/${task.id}`).set(driver.auth).send({ status: 'en_proceso' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'en_proceso',
      assigned_to: driver.user.id,
      assigned_to_name: 'Pepa',
    });
    const swap = await makeTask({ vehicleType: 'swap' });
    const lacking = await api()
      .put(`/api/tasks/${swap.id}`)
      .set((await makeUser('conductor')).auth)
      .send({ status: 'en_proceso' });
    expect(lacking.status).toBe(409);
    expect(lacking.body.detail).toBe('Este tipo de tarea no está habilitado para ti');
  });

  it('returns or completes their own task, and nothing else', async () => {
    const driver = await makeUser('conductor');
    const other = await makeUser('conductor');
    const mine = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const theirs = await makeTask({ status: 'en_proceso', assignedTo: other.user.id });
    const put = (id: string, body: object) => api().put(`/api/tasks/${id}`).set(driver.auth).send(body);

    for (const [id, body] of [
      [theirs.id, { status: 'bolsa_trabajo' }],
      [theirs.id, { status: 'finalizada' }],
      [mine.id, { priority: 'high' }],
      [mine.id, { status: 'en_proceso', assigned_to: other.user.id }],
      [(await makeTask()).id, { status: 'finalizada' }],
    ] as const) {
      const res = await put(id, body);
      expect(res.status).toBe(409);
      expect(res.body.detail).toBe(RULE);
    }
    expect(await row(theirs.id)).toMatchObject({
      status: 'en_proceso',
      assignedTo: other.user.id,
      version: 1,
    });

    const back = await put(mine.id, { status: 'bolsa_trabajo' });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ status: 'bolsa_trabajo', assigned_to: null });
    expect((await eventsOf(mine.id)).map((e) => e.type)).toEqual(['returned']);

    await put(mine.id, { status: 'en_proceso' });
    const done = await put(mine.id, { status: 'finalizada' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'finalizada', assigned_to: driver.user.id });
    expect((await userRow(driver.user.id)).movementsCount).toBe(1);

    const reopen = await put(mine.id, { status: 'bolsa_trabajo' });
    expect(reopen.status).toBe(409);
    expect(reopen.body.detail).toBe(RULE);
    expect(
      await db
        .select()
        .from(tasks)
        .where(and(eq(tasks.id, mine.id), eq(tasks.status, 'finalizada'))),
    ).toHaveLength(1);
  });
});
