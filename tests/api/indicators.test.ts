// The yard's indicators (issue 30, CONTRACT §22, §24): a small yard whose every figure is computed by hand
// (Madrid is UTC+1 in November: local times are written next to the UTC ones), the October DST day, the
// period's limits, who may read them, the Excel, and the SQL rules tied to their JavaScript definitions
// (percentile_cont, a visit's wait). Runs on both engines (server-pg).
import { beforeEach, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { IndicatorFigures, Indicators } from '@shared/schemas';
import { ERR, INDICATOR_LABELS, INDICATORS_EXCEL } from '@shared/labels';
import { waitS } from '@shared/gate';
import { EMPTY_FIGURES } from '@shared/indicators';
import { carrierKey, plateKey } from '@shared/text';
import { madridDay } from '@shared/time';
import { gateVisits, taskEvents, tasks } from '../../server/db/tables';
import { query } from '../../server/db';
import { percentileOfMs, WAIT_S_SQL } from '../../server/services/indicators';
import { sqlFor } from '../../server/db/dialect';
import { db, makePunch, makeUser, now, setupApp, tx, type TestUser } from '../helpers/context';
import { fetchWorkbook, sheetTable } from '../helpers/excel';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let manager: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  manager = await makeUser('manager');
});

const at = (iso: string) => new Date(iso);

/** A task as the transitions leave it; only the times and outcome the indicators read are given. */
async function task(f: {
  created: string;
  assigned?: string;
  completed?: string;
  due?: string;
  lateS?: number;
  proof?: 'scan' | 'staff';
}): Promise<string> {
  const id = crypto.randomUUID();
  const trailerId = `R-${id.slice(0, 6)}`;
  await tx(() =>
    db.insert(tasks).values({
      id,
      title: 'Mover',
      origin: 'Muelle 1',
      destination: 'Campa A-12',
      trailerId,
      trailerKey: plateKey(trailerId),
      status: f.completed ? 'finalizada' : f.assigned ? 'en_proceso' : 'bolsa_trabajo',
      createdAt: at(f.created),
      updatedAt: at(f.completed ?? f.assigned ?? f.created),
      statusSince: at(f.completed ?? f.assigned ?? f.created),
      assignedAt: f.assigned ? at(f.assigned) : null,
      completedAt: f.completed ? at(f.completed) : null,
      dueAt: f.due ? at(f.due) : null,
      lateS: f.completed && f.due ? (f.lateS ?? 0) : null,
      proof: f.completed ? (f.proof ?? 'staff') : null,
    }),
  );
  return id;
}

type Status = 'bolsa_trabajo' | 'en_proceso' | 'finalizada';
async function event(
  taskId: string,
  type:
    'created' | 'assigned' | 'returned' | 'held' | 'released' | 'status_changed' | 'completed' | 'reopened',
  from: Status | null,
  to: Status,
  when: string,
) {
  await tx(() =>
    db.insert(taskEvents).values({ taskId, type, fromStatus: from, toStatus: to, at: at(when) }),
  );
}

async function visit(entered: string, exited: string | null, appointment: string | null = null) {
  await tx(() =>
    db.insert(gateVisits).values({
      id: crypto.randomUUID(),
      truckPlate: `C-${crypto.randomUUID().slice(0, 6)}`,
      carrier: 'Transportes Pérez',
      carrierKey: carrierKey('Transportes Pérez'),
      appointmentAt: appointment ? at(appointment) : null,
      enteredAt: at(entered),
      exitedAt: exited ? at(exited) : null,
    }),
  );
}

const EMPTY = EMPTY_FIGURES;

/** Each engine's percentile_cont (linear interpolation between the nearest ranks) of a SQL expression. */
const percentileSql = (expr: string, p: number): string =>
  sqlFor({
    sqlite: `percentile_cont(${expr}, ${p})`,
    postgres: `percentile_cont(${p}) WITHIN GROUP (ORDER BY ${expr})`,
  });
const fig = (f: Partial<IndicatorFigures>): IndicatorFigures => ({ ...EMPTY, ...f });

