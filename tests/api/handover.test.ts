// The shift handover (CONTRACT §20 "Shift handover", §24): each figure against a small yard built by hand at
// chosen instants, the shift windows (a DST night included), the refusals, who may call it, the notes'
// lifecycle (the previous shift's notes, the author's hour to delete) and the Excel. Both engines.
import { beforeEach, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { HANDOVER_ERR, HANDOVER_EXCEL, HANDOVER_LOG } from '@shared/labels';
import type { HandoverNote, HandoverReport } from '@shared/schemas';
import { nextShift, shiftAt, shiftRange } from '@shared/shifts';
import { activityLog, gateVisits, handoverNotes, taskEvents, tasks } from '../../server/db/tables';
import {
  advanceClock,
  db,
  makePunch,
  makeTask,
  makeUser,
  now,
  setupApp,
  tx,
  type TestUser,
} from '../helpers/context';
import { fetchWorkbook, sheetTable } from '../helpers/excel';
import { checkConfig, config, configure, loadConfig } from '../../server/config';
import { DEFAULT_SHIFT_STARTS, parseShiftStarts } from '@shared/shifts';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let gestor: TestUser;
beforeEach(async () => {
  ({ api } = await setupApp());
  gestor = await makeUser('gestor', { name: 'Gestora Ana' });
});

const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (isoText: string) => new Date(isoText);

const get = (query: Record<string, string>, who: TestUser = gestor) =>
  api().get('/api/handover').query(query).set(who.auth);
async function report(query: Record<string, string> = {}): Promise<HandoverReport> {
  const res = await get(query);
  expect(res.status, res.text).toBe(200);
  return res.body as HandoverReport;
}
const postNote = (text: unknown, who: TestUser = gestor) =>
  api().post('/api/handover/notes').set(who.auth).send({ text });

/** A task row with the columns the factory leaves out. */
async function task(
  fields: Parameters<typeof makeTask>[0],
  extra: Partial<typeof tasks.$inferInsert> = {},
): Promise<string> {
  const row = await makeTask(fields);
  if (Object.keys(extra).length) await tx(() => db.update(tasks).set(extra).where(eq(tasks.id, row.id)));
  return row.id;
}
const done = (completedAt: string, extra: Partial<typeof tasks.$inferInsert> = {}) =>
  task({ status: 'finalizada', completedAt: at(completedAt), createdAt: at('2026-11-01T10:00:00Z') }, extra);

const returnEvent = (taskId: string, driverId: string, when: string, reason: string) =>
  tx(() =>
    db.insert(taskEvents).values({
      taskId,
      type: 'returned',
      driverId,
      actorId: driverId,
      fromStatus: 'en_proceso',
      toStatus: 'bolsa_trabajo',
      reason,
      at: at(when),
    }),
  );

const visit = (plate: string, enteredAt: Date, exitedAt: Date | null = null) =>
  tx(() =>
    db.insert(gateVisits).values({
      id: crypto.randomUUID(),
      truckPlate: plate,
      carrier: 'Transportes Pérez',
      carrierKey: 'transportes perez',
      enteredAt,
      exitedAt,
    }),
  );

describe('who may read it', () => {
  it('admin, manager and gestor; a conductor gets 403; nobody without a session', async () => {
    for (const role of ['admin', 'manager'] as const)
      expect((await get({}, await makeUser(role))).status).toBe(200);
    const driver = await makeUser('conductor');
    expect((await get({}, driver)).status).toBe(403);
    expect((await api().get('/api/handover/export-excel').set(driver.auth)).status).toBe(403);
    expect((await postNote('Hola', driver)).status).toBe(403);
    expect((await api().get('/api/handover')).status).toBe(401);
  });
});

describe('the shift asked for', () => {
  it('defaults to the current shift, its window from SHIFT_STARTS', async () => {
    const current = shiftAt(now());
    const r = await report();
    const range = shiftRange(current);
    expect(r).toMatchObject({
      ...current,
      from: new Date(range.from).toISOString(),
      to: new Date(range.to).toISOString(),
    });
    expect(Date.parse(r.from)).toBeLessThanOrEqual(now().getTime());
    expect(Date.parse(r.to)).toBeGreaterThan(now().getTime());
  });

  it('takes manana and mañana, any other name is 400 Turno no válido, a bad date 400', async () => {
    for (const shift of ['manana', 'mañana'])
      expect(await report({ shift, date: '2026-11-24' })).toMatchObject({
        shift: 'manana',
        date: '2026-11-24',
        from: '2026-11-24T05:00:00.000Z',
        to: '2026-11-24T13:00:00.000Z',
      });
    for (const shift of ['madrugada', '', 'MANANA2']) {
      const res = await get({ shift, date: '2026-11-24' });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(HANDOVER_ERR.shiftInvalid);
    }
    for (const date of ['2026-13-01', '2026-02-30', 'ayer']) {
      const res = await get({ shift: 'tarde', date });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/Fecha no válida/);
    }
  });

  it('the DST nights: 9 h on 2026-10-24, 7 h on 2026-03-28, and what was done in them', async () => {
    await done('2026-10-24T19:59:00Z'); // tarde
    await done('2026-10-24T20:00:00Z'); // 22:00 CEST
    await done('2026-10-25T01:30:00Z'); // the second 02:30
    await done('2026-10-25T04:59:00Z'); // 05:59 CET
    await done('2026-10-25T05:00:00Z'); // mañana
    const autumn = await report({ shift: 'noche', date: '2026-10-24' });
    expect([autumn.from, autumn.to]).toEqual(['2026-10-24T20:00:00.000Z', '2026-10-25T05:00:00.000Z']);
    expect(autumn.moves_done).toBe(3);
    const spring = await report({ shift: 'noche', date: '2026-03-28' });
    expect(Date.parse(spring.to) - Date.parse(spring.from)).toBe(7 * HOUR);
    expect(spring.moves_done).toBe(0);
  });
});

