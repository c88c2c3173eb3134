// The Excel exports (CONTRACT §8): real xlsx files parsed back with exceljs — names, sheets, Spanish
// headers, frozen header row, auto-filter, Madrid times and the rows themselves.
import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { DEADLINE_COLUMNS, ERR, EXCEL, SUPERVISION_ERR, TRAILER_EXCEL_HEADERS } from '@shared/labels';
import { tasks as taskTable, users } from '../../server/db/tables';
import { EXPORT_MAX_DAYS } from '../../server/services/timeclock-summary';
import { fetchWorkbook, sheetTable } from '../helpers/excel';
import { db, makePunch, makeTask, makeUser, now, setupApp, tx, type TestUser } from '../helpers/context';

const MIN = 60_000;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let admin: TestUser;
let ana: TestUser, bruno: TestUser, diego: TestUser;
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  ({ api } = await setupApp());
  admin = await makeUser('admin');
  ana = await makeUser('conductor', { name: 'Ana Ruiz', email: 'ana@test.local' });
  bruno = await makeUser('conductor', { name: 'Bruno Gil', email: 'bruno@test.local' });
  await makeUser('conductor', { name: 'Carla Sanz', email: 'carla@test.local' }); // no punch, no task
  diego = await makeUser('conductor', { name: 'Diego Paz', email: 'diego@test.local' });

  // Ana: a night shift, 22:00 on the 19th to 06:00 on the 20th (Madrid, UTC+1).
  await makePunch(ana.user.id, 'entrada', at('2026-11-19T21:00:00Z'));
  await makePunch(ana.user.id, 'salida', at('2026-11-20T05:00:00Z'));
  // Bruno: 08:00–16:00 on the 20th; and a shift on the 21st, outside the range.
  await makePunch(bruno.user.id, 'entrada', at('2026-11-20T07:00:00Z'));
  await makePunch(bruno.user.id, 'salida', at('2026-11-20T15:00:00Z'));
  await makePunch(bruno.user.id, 'entrada', at('2026-11-21T07:00:00Z'));
  await makePunch(bruno.user.id, 'salida', at('2026-11-21T15:00:00Z'));
  // Diego: 4 hours on the 20th, then his account was deleted: his history stays in the exports.
  await makePunch(diego.user.id, 'entrada', at('2026-11-20T08:00:00Z'));
  await makePunch(diego.user.id, 'salida', at('2026-11-20T12:00:00Z'));
  await tx(() => db.update(users).set({ deletedAt: now() }).where(eq(users.id, diego.user.id)));

  const done = (u: TestUser, completedIso: string, tookMin: number, origin = 'Muelle 1') => {
    const completedAt = at(completedIso);
    return makeTask({
      status: 'finalizada',
      assignedTo: u.user.id,
      origin,
      createdAt: new Date(completedAt.getTime() - (tookMin + 5) * MIN),
      assignedAt: new Date(completedAt.getTime() - tookMin * MIN),
      completedAt,
    });
  };
  const first = await done(ana, '2026-11-19T22:00:00Z', 20, 'Báscula');
  const second = await done(ana, '2026-11-20T03:00:00Z', 40);
  // CONTRACT §20: the first was due 12 min before it was done; the second on time.
  await tx(() =>
    db
      .update(taskTable)
      .set({ dueAt: at('2026-11-19T21:48:00Z'), lateS: 12 * 60 })
      .where(eq(taskTable.id, first.id)),
  );
  await tx(() =>
    db
      .update(taskTable)
      .set({ dueAt: at('2026-11-20T03:30:00Z'), lateS: 0 })
      .where(eq(taskTable.id, second.id)),
  );
  await done(bruno, '2026-11-20T10:00:00Z', 15);
  await done(diego, '2026-11-20T11:00:00Z', 30);
  await done(bruno, '2026-11-21T10:00:00Z', 15); // outside the range
});

async function download(path: string, who: TestUser, query: Record<string, string>) {
  const { res, wb } = await fetchWorkbook(api().get(path).query(query).set(who.auth));
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe(XLSX);
  return { res, wb: wb! };
}

function expectTableSheet(ws: ExcelJS.Worksheet, headers: Record<string, string>, dataRows: number) {
  const { header } = sheetTable(ws);
  expect(header).toEqual(Object.values(headers));
  expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  const last = ws.getColumn(header.length).letter;
  expect(ws.autoFilter).toBe(`A1:${last}${dataRows + 1}`);
  expect(ws.getRow(1).font?.bold).toBe(true);
  for (let c = 1; c <= header.length; c++) expect(ws.getColumn(c).width).toBeGreaterThanOrEqual(8);
}

