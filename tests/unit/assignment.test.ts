// The auto-assignment engine (CONTRACT §5) against the injectable clock: who gets which task, when.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { VehicleType } from '@shared/enums';
import { RETURN_COOLDOWN_MS } from '@shared/constants';
import { advanceClock, db, makePunch, makeTask, makeUser, now, setupDb, tx } from '../helpers/context';
import { activityLog, notifications, taskEvents, tasks, users } from '../../server/db/tables';
import { assignmentsSettled, runAssignment } from '../../server/tasks/assignment';
import { completeByDriver, createTask, releaseDriverTask, returnByDriver } from '../../server/tasks';

beforeEach(async () => {
  await setupDb();
});
// A round the clock started ends with its test, not in the next one's database.
afterEach(() => assignmentsSettled());

const MIN = 60_000;

/** An approved, online, clocked-in conductor, idle since `idleSince` (default: now). */
async function availableDriver(opts: { types?: VehicleType[]; idleSince?: Date; movements?: number } = {}) {
  const d = await makeUser('conductor', { online: true, taskTypes: opts.types ?? ['semiremolque'] });
  await makePunch(d.user.id, 'entrada');
  await tx(() =>
    db
      .update(users)
      .set({ idleSince: opts.idleSince ?? now(), movementsCount: opts.movements ?? 0 })
      .where(eq(users.id, d.user.id)),
  );
  return d.user;
}

const row = async (id: string) => (await db.select().from(tasks).where(eq(tasks.id, id)).limit(1))[0]!;
const holderOf = async (id: string) => (await row(id)).assignedTo;
const setUser = (id: string, fields: Partial<typeof users.$inferInsert>) =>
  tx(() => db.update(users).set(fields).where(eq(users.id, id)));

