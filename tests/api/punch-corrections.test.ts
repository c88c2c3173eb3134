// Punch corrections (CONTRACT §12, §15): admin and manager add a forgotten punch or remove a wrong one,
// with a reason; both keep the history (who, when, why), write the activity log, reach the driver and
// the supervisors over the socket, show as corrected in Control Conductores and its Excel, and a
// removed punch counts nowhere (status, hours, exports).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ERR, EXCEL, PUNCH_CORRECTION, SUPERVISION_ERR } from '@shared/labels';
import type { DailySummary, LogEntry, PunchCorrectionResponse, TimeclockStatus } from '@shared/schemas';
import { activityLog, punchCorrections, punches } from '../../server/db/tables';
import { fetchWorkbook, sheetTable } from '../helpers/excel';
import {
  collect,
  connectSocket,
  db,
  makePunch,
  makeUser,
  nextEvent,
  now,
  setupServer,
  type TestSocket,
  type TestUser,
} from '../helpers/context';

const MIN = 60_000;
const HOUR = 60 * MIN;
const PATH = '/api/admin/timeclock/punches';

let server: Awaited<ReturnType<typeof setupServer>>;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  server = await setupServer();
  manager = await makeUser('manager', { name: 'Marta Jefa' });
  admin = await makeUser('admin', { name: 'Admin Patio' });
});
afterAll(async () => {
  await server.close();
});
const api = () => server.api();

const ago = (ms: number) => new Date(now().getTime() - ms);
const at = (iso: string) => new Date(iso);

const add = (who: TestUser, body: Record<string, unknown>) => api().post(PATH).set(who.auth).send(body);
const remove = (who: TestUser, id: string, body: Record<string, unknown> = { reason: 'Fichaje duplicado' }) =>
  api().delete(`${PATH}/${id}`).set(who.auth).send(body);

async function daily(query: Record<string, string> = { last_24h: 'true' }): Promise<DailySummary[]> {
  const res = await api().get('/api/admin/timeclock/daily').query(query).set(manager.auth);
  expect(res.status).toBe(200);
  return res.body;
}
const rowOf = (rows: DailySummary[], u: TestUser) => rows.find((r) => r.user_id === u.user.id)!;
const punchId = async (userId: string, timestamp: Date) =>
  (
    await db
      .select()
      .from(punches)
      .where(and(eq(punches.userId, userId), eq(punches.timestamp, timestamp)))
      .limit(1)
  )[0]!.id;
async function status(u: TestUser): Promise<TimeclockStatus> {
  const res = await api().get('/api/timeclock/status').set(u.auth);
  expect(res.status).toBe(200);
  return res.body;
}
async function lastLog(): Promise<LogEntry> {
  const res = await api().get('/api/admin/system/logs').query({ limit: 1 }).set(admin.auth);
  expect(res.status).toBe(200);
  return res.body[0];
}