async function smallYard() {
  // T1: 08:00 → assigned 08:10 (pool 600 s) → done 08:40 (move 1800 s), due 09:00: on time, scanned.
  await task({
    created: '2026-11-20T07:00:00Z',
    assigned: '2026-11-20T07:10:00Z',
    completed: '2026-11-20T07:40:00Z',
    due: '2026-11-20T08:00:00Z',
    proof: 'scan',
  });
  // T2: created 09:00, assigned 09:05, returned 09:20 (back in the pool), held 09:25, released 09:30,
  // assigned 09:50 (pool 1800 s from the return: the hold does not restart it), done 10:50 (3600 s),
  // 20 min late.
  const t2 = await task({
    created: '2026-11-20T08:00:00Z',
    assigned: '2026-11-20T08:50:00Z',
    completed: '2026-11-20T09:50:00Z',
    due: '2026-11-20T09:30:00Z',
    lateS: 1200,
  });
  await event(t2, 'created', null, 'bolsa_trabajo', '2026-11-20T08:00:00Z');
  await event(t2, 'assigned', 'bolsa_trabajo', 'en_proceso', '2026-11-20T08:05:00Z');
  await event(t2, 'returned', 'en_proceso', 'bolsa_trabajo', '2026-11-20T08:20:00Z');
  await event(t2, 'held', 'bolsa_trabajo', 'bolsa_trabajo', '2026-11-20T08:25:00Z');
  await event(t2, 'released', 'bolsa_trabajo', 'bolsa_trabajo', '2026-11-20T08:30:00Z');
  await event(t2, 'assigned', 'bolsa_trabajo', 'en_proceso', '2026-11-20T08:50:00Z');
  // T3: 14:00 → 14:30 (1800 s) → 15:30 (3600 s), no deadline, scanned: the tarde.
  await task({
    created: '2026-11-20T13:00:00Z',
    assigned: '2026-11-20T13:30:00Z',
    completed: '2026-11-20T14:30:00Z',
    proof: 'scan',
  });
  // T4: the 21st's noche: assigned 22:40 (600 s), done at 00:30 on the 22nd (6600 s): in by_shift only.
  await task({
    created: '2026-11-21T21:30:00Z',
    assigned: '2026-11-21T21:40:00Z',
    completed: '2026-11-21T23:30:00Z',
  });
  // T5: 00:00 → 00:10 (600 s) → 00:30 on the 20th (1200 s), scanned: the 19th's noche, not in by_shift.
  await task({
    created: '2026-11-19T23:00:00Z',
    assigned: '2026-11-19T23:10:00Z',
    completed: '2026-11-19T23:30:00Z',
    proof: 'scan',
  });
  // T6, the previous period: the 18th 11:00 → 11:20 (1200 s) → 12:00 (2400 s), due 13:00.
  await task({
    created: '2026-11-18T10:00:00Z',
    assigned: '2026-11-18T10:20:00Z',
    completed: '2026-11-18T11:00:00Z',
    due: '2026-11-18T12:00:00Z',
  });
  // A task still in the pool and one deleted count nowhere.
  await task({ created: '2026-11-20T10:00:00Z' });
  const deleted = await task({
    created: '2026-11-20T10:00:00Z',
    assigned: '2026-11-20T10:05:00Z',
    completed: '2026-11-20T10:30:00Z',
  });
  await tx(() =>
    db
      .update(tasks)
      .set({ deletedAt: at('2026-11-20T11:00:00Z') })
      .where(eq(tasks.id, deleted)),
  );

  // Visits: 10:00–11:30 (wait 5400 s), 11:00 with a 12:00 appointment – 12:30 (1800 s), the 21st 13:00
  // still open; the previous period's 19th 09:00–09:20 (1200 s).
  await visit('2026-11-20T09:00:00Z', '2026-11-20T10:30:00Z');
  await visit('2026-11-20T10:00:00Z', '2026-11-20T11:30:00Z', '2026-11-20T11:00:00Z');
  await visit('2026-11-21T12:00:00Z', null);
  await visit('2026-11-19T08:00:00Z', '2026-11-19T08:20:00Z');

  // A driver clocked 07:00–11:00 and 14:00–16:00 on the 20th: 6 h.
  const driver = await makeUser('conductor');
  await makePunch(driver.user.id, 'entrada', at('2026-11-20T06:00:00Z'));
  await makePunch(driver.user.id, 'salida', at('2026-11-20T10:00:00Z'));
  await makePunch(driver.user.id, 'entrada', at('2026-11-20T13:00:00Z'));
  await makePunch(driver.user.id, 'salida', at('2026-11-20T15:00:00Z'));
}

