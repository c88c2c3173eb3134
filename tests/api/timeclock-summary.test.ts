// Control Conductores' daily summary (CONTRACT §7): every approved conductor with one status, first
// entrada, last salida, hours worked (open pair up to now) and punches; night shifts and DST days.
import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ERR, SUPERVISION_ERR } from '@shared/labels';
import type { DailySummary } from '@shared/schemas';
import { users } from '../../server/db/tables';
import { db, makePunch, makeUser, now, setupApp, tx, type TestUser } from '../helpers/context';

const MIN = 60_000;
const HOUR = 60 * MIN;

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let manager: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  manager = await makeUser('manager');
});

const ago = (ms: number) => new Date(now().getTime() - ms);
const at = (iso: string) => new Date(iso);

async function daily(query: Record<string, string> = { last_24h: 'true' }): Promise<DailySummary[]> {
  const res = await api().get('/api/admin/timeclock/daily').query(query).set(manager.auth);
  expect(res.status).toBe(200);
  return res.body;
}
const rowOf = (rows: DailySummary[], user: TestUser) => rows.find((r) => r.user_id === user.user.id)!;

describe('who may read Control Conductores (CONTRACT §12)', () => {
  it('manager and admin yes; gestor and conductor 403; anonymous 401', async () => {
    const path = '/api/admin/timeclock/daily?last_24h=true';
    expect(
      (
        await api()
          .get(path)
          .set((await makeUser('admin')).auth)
      ).status,
    ).toBe(200);
    for (const role of ['gestor', 'conductor'] as const) {
      const res = await api()
        .get(path)
        .set((await makeUser(role)).auth);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: ERR.forbidden });
    }
    expect((await api().get(path)).status).toBe(401);
  });
});

