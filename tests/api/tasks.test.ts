// Tasks API for staff (CONTRACT §5, §12): create, the board per role, PUT moves, delete, the driver
// picker and the rankings reset — status codes, bodies and what the database keeps.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import crypto from 'node:crypto';
import { activityLog, notifications, taskEvents, tasks, users } from '../../server/db/tables';
import { advanceClock, db, makePunch, makeTask, makeUser, now, setupApp, tx } from '../helpers/context';
import Database from 'better-sqlite3';
import pg from 'pg';
import { execute, isPostgres, sqlite, withWriteConnection } from '../../server/db';
import { postgresPool } from '../../server/db/postgres';
import { ERR } from '@shared/labels';
import { DEFAULT_TRAILER_MARKS } from '@shared/schemas';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});

const HOUR = 3_600_000;
const payload = (over: Record<string, unknown> = {}) => ({
  title: 'Mover',
  origin: 'Muelle 3',
  destination: 'Campa A-12',
  trailer_id: 'r-4411-bcd',
  ...over,
});
const row = async (id: string) => (await db.select().from(tasks).where(eq(tasks.id, id)).limit(1))[0]!;
const events = async (id: string) =>
  (await db.select().from(taskEvents).where(eq(taskEvents.taskId, id))).map((e) => e.type);
const movements = async (id: string) =>
  (await db.select().from(users).where(eq(users.id, id)).limit(1))[0]!.movementsCount;
const notesOf = (userId: string) => db.select().from(notifications).where(eq(notifications.userId, userId));

describe('permissions', () => {
  it('answers 401 without a token and 403 to roles the endpoint is not for', async () => {
    const driver = await makeUser('conductor');
    const gestor = await makeUser('gestor');
    const manager = await makeUser('manager');
    const task = await makeTask();
    expect((await api().get('/api/tasks')).status).toBe(401);
    expect((await api().post('/api/tasks').set(driver.auth).send(payload())).status).toBe(403);
    expect((await api().delete(`/api/tasks/${task.id}`).set(driver.auth)).status).toBe(403);
    expect((await api().get(`/api/tasks/${task.id}/eligible-drivers`).set(driver.auth)).status).toBe(403);
    expect((await api().get('/api/tasks/my-active').set(gestor.auth)).status).toBe(403);
    expect((await api().post(`/api/tasks/${task.id}/self-assign`).set(gestor.auth)).status).toBe(403);
    const reset = await api().post('/api/admin/reset-rankings').set(manager.auth);
    expect(reset.status).toBe(403);
    expect(reset.body.detail).toBe('No tienes permiso para esta acción');
  });
});

/** A trigger of the test's own that makes the database refuse every move to en_proceso (or drops it). */
async function refuseAssignments(on: boolean): Promise<void> {
  if (isPostgres) {
    if (on) {
      await execute(`CREATE FUNCTION refuse_assignment() RETURNS trigger LANGUAGE plpgsql
        AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`);
      await execute(`CREATE TRIGGER refuse_assignment BEFORE UPDATE OF status ON tasks FOR EACH ROW
        WHEN (NEW.status = 'en_proceso') EXECUTE FUNCTION refuse_assignment()`);
    } else {
      await execute('DROP TRIGGER refuse_assignment ON tasks');
      await execute('DROP FUNCTION refuse_assignment()');
    }
    return;
  }
  await withWriteConnection((conn) =>
    conn.exec(
      on
        ? `CREATE TRIGGER refuse_assignment BEFORE UPDATE OF status ON tasks
        WHEN NEW.status = 'en_proceso' BEGIN SELECT RAISE(ABORT, 'refused'); END`
        : 'DROP TRIGGER refuse_assignment',
    ),
  );
}

