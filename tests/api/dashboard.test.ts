// Dashboard figures (CONTRACT §6): stats, the workload alert, online drivers and rankings.
import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { tasks, users } from '../../server/db/tables';
import { databaseIdentity, useEngine, type Engine } from '../../server/db';
import { dashboardStats, driverLists, workloadAlert } from '../../server/services/dashboard';
import { db, makePunch, makeTask, makeUser, now, setupApp, tx } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(now().getTime() - ms);
const set = (id: string, fields: Partial<typeof users.$inferInsert>) =>
  tx(() => db.update(users).set(fields).where(eq(users.id, id)));
const ROLES = ['conductor', 'gestor', 'manager', 'admin'] as const;

describe('who may read the dashboard', () => {
  it.each(['/api/dashboard/stats', '/api/dashboard/online-drivers', '/api/dashboard/rankings'])(
    '%s: 401 without a token, 200 for every role',
    async (path) => {
      expect((await api().get(path)).status).toBe(401);
      for (const role of ROLES) {
        const { auth } = await makeUser(role);
        expect((await api().get(path).set(auth)).status).toBe(200);
      }
    },
  );
});

describe('GET /api/dashboard/stats', () => {
  it('counts tasks and drivers as CONTRACT §6 says', async () => {
    const admin = await makeUser('admin');
    const manager = await makeUser('manager');
    const available = await makeUser('conductor', { online: true });
    await makePunch(available.user.id, 'entrada');
    const busyOnline = await makeUser('conductor', { online: true });
    await makePunch(busyOnline.user.id, 'entrada');
    await makeTask({ status: 'en_proceso', assignedTo: busyOnline.user.id });
    await makeUser('conductor', { online: true }); // online, not clocked in
    const offlineClockedIn = await makeUser('conductor');
    await makePunch(offlineClockedIn.user.id, 'entrada');
    const busyOffline = await makeUser('conductor');
    await makeTask({ status: 'en_proceso', assignedTo: busyOffline.user.id });
    await makeUser('conductor', { online: true, approved: false });
    await makeUser('gestor', { approved: false });
    const deleted = await makeUser('conductor', { online: true });
    await set(deleted.user.id, { deletedAt: now() });
    await makePunch(deleted.user.id, 'entrada');

    for (let i = 0; i < 3; i++) await makeTask();
    const deletedTask = await makeTask();
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, deletedTask.id)));
    await makeTask({ status: 'finalizada', completedAt: ago(23 * HOUR), createdAt: ago(30 * HOUR) });
    await makeTask({ status: 'finalizada', completedAt: ago(25 * HOUR), createdAt: ago(30 * HOUR) });
    const deletedDone = await makeTask({ status: 'finalizada', completedAt: ago(HOUR) });
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, deletedDone.id)));

    const res = await api().get('/api/dashboard/stats').set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      bolsa_trabajo: 3,
      en_proceso: 2,
      finalizada: 1,
      online_drivers: 3,
      available_drivers: 1,
      busy_drivers: 2,
      pending_users: 2,
      workload_alert: {
        status: 'warning',
        since: expect.stringMatching(/Z$/),
        severity: 1,
        message: 'Carga de trabajo alta: 3 tareas pendientes para 1 conductor disponible (utilización 67%)',
        recommendations: expect.any(Array),
        metrics: { pending_tasks: 3, available_drivers: 1, busy_drivers: 2, driver_utilization: 67 },
      },
    });
    const forManager = await api().get('/api/dashboard/stats').set(manager.auth);
    expect(forManager.body).toMatchObject({ bolsa_trabajo: 3, pending_users: 0 });
  });

  it('counts a clock-in of the last 24 hours, not an older one; a deleted punch is not the latest', async () => {
    const gestor = await makeUser('gestor');
    const stale = await makeUser('conductor', { online: true });
    await makePunch(stale.user.id, 'entrada', ago(25 * HOUR));
    const recent = await makeUser('conductor', { online: true });
    await makePunch(recent.user.id, 'entrada', ago(23 * HOUR));
    const leftThenUndone = await makeUser('conductor', { online: true });
    await makePunch(leftThenUndone.user.id, 'entrada', ago(2 * HOUR));
    await makePunch(leftThenUndone.user.id, 'salida', ago(HOUR), { deletedAt: ago(HOUR / 2) });
    const res = await api().get('/api/dashboard/stats').set(gestor.auth);
    expect(res.body).toMatchObject({ online_drivers: 3, available_drivers: 2 });
  });

  it('is critical when work waits and nobody can take it', async () => {
    const admin = await makeUser('admin');
    await makeUser('conductor', { online: true });
    await makeTask({ priority: 'high' });
    const res = await api().get('/api/dashboard/stats').set(admin.auth);
    expect(res.body.workload_alert).toEqual({
      status: 'critical',
      since: expect.stringMatching(/Z$/),
      severity: 2,
      message: '1 tarea espera en la bolsa y no hay ningún conductor disponible',
      recommendations: expect.any(Array),
      metrics: { pending_tasks: 1, available_drivers: 0, busy_drivers: 0, driver_utilization: 0 },
    });
    expect(res.body.workload_alert.recommendations.length).toBeGreaterThanOrEqual(2);
  });

  it('is normal with an empty pool and free drivers', async () => {
    const gestor = await makeUser('gestor');
    const driver = await makeUser('conductor', { online: true });
    await makePunch(driver.user.id, 'entrada');
    const res = await api().get('/api/dashboard/stats').set(gestor.auth);
    expect(res.body.workload_alert).toMatchObject({
      status: 'normal',
      severity: 0,
      message: 'La carga de trabajo está equilibrada',
      metrics: { pending_tasks: 0, available_drivers: 1, busy_drivers: 0, driver_utilization: 0 },
    });
  });
});

