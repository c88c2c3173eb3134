// `client_time` of the phone's offline actions (CONTRACT §16): used for complete, return and punch when
// it is in the past, within 12 h and after the task's assigned_at / the driver's previous punch; else the
// server's time. A punch that used it is `offline: true`, also in the daily summary.
import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ERR } from '@shared/labels';
import type { DailySummary } from '@shared/schemas';
import { punches, taskEvents, tasks } from '../../server/db/tables';
import { db, makePunch, makeTask, makeUser, now, setupApp } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});

const MIN = 60_000;
const HOUR = 60 * MIN;
const ago = (ms: number) => new Date(now().getTime() - ms);
type Auth = Record<string, string>;

const punch = (auth: Auth, type: 'entrada' | 'salida', body?: object) => {
  const req = api().post(`/api/timeclock/punch?clock_type=${type}`).set(auth);
  return body ? req.send(body) : req;
};
const punchesOf = (userId: string) =>
  db.select().from(punches).where(eq(punches.userId, userId)).orderBy(punches.timestamp);
const taskRow = async (id: string) => (await db.select().from(tasks).where(eq(tasks.id, id)))[0]!;
const eventAt = async (taskId: string, type: 'completed' | 'returned') =>
  (
    await db
      .select()
      .from(taskEvents)
      .where(and(eq(taskEvents.taskId, taskId), eq(taskEvents.type, type)))
      .limit(1)
  )[0]!.at;
/** True when the time is the server's "now" of the request (not the client's). */
const isServerTime = (at: Date, before: number) => at.getTime() >= before && at.getTime() <= now().getTime();

describe('POST /timeclock/punch with client_time', () => {
  it('a valid client_time is the punch time, marked offline (answer, row, daily summary)', async () => {
    const driver = await makeUser('conductor');
    const manager = await makeUser('manager');
    const clientTime = ago(30 * MIN);
    const res = await punch(driver.auth, 'entrada', { client_time: clientTime.toISOString() });
    expect(res.status).toBe(200);
    expect(res.body.timestamp).toBe(clientTime.toISOString());
    const [row] = await punchesOf(driver.user.id);
    expect(row.timestamp.getTime()).toBe(clientTime.getTime());
    expect(row.offline).toBe(true);

    const summary = await api().get('/api/admin/timeclock/daily?last_24h=true').set(manager.auth);
    expect(summary.status).toBe(200);
    const mine = (summary.body as DailySummary[]).find((d) => d.user_id === driver.user.id)!;
    expect(mine.punches).toEqual([
      expect.objectContaining({ clock_type: 'entrada', timestamp: clientTime.toISOString(), offline: true }),
    ]);
    expect(mine.clock_in).toBe(clientTime.toISOString());
  });

  it('accepts an offset other than Z', async () => {
    const driver = await makeUser('conductor');
    const clientTime = ago(10 * MIN);
    const withOffset = new Date(clientTime.getTime() + 2 * HOUR).toISOString().replace('Z', '+02:00');
    const res = await punch(driver.auth, 'entrada', { client_time: withOffset });
    expect(res.status).toBe(200);
    expect((await punchesOf(driver.user.id))[0].timestamp.getTime()).toBe(clientTime.getTime());
  });

  it.each([
    ['in the future', () => new Date(now().getTime() + 5 * MIN)],
    ['older than 12 h', () => ago(12 * HOUR + MIN)],
  ])('a client_time %s is ignored: server time, not offline', async (_label, time) => {
    const driver = await makeUser('conductor');
    const before = now().getTime();
    const res = await punch(driver.auth, 'entrada', { client_time: time().toISOString() });
    expect(res.status).toBe(200);
    const [row] = await punchesOf(driver.user.id);
    expect(row.offline).toBe(false);
    expect(isServerTime(row.timestamp, before)).toBe(true);
    expect(res.body.timestamp).toBe(row.timestamp.toISOString());
  });

  it('before the previous punch it is ignored; after it, used', async () => {
    const driver = await makeUser('conductor');
    await makePunch(driver.user.id, 'entrada', ago(2 * HOUR));
    const before = now().getTime();
    const early = await punch(driver.auth, 'salida', { client_time: ago(3 * HOUR).toISOString() });
    expect(early.status).toBe(200);
    const salida = (await punchesOf(driver.user.id))[1];
    expect(salida.offline).toBe(false);
    expect(isServerTime(salida.timestamp, before)).toBe(true);

    const other = await makeUser('conductor');
    await makePunch(other.user.id, 'entrada', ago(2 * HOUR));
    const between = ago(HOUR);
    const ok = await punch(other.auth, 'salida', { client_time: between.toISOString() });
    expect(ok.body.timestamp).toBe(between.toISOString());
    expect((await punchesOf(other.user.id))[1]).toMatchObject({ timestamp: between, offline: true });
  });

  it('without a body, or an empty one, the punch is the server time as before', async () => {
    const driver = await makeUser('conductor');
    expect((await punch(driver.auth, 'entrada', {})).status).toBe(200);
    expect((await punchesOf(driver.user.id))[0].offline).toBe(false);
    const other = await makeUser('conductor');
    expect((await punch(other.auth, 'entrada')).status).toBe(200);
    expect((await punchesOf(other.user.id))[0].offline).toBe(false);
  });

  it('a client_time that is not an ISO date-time: 400 with the Spanish detail, no punch', async () => {
    const driver = await makeUser('conductor');
    for (const bad of ['ayer', '2026-01-01', 12345, '2026-13-01T10:00:00Z']) {
      const res = await punch(driver.auth, 'entrada', { client_time: bad });
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(ERR.clientTimeInvalid);
    }
    expect(await punchesOf(driver.user.id)).toHaveLength(0);
  });
});

