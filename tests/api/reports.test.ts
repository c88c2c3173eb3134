// Informes de Operaciones (CONTRACT §8): deficiencies and delayed assignments over the last 24 h, a
// Madrid day and a Madrid hour, with the 10-minute threshold, averages and maxima over the incidents,
// and both daylight-saving days.
import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ERR } from '@shared/labels';
import { taskEvents, tasks } from '../../server/db/tables';
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
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);

const deficiencies = (query: Record<string, string | number> = {}) =>
  api().get('/api/admin/reports/deficiencies').query(query).set(manager.auth);
const delayed = (query: Record<string, string | number> = {}) =>
  api().get('/api/admin/reports/delayed-assignments').query(query).set(manager.auth);

/** A pool task created at `createdAt` that a driver got `waitMs` later. */
async function waited(createdAt: Date, waitMs: number, fields: Parameters<typeof makeTask>[0] = {}) {
  const driver = await makeUser('conductor');
  return makeTask({
    status: 'finalizada',
    assignedTo: driver.user.id,
    createdAt,
    assignedAt: plus(createdAt, waitMs),
    completedAt: plus(createdAt, waitMs + 5 * MIN),
    ...fields,
  });
}

/** A task assigned at `assignedAt` and finished `tookMs` later (null: still en_proceso). */
async function took(assignedAt: Date, tookMs: number | null, name?: string) {
  const driver = await makeUser('conductor', { name });
  return makeTask({
    status: tookMs === null ? 'en_proceso' : 'finalizada',
    assignedTo: driver.user.id,
    createdAt: plus(assignedAt, -MIN),
    assignedAt,
    completedAt: tookMs === null ? null : plus(assignedAt, tookMs),
  });
}

describe('who may read reports (CONTRACT §12)', () => {
  it.each(['deficiencies', 'delayed-assignments'])(
    '%s: manager and admin yes; gestor and conductor 403',
    async (r) => {
      const path = `/api/admin/reports/${r}`;
      expect((await api().get(path).set(manager.auth)).status).toBe(200);
      const admin = await makeUser('admin');
      expect((await api().get(path).set(admin.auth)).status).toBe(200);
      for (const role of ['gestor', 'conductor'] as const) {
        const { auth } = await makeUser(role);
        const res = await api().get(path).set(auth);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ detail: ERR.forbidden });
      }
      expect((await api().get(path)).status).toBe(401);
    },
  );
});

describe('report query validation', () => {
  it('asks for the date of a day or hour period, and the hour of an hour period', async () => {
    expect((await deficiencies({ period: 'day' })).body).toEqual({ detail: ERR.dateRequired });
    expect((await delayed({ period: 'hour', hour: 9 })).body).toEqual({ detail: ERR.dateRequired });
    const noHour = await deficiencies({ period: 'hour', date: '2026-11-20' });
    expect(noHour.status).toBe(400);
    expect(noHour.body).toEqual({ detail: ERR.hourRequired });
  });

  it.each([
    [{ period: 'week' }],
    [{ period: 'day', date: '2026-02-30' }],
    [{ period: 'day', date: '20-11-2026' }],
    [{ period: 'hour', date: '2026-11-20', hour: 24 }],
    [{ period: 'hour', date: '2026-11-20', hour: -1 }],
    [{ period: 'hour', date: '2026-11-20', hour: 'nueve' }],
    [{ period: '24h', extra: 1 }],
  ])('400 with a Spanish detail for %o', async (query) => {
    const res = await deficiencies(query);
    expect(res.status).toBe(400);
    expect(typeof res.body.detail).toBe('string');
    expect(res.body.detail.length).toBeGreaterThan(0);
  });

  it("takes the hour with a leading zero ('09') and defaults to the last 24 h", async () => {
    const res = await delayed({ period: 'hour', date: '2026-11-20', hour: '09' });
    expect(res.status).toBe(200);
    expect(res.body.summary.period).toBe('20/11/2026 09:00–10:00');
    expect((await deficiencies()).body.summary.period).toBe('Últimas 24 horas');
  });
});

