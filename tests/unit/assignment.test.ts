// The auto-assignment engine (CONTRACT §5) against the injectable clock: who gets which task, when.
import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { VehicleType } from '@shared/enums';
import { RETURN_COOLDOWN_MS } from '@shared/constants';
import { advanceClock, db, makePunch, makeTask, makeUser, now, setupDb } from '../helpers/context';
import { activityLog, notifications, taskEvents, tasks, users } from '../../server/db/schema';
import { runAssignment } from '../../server/services/assignment';
import { completeByDriver, createTask, releaseDriverTask, returnByDriver } from '../../server/services/tasks';

beforeEach(() => {
  setupDb();
});

const MIN = 60_000;

/** An approved, online, clocked-in conductor, idle since `idleSince` (default: now). */
function availableDriver(opts: { types?: VehicleType[]; idleSince?: Date; movements?: number } = {}) {
  const d = makeUser('conductor', { online: true, taskTypes: opts.types ?? ['semiremolque'] });
  makePunch(d.user.id, 'entrada');
  db.update(users)
    .set({ idleSince: opts.idleSince ?? now(), movementsCount: opts.movements ?? 0 })
    .where(eq(users.id, d.user.id))
    .run();
  return d.user;
}

const row = (id: string) => db.select().from(tasks).where(eq(tasks.id, id)).get()!;
const holderOf = (id: string) => row(id).assignedTo;