describe('the figures of the tarde of 2026-11-24 (13:00–21:00 UTC)', () => {
  it('moves done, late, returns in the window; holds, open tasks and trucks as they are now', async () => {
    const driver = await makeUser('conductor', { name: 'Conductor Luis' });
    // Completed: in the window on time, in it late, just before and at its end (out).
    await done('2026-11-24T13:30:00Z', { dueAt: at('2026-11-24T14:00:00Z'), lateS: 0 });
    const lateDone = await done('2026-11-24T20:59:00Z', { dueAt: at('2026-11-24T20:49:00Z'), lateS: 600 });
    await done('2026-11-24T12:59:59Z', { lateS: 60, dueAt: at('2026-11-24T12:58:59Z') });
    await done('2026-11-24T21:00:00Z', { lateS: 60, dueAt: at('2026-11-24T20:59:00Z') });
    const deleted = await done('2026-11-24T15:00:00Z', { deletedAt: at('2026-11-24T16:00:00Z') });
    // Open now: one overdue since the window, one with a far deadline, one held, one with a driver.
    const overdue = await task({ trailerId: 'R-LATE' }, { dueAt: at('2026-11-24T20:00:00Z') });
    const later = await task({ trailerId: 'R-LATER' }, { dueAt: new Date(now().getTime() + 5 * HOUR) });
    const held = await task({ trailerId: 'R-HELD' }, { onHold: true, holdReason: 'Falta documentación' });
    const running = await task({ trailerId: 'R-RUN', status: 'en_proceso', assignedTo: driver.user.id });
    await task({ trailerId: 'R-GONE' }, { deletedAt: now() });
    // Returns: one in the window, one after it.
    await returnEvent(running, driver.user.id, '2026-11-24T14:10:00Z', 'Pinchazo');
    await returnEvent(running, driver.user.id, '2026-11-24T22:10:00Z', 'Otra');
    // Trucks: one still in, one gone.
    await visit('1234-BCD', new Date(now().getTime() - 2 * HOUR));
    await visit('9999-ZZZ', at('2026-11-24T10:00:00Z'), at('2026-11-24T11:00:00Z'));

    const r = await report({ shift: 'tarde', date: '2026-11-24' });
    expect(r.moves_done).toBe(2);
    expect(r.late.map((l) => [l.task.id, l.open])).toEqual([
      [overdue, true],
      [lateDone, false],
    ]);
    expect(r.late[1].late_s).toBe(600);
    const overdueS = Math.floor((now().getTime() - Date.parse('2026-11-24T20:00:00Z')) / 1000);
    expect(Math.abs(r.late[0].late_s - overdueS)).toBeLessThanOrEqual(2); // read at the server's instant
    expect(r.returned).toEqual([
      {
        task_id: running,
        trailer_id: 'R-RUN',
        driver_name: 'Conductor Luis',
        reason: 'Pinchazo',
        at: '2026-11-24T14:10:00.000Z',
      },
    ]);
    expect(r.holds.map((t) => [t.id, t.hold_reason])).toEqual([[held, 'Falta documentación']]);
    // By urgency: overdue first, held last.
    expect(r.open_tasks[0].id).toBe(overdue);
    expect(r.open_tasks.at(-1)!.id).toBe(held);
    expect(new Set(r.open_tasks.map((t) => t.id))).toEqual(new Set([overdue, later, running, held]));
    expect(r.open_tasks.find((t) => t.id === running)).toMatchObject({ assigned_to_name: 'Conductor Luis' });
    expect(r.open_tasks.map((t) => t.id)).not.toContain(deleted);
    expect(r.trucks_in_yard.map((v) => v.truck_plate)).toEqual(['1234-BCD']);
    expect(r.trucks_in_yard[0].stay_s - 2 * 3600).toBeGreaterThanOrEqual(0);
    expect(r.trucks_in_yard[0].stay_s - 2 * 3600).toBeLessThanOrEqual(2);
  });

  it('missing punches: an entrada left open over 16 h, a salida without entrada; not a driver at work', async () => {
    const forgot = await makeUser('conductor', { name: 'Olvidó Salida' });
    // Clocked in yesterday morning: more than 16 h before any shift's start, still handed over.
    const longAgo = await makeUser('conductor', { name: 'Olvidó Ayer' });
    const orphan = await makeUser('conductor', { name: 'Sin Entrada' });
    const working = await makeUser('conductor', { name: 'Trabajando' });
    const t = now().getTime();
    await makePunch(forgot.user.id, 'entrada', new Date(t - 17 * HOUR));
    await makePunch(longAgo.user.id, 'entrada', new Date(t - 30 * HOUR));
    await makePunch(orphan.user.id, 'salida', new Date(t - MIN));
    await makePunch(working.user.id, 'entrada', new Date(t - 2 * MIN));
    const r = await report();
    // By name, as Control Conductores lists them.
    expect(r.missing_punches).toEqual([
      {
        user_id: longAgo.user.id,
        user_name: 'Olvidó Ayer',
        last_entrada: new Date(t - 30 * HOUR).toISOString(),
      },
      {
        user_id: forgot.user.id,
        user_name: 'Olvidó Salida',
        last_entrada: new Date(t - 17 * HOUR).toISOString(),
      },
      { user_id: orphan.user.id, user_name: 'Sin Entrada', last_entrada: null },
    ]);
  });
});