describe('deficiencies: the wait for the first driver of auto-assigned tasks', () => {
  it('counts a wait over 10 minutes, not exactly 10; averages and maxima over the incidents', async () => {
    const base = ago(2 * HOUR);
    await waited(base, 10 * MIN, { trailerId: 'EXACTO-10' });
    const slow = await waited(plus(base, MIN), 10.1 * 60_000, { priority: 'high' });
    const slower = await waited(plus(base, 2 * MIN), 25 * MIN, { vehicleType: 'semiremolque_out_km0' });
    await waited(plus(base, 3 * MIN), 40 * MIN, { vehicleType: 'swap' }); // swap is never auto-assigned
    const deleted = await waited(plus(base, 4 * MIN), 50 * MIN);
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, deleted.id)));
    await waited(ago(25 * HOUR), 60 * MIN); // before the last 24 h
    // Still in the pool after 45 minutes: the wait runs up to now; the engine found nobody.
    const waiting = await makeTask({ createdAt: ago(45 * MIN) });
    const due = plus(now(), 30 * MIN);
    await tx(() =>
      db.update(tasks).set({ noDriversAvailable: true, dueAt: due }).where(eq(tasks.id, waiting.id)),
    );

    const res = await deficiencies({ period: '24h' });
    expect(res.status).toBe(200);
    expect(res.body.incidents.map((i: { task_id: string }) => i.task_id)).toEqual([
      waiting.id,
      slower.id,
      slow.id,
    ]);
    const [w, s25, s10] = res.body.incidents;
    expect(w).toEqual({
      task_id: waiting.id,
      task_title: 'Mover',
      priority: 'normal',
      reason: 'no_drivers_available',
      reason_detail: 'Sin conductores disponibles',
      delay_minutes: 45,
      trailer_id: waiting.trailerId,
      created_at: waiting.createdAt.toISOString(),
      timestamp: null,
      // CONTRACT §20: how it stands against its deadline.
      status: 'bolsa_trabajo',
      due_at: due.toISOString(),
      late_s: null,
    });
    expect(s25).toMatchObject({
      delay_minutes: 25,
      reason: 'other',
      timestamp: slower.assignedAt!.toISOString(),
    });
    expect(s10).toMatchObject({ delay_minutes: 10.1, priority: 'high' });
    expect(res.body.summary).toEqual({
      total_incidents: 3,
      avg_delay_minutes: 26.7, // (45 + 25 + 10.1) / 3
      max_delay_minutes: 45,
      period: 'Últimas 24 horas',
    });
  });

  it('measures up to the first assignment in the history, not a later reassignment', async () => {
    const created = ago(3 * HOUR);
    const driver = await makeUser('conductor');
    const task = await makeTask({
      status: 'en_proceso',
      assignedTo: driver.user.id,
      createdAt: created,
      assignedAt: plus(created, 90 * MIN),
    });
    const event = (type: 'assigned' | 'returned', afterMs: number) =>
      tx(() =>
        db
          .insert(taskEvents)
          .values({ taskId: task.id, type, driverId: driver.user.id, at: plus(created, afterMs) }),
      );
    await event('assigned', 12 * MIN);
    await event('returned', 20 * MIN);
    await event('assigned', 90 * MIN);

    const res = await deficiencies();
    expect(res.body.incidents).toHaveLength(1);
    expect(res.body.incidents[0]).toMatchObject({
      delay_minutes: 12,
      timestamp: plus(created, 12 * MIN).toISOString(),
    });
  });

  it('says why in reason_detail (CONTRACT §22): nobody on shift, drivers busy, or who returned it and why', async () => {
    const base = ago(5 * HOUR);
    const onShift = await makeUser('conductor');
    // On shift all along, but without the tasks' type: no help to them.
    const otherType = await makeUser('conductor', { taskTypes: ['swap'] });
    await makePunch(otherType.user.id, 'entrada', plus(base, -HOUR));
    const ana = await makeUser('conductor', { name: 'Ana Ruiz' });
    // Nobody clocked in yet when the first task entered the pool.
    const alone = await waited(base, 20 * MIN);
    await makePunch(onShift.user.id, 'entrada', plus(base, 10 * MIN));
    const busy = await waited(plus(base, 30 * MIN), 20 * MIN);
    // Clocked in, then out again: off shift when the third task came.
    await makePunch(onShift.user.id, 'salida', plus(base, 2 * HOUR));
    const late = await waited(plus(base, 150 * MIN), 20 * MIN);
    const returned = await waited(plus(base, 40 * MIN), 15 * MIN);
    await tx(() =>
      db.insert(taskEvents).values([
        {
          taskId: returned.id,
          type: 'returned',
          driverId: ana.user.id,
          reason: 'Otro remolque',
          at: plus(base, 60 * MIN),
        },
        {
          taskId: returned.id,
          type: 'returned',
          driverId: ana.user.id,
          reason: 'Rueda pinchada',
          at: plus(base, 70 * MIN),
        },
      ]),
    );

    const res = await deficiencies();
    expect(res.status).toBe(200);
    const detail = Object.fromEntries(
      res.body.incidents.map((i: { task_id: string; reason_detail: string }) => [i.task_id, i.reason_detail]),
    );
    expect(detail).toEqual({
      [alone.id]: 'Sin conductores disponibles',
      [busy.id]: 'Conductores ocupados',
      [late.id]: 'Sin conductores disponibles',
      [returned.id]: 'Devuelta por Ana Ruiz: Rueda pinchada',
    });
  });

  it('answers zeros and an empty list when nothing waited too long', async () => {
    await waited(ago(HOUR), 9 * MIN);
    const res = await deficiencies();
    expect(res.body).toEqual({
      summary: { total_incidents: 0, avg_delay_minutes: 0, max_delay_minutes: 0, period: 'Últimas 24 horas' },
      incidents: [],
    });
  });

  it('a Madrid day takes tasks by created_at, 25 hours on 2026-10-25', async () => {
    const first = await waited(at('2026-10-24T22:00:00Z'), 15 * MIN); // 00:00 CEST, the day's first instant
    const last = await waited(at('2026-10-25T22:59:00Z'), 15 * MIN); // 23:59 CET
    await waited(at('2026-10-24T21:59:00Z'), 15 * MIN); // 23:59 the day before
    await waited(at('2026-10-25T23:00:00Z'), 15 * MIN); // 00:00 the day after

    const res = await deficiencies({ period: 'day', date: '2026-10-25' });
    expect(res.body.summary.period).toBe('25/10/2026');
    expect(res.body.incidents.map((i: { task_id: string }) => i.task_id).sort()).toEqual(
      [first.id, last.id].sort(),
    );
  });

  it('hour 2 of 2026-10-25 spans both 02:00–03:00 (two real hours)', async () => {
    const summerTwo = await waited(at('2026-10-25T00:30:00Z'), 15 * MIN); // 02:30 CEST
    const winterTwo = await waited(at('2026-10-25T01:30:00Z'), 20 * MIN); // 02:30 CET
    const three = await waited(at('2026-10-25T02:30:00Z'), 30 * MIN); // 03:30 CET

    const two = await deficiencies({ period: 'hour', date: '2026-10-25', hour: 2 });
    expect(two.body.summary).toEqual({
      total_incidents: 2,
      avg_delay_minutes: 17.5,
      max_delay_minutes: 20,
      period: '25/10/2026 02:00–03:00',
    });
    expect(two.body.incidents.map((i: { task_id: string }) => i.task_id)).toEqual([
      winterTwo.id,
      summerTwo.id,
    ]);
    const threeRes = await deficiencies({ period: 'hour', date: '2026-10-25', hour: 3 });
    expect(threeRes.body.incidents.map((i: { task_id: string }) => i.task_id)).toEqual([three.id]);
  });

  it('hour 2 of 2026-03-29 does not exist: empty; the task of 03:30 CEST is in hour 3', async () => {
    const oneThirty = await waited(at('2026-03-29T00:30:00Z'), 15 * MIN); // 01:30 CET
    const threeThirty = await waited(at('2026-03-29T01:30:00Z'), 15 * MIN); // 03:30 CEST
    const ids = async (hour: number) =>
      (await deficiencies({ period: 'hour', date: '2026-03-29', hour })).body.incidents.map(
        (i: { task_id: string }) => i.task_id,
      );
    expect(await ids(1)).toEqual([oneThirty.id]);
    expect(await ids(2)).toEqual([]);
    expect(await ids(3)).toEqual([threeThirty.id]);
    // 23 hours: both tasks belong to the day.
    expect((await deficiencies({ period: 'day', date: '2026-03-29' })).body.summary.total_incidents).toBe(2);
  });
});