describe('POST /api/tasks', () => {
  it('creates a pool task with every field present, upper-cased trailer and defaults', async () => {
    const gestor = await makeUser('gestor', { name: 'Gema Gestora' });
    const res = await api()
      .post('/api/tasks')
      .set(gestor.auth)
      .send(payload({ origin: '  Muelle 3 ' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      title: 'Mover',
      description: null,
      origin: 'Muelle 3',
      destination: 'Campa A-12',
      // No catalogue place has those names (CONTRACT §17): free text.
      origin_location_id: null,
      destination_location_id: null,
      trailer_id: 'R-4411-BCD',
      load_state_after: null,
      due_at: null,
      late_s: null,
      proof: null,
      dropped_at_location_id: null,
      dropped_at_location_name: null,
      external_ref: null,
      created_by_client_id: null,
      priority: 'normal',
      status: 'bolsa_trabajo',
      vehicle_type: 'semiremolque',
      assigned_to: null,
      assigned_to_name: null,
      created_by: gestor.user.id,
      created_by_name: 'Gema Gestora',
      created_at: expect.stringMatching(/Z$/),
      updated_at: res.body.created_at,
      assigned_at: null,
      completed_at: null,
      status_since: res.body.created_at,
      return_reason: null,
      on_hold: false,
      hold_reason: null,
      hold_source: null,
      last_return_reason: null,
      assignee_online: null,
      assignee_offline_since: null,
      trailer: DEFAULT_TRAILER_MARKS,
      version: 1,
    });
    expect(await events(res.body.id)).toEqual(['created']);
    expect(await db.select().from(activityLog)).toEqual([
      expect.objectContaining({ type: 'task', userName: 'Gema Gestora', action: 'Crear tarea' }),
    ]);
    // Nobody was available: the first matching attempt recorded it for the deficiency report.
    expect((await row(res.body.id)).noDriversAvailable).toBe(true);
  });

  it('answers the auto-assigned task when a driver is available', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor', { online: true, name: 'Dani' });
    await makePunch(driver.user.id, 'entrada');
    const res = await api()
      .post('/api/tasks')
      .set(admin.auth)
      .send(payload({ priority: 'high' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'en_proceso',
      assigned_to: driver.user.id,
      assigned_to_name: 'Dani',
      version: 2,
    });
    expect((await row(res.body.id)).noDriversAvailable).toBe(false);
  });

  it('keeps the new task when the engine round it starts fails (only the round is undone)', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor', { online: true });
    await makePunch(driver.user.id, 'entrada');
    // The database refuses every assignment: the round inside the creating transaction throws.
    await refuseAssignments(true);
    const res = await api().post('/api/tasks').set(admin.auth).send(payload());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'bolsa_trabajo', assigned_to: null, version: 1 });
    expect((await row(res.body.id)).status).toBe('bolsa_trabajo');
    expect(await events(res.body.id)).toEqual(['created']);
    expect(await notesOf(driver.user.id)).toHaveLength(0);
    await refuseAssignments(false);
  });

  it('refuses bad input with 400 and a Spanish detail', async () => {
    const admin = await makeUser('admin');
    const bad = [
      payload({ title: 'Llevar' }),
      payload({ origin: '   ' }),
      payload({ destination: undefined }),
      payload({ trailer_id: 'x'.repeat(121) }),
      payload({ description: 'd'.repeat(1001) }),
      payload({ priority: 'urgente' }),
      payload({ vehicle_type: 'camion' }),
    ];
    for (const body of bad) {
      const res = await api().post('/api/tasks').set(admin.auth).send(body);
      expect(res.status).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
    expect(await db.select().from(tasks)).toHaveLength(0);
  });

  it('allows one open task per trailer', async () => {
    const admin = await makeUser('admin');
    const first = await api().post('/api/tasks').set(admin.auth).send(payload());
    const second = await api()
      .post('/api/tasks')
      .set(admin.auth)
      .send(payload({ trailer_id: ' R-4411-BCD ' }));
    expect(second.status).toBe(409);
    expect(second.body.detail).toBe('El remolque R-4411-BCD ya tiene una tarea abierta');
    expect(await db.select().from(tasks)).toHaveLength(1);

    await api().put(`/api/tasks/${first.body.id}`).set(admin.auth).send({ status: 'finalizada' });
    const again = await api().post('/api/tasks').set(admin.auth).send(payload());
    expect(again.status).toBe(201);
  });
});