const get = (from: string, to: string, who: TestUser = manager) =>
  api().get(`/api/admin/indicators?from=${from}&to=${to}`).set(who.auth);

describe('GET /admin/indicators', () => {
  it('a hand-computed yard: every figure of the days, hours, shifts, totals and the previous period', async () => {
    await smallYard();
    const res = await get('2026-11-20', '2026-11-21');
    expect(res.status, res.text).toBe(200);
    const body = res.body as Indicators;
    expect(body.period).toEqual({ from: '2026-11-20', to: '2026-11-21' });

    const totals = fig({
      moves_completed: 4,
      moves_per_driver_hour: 0.67,
      pool_wait_p50_s: 600,
      pool_wait_p90_s: 1800,
      move_p50_s: 2700,
      move_p90_s: 3600,
      on_time_rate: 0.5,
      late: 1,
      returns: 1,
      holds: 1,
      gate_entries: 3,
      gate_exits: 2,
      truck_stay_p50_s: 3600,
      truck_stay_p90_s: 5040,
      trucks_over_1h: 1,
      scan_rate: 0.75,
    });
    expect(body.totals).toEqual(totals);
    expect(body.days).toEqual([
      // Day 20 holds all but T4's assignment and V3's entry.
      { date: '2026-11-20', ...totals, gate_entries: 2, pool_wait_p50_s: 1200, pool_wait_p90_s: 1800 },
      { date: '2026-11-21', ...fig({ pool_wait_p50_s: 600, pool_wait_p90_s: 600, gate_entries: 1 }) },
    ]);

    const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, ...EMPTY }));
    const hour = (h: number, f: Partial<IndicatorFigures>) => (hours[h] = { hour: h, ...fig(f) });
    hour(0, {
      moves_completed: 1,
      move_p50_s: 1200,
      move_p90_s: 1200,
      pool_wait_p50_s: 600,
      pool_wait_p90_s: 600,
      scan_rate: 1,
    });
    hour(7, { moves_per_driver_hour: 0 });
    hour(8, {
      moves_completed: 1,
      moves_per_driver_hour: 1,
      pool_wait_p50_s: 600,
      pool_wait_p90_s: 600,
      move_p50_s: 1800,
      move_p90_s: 1800,
      on_time_rate: 1,
      scan_rate: 1,
    });
    hour(9, { moves_per_driver_hour: 0, returns: 1, holds: 1, pool_wait_p50_s: 1800, pool_wait_p90_s: 1800 });
    hour(10, {
      moves_completed: 1,
      moves_per_driver_hour: 1,
      move_p50_s: 3600,
      move_p90_s: 3600,
      on_time_rate: 0,
      late: 1,
      scan_rate: 0,
      gate_entries: 1,
    });
    hour(11, {
      gate_entries: 1,
      gate_exits: 1,
      truck_stay_p50_s: 5400,
      truck_stay_p90_s: 5400,
      trucks_over_1h: 1,
    });
    hour(12, { gate_exits: 1, truck_stay_p50_s: 1800, truck_stay_p90_s: 1800 });
    hour(13, { gate_entries: 1 });
    hour(14, { moves_per_driver_hour: 0, pool_wait_p50_s: 1800, pool_wait_p90_s: 1800 });
    hour(15, {
      moves_completed: 1,
      moves_per_driver_hour: 1,
      move_p50_s: 3600,
      move_p90_s: 3600,
      scan_rate: 1,
    });
    hour(22, { pool_wait_p50_s: 600, pool_wait_p90_s: 600 });
    expect(body.by_hour).toEqual(hours);

    expect(body.by_shift).toEqual([
      {
        // The mañana holds the gate, the return and the hold, and T1 and T2.
        shift: 'manana',
        ...totals,
        moves_completed: 2,
        moves_per_driver_hour: 0.5,
        pool_wait_p50_s: 1200,
        pool_wait_p90_s: 1680,
        move_p90_s: 3420,
        scan_rate: 0.5,
      },
      {
        shift: 'tarde',
        ...fig({
          moves_completed: 1,
          moves_per_driver_hour: 0.5,
          pool_wait_p50_s: 1800,
          pool_wait_p90_s: 1800,
          move_p50_s: 3600,
          move_p90_s: 3600,
          scan_rate: 1,
        }),
      },
      {
        shift: 'noche',
        ...fig({
          moves_completed: 1,
          pool_wait_p50_s: 600,
          pool_wait_p90_s: 600,
          move_p50_s: 6600,
          move_p90_s: 6600,
          scan_rate: 0,
        }),
      },
    ]);

    expect(body.previous).toEqual({
      from: '2026-11-18',
      to: '2026-11-19',
      ...fig({
        moves_completed: 1,
        pool_wait_p50_s: 1200,
        pool_wait_p90_s: 1200,
        move_p50_s: 2400,
        move_p90_s: 2400,
        on_time_rate: 1,
        gate_entries: 1,
        gate_exits: 1,
        truck_stay_p50_s: 1200,
        truck_stay_p90_s: 1200,
        scan_rate: 0,
      }),
    });
  });

  it('the pool wait starts at the last entry into the pool: a staff send-back or a reopen restarts it, a hold does not', async () => {
    // Sent back by staff at 11:20, held 11:25, assigned again 11:50: 1800 s.
    const sentBack = await task({ created: '2026-11-10T10:00:00Z', assigned: '2026-11-10T10:50:00Z' });
    await event(sentBack, 'created', null, 'bolsa_trabajo', '2026-11-10T10:00:00Z');
    await event(sentBack, 'assigned', 'bolsa_trabajo', 'en_proceso', '2026-11-10T10:10:00Z');
    await event(sentBack, 'status_changed', 'en_proceso', 'bolsa_trabajo', '2026-11-10T10:20:00Z');
    await event(sentBack, 'held', 'bolsa_trabajo', 'bolsa_trabajo', '2026-11-10T10:25:00Z');
    await event(sentBack, 'assigned', 'bolsa_trabajo', 'en_proceso', '2026-11-10T10:50:00Z');
    // Completed on the 9th, reopened at 12:00 on the 10th, assigned 12:05: 300 s.
    const reopened = await task({ created: '2026-11-09T08:00:00Z', assigned: '2026-11-10T11:05:00Z' });
    await event(reopened, 'created', null, 'bolsa_trabajo', '2026-11-09T08:00:00Z');
    await event(reopened, 'assigned', 'bolsa_trabajo', 'en_proceso', '2026-11-09T08:10:00Z');
    await event(reopened, 'completed', 'en_proceso', 'finalizada', '2026-11-09T09:00:00Z');
    await event(reopened, 'reopened', 'finalizada', 'bolsa_trabajo', '2026-11-10T11:00:00Z');
    await event(reopened, 'assigned', 'bolsa_trabajo', 'en_proceso', '2026-11-10T11:05:00Z');
    const res = await get('2026-11-10', '2026-11-10');
    expect(res.status, res.text).toBe(200);
    const { totals } = res.body as Indicators;
    expect([totals.pool_wait_p50_s, totals.pool_wait_p90_s]).toEqual([1050, 1650]);
  });

  it('the October change (2026-10-25): both 02:00 hours fold into hour 2, the day has 25 hours', async () => {
    const done = (completed: string) => task({ created: completed, completed });
    await done('2026-10-24T23:30:00Z'); // 01:30 CEST
    await done('2026-10-25T00:30:00Z'); // 02:30 CEST
    await done('2026-10-25T01:30:00Z'); // 02:30 CET, the second time
    await done('2026-10-25T22:30:00Z'); // 23:30 CET: the 25th's noche
    await done('2026-10-25T23:30:00Z'); // 00:30 on the 26th: outside the days, in the 25th's noche
    // Clocked 01:00 CEST – 03:00 CET: 3 real hours, 2 of them in hour 2.
    const driver = await makeUser('conductor');
    await makePunch(driver.user.id, 'entrada', at('2026-10-24T23:00:00Z'));
    await makePunch(driver.user.id, 'salida', at('2026-10-25T02:00:00Z'));

    const res = await get('2026-10-25', '2026-10-25');
    expect(res.status, res.text).toBe(200);
    const body = res.body as Indicators;
    const moves = (f: IndicatorFigures) => [f.moves_completed, f.moves_per_driver_hour];
    expect(body.days.map((d) => [d.date, ...moves(d)])).toEqual([['2026-10-25', 4, 1.33]]);
    expect(
      body.by_hour
        .filter((h) => h.moves_completed || h.moves_per_driver_hour !== null)
        .map((h) => [h.hour, ...moves(h)]),
    ).toEqual([
      [1, 1, 1],
      [2, 2, 1],
      [23, 1, null],
    ]);
    // Before 06:00 on the 25th is the 24th's noche; the 25th's noche runs to 06:00 on the 26th.
    expect(body.by_shift.map((s) => [s.shift, s.moves_completed])).toEqual([
      ['manana', 0],
      ['tarde', 0],
      ['noche', 2],
    ]);
    expect(body.previous).toEqual({ from: '2026-10-24', to: '2026-10-24', ...EMPTY });
  });

  it('the March change (2026-03-29): hour 2 does not exist and stays empty, the day has 23 hours', async () => {
    await task({ created: '2026-03-29T00:30:00Z', completed: '2026-03-29T00:30:00Z' }); // 01:30 CET
    await task({ created: '2026-03-29T01:30:00Z', completed: '2026-03-29T01:30:00Z' }); // 03:30 CEST
    await task({ created: '2026-03-29T21:30:00Z', completed: '2026-03-29T21:30:00Z' }); // 23:30 CEST
    await task({ created: '2026-03-29T22:30:00Z', completed: '2026-03-29T22:30:00Z' }); // the 30th
    const res = await get('2026-03-29', '2026-03-29');
    expect(res.status, res.text).toBe(200);
    const body = res.body as Indicators;
    expect(body.days.map((d) => [d.date, d.moves_completed])).toEqual([['2026-03-29', 3]]);
    expect(body.by_hour.filter((h) => h.moves_completed).map((h) => [h.hour, h.moves_completed])).toEqual([
      [1, 1],
      [3, 1],
      [23, 1],
    ]);
  });

  it('refuses a period past today, longer than 92 days, reversed or incomplete (400 with the text)', async () => {
    const today = madridDay(now());
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const detail = async (from: string, to: string) => {
      const res = await get(from, to);
      expect(res.status, res.text).toBe(400);
      return res.body.detail as string;
    };
    expect(await detail(today, tomorrow)).toBe(ERR.periodInvalid);
    expect(await detail('2026-11-21', '2026-11-20')).toBe(ERR.periodInvalid);
    expect(await detail('2026-01-01', '2026-04-03')).toBe(ERR.periodTooLong); // 93 days
    const missing = await api().get('/api/admin/indicators?from=2026-11-20').set(manager.auth);
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe(ERR.bothDates);
    // 92 days and today are fine.
    expect((await get('2026-01-01', '2026-04-02')).status).toBe(200);
    expect((await get(today, today)).status).toBe(200);
  });

  it('is for admin and manager only: 403 gestor and conductor, 401 anonymous', async () => {
    for (const role of ['gestor', 'conductor'] as const)
      expect((await get('2026-11-20', '2026-11-20', await makeUser(role))).status).toBe(403);
    expect((await api().get('/api/admin/indicators?from=2026-11-20&to=2026-11-20')).status).toBe(401);
    expect((await get('2026-11-20', '2026-11-20', await makeUser('admin'))).status).toBe(200);
  });

  it('indicadores_{from}_{to}.xlsx: Días, Horas, Turnos and Totales with the Spanish headers', async () => {
    await smallYard();
    const { res, wb } = await fetchWorkbook(
      api().get('/api/admin/indicators/export-excel?from=2026-11-20&to=2026-11-21').set(manager.auth),
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain(
      INDICATORS_EXCEL.fileName('2026-11-20', '2026-11-21'),
    );
    expect(wb!.worksheets.map((w) => w.name)).toEqual(['Días', 'Horas', 'Turnos', 'Totales']);
    const days = sheetTable(wb!.getWorksheet('Días')!);
    expect(days.header.slice(0, 3)).toEqual([
      'Fecha',
      INDICATOR_LABELS.moves_completed,
      INDICATOR_LABELS.moves_per_driver_hour,
    ]);
    expect(days.header[3]).toBe(INDICATORS_EXCEL.headers.minutes(INDICATOR_LABELS.pool_wait_p50_s));
    expect(days.rows.map((r) => Array.from(r.slice(0, 4), (v) => v ?? null))).toEqual([
      ['2026-11-20', 4, 0.67, 20],
      ['2026-11-21', 0, null, 10],
    ]);
    const hours = sheetTable(wb!.getWorksheet('Horas')!);
    expect(hours.rows).toHaveLength(24);
    expect(hours.rows[8]!.slice(0, 2)).toEqual(['08:00', 1]);
    const shifts = sheetTable(wb!.getWorksheet('Turnos')!);
    expect(shifts.rows.map((r) => r[0])).toEqual(['mañana', 'tarde', 'noche']);
    const totals = sheetTable(wb!.getWorksheet('Totales')!);
    const scanColumn = totals.header.indexOf(INDICATORS_EXCEL.headers.percent(INDICATOR_LABELS.scan_rate));
    expect(scanColumn).toBeGreaterThan(0);
    expect(totals.rows.map((r) => [r[0], r[1], r[scanColumn]])).toEqual([
      ['2026-11-20 – 2026-11-21', 4, 75],
      ['2026-11-18 – 2026-11-19', 1, 0],
    ]);
  });
});