/** An Excel date shows Madrid wall time: its UTC fields are the Madrid clock reading. */
const wall = (iso: string) => new Date(`${iso}Z`);

describe('GET /api/admin/timeclock/export-excel', () => {
  it('control_horario_{from}_to_{to}.xlsx: per day, totals and punches, in Madrid time', async () => {
    const manager = await makeUser('manager');
    const { res, wb } = await download('/api/admin/timeclock/export-excel', manager, {
      date_from: '2026-11-19',
      date_to: '2026-11-20',
    });
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="control_horario_2026-11-19_to_2026-11-20.xlsx"',
    );
    const { daily, totals, punches, corrections } = EXCEL.timeclock;
    expect(wb.worksheets.map((w) => w.name)).toEqual([
      daily.sheet,
      totals.sheet,
      punches.sheet,
      corrections.sheet,
    ]);

    const dailyWs = wb.getWorksheet(daily.sheet)!;
    expectTableSheet(dailyWs, daily.headers, 3);
    const { rows } = sheetTable(dailyWs);
    // CONTRACT §15: the night shift belongs to the 19th, whole; the 20th ignores the salida closing it.
    expect(rows.map((r) => [r[0], r[1], r[3], r[6]])).toEqual([
      [wall('2026-11-19T00:00:00'), 'Ana Ruiz', 'Finalizado', 8],
      [wall('2026-11-20T00:00:00'), 'Bruno Gil', 'Finalizado', 8],
      [wall('2026-11-20T00:00:00'), 'Diego Paz', 'Finalizado', 4],
    ]);
    // The night shift's row shows its whole pair of punches, in Madrid time.
    expect(rows[0][2]).toBe(ana.user.id.slice(-8));
    expect(rows[0][4]).toEqual(wall('2026-11-19T22:00:00'));
    expect(rows[0][5]).toEqual(wall('2026-11-20T06:00:00'));
    expect(rows[0][7]).toBe('Entrada 22:00 · Salida 20/11/2026, 06:00');
    expect(rows[1][7]).toBe('Entrada 08:00 · Salida 16:00');
    expect(rows[0][8]).toBeUndefined(); // nobody corrected these days
    expect(dailyWs.getCell('E2').numFmt).toBe('dd/mm/yyyy hh:mm');

    const totalsWs = wb.getWorksheet(totals.sheet)!;
    expectTableSheet(totalsWs, totals.headers, 4);
    expect(sheetTable(totalsWs).rows).toEqual([
      ['Ana Ruiz', 'ana@test.local', 1, 8, 0],
      ['Bruno Gil', 'bruno@test.local', 1, 8, 0],
      ['Carla Sanz', 'carla@test.local', 0, 0, 0],
      ['Diego Paz', 'diego@test.local', 1, 4, 0],
    ]);

    const punchWs = wb.getWorksheet(punches.sheet)!;
    expectTableSheet(punchWs, punches.headers, 6);
    expect(sheetTable(punchWs).rows).toEqual([
      ['Ana Ruiz', 'Entrada', wall('2026-11-19T22:00:00')],
      ['Ana Ruiz', 'Salida', wall('2026-11-20T06:00:00')],
      ['Bruno Gil', 'Entrada', wall('2026-11-20T08:00:00')],
      ['Bruno Gil', 'Salida', wall('2026-11-20T16:00:00')],
      ['Diego Paz', 'Entrada', wall('2026-11-20T09:00:00')],
      ['Diego Paz', 'Salida', wall('2026-11-20T13:00:00')],
    ]);
    expectTableSheet(wb.getWorksheet(corrections.sheet)!, corrections.headers, 0);
  });

  it('is for managers and admins; gestor 403', async () => {
    const query = { date_from: '2026-11-19', date_to: '2026-11-19' };
    await download('/api/admin/timeclock/export-excel', admin, query);
    const res = await api()
      .get('/api/admin/timeclock/export-excel')
      .query(query)
      .set((await makeUser('gestor')).auth);
    expect(res.status).toBe(403);
  });

  it('400: both dates required, in order, at most 366 days', async () => {
    const ask = (query: Record<string, string | undefined>) =>
      api().get('/api/admin/timeclock/export-excel').query(query).set(admin.auth);
    for (const query of [
      {},
      { date_from: '2026-11-19' },
      { date_to: '2026-11-19' },
      { date_from: '', date_to: '' },
    ])
      expect((await ask(query)).body).toEqual({ detail: ERR.bothDates });
    const order = await ask({ date_from: '2026-11-20', date_to: '2026-11-19' });
    expect(order.status).toBe(400);
    expect(order.body).toEqual({ detail: ERR.dateOrder });
    const long = await ask({ date_from: '2025-01-01', date_to: '2026-01-02' });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ detail: SUPERVISION_ERR.rangeTooLong(EXPORT_MAX_DAYS) });
    expect((await ask({ date_from: '2026-02-30', date_to: '2026-03-01' })).status).toBe(400);
  });
});