describe('GET /api/admin/timeclock/daily', () => {
  it('lists every approved, live conductor once, by name, including those without punches', async () => {
    const b = await makeUser('conductor', { name: 'Beatriz Soto' });
    const a = await makeUser('conductor', { name: 'Álvaro Núñez' });
    await makeUser('conductor', { name: 'Pendiente', approved: false });
    const gone = await makeUser('conductor', { name: 'Borrado' });
    await tx(() => db.update(users).set({ deletedAt: now() }).where(eq(users.id, gone.user.id)));
    await makeUser('gestor');

    const rows = await daily();
    expect(rows.map((r) => r.user_name)).toEqual(['Álvaro Núñez', 'Beatriz Soto']);
    expect(rowOf(rows, a)).toEqual({
      user_id: a.user.id,
      user_name: 'Álvaro Núñez',
      status: 'not_started',
      clock_in: null,
      clock_out: null,
      total_hours: 0,
      punches: [],
      corrections: [],
    });
    expect(rowOf(rows, b).status).toBe('not_started');
  });

  it('working: last punch an entrada; hours run up to now', async () => {
    const d = await makeUser('conductor');
    const entrada = ago(2 * HOUR);
    await makePunch(d.user.id, 'entrada', entrada);
    const row = rowOf(await daily(), d);
    expect(row.status).toBe('working');
    expect(row.clock_in).toBe(entrada.toISOString());
    expect(row.clock_out).toBeNull();
    expect(row.total_hours).toBeGreaterThanOrEqual(2);
    expect(row.total_hours).toBeLessThan(2.01);
    expect(row.punches).toEqual([
      {
        id: expect.any(String),
        clock_type: 'entrada',
        timestamp: entrada.toISOString(),
        corrected: false,
        offline: false,
      },
    ]);
  });

  it('clocked_out: sums every entrada→salida pair, unrounded; first entrada and last salida', async () => {
    const d = await makeUser('conductor');
    const first = ago(12 * HOUR);
    const last = new Date(first.getTime() + 8 * HOUR + 40 * MIN);
    await makePunch(d.user.id, 'entrada', first);
    await makePunch(d.user.id, 'salida', new Date(first.getTime() + 4 * HOUR));
    await makePunch(d.user.id, 'entrada', new Date(first.getTime() + 5 * HOUR));
    await makePunch(d.user.id, 'salida', last);
    const row = rowOf(await daily(), d);
    expect(row.status).toBe('clocked_out');
    expect(row.total_hours).toBeCloseTo(4 + 3 + 40 / 60, 9); // 7.666…, not rounded
    expect(row.clock_in).toBe(first.toISOString());
    expect(row.clock_out).toBe(last.toISOString());
    expect(row.punches.map((p) => p.clock_type)).toEqual(['entrada', 'salida', 'entrada', 'salida']);
  });

  it('incomplete: a salida without its entrada', async () => {
    const d = await makeUser('conductor');
    await makePunch(d.user.id, 'salida', ago(3 * HOUR));
    const row = rowOf(await daily(), d);
    expect(row).toMatchObject({ status: 'incomplete', clock_in: null, total_hours: 0 });
    expect(row.clock_out).not.toBeNull();
  });

  it('incomplete: an entrada older than 16 h without salida (16 h exactly is still working)', async () => {
    const stale = await makeUser('conductor');
    await makePunch(stale.user.id, 'entrada', ago(17 * HOUR));
    const sixteen = await makeUser('conductor');
    await makePunch(sixteen.user.id, 'entrada', ago(16 * HOUR - MIN));
    const rows = await daily();
    expect(rowOf(rows, stale).status).toBe('incomplete');
    expect(rowOf(rows, stale).total_hours).toBeGreaterThanOrEqual(17);
    expect(rowOf(rows, sixteen).status).toBe('working');
  });

  it('a night shift belongs to the Madrid day it started: counted whole there; the next day ignores its salida', async () => {
    const d = await makeUser('conductor');
    const entrada = at('2026-11-19T21:00:00Z'); // 22:00 Madrid on the 19th
    const salida = at('2026-11-20T05:00:00Z'); // 06:00 Madrid on the 20th
    await makePunch(d.user.id, 'entrada', entrada);
    await makePunch(d.user.id, 'salida', salida);

    const first = rowOf(await daily({ date: '2026-11-19' }), d);
    expect(first).toMatchObject({
      status: 'clocked_out',
      clock_in: entrada.toISOString(),
      clock_out: salida.toISOString(),
    });
    expect(first.punches.map((p) => [p.clock_type, p.timestamp])).toEqual([
      ['entrada', entrada.toISOString()],
      ['salida', salida.toISOString()],
    ]);
    expect(first.total_hours).toBeCloseTo(8, 9);

    // The 20th: the salida that closed the 19th's shift is not a salida without entrada.
    const second = rowOf(await daily({ date: '2026-11-20' }), d);
    expect(second).toMatchObject({ status: 'not_started', clock_in: null, clock_out: null, punches: [] });
    expect(second.total_hours).toBe(0);
  });

  it('the next day keeps its own shift after ignoring the salida of the night before', async () => {
    const d = await makeUser('conductor');
    await makePunch(d.user.id, 'entrada', at('2026-11-19T21:00:00Z')); // 22:00 on the 19th
    await makePunch(d.user.id, 'salida', at('2026-11-20T05:00:00Z')); // 06:00 on the 20th
    await makePunch(d.user.id, 'entrada', at('2026-11-20T21:00:00Z')); // 22:00 on the 20th
    await makePunch(d.user.id, 'salida', at('2026-11-21T04:30:00Z')); // 05:30 on the 21st
    const second = rowOf(await daily({ date: '2026-11-20' }), d);
    expect(second.status).toBe('clocked_out');
    expect(second.clock_in).toBe('2026-11-20T21:00:00.000Z');
    expect(second.punches).toHaveLength(2);
    expect(second.total_hours).toBeCloseTo(7.5, 9);
    expect(rowOf(await daily({ date: '2026-11-21' }), d).status).toBe('not_started');
  });

  it('a night shift across the 25-hour day 2026-10-25 counts its real hours on the 24th', async () => {
    const d = await makeUser('conductor');
    await makePunch(d.user.id, 'entrada', at('2026-10-24T20:00:00Z')); // 22:00 CEST on the 24th
    await makePunch(d.user.id, 'salida', at('2026-10-25T05:00:00Z')); // 06:00 CET on the 25th
    // 22:00 → 06:00 on the wall clock, but the clocks went back an hour: 9 real hours.
    const first = rowOf(await daily({ date: '2026-10-24' }), d);
    expect(first.status).toBe('clocked_out');
    expect(first.total_hours).toBeCloseTo(9, 9);
    const second = rowOf(await daily({ date: '2026-10-25' }), d);
    expect(second).toMatchObject({ status: 'not_started', total_hours: 0 });
  });

  it('a shift inside the 25-hour day 2026-10-25 counts real hours', async () => {
    const d = await makeUser('conductor');
    await makePunch(d.user.id, 'entrada', at('2026-10-24T23:30:00Z')); // 01:30 CEST on the 25th
    await makePunch(d.user.id, 'salida', at('2026-10-25T06:00:00Z')); // 07:00 CET on the 25th
    expect(rowOf(await daily({ date: '2026-10-25' }), d).total_hours).toBeCloseTo(6.5, 9);
    expect(rowOf(await daily({ date: '2026-10-24' }), d).status).toBe('not_started');
  });

  it('the last 24 h: no parameter means the same; a shift begun before the window counts its part inside', async () => {
    const d = await makeUser('conductor');
    await makePunch(d.user.id, 'entrada', ago(26 * HOUR));
    await makePunch(d.user.id, 'salida', ago(20 * HOUR));
    const row = rowOf(await daily(), d);
    expect(row.status).toBe('clocked_out');
    expect(row.total_hours).toBeCloseTo(4, 3);
    expect(row.punches).toHaveLength(2);
    const byDefault = rowOf(await daily({}), d);
    expect(byDefault).toMatchObject({ status: 'clocked_out', punches: row.punches });
    expect(byDefault.total_hours).toBeCloseTo(4, 3);
  });

  it('400 for both last_24h and a date, a bad date or an unknown parameter', async () => {
    const both = await api()
      .get('/api/admin/timeclock/daily')
      .query({ last_24h: 'true', date: '2026-11-20' })
      .set(manager.auth);
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ detail: SUPERVISION_ERR.last24hOrDate });
    for (const query of [{ date: '2026-13-01' }, { last_24h: 'quizás' }, { dia: '2026-11-20' }]) {
      const res = await api().get('/api/admin/timeclock/daily').query(query).set(manager.auth);
      expect(res.status).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
  });
});