describe('the stats between two changes', () => {
  it('are read again after every commit; readings side by side agree', async () => {
    const gestor = await makeUser('gestor');
    const pool = async () =>
      ((await api().get('/api/dashboard/stats').set(gestor.auth)).body as { bolsa_trabajo: number })
        .bolsa_trabajo;
    expect(await pool()).toBe(0);
    await makeTask();
    expect(await pool()).toBe(1); // within the memo's second: the commit alone makes it stale
    await makeTask();
    const [other, admin] = await Promise.all([dashboardStats(false), dashboardStats(true)]);
    expect(other).toEqual({ ...admin, pending_users: 0 });
    expect(admin.bolsa_trabajo).toBe(2);
  });
});

describe('workloadAlert levels', () => {
  it.each([
    // pending, available, busy → status, utilization
    [0, 0, 0, 'normal', 0],
    [1, 0, 3, 'critical', 100],
    [2, 1, 0, 'normal', 0],
    [3, 1, 0, 'warning', 0], // pending > 2 × available
    [1, 1, 4, 'warning', 80], // utilization ≥ 80 while work waits
    [0, 1, 4, 'normal', 80], // every driver busy with nothing waiting: a good day, not an alert
    [0, 0, 5, 'normal', 100],
    [0, 2, 7, 'normal', 78], // 77.8 rounds to 78: still under 80
    [1, 3, 2, 'normal', 40],
  ] as const)('pending %i, available %i, busy %i → %s (%i%)', (pending, available, busy, status, util) => {
    const alert = workloadAlert(pending, available, busy);
    expect(alert.metrics.driver_utilization).toBe(util);
    expect(alert.status).toBe(status);
    expect(alert.severity).toBe({ normal: 0, warning: 1, critical: 2 }[alert.status]);
    expect(alert.recommendations.length).toBeGreaterThanOrEqual(2);
    expect(alert.recommendations.length).toBeLessThanOrEqual(4);
    expect(alert.message).not.toBe('');
  });
});

describe('GET /api/dashboard/online-drivers and /rankings', () => {
  it('every approved conductor by movements, then name; online ones in the same order', async () => {
    const viewer = await makeUser('manager');
    const beatriz = await makeUser('conductor', { name: 'Beatriz', online: true });
    const angel = await makeUser('conductor', { name: 'Ángel', online: true });
    const carlos = await makeUser('conductor', { name: 'Carlos' });
    const dani = await makeUser('conductor', { name: 'Dani', online: true });
    await set(beatriz.user.id, { movementsCount: 5 });
    await set(angel.user.id, { movementsCount: 5 });
    await set(carlos.user.id, { movementsCount: 9 });
    await makeUser('conductor', { name: 'Pendiente', online: true, approved: false });
    await makeUser('gestor', { name: 'Gestora', online: true });
    const gone = await makeUser('conductor', { name: 'Ido', online: true });
    await set(gone.user.id, { deletedAt: now(), movementsCount: 50 });

    const rankings = await api().get('/api/dashboard/rankings').set(viewer.auth);
    expect(rankings.status).toBe(200);
    expect(rankings.body).toEqual([
      { id: carlos.user.id, name: 'Carlos', is_online: false, movements_count: 9 },
      { id: angel.user.id, name: 'Ángel', is_online: true, movements_count: 5 },
      { id: beatriz.user.id, name: 'Beatriz', is_online: true, movements_count: 5 },
      { id: dani.user.id, name: 'Dani', is_online: true, movements_count: 0 },
    ]);
    const online = await api().get('/api/dashboard/online-drivers').set(viewer.auth);
    expect(online.body).toEqual([
      { id: angel.user.id, name: 'Ángel', movements_count: 5 },
      { id: beatriz.user.id, name: 'Beatriz', movements_count: 5 },
      { id: dani.user.id, name: 'Dani', movements_count: 0 },
    ]);
  });
});

describe('the driver lists while the database closes', () => {
  it('a reading that finds the database closed rejects its caller and leaves no rejection unhandled', async () => {
    await makeUser('conductor', { online: true }); // a commit: the lists are read again, not remembered
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const engine = databaseIdentity() as Engine;
    try {
      const lists = driverLists();
      useEngine(undefined); // a shutdown closes the database while the lists wait for the change mark
      await expect(lists).rejects.toThrow('database not open');
      await new Promise((r) => setTimeout(r, 20)); // Node reports unhandled rejections after the microtasks
    } finally {
      useEngine(engine);
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });
});