describe('POST /api/admin/timeclock/punches', () => {
  it('adds a forgotten punch: corrected, in the history, the log, the summary and the status', async () => {
    const driver = await makeUser('conductor', { name: 'Jesús Jiménez' });
    const when = ago(2 * HOUR);
    const res = await add(manager, {
      user_id: driver.user.id,
      clock_type: 'entrada',
      timestamp: when.toISOString(),
      // Cleaned as every stored text (CONTRACT §14): NFD accent composed, zero-width space and spaces gone.
      reason: '  Olvido\u0301 fichar al llegar, confirmado\u200b por cámara ',
    });
    expect(res.status).toBe(201);
    const body = res.body as PunchCorrectionResponse;
    expect(body).toEqual({
      message: PUNCH_CORRECTION.added,
      punch: {
        id: expect.any(String),
        clock_type: 'entrada',
        timestamp: when.toISOString(),
        corrected: true,
        offline: false,
      },
    });

    const [stored] = await db.select().from(punches).where(eq(punches.id, body.punch.id));
    expect(stored).toMatchObject({ userId: driver.user.id, corrected: true, deletedAt: null });
    const history = await db
      .select()
      .from(punchCorrections)
      .where(eq(punchCorrections.punchId, body.punch.id));
    expect(history).toEqual([
      {
        id: expect.any(Number),
        punchId: body.punch.id,
        action: 'added',
        reason: 'Olvidó fichar al llegar, confirmado por cámara',
        actorId: manager.user.id,
        at: expect.any(Date),
      },
    ]);

    const log = await lastLog();
    expect(log).toMatchObject({ type: 'timeclock', user: 'Marta Jefa', action: 'Añadir fichaje' });
    expect(log.details).toContain('Jesús Jiménez');
    expect(log.details).toContain('Olvidó fichar al llegar, confirmado por cámara');

    const row = rowOf(await daily(), driver);
    expect(row.status).toBe('working');
    expect(row.punches).toEqual([body.punch]);
    expect(row.total_hours).toBeGreaterThanOrEqual(2);
    expect(row.corrections).toEqual([
      {
        punch_id: body.punch.id,
        action: 'added',
        clock_type: 'entrada',
        punch_timestamp: when.toISOString(),
        reason: 'Olvidó fichar al llegar, confirmado por cámara',
        actor_name: 'Marta Jefa',
        at: expect.stringMatching(/Z$/),
      },
    ]);
    expect((await status(driver)).status).toBe('clocked_in');
  });

  it('closes a night shift: the forgotten salida makes the day it started count 8 h', async () => {
    const driver = await makeUser('conductor');
    await makePunch(driver.user.id, 'entrada', at('2026-10-20T20:00:00Z')); // 22:00 CEST on the 20th
    expect(rowOf(await daily({ date: '2026-10-20' }), driver).status).toBe('incomplete');
    const res = await add(admin, {
      user_id: driver.user.id,
      clock_type: 'salida',
      timestamp: '2026-10-21T06:00:00+02:00',
      reason: 'Salió sin fichar',
    });
    expect(res.status).toBe(201);
    const first = rowOf(await daily({ date: '2026-10-20' }), driver);
    expect(first.status).toBe('clocked_out');
    expect(first.total_hours).toBeCloseTo(8, 9);
    expect(first.punches.map((p) => p.corrected)).toEqual([false, true]);
    expect(first.corrections.map((c) => [c.action, c.actor_name])).toEqual([['added', 'Admin Patio']]);
    expect(rowOf(await daily({ date: '2026-10-21' }), driver).status).toBe('not_started');
  });

  it('reaches the driver (timeclock:updated) and the supervisors (timeclock:changed)', async () => {
    const driver = await makeUser('conductor');
    const gestor = await makeUser('gestor');
    const sockets: TestSocket[] = await Promise.all(
      [driver, manager, gestor].map((u) => connectSocket(server.url, u.token)),
    );
    const [driverSocket, managerSocket, gestorSocket] = sockets;
    try {
      const gestorChanged = collect(gestorSocket, 'timeclock:changed');
      const updated = nextEvent(driverSocket, 'timeclock:updated');
      const changed = nextEvent(managerSocket, 'timeclock:changed');
      const res = await add(manager, {
        user_id: driver.user.id,
        clock_type: 'entrada',
        timestamp: ago(30 * MIN).toISOString(),
        reason: 'Olvido',
      });
      expect(res.status).toBe(201);
      expect((await updated).status.status).toBe('clocked_in');
      expect(await changed).toMatchObject({ user_id: driver.user.id, status: { status: 'clocked_in' } });

      const removedUpdate = nextEvent(driverSocket, 'timeclock:updated');
      const removedChange = nextEvent(managerSocket, 'timeclock:changed');
      expect((await remove(manager, res.body.punch.id)).status).toBe(200);
      expect((await removedUpdate).status.status).toBe('not_clocked_in');
      expect((await removedChange).status.status).toBe('not_clocked_in');
      expect(gestorChanged).toEqual([]);
    } finally {
      sockets.forEach((s) => s.close());
    }
  });

  it('404 for an unknown driver; 409 for someone who is not an approved conductor', async () => {
    const body = { clock_type: 'entrada', timestamp: ago(HOUR).toISOString(), reason: 'Olvido' };
    const unknown = await add(manager, { ...body, user_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: ERR.userNotFound });
    for (const other of [await makeUser('gestor'), await makeUser('conductor', { approved: false })]) {
      const res = await add(manager, { ...body, user_id: other.user.id });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: SUPERVISION_ERR.punchNotDriver });
    }
  });

  it('400 for a bad type, time, reason or field; a future time; 409 for the same punch twice', async () => {
    const driver = await makeUser('conductor');
    const good = {
      user_id: driver.user.id,
      clock_type: 'salida',
      timestamp: ago(HOUR).toISOString(),
      reason: 'Olvido',
    };
    const bad: Record<string, unknown>[] = [
      { ...good, clock_type: 'pausa' },
      { ...good, timestamp: 'ayer' },
      { ...good, timestamp: '2026-11-20 08:00' },
      { ...good, reason: '' },
      { ...good, reason: '\u200b \u200b' },
      { ...good, reason: 'x'.repeat(500) },
      { ...good, reason: undefined },
      { ...good, user_id: 'no-es-un-id' },
      { ...good, extra: 1 },
    ];
    for (const body of bad) {
      const res = await add(manager, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
    const future = await add(manager, {
      ...good,
      timestamp: new Date(now().getTime() + 5 * MIN).toISOString(),
    });
    expect(future.status).toBe(400);
    expect(future.body).toEqual({ detail: SUPERVISION_ERR.punchInFuture });
    expect(await db.select().from(punches).where(eq(punches.userId, driver.user.id))).toEqual([]);

    expect((await add(manager, good)).status).toBe(201);
    const twice = await add(manager, good);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ detail: SUPERVISION_ERR.punchDuplicate });
  });

  it('the same punch added by two supervisors at once is stored once: one 201, one 409', async () => {
    const driver = await makeUser('conductor');
    const body = {
      user_id: driver.user.id,
      clock_type: 'entrada',
      timestamp: ago(HOUR).toISOString(),
      reason: 'Olvido',
    };
    const [a, b] = await Promise.all([add(manager, body), add(admin, body)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const stored = await db.select().from(punches).where(eq(punches.userId, driver.user.id));
    expect(stored).toHaveLength(1);
    expect(
      await db.select().from(punchCorrections).where(eq(punchCorrections.punchId, stored[0]!.id)),
    ).toHaveLength(1);
  });
});