describe('GET /api/admin/analytics/export-excel', () => {
  it('analytics_tareas_{from}_to_{to}.xlsx: per driver tasks, times, hours and efficiency; then the tasks', async () => {
    const { res, wb } = await download('/api/admin/analytics/export-excel', admin, {
      date_from: '2026-11-19',
      date_to: '2026-11-20',
    });
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="analytics_tareas_2026-11-19_to_2026-11-20.xlsx"',
    );
    const { drivers, tasks } = EXCEL.analytics;
    expect(wb.worksheets.map((w) => w.name)).toEqual([drivers.sheet, tasks.sheet]);

    const driverWs = wb.getWorksheet(drivers.sheet)!;
    expectTableSheet(driverWs, drivers.headers, 4);
    expect(sheetTable(driverWs).rows).toEqual([
      // Ana: 2 tasks of 20 and 40 min over the 8 hours of her night shift.
      ['Ana Ruiz', 'ana@test.local', 2, 30, 60, 8, 0.25],
      ['Bruno Gil', 'bruno@test.local', 1, 15, 15, 8, 0.125],
      // Deleted since: his finished task and hours stay.
      ['Diego Paz', 'diego@test.local', 1, 30, 30, 4, 0.25],
      // No task and no hours: no average, no efficiency (empty cells).
      ['Carla Sanz', 'carla@test.local', 0, undefined, 0, 0],
    ]);

    const taskWs = wb.getWorksheet(tasks.sheet)!;
    expectTableSheet(taskWs, { ...tasks.headers, ...DEADLINE_COLUMNS, ...TRAILER_EXCEL_HEADERS }, 4);
    const { rows } = sheetTable(taskWs);
    // The short id the screens show first, then the whole id (issue 30).
    for (const r of rows) expect(r[0]).toBe(`#${String(r[1]).slice(-8)}`);
    expect(String(rows[0][1])).toHaveLength(36);
    expect(rows.map((r) => [r[4], r[6], r[7], r[8], r[11], r[12]])).toEqual([
      ['Báscula', 'Normal', 'SEMIREMOLQUE', 'Ana Ruiz', wall('2026-11-19T23:00:00'), 20],
      ['Muelle 1', 'Normal', 'SEMIREMOLQUE', 'Ana Ruiz', wall('2026-11-20T04:00:00'), 40],
      ['Muelle 1', 'Normal', 'SEMIREMOLQUE', 'Bruno Gil', wall('2026-11-20T11:00:00'), 15],
      ['Muelle 1', 'Normal', 'SEMIREMOLQUE', 'Diego Paz', wall('2026-11-20T12:00:00'), 30],
    ]);
    expect(rows[0][10]).toEqual(wall('2026-11-19T22:40:00')); // assigned 20 min before
    // Hora límite (Madrid) and Retraso: late, on time, none.
    expect(rows.map((r) => [r[13], r[14]])).toEqual([
      [wall('2026-11-19T22:48:00'), 'Retrasada 12 min'],
      [wall('2026-11-20T04:30:00'), 'A tiempo'],
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });

  it('is for the admin only; dates validated', async () => {
    const query = { date_from: '2026-11-19', date_to: '2026-11-20' };
    const res = await api()
      .get('/api/admin/analytics/export-excel')
      .query(query)
      .set((await makeUser('manager')).auth);
    expect(res.status).toBe(403);
    const missing = await api().get('/api/admin/analytics/export-excel').set(admin.auth);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ detail: ERR.bothDates });
    const order = await api()
      .get('/api/admin/analytics/export-excel')
      .query({ date_from: '2026-11-20', date_to: '2026-11-01' })
      .set(admin.auth);
    expect(order.body).toEqual({ detail: ERR.dateOrder });
  });
});