describe('the SQL rules match their JavaScript definitions', () => {
  it('percentile_cont of this engine equals linear interpolation between the nearest ranks', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const values = Array.from({ length: 101 }, () => Math.floor(random() * 100_000));
    const sorted = [...values].sort((a, b) => a - b);
    const linear = (p: number) => {
      const pos = p * (sorted.length - 1);
      const lo = Math.floor(pos);
      return sorted[lo]! + (pos - lo) * (sorted[Math.ceil(pos)]! - sorted[lo]!);
    };
    const rows = values.map((v) => `(${v})`).join(', ');
    for (const p of [0.1, 0.5, 0.9, 0.95]) {
      const [row] = await query<{ v: number }>(
        `SELECT ${percentileSql('CAST(column1 AS DOUBLE PRECISION)', p)} AS v FROM (VALUES ${rows}) AS g`,
      );
      expect(row!.v).toBeCloseTo(linear(p), 6);
    }
  });

  it("the service's percentile of ms is this engine's percentile_cont of the seconds, to the last bit", async () => {
    let seed = 11;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const engine = async (ms: number[], p: number) => {
      const rows = ms.map((v) => `(${v})`).join(', ');
      const sql = `SELECT ${percentileSql('CAST(column1 AS DOUBLE PRECISION) / 1000', p)} AS v FROM (VALUES ${rows}) AS g`;
      return Number((await query<{ v: number }>(sql))[0]!.v);
    };
    // Ties included, in no order, an odd and an even count.
    const ms = Array.from(
      { length: 257 },
      () => Math.floor(random() * 1_000) * 1_000 + (random() < 0.5 ? 7 : 0),
    );
    for (const values of [ms, ms.slice(1)])
      for (const p of [0.1, 0.5, 0.9, 0.95])
        expect(percentileOfMs(Float64Array.from(values), p)).toBe(await engine(values, p));
  });

  it("a visit's wait in SQL equals shared/gate.ts waitS", async () => {
    const base = Date.parse('2026-11-20T08:00:00Z');
    const offsets = [0, 59_999, 60_000, 1_800_500, 3_600_000, 3_601_999, 7_200_000];
    for (const entered of offsets)
      for (const appointment of [null, ...offsets])
        await visit(
          new Date(base + entered).toISOString(),
          new Date(base + 3_600_000 + entered / 2).toISOString(),
          appointment === null ? null : new Date(base + appointment).toISOString(),
        );
    const rows = await query<{
      entered_at: number;
      exited_at: number;
      appointment_at: number | null;
      w: number;
    }>(`SELECT entered_at, exited_at, appointment_at, ${WAIT_S_SQL} AS w FROM gate_visits`);
    expect(rows).toHaveLength(offsets.length * (offsets.length + 1));
    const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
    for (const r of rows)
      expect(Number(r.w)).toBe(
        waitS(
          {
            entered_at: iso(r.entered_at)!,
            exited_at: iso(r.exited_at),
            appointment_at: iso(r.appointment_at),
          },
          0,
        ),
      );
  });
});