describe('GET /api/tasks', () => {
  it('scopes the board per role, newest created_at first', async () => {
    const a = await makeUser('conductor');
    const b = await makeUser('conductor', { taskTypes: ['semiremolque', 'swap'] });
    const finishedOld = await makeTask({
      status: 'finalizada',
      assignedTo: a.user.id,
      createdAt: new Date(now().getTime() - 25 * HOUR),
    });
    const pool = await makeTask();
    await advanceClock(1000);
    const swap = await makeTask({ vehicleType: 'swap' });
    await advanceClock(1000);
    const active = await makeTask({ status: 'en_proceso', assignedTo: a.user.id });
    await advanceClock(1000);
    const finished = await makeTask({ status: 'finalizada', assignedTo: a.user.id });
    await advanceClock(1000);
    const gone = await makeTask();
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, gone.id)));

    const ids = async (auth: { Authorization: string }) => {
      const res = await api().get('/api/tasks').set(auth);
      expect(res.status).toBe(200);
      return res.body.map((t: { id: string }) => t.id);
    };
    const all = [finished.id, active.id, swap.id, pool.id];
    expect(await ids((await makeUser('admin')).auth)).toEqual(all);
    expect(await ids((await makeUser('manager')).auth)).toEqual(all);
    expect(await ids((await makeUser('gestor')).auth)).toEqual([active.id, swap.id, pool.id]);
    expect(await ids(a.auth)).toEqual([finished.id, active.id, pool.id]);
    expect(await ids(b.auth)).toEqual([swap.id, pool.id]);
    expect(all).not.toContain(finishedOld.id);
    expect((await row(finishedOld.id)).completedAt!.getTime()).toBeLessThan(now().getTime() - 24 * HOUR);
  });

  it('reads the board through index ranges, never a scan of the history', async () => {
    // With 100k finished tasks a scan (or a walk of every finalizada row) would make the board slow;
    // the plans of the queries GET /tasks really runs must stay on the status / completed_at ranges.
    if (isPostgres) return boardPlansOnPostgres();
    // (SQLite: every statement either connection compiles is seen; each is compiled once per connection.)
    const prepare = sqlite.prepare.bind(sqlite);
    const seen: string[] = [];
    const original = Database.prototype.prepare;
    const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (
      this: Database.Database,
      source: string,
    ) {
      seen.push(source);
      return original.call(this, source);
    });
    await loadBoards();
    spy.mockRestore();
    const plans = seen
      .filter((q) => q.startsWith('select') && q.includes('from "tasks"'))
      .map((q) =>
        (
          prepare(`EXPLAIN QUERY PLAN ${q}`).all(...Array(q.split('?').length - 1).fill(null)) as {
            detail: string;
          }[]
        )
          .map((p) => p.detail)
          .filter((d) => /\btasks\b/.test(d))
          .join(),
      );
    // The distinct statements of the three boards (a statement compiled once serves every later load).
    expect(plans.length).toBeGreaterThanOrEqual(4);
    for (const plan of plans) expect(plan).toMatch(/^SEARCH tasks USING INDEX/);
    // The finished ones along completed_at (tasks_completed, or the indicators' covering tasks_completed_facts).
    expect(plans.some((p) => /tasks_completed(_facts)? \(completed_at>\?\)/.test(p))).toBe(true);
  });
});

/** GET /tasks as an admin, a gestor and a conductor. */
async function loadBoards(): Promise<void> {
  for (const role of ['admin', 'gestor', 'conductor'] as const)
    expect(
      (
        await api()
          .get('/api/tasks')
          .set((await makeUser(role)).auth)
      ).status,
    ).toBe(200);
}

/**
 * PostgreSQL's planner weighs the table's statistics (it takes no hints): over a handful of rows a Seq
 * Scan is its right choice. So the history is there first — 20,000 tasks finished two days ago, analysed
 * — then every statement of the three boards is explained with the parameters it ran with.
 */