describe('notes to the next shift', () => {
  it('belong to the shift they are written in and show on the next one as the previous shift’s', async () => {
    const res = await postNote('  Muelle 4 averiado:\nno usar  ');
    expect(res.status, res.text).toBe(201);
    const note = res.body as HandoverNote;
    const current = shiftAt(now());
    expect(note).toMatchObject({
      text: 'Muelle 4 averiado:\nno usar',
      author_name: 'Gestora Ana',
      ...current,
    });
    expect(Math.abs(Date.parse(note.created_at) - now().getTime())).toBeLessThan(5_000);
    expect((await report()).shift_notes.map((n) => n.id)).toEqual([note.id]);
    expect((await report()).notes).toEqual([]);
    const next = nextShift(current);
    const following = await report({ shift: next.shift, date: next.date });
    expect(following.notes).toEqual([note]);
    expect(following.shift_notes).toEqual([]);
    const [log] = await db.select().from(activityLog).where(eq(activityLog.action, HANDOVER_LOG.noteAdded));
    expect(log).toMatchObject({ userId: gestor.user.id, userName: 'Gestora Ana' });
    expect(log.details).toContain('Muelle 4 averiado');
  });

  it('refuses an empty or too long text, and cleans control characters', async () => {
    for (const text of ['', '   ', undefined, 42]) {
      const res = await postNote(text);
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(HANDOVER_ERR.noteRequired);
    }
    const long = await postNote('a'.repeat(1001));
    expect(long.status).toBe(400);
    expect(long.body.detail).toContain(HANDOVER_ERR.noteTooLong);
    expect((await postNote('a'.repeat(1000))).status).toBe(201);
    const clean = await postNote('Ver\u0000 nota\u200b');
    expect(clean.body.text).toBe('Ver nota');
  });

  it('only its author deletes it, within the hour', async () => {
    const other = await makeUser('manager');
    const note = (await postNote('Borrable')).body as HandoverNote;
    const del = (id: string, who: TestUser = gestor) =>
      api().delete(`/api/handover/notes/${id}`).set(who.auth);
    const byOther = await del(note.id, other);
    expect(byOther.status).toBe(403);
    expect(byOther.body.detail).toBe(HANDOVER_ERR.noteNotYours);
    expect((await del(crypto.randomUUID())).status).toBe(404);
    expect((await del('no-es-un-id')).status).toBe(400);
    expect((await del(note.id)).status).toBe(204);
    expect(await db.select().from(handoverNotes).where(eq(handoverNotes.id, note.id))).toEqual([]);
    expect(
      await db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.action, HANDOVER_LOG.noteDeleted), eq(activityLog.userId, gestor.user.id))),
    ).toHaveLength(1);

    const old = (await postNote('Antigua')).body as HandoverNote;
    await advanceClock(HOUR + MIN);
    const late = await del(old.id);
    expect(late.status).toBe(409);
    expect(late.body.detail).toBe(HANDOVER_ERR.noteTooOld);
    expect(await db.select().from(handoverNotes).where(eq(handoverNotes.id, old.id))).toHaveLength(1);
  });
});