describe('POST /tasks/{id}/complete and /return with client_time', () => {
  const complete = (auth: Auth, id: string, body?: object) => {
    const req = api().post(`/api/tasks/${id}/complete`).set(auth);
    return body ? req.send(body) : req;
  };
  const giveBack = (auth: Auth, id: string, body: object) =>
    api().post(`/api/tasks/${id}/return`).set(auth).send(body);

  it('complete: a valid client_time is completed_at and the history event time', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id, assignedAt: ago(HOUR) });
    const clientTime = ago(20 * MIN);
    const res = await complete(driver.auth, task.id, { client_time: clientTime.toISOString() });
    expect(res.status).toBe(200);
    expect(await taskRow(task.id)).toMatchObject({ status: 'finalizada', completedAt: clientTime });
    expect(await eventAt(task.id, 'completed')).toEqual(clientTime);
  });

  it.each([
    ['in the future', () => new Date(now().getTime() + 5 * MIN), HOUR],
    ['older than 12 h', () => ago(12 * HOUR + MIN), 13 * HOUR],
    ['before assigned_at', () => ago(2 * HOUR), HOUR],
  ])('complete: a client_time %s is ignored (server time)', async (_label, time, assignedAgo) => {
    const driver = await makeUser('conductor');
    const task = await makeTask({
      status: 'en_proceso',
      assignedTo: driver.user.id,
      createdAt: ago(assignedAgo),
      assignedAt: ago(assignedAgo),
    });
    const before = now().getTime();
    const res = await complete(driver.auth, task.id, { client_time: time().toISOString() });
    expect(res.status).toBe(200);
    const row = await taskRow(task.id);
    expect(isServerTime(row.completedAt!, before)).toBe(true);
    expect(await eventAt(task.id, 'completed')).toEqual(row.completedAt);
  });

  it('complete: a malformed client_time is a 400, the task untouched', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const res = await complete(driver.auth, task.id, { client_time: 'hace un rato' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(ERR.clientTimeInvalid);
    expect((await taskRow(task.id)).status).toBe('en_proceso');
  });

  it('return: a valid client_time is the return event time; one before assigned_at is ignored', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({
      status: 'en_proceso',
      assignedTo: driver.user.id,
      vehicleType: 'swap',
      assignedAt: ago(HOUR),
    });
    const clientTime = ago(15 * MIN);
    const res = await giveBack(driver.auth, task.id, {
      reason: 'Remolque no encontrado',
      client_time: clientTime.toISOString(),
    });
    expect(res.status).toBe(200);
    expect(await eventAt(task.id, 'returned')).toEqual(clientTime);
    expect(await taskRow(task.id)).toMatchObject({ status: 'bolsa_trabajo', returnedAt: clientTime });

    const second = await makeTask({
      status: 'en_proceso',
      assignedTo: driver.user.id,
      vehicleType: 'swap',
      assignedAt: ago(HOUR),
    });
    const before = now().getTime();
    await giveBack(driver.auth, second.id, { client_time: ago(2 * HOUR).toISOString() });
    expect(isServerTime(await eventAt(second.id, 'returned'), before)).toBe(true);
  });
});