async function boardPlansOnPostgres(): Promise<void> {
  const old = now().getTime() - 48 * HOUR;
  await execute(
    `INSERT INTO tasks (id, title, origin, destination, trailer_id, trailer_key, priority, status, vehicle_type,
       created_at, updated_at, completed_at, status_since)
     SELECT 'history-' || g, 'Mover', 'Muelle 1', 'Campa A-12', 'H-' || g, 'H' || g, 'normal', 'finalizada',
       'semiremolque', ?::bigint - 3600000, ?::bigint, ?::bigint, ?::bigint
     FROM generate_series(1, 20000) AS g`,
    [old, old, old, old],
  );
  const open = await makeTask();
  const driver = await makeUser('conductor');
  await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
  await makeTask({ status: 'finalizada', assignedTo: driver.user.id });
  expect(open.status).toBe('bolsa_trabajo');
  await execute('ANALYZE tasks');

  const seen: { text: string; values: unknown[] }[] = [];
  const original = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[]?];
    const text = typeof config === 'string' ? config : config.text;
    seen.push({ text, values: (typeof config === 'string' ? undefined : config.values) ?? values ?? [] });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  await loadBoards();
  spy.mockRestore();
  const plans: string[] = [];
  for (const q of seen.filter((q) => q.text.startsWith('select') && q.text.includes('from "tasks"'))) {
    const { rows } = await postgresPool().query<{ 'QUERY PLAN': string }>(`EXPLAIN ${q.text}`, q.values);
    plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  // Two statements per board but the gestor's (no finished tasks): five.
  expect(plans).toHaveLength(5);
  for (const plan of plans) {
    expect(plan).not.toMatch(/Seq Scan on tasks/);
    expect(plan).toMatch(
      /Index (Only )?Scan (Backward )?using tasks_\w+ on tasks|Bitmap Index Scan on tasks_/,
    );
  }
  expect(plans.some((p) => /Index Cond: \(completed_at > /.test(p))).toBe(true);
}

describe('PUT /api/tasks/{id} by staff', () => {
  it('edits fields with version+1, an updated event and an activity row', async () => {
    const manager = await makeUser('manager');
    const task = await makeTask();
    const res = await api()
      .put(`/api/tasks/${task.id}`)
      .set(manager.auth)
      .send({ priority: 'high', description: 'Urgente', trailer_id: 'r-9' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      priority: 'high',
      description: 'Urgente',
      trailer_id: 'R-9',
      version: 2,
      status_since: task.statusSince.toISOString(),
    });
    expect(await events(task.id)).toEqual(['updated']);
    const [log] = await db.select().from(activityLog);
    expect(log.action).toBe('Editar tarea');
    expect(log.details).toContain('prioridad');
  });

  it('keeps one open task per trailer when the trailer is edited', async () => {
    const admin = await makeUser('admin');
    await makeTask({ trailerId: 'R-1' });
    await makeTask({ trailerId: 'R-2', status: 'finalizada' });
    const task = await makeTask({ trailerId: 'R-3' });
    const clash = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ trailer_id: 'r-1' });
    expect(clash.status).toBe(409);
    expect(clash.body.detail).toBe('El remolque R-1 ya tiene una tarea abierta');
    expect(await row(task.id)).toMatchObject({ trailerId: 'R-3', version: 1 });
    expect(await events(task.id)).toEqual([]);
    const ok = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ trailer_id: 'R-2' });
    expect(ok.status).toBe(200);
  });

  it('to en_proceso needs an approved conductor with no active task and the type', async () => {
    const admin = await makeUser('admin');
    const task = await makeTask({ vehicleType: 'semiremolque_out_km0' });
    const put = (body: object) => api().put(`/api/tasks/${task.id}`).set(admin.auth).send(body);

    for (const body of [
      { status: 'en_proceso' },
      { status: 'en_proceso', assigned_to: null },
      { status: 'en_proceso', assigned_to: (await makeUser('gestor')).user.id },
      { status: 'en_proceso', assigned_to: crypto.randomUUID() },
      { status: 'en_proceso', assigned_to: (await makeUser('conductor', { approved: false })).user.id },
    ]) {
      const res = await put(body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('Selecciona un conductor');
    }
    const lacking = await put({ status: 'en_proceso', assigned_to: (await makeUser('conductor')).user.id });
    expect(lacking.status).toBe(409);
    expect(lacking.body.detail).toBe('El conductor no tiene habilitado este tipo de tarea');

    const busy = await makeUser('conductor', { taskTypes: ['semiremolque_out_km0'] });
    await makeTask({ status: 'en_proceso', assignedTo: busy.user.id, vehicleType: 'semiremolque_out_km0' });
    const taken = await put({ status: 'en_proceso', assigned_to: busy.user.id });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe('El conductor ya tiene una tarea activa');
    expect(await row(task.id)).toMatchObject({ status: 'bolsa_trabajo', version: 1 });

    const free = await makeUser('conductor', { taskTypes: ['semiremolque_out_km0'], name: 'Lola' });
    await advanceClock(5000);
    const ok = await put({ status: 'en_proceso', assigned_to: free.user.id });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      status: 'en_proceso',
      assigned_to: free.user.id,
      assigned_to_name: 'Lola',
      version: 2,
    });
    expect(ok.body.assigned_at).toBe(ok.body.status_since);
    expect(ok.body.status_since).not.toBe(task.statusSince.toISOString());
    expect(await notesOf(free.user.id)).toEqual([
      expect.objectContaining({ type: 'task_assigned', title: 'Nueva tarea asignada', playSound: true }),
    ]);
    expect(await events(task.id)).toEqual(['assigned']);
  });

  it("a board drag carries the card's version: a stale one is a 409 and nothing is written", async () => {
    const gestor = await makeUser('gestor');
    const driver = await makeUser('conductor', { name: 'Lola' });
    const other = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const pool = await makeTask();
    const put = (id: string, body: object) => api().put(`/api/tasks/${id}`).set(gestor.auth).send(body);
    // Someone else edited both cards after this board showed them (version 1 → 2).
    expect((await put(task.id, { priority: 'high' })).status).toBe(200);
    expect((await put(pool.id, { priority: 'high' })).status).toBe(200);
    const before = {
      task: await row(task.id),
      pool: await row(pool.id),
      events: await events(task.id),
      poolEvents: await events(pool.id),
    };

    for (const [id, body] of [
      [task.id, { status: 'finalizada', version: 1 }],
      [task.id, { status: 'bolsa_trabajo', version: 1 }],
      [task.id, { status: 'en_proceso', assigned_to: other.user.id, version: 1 }],
      [pool.id, { status: 'en_proceso', assigned_to: other.user.id, version: 1 }],
      [pool.id, { status: 'finalizada', version: 1 }],
    ] as const) {
      const res = await put(id, body);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: ERR.versionConflict });
    }
    expect(await row(task.id)).toEqual(before.task);
    expect(await row(pool.id)).toEqual(before.pool);
    expect(await events(task.id)).toEqual(before.events);
    expect(await events(pool.id)).toEqual(before.poolEvents);
    expect(await movements(driver.user.id)).toBe(0);
    expect(await notesOf(driver.user.id)).toEqual([]);
    expect(await notesOf(other.user.id)).toEqual([]);

    // With the version the board has now, the same drag goes through.
    const ok = await put(task.id, { status: 'finalizada', version: 2 });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'finalizada', version: 3 });
    expect(await row(task.id)).toMatchObject({ status: 'finalizada', creditedTo: driver.user.id });
  });

  it('reassigns with {assigned_to} alone, keeping status_since', async () => {
    const gestor = await makeUser('gestor');
    const first = await makeUser('conductor');
    const second = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: first.user.id });
    await advanceClock(60_000);
    const res = await api()
      .put(`/api/tasks/${task.id}`)
      .set(gestor.auth)
      .send({ assigned_to: second.user.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'en_proceso',
      assigned_to: second.user.id,
      status_since: task.statusSince.toISOString(),
    });
    expect((await notesOf(second.user.id)).map((n) => n.type)).toEqual(['task_assigned']);
    expect((await notesOf(first.user.id)).map((n) => n.type)).toEqual(['info']);
    expect((await db.select().from(users).where(eq(users.id, first.user.id)))[0]!.idleSince).not.toBeNull();

    // {assigned_to} alone on a pool task assigns it; on a finished one it lost a race: 409 (CONTRACT §5).
    const pool = await makeTask();
    const assign = await api()
      .put(`/api/tasks/${pool.id}`)
      .set(gestor.auth)
      .send({ assigned_to: first.user.id });
    expect(assign.body).toMatchObject({ status: 'en_proceso', assigned_to: first.user.id });
    const done = await makeTask({ status: 'finalizada' });
    const refused = await api()
      .put(`/api/tasks/${done.id}`)
      .set(gestor.auth)
      .send({ assigned_to: first.user.id });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('La tarea ya está finalizada');
    const mixed = await api()
      .put(`/api/tasks/${pool.id}`)
      .set(gestor.auth)
      .send({ status: 'bolsa_trabajo', assigned_to: second.user.id });
    expect(mixed.status).toBe(400);
  });

  it('to bolsa_trabajo clears the assignee and the return reason', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    await tx(() => db.update(tasks).set({ returnReason: 'Otro' }).where(eq(tasks.id, task.id)));
    const res = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ status: 'bolsa_trabajo' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'bolsa_trabajo',
      assigned_to: null,
      assigned_to_name: null,
      assigned_at: null,
      return_reason: null,
    });
    expect(await events(task.id)).toEqual(['status_changed']);
  });

  it('to finalizada credits the assignee; out of finalizada takes the credit back, never below 0', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const done = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ status: 'finalizada' });
    expect(done.status).toBe(200);
    expect(done.body.completed_at).toBe(done.body.status_since);
    expect(done.body.assigned_to).toBe(driver.user.id);
    expect(await movements(driver.user.id)).toBe(1);
    // Staff finished it for the driver: told so, not congratulated (CONTRACT §5).
    expect((await notesOf(driver.user.id)).map((n) => n.type)).toEqual(['task_closed_by_staff']);
    expect((await row(task.id)).creditedTo).toBe(driver.user.id);

    const reopened = await api()
      .put(`/api/tasks/${task.id}`)
      .set(admin.auth)
      .send({ status: 'bolsa_trabajo' });
    expect(reopened.body).toMatchObject({ status: 'bolsa_trabajo', completed_at: null, assigned_to: null });
    expect(await movements(driver.user.id)).toBe(0);
    expect(await events(task.id)).toEqual(['completed', 'reopened']);

    // Credit taken back after a rankings reset stays at 0.
    await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ assigned_to: driver.user.id });
    await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ status: 'finalizada' });
    expect(await movements(driver.user.id)).toBe(1);
    await api().post('/api/admin/reset-rankings').set(admin.auth);
    await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ status: 'bolsa_trabajo' });
    expect(await movements(driver.user.id)).toBe(0);
  });

  it('a pool task dragged straight to finalizada credits nobody', async () => {
    const admin = await makeUser('admin');
    const task = await makeTask();
    const res = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ status: 'finalizada' });
    expect(res.body).toMatchObject({ status: 'finalizada', assigned_to: null });
    expect((await row(task.id)).creditedTo).toBeNull();
    expect(await db.select().from(notifications)).toHaveLength(0);
  });

  it('reopening respects one open task per trailer; finalizada to en_proceso names the driver', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'finalizada', trailerId: 'R-50' });
    const open = await makeTask({ trailerId: 'R-50' });
    const clash = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ status: 'bolsa_trabajo' });
    expect(clash.status).toBe(409);
    expect(clash.body.detail).toBe('El remolque R-50 ya tiene una tarea abierta');
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, open.id)));

    const noDriver = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ status: 'en_proceso' });
    expect(noDriver.status).toBe(400);
    const res = await api()
      .put(`/api/tasks/${task.id}`)
      .set(admin.auth)
      .send({ status: 'en_proceso', assigned_to: driver.user.id });
    expect(res.body).toMatchObject({ status: 'en_proceso', assigned_to: driver.user.id, completed_at: null });
    expect(await events(task.id)).toEqual(['reopened', 'assigned']);
  });

  it('answers 404 for unknown or deleted tasks and 400 for a malformed id or body', async () => {
    const admin = await makeUser('admin');
    const task = await makeTask();
    await tx(() => db.update(tasks).set({ deletedAt: now() }).where(eq(tasks.id, task.id)));
    const gone = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ priority: 'low' });
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toBe('Tarea no encontrada');
    expect(
      (await api().put(`/api/tasks/${crypto.randomUUID()}`).set(admin.auth).send({ priority: 'low' })).status,
    ).toBe(404);
    expect((await api().put('/api/tasks/abc').set(admin.auth).send({ priority: 'low' })).status).toBe(400);
    const other = await makeTask();
    expect((await api().put(`/api/tasks/${other.id}`).set(admin.auth).send({})).status).toBe(400);
    expect((await api().put(`/api/tasks/${other.id}`).set(admin.auth).send({ color: 'red' })).status).toBe(
      400,
    );
    expect((await api().put(`/api/tasks/${other.id}`).set(admin.auth).send({ status: 'hecha' })).status).toBe(
      400,
    );
  });
});