describe('GET /handover/export-excel', () => {
  it('relevo_{date}_{shift}.xlsx with the figures, the lists and the notes', async () => {
    await done('2026-11-24T13:30:00Z');
    await task({ trailerId: 'R-XLS' }, { onHold: true, holdReason: 'Precinto roto' });
    const { res, wb } = await fetchWorkbook(
      api().get('/api/handover/export-excel').query({ shift: 'tarde', date: '2026-11-24' }).set(gestor.auth),
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${HANDOVER_EXCEL.fileName('2026-11-24', 'tarde')}"`,
    );
    expect(HANDOVER_EXCEL.fileName('2026-11-24', 'tarde')).toBe('relevo_2026-11-24_tarde.xlsx');
    const summary = sheetTable(wb!.getWorksheet(HANDOVER_EXCEL.summarySheet)!);
    expect(summary.rows).toContainEqual(['Turno', 'tarde 2026-11-24']);
    expect(summary.rows).toContainEqual(['Movimientos hechos', 1]);
    expect(summary.rows).toContainEqual(['Retenidas', 1]);
    const holds = sheetTable(wb!.getWorksheet(HANDOVER_EXCEL.holdsSheet)!);
    expect(holds.rows).toHaveLength(1);
    expect(holds.rows[0][0]).toBe('R-XLS');
    expect(holds.rows[0].at(-1)).toBe('Precinto roto');
    const bad = await api().get('/api/handover/export-excel').query({ shift: 'x' }).set(gestor.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe(HANDOVER_ERR.shiftInvalid);
  });
});

describe('SHIFT_STARTS', () => {
  it('is read once from the environment; a wrong one stops the start with one Spanish line', () => {
    expect(loadConfig({ ...process.env, SHIFT_STARTS: undefined }).shiftStarts).toEqual(DEFAULT_SHIFT_STARTS);
    expect(loadConfig({ ...process.env, SHIFT_STARTS: '07:00,15:00,23:00' }).shiftStarts).toEqual([
      420, 900, 1380,
    ]);
    const bad = loadConfig({ ...process.env, SHIFT_STARTS: '22:00,06:00' });
    const before = process.env.SHIFT_STARTS;
    process.env.SHIFT_STARTS = '22:00,06:00';
    try {
      expect(() => checkConfig({ ...config, shiftStarts: bad.shiftStarts })).toThrow(
        HANDOVER_ERR.startupShiftStarts('22:00,06:00'),
      );
    } finally {
      if (before === undefined) delete process.env.SHIFT_STARTS;
      else process.env.SHIFT_STARTS = before;
    }
  });

  it('cuts the shifts the handover reports and files notes under', async () => {
    const saved = config.shiftStarts;
    configure({ shiftStarts: parseShiftStarts('07:30,15:30,23:30')! });
    try {
      const r = await report({ shift: 'noche', date: '2026-11-24' });
      expect([r.from, r.to]).toEqual(['2026-11-24T22:30:00.000Z', '2026-11-25T06:30:00.000Z']);
    } finally {
      configure({ shiftStarts: saved });
    }
  });
});