describe('assignment engine', () => {
  it('gives high priority first, whatever the age', () => {
    const old = makeTask({ priority: 'normal' });
    advanceClock(MIN);
    const urgent = makeTask({ priority: 'high' });
    const driver = availableDriver();
    runAssignment();
    expect(holderOf(urgent.id)).toBe(driver.id);
    expect(row(old.id).status).toBe('bolsa_trabajo');
  });

  it('takes the oldest task first within a priority (FIFO)', () => {
    const first = makeTask();
    advanceClock(MIN);
    const second = makeTask();
    const driver = availableDriver();
    runAssignment();
    expect(holderOf(first.id)).toBe(driver.id);
    expect(holderOf(second.id)).toBeNull();
  });

  it('gives the task to the driver idle the longest; ties go to fewer movements', () => {
    const t0 = now();
    advanceClock(10 * MIN);
    const recent = availableDriver({ idleSince: now() });
    const longest = availableDriver({ idleSince: t0 });
    const task = makeTask();
    runAssignment();
    expect(holderOf(task.id)).toBe(longest.id);
    expect(holderOf(task.id)).not.toBe(recent.id);

    const same = now();
    const busier = availableDriver({ idleSince: same, movements: 9 });
    const fresher = availableDriver({ idleSince: same, movements: 2 });
    db.update(users).set({ isOnline: false }).where(eq(users.id, recent.id)).run();
    const next = makeTask();
    runAssignment();
    expect(holderOf(next.id)).toBe(fresher.id);
    expect(holderOf(next.id)).not.toBe(busier.id);
  });

  it('writes the assignment: en_proceso, assigned_at, history, activity and a sounding notification', () => {
    const driver = availableDriver();
    const task = makeTask({ trailerId: 'R-7777-AB' });
    const before = now().getTime();
    runAssignment();
    const after = row(task.id);
    expect(after).toMatchObject({ status: 'en_proceso', assignedTo: driver.id, version: 2 });
    expect(after.assignedAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(after.statusSince).toEqual(after.assignedAt);
    expect(after.updatedAt).toEqual(after.assignedAt);
    const events = db.select().from(taskEvents).where(eq(taskEvents.taskId, task.id)).all();
    expect(events).toEqual([
      expect.objectContaining({
        type: 'assigned',
        actorId: null,
        driverId: driver.id,
        fromStatus: 'bolsa_trabajo',
        toStatus: 'en_proceso',
      }),
    ]);
    const log = db.select().from(activityLog).all();
    expect(log).toEqual([
      expect.objectContaining({ type: 'task', userName: 'Sistema', action: 'Asignación automática' }),
    ]);
    expect(log[0].details).toContain('R-7777-AB');
    const [n] = db.select().from(notifications).where(eq(notifications.userId, driver.id)).all();
    expect(n).toMatchObject({
      type: 'task_assigned',
      title: 'Nueva tarea asignada',
      playSound: true,
      taskId: task.id,
    });
  });

  it('never gives a driver a second active task', () => {
    const driver = availableDriver();
    const a = makeTask();
    advanceClock(1000);
    const b = makeTask();
    runAssignment();
    runAssignment();
    expect(holderOf(a.id)).toBe(driver.id);
    expect(holderOf(b.id)).toBeNull();
    expect(row(b.id).status).toBe('bolsa_trabajo');
  });

  it('matches types: a driver only gets tasks of their types, and swap is never automatic', () => {
    const km0 = availableDriver({ types: ['semiremolque_out_km0', 'swap'] });
    const swap = makeTask({ vehicleType: 'swap' });
    const semi = makeTask({ vehicleType: 'semiremolque' });
    advanceClock(1000);
    const out = makeTask({ vehicleType: 'semiremolque_out_km0' });
    runAssignment();
    expect(holderOf(out.id)).toBe(km0.id);
    expect(holderOf(semi.id)).toBeNull();
    expect(holderOf(swap.id)).toBeNull();
    expect(row(swap.id).noDriversAvailable).toBeNull();
  });

  it('skips drivers who are offline, not clocked in or clocked out', () => {
    const offline = makeUser('conductor', { online: false });
    makePunch(offline.user.id, 'entrada');
    makeUser('conductor', { online: true });
    const out = makeUser('conductor', { online: true });
    makePunch(out.user.id, 'entrada', new Date(now().getTime() - 2 * MIN));
    makePunch(out.user.id, 'salida');
    const task = makeTask();
    runAssignment();
    expect(row(task.id)).toMatchObject({ status: 'bolsa_trabajo', assignedTo: null });
  });

  it('records on the first attempt only whether a driver with the type was available', () => {
    const waiting = makeTask();
    runAssignment();
    expect(row(waiting.id).noDriversAvailable).toBe(true);

    const km0 = availableDriver({ types: ['semiremolque_out_km0'] });
    const wrongType = makeTask();
    const served = makeTask({ vehicleType: 'semiremolque_out_km0' });
    runAssignment();
    expect(row(wrongType.id).noDriversAvailable).toBe(true);
    expect(row(served.id)).toMatchObject({ noDriversAvailable: false, assignedTo: km0.id });

    // Later attempts never rewrite it: the waiting task keeps its true once a driver takes it.
    const semi = availableDriver();
    runAssignment();
    expect(row(waiting.id)).toMatchObject({ noDriversAvailable: true, assignedTo: semi.id });
  });

  it('does not give a returned task back to its driver for 30 minutes', () => {
    const t0 = now();
    const driver = makeUser('conductor', { online: true });
    makePunch(driver.user.id, 'entrada');
    const task = makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    // (Not `Remolque dañado`: that one holds the task until staff release it, CONTRACT §15.)
    returnByDriver(task.id, driver.user, 'Ubicación ocupada');
    expect(row(task.id)).toMatchObject({ status: 'bolsa_trabajo', returnReason: 'Ubicación ocupada' });

    // A rival idle less long than the returner still gets it while the returner cools down.
    db.update(users).set({ idleSince: t0 }).where(eq(users.id, driver.user.id)).run();
    advanceClock(MIN);
    const rival = availableDriver();
    runAssignment();
    expect(holderOf(task.id)).toBe(rival.id);

    // Alone, the returner waits out the 30 minutes (each clock advance runs one round).
    const second = makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    db.update(users).set({ isOnline: false }).where(eq(users.id, rival.id)).run();
    returnByDriver(second.id, driver.user, null);
    advanceClock(RETURN_COOLDOWN_MS - MIN);
    expect(holderOf(second.id)).toBeNull();
    advanceClock(2 * MIN);
    expect(holderOf(second.id)).toBe(driver.user.id);
    expect(row(second.id).returnReason).toBeNull();
  });

  it('a freed driver picks up the highest-priority, oldest waiting task', () => {
    const driver = availableDriver();
    const current = makeTask({ status: 'en_proceso', assignedTo: driver.id });
    makeTask({ priority: 'low' });
    advanceClock(MIN);
    const highOld = makeTask({ priority: 'high' });
    advanceClock(MIN);
    makeTask({ priority: 'high' });
    makeTask({ priority: 'normal' });
    completeByDriver(current.id, db.select().from(users).where(eq(users.id, driver.id)).get()!);
    expect(holderOf(highOld.id)).toBe(driver.id);
    const active = db
      .select()
      .from(tasks)
      .where(and(eq(tasks.assignedTo, driver.id), eq(tasks.status, 'en_proceso')))
      .all();
    expect(active.map((t) => t.id)).toEqual([highOld.id]);
  });

  it('runs when a task enters the pool and when the test clock moves', async () => {
    const staff = makeUser('gestor').user;
    const driver = availableDriver();
    const created = await createTask(
      {
        title: 'Mover',
        description: null,
        origin: 'Muelle 2',
        destination: 'Campa B',
        trailer_id: 'R-1000-XX',
        priority: 'normal',
        vehicle_type: 'semiremolque',
      },
      staff,
    );
    expect(created).toMatchObject({ status: 'en_proceso', assigned_to: driver.id, version: 2 });

    const other = makeUser('conductor', { online: true });
    makePunch(other.user.id, 'entrada');
    const waiting = makeTask();
    advanceClock(1);
    expect(holderOf(waiting.id)).toBe(other.user.id);
  });

  it('creations arriving together: one transaction, one refused trailer refuses only its own', async () => {
    const staff = makeUser('gestor').user;
    const driver = availableDriver();
    const input = (trailer_id: string, priority: 'normal' | 'high') => ({
      title: 'Mover' as const,
      description: null,
      origin: 'Muelle 2',
      destination: 'Campa B',
      trailer_id,
      priority,
      vehicle_type: 'semiremolque' as const,
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
    const stored = db.select().from(tasks).all();
    expect(stored.map((t) => t.trailerId).sort()).toEqual(['R-2000-AA', 'R-2001-BB']);
    const created = db.select().from(taskEvents).where(eq(taskEvents.type, 'created')).all();
    expect(created.map((e) => e.taskId).sort()).toEqual(stored.map((t) => t.id).sort());
    const logged = db.select().from(activityLog).all();
    expect(logged.filter((l) => l.details.includes('R-2000-AA'))).toHaveLength(1);
  });

  it("a released driver's task goes back to the pool and on to another driver", () => {
    const admin = makeUser('admin').user;
    const leaving = makeUser('conductor');
    const task = makeTask({ status: 'en_proceso', assignedTo: leaving.user.id });
    db.update(users).set({ role: 'gestor' }).where(eq(users.id, leaving.user.id)).run();
    const other = availableDriver();
    releaseDriverTask(leaving.user.id, admin);
    expect(row(task.id)).toMatchObject({ status: 'en_proceso', assignedTo: other.id, returnedBy: null });
    const types = db.select().from(taskEvents).where(eq(taskEvents.taskId, task.id)).all();
    expect(types.map((e) => [e.type, e.actorId, e.driverId])).toEqual([
      ['status_changed', admin.id, leaving.user.id],
      ['assigned', null, other.id],
    ]);
    // Nothing to release: no change, no event.
    releaseDriverTask(leaving.user.id, admin);
    expect(row(task.id).version).toBe(3);
  });
});