describe('DELETE /api/tasks/{id}', () => {
  it('soft-deletes: off the board, history kept; the driver of an active task is freed', async () => {
    const gestor = await makeUser('gestor');
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const res = await api().delete(`/api/tasks/${task.id}`).set(gestor.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Tarea eliminada' });
    expect((await row(task.id)).deletedAt).not.toBeNull();
    expect((await row(task.id)).version).toBe(2);
    expect(await events(task.id)).toEqual(['deleted']);
    expect((await api().get('/api/tasks').set(gestor.auth)).body).toEqual([]);
    expect((await api().get('/api/tasks/my-active').set(driver.auth)).status).toBe(404);
    expect((await api().delete(`/api/tasks/${task.id}`).set(gestor.auth)).status).toBe(404);
    // The trailer is free for a new task.
    const again = await api()
      .post('/api/tasks')
      .set(gestor.auth)
      .send(payload({ trailer_id: task.trailerId }));
    expect(again.status).toBe(201);
  });
});

describe('GET /api/tasks/{id}/eligible-drivers', () => {
  it('lists approved conductors having the type, available first', async () => {
    const manager = await makeUser('manager');
    const task = await makeTask({ vehicleType: 'swap' });
    const zoe = await makeUser('conductor', { name: 'Zoe', online: true, taskTypes: ['swap'] });
    await makePunch(zoe.user.id, 'entrada');
    const ana = await makeUser('conductor', { name: 'Ana', online: true, taskTypes: ['swap'] });
    const bea = await makeUser('conductor', { name: 'Bea', taskTypes: ['swap', 'semiremolque'] });
    await makePunch(bea.user.id, 'entrada');
    await makeTask({ status: 'en_proceso', assignedTo: bea.user.id });
    await makeUser('conductor', { name: 'Sin swap', online: true });
    await makeUser('conductor', { name: 'Pendiente', taskTypes: ['swap'], approved: false });
    const res = await api().get(`/api/tasks/${task.id}/eligible-drivers`).set(manager.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: zoe.user.id,
        name: 'Zoe',
        is_online: true,
        clocked_in: true,
        busy: false,
        available: true,
        movements_count: 0,
      },
      {
        id: ana.user.id,
        name: 'Ana',
        is_online: true,
        clocked_in: false,
        busy: false,
        available: false,
        movements_count: 0,
      },
      {
        id: bea.user.id,
        name: 'Bea',
        is_online: false,
        clocked_in: true,
        busy: true,
        available: false,
        movements_count: 0,
      },
    ]);
    expect(
      (await api().get(`/api/tasks/${crypto.randomUUID()}/eligible-drivers`).set(manager.auth)).status,
    ).toBe(404);
  });
});

describe('POST /api/admin/reset-rankings', () => {
  it('sets every movements_count to 0 and logs it, leaving the history', async () => {
    const admin = await makeUser('admin', { name: 'Alicia' });
    const a = await makeUser('conductor');
    const b = await makeUser('conductor');
    await tx(() => db.update(users).set({ movementsCount: 7 }).where(eq(users.id, a.user.id)));
    await tx(() => db.update(users).set({ movementsCount: 2 }).where(eq(users.id, b.user.id)));
    const done = await makeTask({ status: 'finalizada', assignedTo: a.user.id });
    const res = await api().post('/api/admin/reset-rankings').set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.stringContaining('Rankings reiniciados') });
    expect(await movements(a.user.id)).toBe(0);
    expect(await movements(b.user.id)).toBe(0);
    expect((await row(done.id)).status).toBe('finalizada');
    const log = await db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'Reiniciar rankings')));
    expect(log).toEqual([expect.objectContaining({ type: 'system', userName: 'Alicia' })]);
    expect(log[0].details).toContain('2 conductores');
  });
});