describe('DELETE /api/admin/timeclock/punches/{id}', () => {
  it('removes a wrong punch softly: out of status, hours and counts; the row and its history stay', async () => {
    const driver = await makeUser('conductor');
    const entrada = ago(5 * HOUR);
    const wrong = ago(4 * HOUR);
    const salida = ago(HOUR);
    await makePunch(driver.user.id, 'entrada', entrada);
    const stray = ago(4 * HOUR - MIN);
    await makePunch(driver.user.id, 'salida', wrong); // pressed by mistake
    await makePunch(driver.user.id, 'entrada', stray);
    await makePunch(driver.user.id, 'salida', salida);
    const before = rowOf(await daily(), driver);
    expect(before.punches).toHaveLength(4);
    const wrongId = await punchId(driver.user.id, wrong);
    const secondEntrada = await punchId(driver.user.id, stray);

    const res = await remove(admin, wrongId, { reason: 'Pulsó salida por error' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: PUNCH_CORRECTION.removed,
      punch: {
        id: wrongId,
        clock_type: 'salida',
        timestamp: wrong.toISOString(),
        corrected: false,
        offline: false,
      },
    });
    // Removing the stray entrada too leaves one shift of 4 h.
    expect((await remove(admin, secondEntrada, { reason: 'Entrada duplicada' })).status).toBe(200);

    const [stored] = await db.select().from(punches).where(eq(punches.id, wrongId));
    expect(stored!.deletedAt).toBeInstanceOf(Date);
    expect(await db.select().from(punchCorrections).where(eq(punchCorrections.punchId, wrongId))).toEqual([
      {
        id: expect.any(Number),
        punchId: wrongId,
        action: 'removed',
        reason: 'Pulsó salida por error',
        actorId: admin.user.id,
        at: expect.any(Date),
      },
    ]);

    const row = rowOf(await daily(), driver);
    expect(row.punches.map((p) => p.timestamp)).toEqual([entrada.toISOString(), salida.toISOString()]);
    expect(row.status).toBe('clocked_out');
    expect(row.total_hours).toBeCloseTo(4, 6);
    expect(row.corrections.map((c) => [c.action, c.clock_type, c.reason, c.actor_name])).toEqual([
      ['removed', 'salida', 'Pulsó salida por error', 'Admin Patio'],
      ['removed', 'entrada', 'Entrada duplicada', 'Admin Patio'],
    ]);
    const st = await status(driver);
    expect(st).toMatchObject({ status: 'clocked_out', last_salida: salida.toISOString() });

    const log = await lastLog();
    expect(log).toMatchObject({ type: 'timeclock', user: 'Admin Patio', action: 'Eliminar fichaje' });
    expect(log.details).toContain('Entrada duplicada');
  });

  it('a removed entrada no longer keeps the driver clocked in', async () => {
    const driver = await makeUser('conductor');
    const when = ago(10 * MIN);
    await makePunch(driver.user.id, 'entrada', when);
    expect((await status(driver)).status).toBe('clocked_in');
    expect((await remove(manager, await punchId(driver.user.id, when))).status).toBe(200);
    expect(await status(driver)).toMatchObject({ status: 'not_clocked_in', punches_today: 0 });
  });

  it('404 for an unknown or already removed punch; 400 for a bad id or no reason', async () => {
    const driver = await makeUser('conductor');
    const when = ago(3 * HOUR);
    await makePunch(driver.user.id, 'entrada', when);
    const id = await punchId(driver.user.id, when);
    expect((await remove(manager, id, {})).status).toBe(400);
    expect((await remove(manager, id, { reason: '   ' })).status).toBe(400);
    expect((await remove(manager, 'abc')).status).toBe(400);
    const unknown = await remove(manager, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: SUPERVISION_ERR.punchNotFound });
    expect((await remove(manager, id)).status).toBe(200);
    const again = await remove(manager, id);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: SUPERVISION_ERR.punchNotFound });
    expect(await db.select().from(punchCorrections).where(eq(punchCorrections.punchId, id))).toHaveLength(1);
  });

  it('one punch removed by two supervisors at once: one 200, one 404, one history row', async () => {
    const driver = await makeUser('conductor');
    const when = ago(2 * HOUR);
    await makePunch(driver.user.id, 'entrada', when);
    const id = await punchId(driver.user.id, when);
    const [a, b] = await Promise.all([remove(manager, id), remove(admin, id)]);
    expect([a.status, b.status].sort()).toEqual([200, 404]);
    expect(await db.select().from(punchCorrections).where(eq(punchCorrections.punchId, id))).toHaveLength(1);
  });
});