describe('assignment engine', () => {
  it('gives high priority first, whatever the age', async () => {
    const old = await makeTask({ priority: 'normal' });
    await advanceClock(MIN);
    const urgent = await makeTask({ priority: 'high' });
    const driver = await availableDriver();
    await runAssignment();
    expect(await holderOf(urgent.id)).toBe(driver.id);
    expect((await row(old.id)).status).toBe('bolsa_trabajo');
  });

  it('takes the oldest task first within a priority (FIFO)', async () => {
    const first = await makeTask();
    await advanceClock(MIN);
    const second = await makeTask();
    const driver = await availableDriver();
    await runAssignment();
    expect(await holderOf(first.id)).toBe(driver.id);
    expect(await holderOf(second.id)).toBeNull();
  });

  it('gives the task to the driver idle the longest; ties go to fewer movements', async () => {
    const t0 = now();
    await advanceClock(10 * MIN);
    const recent = await availableDriver({ idleSince: now() });
    const longest = await availableDriver({ idleSince: t0 });
    const task = await makeTask();
    await runAssignment();
    expect(await holderOf(task.id)).toBe(longest.id);
    expect(await holderOf(task.id)).not.toBe(recent.id);

    const same = now();
    const busier = await availableDriver({ idleSince: same, movements: 9 });
    const fresher = await availableDriver({ idleSince: same, movements: 2 });
    await setUser(recent.id, { isOnline: false });
    const next = await makeTask();
    await runAssignment();
    expect(await holderOf(next.id)).toBe(fresher.id);
    expect(await holderOf(next.id)).not.toBe(busier.id);
  });

  it('writes the assignment: en_proceso, assigned_at, history, activity and a sounding notification', async () => {
    const driver = await availableDriver();
    const task = await makeTask({ trailerId: 'R-7777-AB' });
    const before = now().getTime();
    await runAssignment();
    const after = await row(task.id);
    expect(after).toMatchObject({ status: 'en_proceso', assignedTo: driver.id, version: 2 });
    expect(after.assignedAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(after.statusSince).toEqual(after.assignedAt);
    expect(after.updatedAt).toEqual(after.assignedAt);
    const events = await db.select().from(taskEvents).where(eq(taskEvents.taskId, task.id));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'assigned',
        actorId: null,
        driverId: driver.id,
        fromStatus: 'bolsa_trabajo',
        toStatus: 'en_proceso',
      }),
    ]);
    const log = await db.select().from(activityLog);
    expect(log).toEqual([
      expect.objectContaining({ type: 'task', userName: 'Sistema', action: 'Asignación automática' }),
    ]);
    expect(log[0].details).toContain('R-7777-AB');
    const [n] = await db.select().from(notifications).where(eq(notifications.userId, driver.id));
    expect(n).toMatchObject({
      type: 'task_assigned',
      title: 'Nueva tarea asignada',
      playSound: true,
      taskId: task.id,
    });
  });

  it('never gives a driver a second active task', async () => {
    const driver = await availableDriver();
    const a = await makeTask();
    await advanceClock(1000);
    const b = await makeTask();
    await runAssignment();
    await runAssignment();
    expect(await holderOf(a.id)).toBe(driver.id);
    expect(await holderOf(b.id)).toBeNull();
    expect((await row(b.id)).status).toBe('bolsa_trabajo');
  });

  it('matches types: a driver only gets tasks of their types, and swap is never automatic', async () => {
    const km0 = await availableDriver({ types: ['semiremolque_out_km0', 'swap'] });
    const swap = await makeTask({ vehicleType: 'swap' });
    const semi = await makeTask({ vehicleType: 'semiremolque' });
    await advanceClock(1000);
    const out = await makeTask({ vehicleType: 'semiremolque_out_km0' });
    await runAssignment();
    expect(await holderOf(out.id)).toBe(km0.id);
    expect(await holderOf(semi.id)).toBeNull();
    expect(await holderOf(swap.id)).toBeNull();
    expect((await row(swap.id)).noDriversAvailable).toBeNull();
  });

  it('skips drivers who are offline, not clocked in or clocked out', async () => {
    const offline = await makeUser('conductor', { online: false });
    await makePunch(offline.user.id, 'entrada');
    await makeUser('conductor', { online: true });
    const out = await makeUser('conductor', { online: true });
    await makePunch(out.user.id, 'entrada', new Date(now().getTime() - 2 * MIN));
    await makePunch(out.user.id, 'salida');
    const task = await makeTask();
    await runAssignment();
    expect(await row(task.id)).toMatchObject({ status: 'bolsa_trabajo', assignedTo: null });
  });

  it('records on the first attempt only whether a driver with the type was available', async () => {
    const waiting = await makeTask();
    await runAssignment();
    expect((await row(waiting.id)).noDriversAvailable).toBe(true);

    const km0 = await availableDriver({ types: ['semiremolque_out_km0'] });
    const wrongType = await makeTask();
    const served = await makeTask({ vehicleType: 'semiremolque_out_km0' });
    await runAssignment();
    expect((await row(wrongType.id)).noDriversAvailable).toBe(true);
    expect(await row(served.id)).toMatchObject({ noDriversAvailable: false, assignedTo: km0.id });

    // Later attempts never rewrite it: the waiting task keeps its true once a driver takes it.
    const semi = await availableDriver();
    await runAssignment();
    expect(await row(waiting.id)).toMatchObject({ noDriversAvailable: true, assignedTo: semi.id });
  });

  it('does not give a returned task back to its driver for 30 minutes', async () => {
    const t0 = now();
    const driver = await makeUser('conductor', { online: true });
    await makePunch(driver.user.id, 'entrada');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    // (Not `Remolque dañado`: that one holds the task until staff release it, CONTRACT §15.)
    await returnByDriver(task.id, driver.user, 'Ubicación ocupada');
    expect(await row(task.id)).toMatchObject({ status: 'bolsa_trabajo', returnReason: 'Ubicación ocupada' });

    // A rival idle less long than the returner still gets it while the returner cools down.
    await setUser(driver.user.id, { idleSince: t0 });
    await advanceClock(MIN);
    const rival = await availableDriver();
    await runAssignment();
    expect(await holderOf(task.id)).toBe(rival.id);

    // Alone, the returner waits out the 30 minutes (each clock advance runs one round).
    const second = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    await setUser(rival.id, { isOnline: false });
    await returnByDriver(second.id, driver.user, null);
    await advanceClock(RETURN_COOLDOWN_MS - MIN);
    expect(await holderOf(second.id)).toBeNull();
    await advanceClock(2 * MIN);
    expect(await holderOf(second.id)).toBe(driver.user.id);
    expect((await row(second.id)).returnReason).toBeNull();
  });

  it('a freed driver picks up the highest-priority, oldest waiting task', async () => {
    const driver = await availableDriver();
    const current = await makeTask({ status: 'en_proceso', assignedTo: driver.id });
    await makeTask({ priority: 'low' });
    await advanceClock(MIN);
    const highOld = await makeTask({ priority: 'high' });
    await advanceClock(MIN);
    await makeTask({ priority: 'high' });
    await makeTask({ priority: 'normal' });
    const [driverRow] = await db.select().from(users).where(eq(users.id, driver.id));
    await completeByDriver(current.id, driverRow!);
    expect(await holderOf(highOld.id)).toBe(driver.id);
    const active = await db
      .select()
      .from(tasks)
      .where(and(eq(tasks.assignedTo, driver.id), eq(tasks.status, 'en_proceso')));
    expect(active.map((t) => t.id)).toEqual([highOld.id]);
  });

  it('runs when a task enters the pool and when the test clock moves', async () => {
    const staff = (await makeUser('gestor')).user;
    const driver = await availableDriver();
    const created = await createTask(
      {
        title: 'Mover',
        description: null,
        external_ref: null,
        origin: 'Muelle 2',
        destination: 'Campa B',
        trailer_id: 'R-1000-XX',
        priority: 'normal',
        vehicle_type: 'semiremolque',
      },
      staff,
    );
    expect(created).toMatchObject({ status: 'en_proceso', assigned_to: driver.id, version: 2 });

    const other = await makeUser('conductor', { online: true });
    await makePunch(other.user.id, 'entrada');
    const waiting = await makeTask();
    await advanceClock(1);
    expect(await holderOf(waiting.id)).toBe(other.user.id);
  });

  it('creations arriving together: one transaction, one refused trailer refuses only its own', async () => {
    const staff = (await makeUser('gestor')).user;
    const driver = await availableDriver();
    const input = (trailer_id: string, priority: 'normal' | 'high') => ({
      title: 'Mover' as const,
      description: null,
      origin: 'Muelle 2',
      destination: 'Campa B',
      trailer_id,
      priority,
      vehicle_type: 'semiremolque' as const,
      external_ref: null,
    });
    // Started in the same turn of the event loop, so written as one batch.
    const outcomes = await Promise.allSettled([
      createTask(input('R-2000-AA', 'normal'), staff),
      createTask(input('R-2000-AA', 'high'), staff),
      createTask(input('R-2001-BB', 'high'), staff),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const refused = (outcomes[1] as PromiseRejectedResult).reason as { status: number; detail: string };
    expect(refused).toMatchObject({ status: 409, detail: expect.stringContaining('R-2000-AA') });
    const [first, , third] = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : null));
    // One round for the batch: the one driver gets the high-priority task, the other waits in the pool.
    expect(third).toMatchObject({ status: 'en_proceso', assigned_to: driver.id });
    expect(first).toMatchObject({ status: 'bolsa_trabajo', assigned_to: null });
    const stored = await db.select().from(tasks);
    expect(stored.map((t) => t.trailerId).sort()).toEqual(['R-2000-AA', 'R-2001-BB']);
    const created = await db.select().from(taskEvents).where(eq(taskEvents.type, 'created'));
    expect(created.map((e) => e.taskId).sort()).toEqual(stored.map((t) => t.id).sort());
    const logged = await db.select().from(activityLog);
    expect(logged.filter((l) => l.details.includes('R-2000-AA'))).toHaveLength(1);
  });

  it("a released driver's task goes back to the pool and on to another driver", async () => {
    const admin = (await makeUser('admin')).user;
    const leaving = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: leaving.user.id });
    await setUser(leaving.user.id, { role: 'gestor' });
    const other = await availableDriver();
    await releaseDriverTask(leaving.user.id, admin);
    expect(await row(task.id)).toMatchObject({
      status: 'en_proceso',
      assignedTo: other.id,
      returnedBy: null,
    });
    const types = await db.select().from(taskEvents).where(eq(taskEvents.taskId, task.id));
    expect(types.map((e) => [e.type, e.actorId, e.driverId])).toEqual([
      ['status_changed', admin.id, leaving.user.id],
      ['assigned', null, other.id],
    ]);
    // Nothing to release: no change, no event.
    await releaseDriverTask(leaving.user.id, admin);
    expect((await row(task.id)).version).toBe(3);
  });
});