describe('deficiencies: time on hold is not a wait for a driver (CONTRACT §15)', () => {
  const put = (id: string, body: object) => api().put(`/api/tasks/${id}`).set(manager.auth).send(body);
  /** Staff give the task to a driver by hand (a held task is released by it). */
  const assign = async (id: string) => {
    const res = await put(id, { status: 'en_proceso', assigned_to: (await makeUser('conductor')).user.id });
    expect(res.status).toBe(200);
    return res.body as { assigned_at: string };
  };
  const incidentOf = async (id: string) =>
    ((await deficiencies()).body.incidents as { task_id: string }[]).find((i) => i.task_id === id);

  it('counts only the unheld part of a wait that was partly on hold', async () => {
    const task = await makeTask({ createdAt: now() });
    await advanceClock(5 * MIN);
    expect((await put(task.id, { on_hold: true, hold_reason: 'Esperando papeles' })).status).toBe(200);
    await advanceClock(20 * MIN);
    // A new reason while held is another 'held' row: the hold is still one, counted once.
    expect((await put(task.id, { hold_reason: 'Esperando al cliente' })).status).toBe(200);
    await advanceClock(20 * MIN);
    expect((await put(task.id, { on_hold: false })).status).toBe(200);
    await advanceClock(7 * MIN);
    const assigned = await assign(task.id);

    const incident = await incidentOf(task.id);
    expect(incident).toMatchObject({ delay_minutes: 12, timestamp: assigned.assigned_at }); // 5 + 7, not 52
    const res = await deficiencies();
    expect(res.body.summary).toMatchObject({
      total_incidents: 1,
      avg_delay_minutes: 12,
      max_delay_minutes: 12,
    });
  });

  it('a task still waiting after a hold counts up to now without the held time', async () => {
    const task = await makeTask({ createdAt: now() });
    await advanceClock(4 * MIN);
    await put(task.id, { on_hold: true });
    await advanceClock(60 * MIN);
    await put(task.id, { on_hold: false });
    await advanceClock(8 * MIN);
    expect(await incidentOf(task.id)).toMatchObject({ delay_minutes: 12, timestamp: null });
  });

  it('leaves out a task held for its whole wait, and one held right now', async () => {
    const wholeWait = await makeTask({ createdAt: now() });
    expect((await put(wholeWait.id, { on_hold: true, hold_reason: 'Remolque dañado' })).status).toBe(200);
    const stillHeld = await makeTask({ createdAt: now() });
    await advanceClock(3 * MIN);
    await put(stillHeld.id, { on_hold: true });
    await advanceClock(40 * MIN);
    await assign(wholeWait.id); // assigning by hand releases it: the wait ends as the hold does

    expect(await incidentOf(wholeWait.id)).toBeUndefined();
    expect(await incidentOf(stillHeld.id)).toBeUndefined();
    expect((await deficiencies()).body.summary.total_incidents).toBe(0);
  });

  it('an ordinary task beside held ones keeps its whole wait', async () => {
    const ordinary = await makeTask({ createdAt: now() });
    const held = await makeTask({ createdAt: now() });
    await advanceClock(2 * MIN);
    await put(held.id, { on_hold: true });
    await advanceClock(30 * MIN);
    await put(held.id, { on_hold: false });
    await advanceClock(MIN);
    const assigned = await assign(ordinary.id);
    await assign(held.id);

    const res = await deficiencies();
    expect(res.body.incidents).toEqual([
      expect.objectContaining({ task_id: ordinary.id, delay_minutes: 33, timestamp: assigned.assigned_at }),
    ]);
  });
});