describe('who may correct punches (CONTRACT §12)', () => {
  it('admin and manager; gestor and conductor 403; anonymous 401 — and nothing changes', async () => {
    const driver = await makeUser('conductor');
    const when = ago(2 * HOUR);
    await makePunch(driver.user.id, 'entrada', when);
    const id = await punchId(driver.user.id, when);
    const body = {
      user_id: driver.user.id,
      clock_type: 'salida',
      timestamp: ago(HOUR).toISOString(),
      reason: 'x',
    };
    for (const role of ['gestor', 'conductor'] as const) {
      const who = await makeUser(role);
      const added = await add(who, body);
      expect(added.status).toBe(403);
      expect(added.body).toEqual({ detail: ERR.forbidden });
      expect((await remove(who, id)).status).toBe(403);
    }
    expect((await api().post(PATH).send(body)).status).toBe(401);
    expect((await api().delete(`${PATH}/${id}`).send({ reason: 'x' })).status).toBe(401);
    expect(await db.select().from(punches).where(eq(punches.userId, driver.user.id))).toHaveLength(1);
    expect(await db.select().from(punchCorrections).where(eq(punchCorrections.punchId, id))).toEqual([]);
    const logs = await db.select().from(activityLog).where(eq(activityLog.action, 'Añadir fichaje'));
    expect(logs.every((l) => l.userId === manager.user.id || l.userId === admin.user.id)).toBe(true);
  });
});

