// The driver's time clock (CONTRACT §7): status, punches, their 409s and the night shift.
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ERR } from '@shared/labels';
import { madridWall } from '@shared/time';
import { activityLog, punches, tasks, users } from '../../server/db/tables';
import { advanceClock, db, makePunch, makeTask, makeUser, now, setupApp, tx } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeAll(async () => {
  ({ api } = await setupApp());
});

const HOUR = 3_600_000;
const status = (auth: Record<string, string>) => api().get('/api/timeclock/status').set(auth);
const punch = (auth: Record<string, string>, clockType: string) =>
  api().post(`/api/timeclock/punch?clock_type=${clockType}`).set(auth);
const punchRows = (userId: string) => db.select().from(punches).where(eq(punches.userId, userId));

/** Moves the server clock forward to the next Madrid wall time hh:mm. */
async function advanceToMadrid(hour: number, minute = 0): Promise<void> {
  const w = madridWall(now());
  const minutesNow = w.hour * 60 + w.minute;
  let delta = hour * 60 + minute - minutesNow;
  if (delta <= 0) delta += 24 * 60;
  await advanceClock(delta * 60_000 - w.second * 1000);
}

describe('who may use the time clock', () => {
  it.each([
    ['get', '/api/timeclock/status'],
    ['post', '/api/timeclock/punch?clock_type=entrada'],
  ] as const)('%s %s: 401 without a token, 403 for staff', async (method, path) => {
    expect((await api()[method](path)).status).toBe(401);
    for (const role of ['gestor', 'manager', 'admin'] as const) {
      const { auth } = await makeUser(role);
      const res = await api()[method](path).set(auth);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: ERR.forbidden });
    }
  });
});

describe('GET /api/timeclock/status and POST /api/timeclock/punch', () => {
  it('starts not clocked in', async () => {
    const driver = await makeUser('conductor');
    const res = await status(driver.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'not_clocked_in',
      can_clock_in: true,
      can_clock_out: false,
      last_entrada: null,
      last_salida: null,
      punches_today: 0,
    });
  });

  it('entrada then salida: answers, status, the stored punch, idle time and the log', async () => {
    const driver = await makeUser('conductor', { name: 'Rosa Fichadora' });
    const entrada = await punch(driver.auth, 'entrada');
    expect(entrada.status).toBe(200);
    expect(entrada.body).toEqual({
      message: 'Entrada registrada correctamente',
      timestamp: expect.any(String),
    });
    const [row] = await punchRows(driver.user.id);
    expect(row).toMatchObject({ clockType: 'entrada' });
    expect(row.timestamp.toISOString()).toBe(entrada.body.timestamp);
    const [stored] = await db.select().from(users).where(eq(users.id, driver.user.id));
    expect(stored?.idleSince?.toISOString()).toBe(entrada.body.timestamp);
    expect((await status(driver.auth)).body).toEqual({
      status: 'clocked_in',
      can_clock_in: false,
      can_clock_out: true,
      last_entrada: entrada.body.timestamp,
      last_salida: null,
      punches_today: 1,
    });
    await advanceClock(60_000);
    const salida = await punch(driver.auth, 'salida');
    expect(salida.status).toBe(200);
    expect(salida.body.message).toBe('Salida registrada correctamente');
    expect((await status(driver.auth)).body).toMatchObject({
      status: 'clocked_out',
      can_clock_in: true,
      can_clock_out: false,
      last_entrada: entrada.body.timestamp,
      last_salida: salida.body.timestamp,
    });
    const log = await db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.type, 'timeclock'), eq(activityLog.userId, driver.user.id)));
    expect(log.map((r) => r.action)).toEqual(['Fichar entrada', 'Fichar salida']);
    expect(log[0].details).toMatch(/^Rosa Fichadora fichó la entrada a las \d{2}:\d{2}$/);
  });

  it('refuses what the flags do not allow (409)', async () => {
    const driver = await makeUser('conductor');
    const early = await punch(driver.auth, 'salida');
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ detail: ERR.notClockedIn });
    await punch(driver.auth, 'entrada').expect(200);
    const twice = await punch(driver.auth, 'entrada');
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ detail: ERR.alreadyClockedIn });
    expect(await punchRows(driver.user.id)).toHaveLength(1);
  });

  it('refuses salida while the driver holds an active task', async () => {
    const driver = await makeUser('conductor');
    await punch(driver.auth, 'entrada').expect(200);
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id, vehicleType: 'swap' });
    const res = await punch(driver.auth, 'salida');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: ERR.salidaWithTask });
    await tx(() =>
      db.update(tasks).set({ status: 'finalizada', completedAt: now() }).where(eq(tasks.id, task.id)),
    );
    await punch(driver.auth, 'salida').expect(200);
  });

  it.each(['', 'pausa', 'ENTRADA'])('400 for clock_type=%j', async (value) => {
    const driver = await makeUser('conductor');
    const res = await punch(driver.auth, value);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('Tipo de fichaje no válido');
    expect(await punchRows(driver.user.id)).toHaveLength(0);
  });

  it('400 without clock_type', async () => {
    const res = await api()
      .post('/api/timeclock/punch')
      .set((await makeUser('conductor')).auth);
    expect(res.status).toBe(400);
  });

  it('two entradas at once store one punch: one 200, one 409', async () => {
    const driver = await makeUser('conductor');
    const [a, b] = await Promise.all([punch(driver.auth, 'entrada'), punch(driver.auth, 'entrada')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await punchRows(driver.user.id)).toHaveLength(1);
  });

  it('a clock-in makes the driver available: waiting work is assigned at once', async () => {
    const driver = await makeUser('conductor', { taskTypes: ['semiremolque_out_km0'] });
    const task = await makeTask({ vehicleType: 'semiremolque_out_km0' });
    await punch(driver.auth, 'entrada').expect(200);
    // The round starts once the punch has committed, beside the answer.
    await expect
      .poll(async () => (await db.select().from(tasks).where(eq(tasks.id, task.id)))[0])
      .toMatchObject({ status: 'en_proceso', assignedTo: driver.user.id });
  });
});

describe('the 24-hour window and the Madrid day', () => {
  it('a night shift across midnight stays clocked in; punches_today counts the new day', async () => {
    await advanceToMadrid(22, 0);
    const driver = await makeUser('conductor');
    const entrada = await punch(driver.auth, 'entrada');
    expect((await status(driver.auth)).body.punches_today).toBe(1);
    await advanceClock(4 * HOUR); // 02:00 the next Madrid day
    expect(madridWall(now()).hour).toBe(2);
    expect((await status(driver.auth)).body).toEqual({
      status: 'clocked_in',
      can_clock_in: false,
      can_clock_out: true,
      last_entrada: entrada.body.timestamp,
      last_salida: null,
      punches_today: 0,
    });
    await advanceClock(4 * HOUR);
    const salida = await punch(driver.auth, 'salida');
    expect(salida.status).toBe(200);
    expect((await status(driver.auth)).body).toMatchObject({
      status: 'clocked_out',
      last_entrada: entrada.body.timestamp,
      last_salida: salida.body.timestamp,
      punches_today: 1,
    });
  });

  it('punches older than 24 hours no longer count', async () => {
    const driver = await makeUser('conductor');
    await makePunch(driver.user.id, 'entrada', new Date(now().getTime() - 25 * HOUR));
    expect((await status(driver.auth)).body).toMatchObject({
      status: 'not_clocked_in',
      can_clock_in: true,
      last_entrada: null,
    });
    await punch(driver.auth, 'entrada').expect(200);
  });
});