describe('delayed assignments: the time from assignment to completion', () => {
  it('counts over 10 minutes, in process up to now; averages and maxima over the incidents', async () => {
    const base = ago(3 * HOUR);
    await took(base, 10 * MIN);
    const a = await took(plus(base, MIN), 10.1 * 60_000, 'Lucía García');
    const b = await took(plus(base, 2 * MIN), 22 * MIN);
    const open = await took(ago(35 * MIN), null, 'Pedro Ruiz');
    const gone = await took(plus(base, 3 * MIN), 60 * MIN);
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, gone.id)));
    await took(ago(25 * HOUR), 60 * MIN);
    const due = plus(a.completedAt!, -7 * MIN);
    await tx(() =>
      db
        .update(tasks)
        .set({ dueAt: due, lateS: 7 * 60 })
        .where(eq(tasks.id, a.id)),
    );

    const res = await delayed();
    expect(res.status).toBe(200);
    expect(res.body.assignments.map((x: { task_id: string }) => x.task_id)).toEqual([open.id, b.id, a.id]);
    expect(res.body.assignments[0]).toEqual({
      task_id: open.id,
      task_title: 'Mover',
      priority: 'normal',
      status: 'en_proceso',
      completion_delay_minutes: 35,
      assigned_to_name: 'Pedro Ruiz',
      trailer_id: open.trailerId,
      assigned_at: open.assignedAt!.toISOString(),
      completed_at: null,
      due_at: null,
      late_s: null,
    });
    expect(res.body.assignments[2]).toMatchObject({
      status: 'finalizada',
      completion_delay_minutes: 10.1,
      assigned_to_name: 'Lucía García',
      completed_at: a.completedAt!.toISOString(),
      due_at: due.toISOString(),
      late_s: 7 * 60,
    });
    expect(res.body.summary).toEqual({
      total_incidents: 3,
      avg_delay_minutes: 22.4, // (35 + 22 + 10.1) / 3 = 22.37
      max_delay_minutes: 35,
      period: 'Últimas 24 horas',
    });
  });

  it('a period takes tasks by assigned_at (Madrid hour, autumn repeat included)', async () => {
    const inHour = await took(at('2026-10-25T01:10:00Z'), 45 * MIN); // assigned 02:10 CET
    await took(at('2026-10-25T02:10:00Z'), 45 * MIN); // assigned 03:10 CET
    const res = await delayed({ period: 'hour', date: '2026-10-25', hour: '02' });
    expect(res.body.assignments.map((x: { task_id: string }) => x.task_id)).toEqual([inHour.id]);
    expect(res.body.summary).toMatchObject({
      total_incidents: 1,
      avg_delay_minutes: 45,
      max_delay_minutes: 45,
    });
  });
});
