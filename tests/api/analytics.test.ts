// Admin Analytics de Conductores (SPEC §3, CONTRACT §8, §13): one row per approved, live conductor
// with online time of the last 24 h, average completion time of the last 30 days and last activity.
import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ERR } from '@shared/labels';
import type { DriverAnalyticsRow } from '@shared/schemas';
import { presenceIntervals, taskEvents, tasks, users } from '../../server/db/tables';
import { db, makePunch, makeTask, makeUser, now, setupApp, tx, type TestUser } from '../helpers/context';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let admin: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  admin = await makeUser('admin');
});

const ago = (ms: number) => new Date(now().getTime() - ms);
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);

async function analytics(): Promise<DriverAnalyticsRow[]> {
  const res = await api().get('/api/admin/analytics/drivers').set(admin.auth);
  expect(res.status).toBe(200);
  return res.body;
}
const rowOf = (rows: DriverAnalyticsRow[], u: TestUser) => rows.find((r) => r.id === u.user.id)!;

const presence = (u: TestUser, from: Date, to: Date | null) =>
  tx(() => db.insert(presenceIntervals).values({ userId: u.user.id, startedAt: from, endedAt: to }));

/** A task the driver finished `completedAgo` ago, `tookMs` after taking it. */
const finished = (u: TestUser, completedAgo: number, tookMs: number) => {
  const completedAt = ago(completedAgo);
  return makeTask({
    status: 'finalizada',
    assignedTo: u.user.id,
    createdAt: plus(completedAt, -tookMs - MIN),
    assignedAt: plus(completedAt, -tookMs),
    completedAt,
  });
};

describe('who may read analytics (CONTRACT §12)', () => {
  it('admin only', async () => {
    for (const role of ['manager', 'gestor', 'conductor'] as const) {
      const { auth } = await makeUser(role);
      const res = await api().get('/api/admin/analytics/drivers').set(auth);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: ERR.forbidden });
    }
    expect((await api().get('/api/admin/analytics/drivers')).status).toBe(401);
  });
});

describe('GET /api/admin/analytics/drivers', () => {
  it('one row per approved, live conductor, most movements first, every field present', async () => {
    const idle = await makeUser('conductor', { name: 'Ana Vega', email: 'ana@test.local' });
    const busy = await makeUser('conductor', { name: 'Jesús Mora', online: true });
    await tx(() => db.update(users).set({ movementsCount: 7 }).where(eq(users.id, busy.user.id)));
    await makeUser('conductor', { approved: false });
    const gone = await makeUser('conductor');
    await tx(() => db.update(users).set({ deletedAt: now() }).where(eq(users.id, gone.user.id)));
    await makeUser('manager');

    const rows = await analytics();
    expect(rows.map((r) => r.id)).toEqual([busy.user.id, idle.user.id]);
    expect(rowOf(rows, idle)).toEqual({
      id: idle.user.id,
      name: 'Ana Vega',
      email: 'ana@test.local',
      is_online: false,
      movements_count: 0,
      total_time_online_24h: 0,
      average_task_completion_time: null,
      last_activity: null,
    });
    expect(rowOf(rows, busy)).toMatchObject({ is_online: true, movements_count: 7 });
  });

  it('online time: presence intervals clipped to the last 24 h, an open one up to now (minutes)', async () => {
    const d = await makeUser('conductor');
    await presence(d, ago(30 * HOUR), ago(20 * HOUR)); // 4 h inside the window
    await presence(d, ago(3 * HOUR), ago(2 * HOUR)); // 1 h
    await presence(d, ago(48 * HOUR), ago(40 * HOUR)); // outside
    await presence(d, ago(30 * MIN), null); // open: 30 min so far
    const minutes = rowOf(await analytics(), d).total_time_online_24h;
    expect(minutes).toBeGreaterThanOrEqual(330);
    expect(minutes).toBeLessThan(330.5);
  });

  it('average completion time: completed_at − assigned_at over the last 30 days, in minutes', async () => {
    const d = await makeUser('conductor');
    await finished(d, DAY, 20 * MIN);
    await finished(d, 2 * DAY, 45 * MIN);
    await finished(d, 31 * DAY, 300 * MIN); // older than 30 days
    const deleted = await finished(d, 3 * DAY, 500 * MIN);
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, deleted.id)));
    const other = await makeUser('conductor');
    await finished(other, 40 * DAY, 10 * MIN);

    const rows = await analytics();
    expect(rowOf(rows, d).average_task_completion_time).toBe(32.5);
    expect(rowOf(rows, other).average_task_completion_time).toBeNull();
  });

  it('last activity: the latest of presence, punches and task history', async () => {
    const byPunch = await makeUser('conductor');
    await presence(byPunch, ago(5 * HOUR), ago(3 * HOUR));
    const punchAt = ago(HOUR);
    await makePunch(byPunch.user.id, 'entrada', punchAt);

    const byPresence = await makeUser('conductor');
    const leftAt = ago(2 * HOUR);
    await presence(byPresence, ago(4 * HOUR), leftAt);
    await makePunch(byPresence.user.id, 'salida', ago(6 * HOUR));

    const byTask = await makeUser('conductor');
    const task = await finished(byTask, 10 * MIN, 15 * MIN);
    await makePunch(byTask.user.id, 'entrada', ago(3 * HOUR));
    await tx(() =>
      db.insert(taskEvents).values({
        taskId: task.id,
        type: 'completed',
        actorId: byTask.user.id,
        driverId: byTask.user.id,
        at: task.completedAt!,
      }),
    );

    const online = await makeUser('conductor');
    await presence(online, ago(HOUR), null);
    const before = now().getTime();

    const rows = await analytics();
    expect(rowOf(rows, byPunch).last_activity).toBe(punchAt.toISOString());
    expect(rowOf(rows, byPresence).last_activity).toBe(leftAt.toISOString());
    expect(rowOf(rows, byTask).last_activity).toBe(task.completedAt!.toISOString());
    // Still online: active now.
    expect(Date.parse(rowOf(rows, online).last_activity!)).toBeGreaterThanOrEqual(before);
  });
});