const wall = (iso: string) => new Date(`${iso}Z`);

describe('the Excel export shows the corrections', () => {
  it('Corregido on the day and the punch; a Correcciones sheet says who, when and why', async () => {
    const driver = await makeUser('conductor', { name: 'Zoe Excel' });
    await makePunch(driver.user.id, 'entrada', at('2026-09-10T06:00:00Z')); // 08:00 CEST
    await makePunch(driver.user.id, 'salida', at('2026-09-10T07:00:00Z')); // a stray salida at 09:00
    expect(
      (await remove(manager, await punchId(driver.user.id, at('2026-09-10T07:00:00Z')), { reason: 'Error' }))
        .status,
    ).toBe(200);
    const added = await add(manager, {
      user_id: driver.user.id,
      clock_type: 'salida',
      timestamp: '2026-09-10T16:00:00+02:00',
      reason: 'Olvidó la salida',
    });
    expect(added.status).toBe(201);

    const { res, wb } = await fetchWorkbook(
      api()
        .get('/api/admin/timeclock/export-excel')
        .query({ date_from: '2026-09-10', date_to: '2026-09-10' })
        .set(manager.auth),
    );
    expect(res.status).toBe(200);
    const { daily, punches: punchSheet, corrections } = EXCEL.timeclock;

    const day = sheetTable(wb!.getWorksheet(daily.sheet)!);
    expect(day.header).toEqual(Object.values(daily.headers));
    const mine = day.rows.filter((r) => r[1] === 'Zoe Excel');
    expect(mine).toHaveLength(1);
    expect(mine[0][6]).toBeCloseTo(8, 9); // 08:00 → 16:00, the stray salida gone
    expect(String(mine[0][8])).toContain('Eliminado por Marta Jefa');
    expect(String(mine[0][8])).toContain('Añadido por Marta Jefa');
    expect(String(mine[0][8])).toContain('Olvidó la salida');

    const ps = sheetTable(wb!.getWorksheet(punchSheet.sheet)!);
    expect(ps.header).toEqual(Object.values(punchSheet.headers));
    expect(ps.rows.filter((r) => r[0] === 'Zoe Excel')).toEqual([
      ['Zoe Excel', 'Entrada', wall('2026-09-10T08:00:00')],
      ['Zoe Excel', 'Salida', wall('2026-09-10T16:00:00'), EXCEL.timeclock.corrected],
    ]);

    const cs = sheetTable(wb!.getWorksheet(corrections.sheet)!);
    expect(cs.header).toEqual(Object.values(corrections.headers));
    expect(cs.rows.filter((r) => r[0] === 'Zoe Excel').map((r) => r.slice(0, 6))).toEqual([
      ['Zoe Excel', 'Eliminado', 'Salida', wall('2026-09-10T09:00:00'), 'Error', 'Marta Jefa'],
      ['Zoe Excel', 'Añadido', 'Salida', wall('2026-09-10T16:00:00'), 'Olvidó la salida', 'Marta Jefa'],
    ]);
  });
});
