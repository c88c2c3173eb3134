// The demo yard generator (scripts/generator): deterministic from its seed, consistent with the rules
// the server keeps (one open task per trailer, one active task per driver, credits, history), and
// written in the yard's own words.
import supertest from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { RETURN_REASONS, VEHICLE_TYPES } from '@shared/enums';
import type { TruckStaysReport, YardLocation } from '@shared/schemas';
import { madridDay } from '@shared/time';
import { query } from '../../server/db';
import { FALSE, TRUE } from '../../server/db/dialect';
import { driverStates } from '../../server/services/availability';
import { generateYard, type YardResult } from '../../scripts/generator';
import { CARRIERS } from '../../scripts/generator/vocabulary';
import { now, setupDb } from '../helpers/context';

const HOUR = 3_600_000;
const all = <T>(text: string, ...params: unknown[]) => query<T>(text, params);
const one = async <T>(text: string, ...params: unknown[]) => (await query<T>(text, params))[0];

/** What a generated database holds that should depend on the seed only. */
async function fingerprint() {
  return {
    users: await all(
      'SELECT id, email, name, role, task_types, movements_count FROM users ORDER BY created_at, id',
    ),
    tasks: await all(
      `SELECT id, trailer_id, title, origin, destination, status, assigned_to, created_at, completed_at
        FROM tasks ORDER BY created_at, id`,
    ),
    events: await one('SELECT count(*) AS n, sum(at) AS at FROM task_events'),
    punches: await all('SELECT user_id, clock_type, timestamp FROM punches ORDER BY timestamp, user_id'),
    visits: await all(
      `SELECT id, truck_plate, carrier, entered_at, exited_at, dropped_trailer_id, picked_trailer_id
        FROM gate_visits ORDER BY entered_at, id`,
    ),
  };
}

describe('the generator is deterministic', () => {
  // The day after the October clock change: the history spans a 25-hour Madrid day.
  const now = new Date('2026-10-26T09:30:00Z');
  const small = { now, drivers: 6, historicalTasks: 400, openTasks: 10 };

  it('gives the same yard for the same seed, and another yard for another seed', async () => {
    await setupDb();
    await generateYard({ seed: 42, ...small });
    const first = await fingerprint();
    await setupDb();
    await generateYard({ seed: 42, ...small });
    const again = await fingerprint();
    await setupDb();
    await generateYard({ seed: 43, ...small });
    const other = await fingerprint();

    expect(first.tasks).toHaveLength(410);
    expect(first.visits.length).toBeGreaterThan(200);
    expect(again).toEqual(first);
    const emails = (f: typeof first) => f.users.map((u) => (u as { email: string }).email);
    const trailers = (f: typeof first) => f.tasks.map((t) => (t as { trailer_id: string }).trailer_id);
    expect(emails(other)).not.toEqual(emails(first));
    expect(trailers(other)).not.toEqual(trailers(first));
  });

  it('writes nothing after the moment it is generated for', async () => {
    expect((await one<{ n: number }>('SELECT max(updated_at) AS n FROM tasks')).n).toBeLessThanOrEqual(
      now.getTime(),
    );
    expect((await one<{ n: number }>('SELECT max(timestamp) AS n FROM punches')).n).toBeLessThanOrEqual(
      now.getTime(),
    );
    expect((await one<{ n: number }>('SELECT max(at) AS n FROM task_events')).n).toBeLessThanOrEqual(
      now.getTime(),
    );
    expect(
      Number((await one<{ n: number }>('SELECT max(exited_at) AS n FROM gate_visits')).n),
    ).toBeLessThanOrEqual(now.getTime());
  });
});

describe('a generated yard keeps the rules of the product', () => {
  let yard: YardResult;
  let app: ReturnType<typeof supertest>;

  beforeAll(async () => {
    app = supertest(await setupDb());
    // `now` is the server clock's, so the server's own availability rule reads the yard as it is.
    yard = await generateYard({ seed: 7 });
  });

  it('has the demo cast: an admin, gestores, a manager, drivers and pending registrations', async () => {
    expect(yard.counts.users).toEqual({ admin: 1, gestor: 2, manager: 1, conductor: 8 });
    expect(yard.logins.map((l) => l.role)).toEqual([
      'admin',
      'gestor',
      'gestor',
      'manager',
      ...Array(8).fill('conductor'),
    ]);
    const pending = await all<{ email: string; approved_at: number | null }>(
      `SELECT email, approved_at FROM users WHERE is_approved = ${FALSE}`,
    );
    expect(pending).toHaveLength(2);
    expect(pending.every((p) => p.approved_at === null)).toBe(true);
    expect(yard.logins.map((l) => l.email)).not.toContain(pending[0].email);
    const admin = yard.logins[0];
    expect((await one<{ n: number }>("SELECT count(*) AS n FROM notifications WHERE type = 'user_pending' AND user_id = ?", admin.id)).n).toBe(2); // prettier-ignore
  });

  it('gives every driver semiremolque, and each other type to some of them', async () => {
    const types = (
      await all<{ task_types: string }>(
        `SELECT task_types FROM users WHERE role = 'conductor' AND is_approved = ${TRUE}`,
      )
    ).map((r) => JSON.parse(r.task_types) as string[]);
    expect(types.every((t) => t.includes('semiremolque'))).toBe(true);
    for (const type of VEHICLE_TYPES) expect(types.some((t) => t.includes(type))).toBe(true);
  });

  it('has history and a live board', async () => {
    expect(yard.counts.tasks.finalizada).toBeGreaterThan(900);
    expect(yard.counts.tasks.en_proceso).toBe(4);
    expect(yard.counts.tasks.bolsa_trabajo).toBe(20);
    expect(yard.counts.clockedInDrivers).toBe(5);
    const days = (
      await one<{ n: number }>('SELECT (max(created_at) - min(created_at)) / 86400000.0 AS n FROM tasks')
    ).n;
    expect(days).toBeGreaterThan(28);
  });

  it('never has two open tasks for one trailer', async () => {
    const twice = await all(
      `SELECT trailer_id FROM tasks WHERE status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL
        GROUP BY trailer_id HAVING count(*) > 1`,
    );
    expect(twice).toEqual([]);
  });

  it('gives each task in progress to its own driver, who is clocked in and online', async () => {
    const active = await all<{
      assigned_to: string;
      assigned_at: number | null;
      completed_at: number | null;
    }>(
      "SELECT assigned_to, assigned_at, completed_at FROM tasks WHERE status = 'en_proceso' AND deleted_at IS NULL",
    );
    expect(new Set(active.map((t) => t.assigned_to)).size).toBe(active.length);
    const states = new Map((await driverStates()).map((d) => [d.id, d]));
    for (const task of active) {
      expect(states.get(task.assigned_to)).toMatchObject({ clockedIn: true, isOnline: true, busy: true });
      expect(task.assigned_at).not.toBeNull();
      expect(task.completed_at).toBeNull();
    }
    // One clocked-in driver is left free, as the dashboard's "Conductores Disponibles".
    expect([...states.values()].filter((d) => d.available)).toHaveLength(1);
  });

  it('credits every finished task to its driver: movements_count is the count of credited tasks', async () => {
    const rows = await all<{ movements_count: number; credited: number }>(
      `SELECT u.movements_count, (SELECT count(*) FROM tasks t WHERE t.credited_to = u.id
        AND t.status = 'finalizada' AND t.deleted_at IS NULL) AS credited FROM users u`,
    );
    for (const r of rows) expect(r.movements_count).toBe(r.credited);
    expect(rows.reduce((sum, r) => sum + r.movements_count, 0)).toBe(yard.counts.tasks.finalizada);
    const finished = await all<{ assigned_to: string | null; credited_to: string | null }>(
      "SELECT assigned_to, credited_to FROM tasks WHERE status = 'finalizada'",
    );
    expect(finished.every((t) => t.credited_to !== null && t.credited_to === t.assigned_to)).toBe(true);
  });

  it('orders every task in time: created ≤ assigned ≤ completed ≤ now', async () => {
    const bad = await all(
      `SELECT id FROM tasks WHERE assigned_at < created_at OR completed_at < assigned_at
        OR (status = 'finalizada' AND (assigned_at IS NULL OR completed_at IS NULL))
        OR (status = 'bolsa_trabajo' AND (assigned_to IS NOT NULL OR assigned_at IS NOT NULL))
        OR updated_at < created_at OR updated_at > ?`,
      now().getTime(),
    );
    expect(bad).toEqual([]);
  });

  it('keeps a history for every task: a created event first, one event per version', async () => {
    const tasks = await all<{ id: string; version: number; created_at: number; updated_at: number }>(
      'SELECT id, version, created_at, updated_at FROM tasks',
    );
    const events = new Map<string, { type: string; at: number }[]>();
    for (const e of await all<{ task_id: string; type: string; at: number }>(
      'SELECT task_id, type, at FROM task_events ORDER BY id',
    ))
      events.set(e.task_id, [...(events.get(e.task_id) ?? []), e]);
    for (const task of tasks) {
      const history = events.get(task.id)!;
      expect(history[0]).toMatchObject({ type: 'created', at: task.created_at });
      expect(history).toHaveLength(task.version);
      expect(history.at(-1)!.at).toBe(task.updated_at);
      for (let i = 1; i < history.length; i++)
        expect(history[i].at).toBeGreaterThanOrEqual(history[i - 1].at);
    }
  });

  it('has some returns with a reason, delays over 10 and 30 minutes, and tasks that found no driver', async () => {
    const reasons = await all<{ reason: string }>(
      "SELECT DISTINCT reason FROM task_events WHERE type = 'returned'",
    );
    expect(reasons.length).toBeGreaterThan(1);
    for (const r of reasons) expect(RETURN_REASONS).toContain(r.reason);
    const delays = await one<{ over10: number; over30: number; quick: number }>(
      `SELECT sum(CASE WHEN assigned_at - created_at > 600000 THEN 1 ELSE 0 END) AS over10,
        sum(CASE WHEN assigned_at - created_at > 1800000 THEN 1 ELSE 0 END) AS over30,
        sum(CASE WHEN assigned_at - created_at < 300000 THEN 1 ELSE 0 END) AS quick
        FROM tasks WHERE status = 'finalizada'`,
    );
    expect(delays.over30).toBeGreaterThan(0);
    expect(delays.over10).toBeGreaterThan(delays.over30);
    expect(delays.quick).toBeGreaterThan(delays.over10);
    // The flag comes back as 0/1 from SQLite and false/true from PostgreSQL.
    const flags = (
      await all<{ vehicle_type: string; flag: number | boolean | null; n: number }>(
        `SELECT vehicle_type, no_drivers_available AS flag, count(*) AS n FROM tasks
          WHERE deleted_at IS NULL GROUP BY 1, 2`,
      )
    ).map((f) => ({ ...f, flag: f.flag === null ? null : Boolean(f.flag) }));
    // Swap tasks are never matched by the engine, so they never record a matching attempt.
    expect(flags.filter((f) => f.vehicle_type === 'swap').map((f) => f.flag)).toEqual([null]);
    expect(flags.some((f) => f.vehicle_type !== 'swap' && f.flag === true)).toBe(true);
    expect(flags.some((f) => f.vehicle_type !== 'swap' && f.flag === false)).toBe(true);
  });

  it('punches entrada/salida pairs of 6 to 10 hours, night shifts across midnight included', async () => {
    const punches = await all<{ user_id: string; clock_type: string; timestamp: number }>(
      'SELECT user_id, clock_type, timestamp FROM punches ORDER BY user_id, timestamp',
    );
    let crossesMidnight = 0;
    for (let i = 1; i < punches.length; i++) {
      const [prev, cur] = [punches[i - 1], punches[i]];
      if (prev.user_id !== cur.user_id) continue;
      expect([prev.clock_type, cur.clock_type]).not.toEqual(['salida', 'salida']);
      if (prev.clock_type === 'entrada' && cur.clock_type === 'salida') {
        const hours = (cur.timestamp - prev.timestamp) / HOUR;
        expect(hours).toBeGreaterThanOrEqual(6);
        expect(hours).toBeLessThanOrEqual(10);
        const day = (t: number) => new Date(t).toLocaleDateString('es-ES', { timeZone: 'Europe/Madrid' });
        if (day(prev.timestamp) !== day(cur.timestamp)) crossesMidnight++;
      }
    }
    expect(crossesMidnight).toBeGreaterThan(0);
    // Presence follows the shifts: only the drivers on shift now have an open interval.
    const open = await all<{ user_id: string }>(
      'SELECT user_id FROM presence_intervals WHERE ended_at IS NULL',
    );
    const online = await all<{ id: string }>(`SELECT id FROM users WHERE is_online = ${TRUE}`);
    expect(open.map((o) => o.user_id).sort()).toEqual(online.map((o) => o.id).sort());
    expect(
      (await one<{ n: number }>('SELECT count(*) AS n FROM presence_intervals WHERE ended_at < started_at'))
        .n,
    ).toBe(0);
  });

  it('speaks the yard: docks, parking rows, Spanish plates, Mover and Recolocar, every priority', async () => {
    const places = (
      await all<{ p: string }>('SELECT origin AS p FROM tasks UNION SELECT destination FROM tasks')
    ).map((r) => r.p);
    expect(places.some((p) => /^Muelle ([1-9]|[1-3]\d|40)$/.test(p))).toBe(true);
    expect(places.some((p) => /^Campa [A-F]-([1-9]|[12]\d|30)$/.test(p))).toBe(true);
    expect(places.some((p) => /^Zona Swap \d$/.test(p))).toBe(true);
    const plates = await all<{ trailer_id: string; vehicle_type: string }>(
      'SELECT trailer_id, vehicle_type FROM tasks',
    );
    for (const { trailer_id, vehicle_type } of plates)
      expect(trailer_id).toMatch(
        vehicle_type === 'swap'
          ? /^SW-\d{4}$/
          : /^(R-\d{4}-[BCDFGHJKLMNPRSTVWXYZ]{3}|\d{4} [BCDFGHJKLMNPRSTVWXYZ]{3})$/,
      );
    const distinct = async (column: string) =>
      (await all<{ v: string }>(`SELECT DISTINCT ${column} AS v FROM tasks ORDER BY 1`)).map((r) => r.v);
    expect(await distinct('title')).toEqual(['Mover', 'Recolocar']);
    expect(await distinct('priority')).toEqual(['high', 'low', 'normal']);
    expect(await distinct('vehicle_type')).toEqual(['semiremolque', 'semiremolque_out_km0', 'swap']);
    const described = await one<{ none: number; some: number }>(
      `SELECT sum(CASE WHEN description IS NULL THEN 1 ELSE 0 END) AS none,
        sum(CASE WHEN description IS NOT NULL THEN 1 ELSE 0 END) AS some FROM tasks`,
    );
    expect(described.none).toBeGreaterThan(0);
    expect(described.some).toBeGreaterThan(described.none);
    const names = (await all<{ name: string }>("SELECT name FROM users WHERE role = 'conductor'")).map(
      (r) => r.name,
    );
    for (const name of names) expect(name.split(' ')).toHaveLength(3);
  });

  it('has the catalogue of its places, every task mapped to it, and no place over its capacity', async () => {
    const places = await all<{ id: string; name: string; kind: string; capacity: number }>(
      'SELECT id, name, kind, capacity FROM locations',
    );
    const names = places.map((p) => p.name);
    for (const name of ['Muelle 1', 'Muelle 40', 'Campa A-1', 'Campa F-30', 'Zona Swap 8', 'Báscula', 'Taller', 'Lavadero', 'Aparcamiento Exterior P-20', 'Puerta'])
      expect(names).toContain(name);
    expect(places.find((p) => p.name === 'Puerta')!.kind).toBe('puerta');
    // Every origin and destination is one of its places, and points at it.
    const unmapped = await one<{ n: number }>(
      `SELECT count(*) AS n FROM tasks t LEFT JOIN locations o ON o.id = t.origin_location_id
        LEFT JOIN locations d ON d.id = t.destination_location_id
        WHERE o.name IS NULL OR d.name IS NULL OR o.name <> t.origin OR d.name <> t.destination`,
    );
    expect(Number(unmapped.n)).toBe(0);

    // The yard as GET /yard shows it: every trailer stands somewhere, and no place holds more than it can.
    const manager = yard.logins.find((l) => l.role === 'manager')!;
    const login = await app.post('/api/auth/login').send({ email: manager.email, password: manager.password });
    const map = await app.get('/api/yard').set('Authorization', `Bearer ${login.body.access_token}`);
    expect(map.status).toBe(200);
    const standing = (map.body as YardLocation[]).flatMap((l) => l.trailers);
    expect(standing.length).toBeGreaterThan(100);
    for (const place of map.body as YardLocation[]) {
      const staying = place.trailers.filter((t) => !t.open_task).length;
      expect(staying + place.incoming.length, place.name).toBeLessThanOrEqual(place.capacity);
    }
  }); // prettier-ignore

  it("has the gate's history: closed visits of the carriers, with waits for Tiempos de espera", async () => {
    const visits = await all<{
      carrier: string;
      entered_at: number | string;
      exited_at: number | string | null;
      appointment_at: number | string | null;
      dropped_trailer_key: string | null;
      picked_trailer_key: string | null;
    }>('SELECT carrier, entered_at, exited_at, appointment_at, dropped_trailer_key, picked_trailer_key FROM gate_visits');
    expect(visits.length).toBeGreaterThan(200);
    expect(yard.counts.gateVisits).toBe(visits.length);
    expect(visits.filter((v) => v.exited_at === null)).toEqual([]);
    expect(new Set(visits.map((v) => v.carrier)).size).toBeGreaterThanOrEqual(10);
    for (const v of visits) expect(CARRIERS).toContain(v.carrier);
    expect(visits.filter((v) => v.appointment_at !== null).length).toBeGreaterThan(visits.length / 4);

    // The report of Informes reads them: most waits under 1 h, some over 1 h and a few over 2 h.
    const manager = yard.logins.find((l) => l.role === 'manager')!;
    const login = await app.post('/api/auth/login').send({ email: manager.email, password: manager.password });
    const report = await app
      .get('/api/admin/reports/truck-stays')
      .query({ from: madridDay(now().getTime() - 31 * 24 * HOUR), to: madridDay(now().getTime()) })
      .set('Authorization', `Bearer ${login.body.access_token}`);
    expect(report.status).toBe(200);
    const body = report.body as TruckStaysReport;
    expect(body.carriers.length).toBeGreaterThanOrEqual(10);
    const total = body.carriers.reduce((n, c) => n + c.visits, 0);
    expect(total).toBe(visits.length);
    expect(body.visits.length).toBeGreaterThan(total * 0.1);
    expect(body.visits.length).toBeLessThan(total * 0.4);
    expect(body.visits.filter((v) => v.wait_s > 2 * 3600).length).toBeGreaterThan(0);

    // Every trailer a truck left was taken by a later one: its record says so (out of the yard, the
    // visit's carrier), with its entry and exit events; the yard now is the tasks' alone.
    const dropped = visits.filter((v) => v.dropped_trailer_key !== null);
    expect(dropped.length).toBeGreaterThan(visits.length / 2);
    const picked = new Set(visits.map((v) => v.picked_trailer_key));
    for (const v of dropped) expect(picked.has(v.dropped_trailer_key)).toBe(true);
    const records = await all<{ trailer_key: string; carrier: string; location_id: string | null }>(
      `SELECT t.trailer_key, t.carrier, t.location_id FROM trailers t
        JOIN gate_visits v ON v.dropped_trailer_key = t.trailer_key`,
    );
    expect(records).toHaveLength(dropped.length);
    for (const r of records) expect(r.location_id).toBeNull();
    expect(records.every((r) => CARRIERS.includes(r.carrier as (typeof CARRIERS)[number]))).toBe(true);
    const events = await one<{ entries: number; exits: number }>(
      `SELECT sum(CASE WHEN kind = 'entry' THEN 1 ELSE 0 END) AS entries,
              sum(CASE WHEN kind = 'exit' THEN 1 ELSE 0 END) AS exits FROM trailer_events`,
    );
    expect(Number(events.entries)).toBe(dropped.length);
    expect(Number(events.exits)).toBe(dropped.length);
    const inTasks = await one<{ n: number }>(
      'SELECT count(*) AS n FROM tasks t JOIN gate_visits v ON v.dropped_trailer_key = t.trailer_key',
    );
    expect(Number(inTasks.n)).toBe(0);
  }); // prettier-ignore

  it('logs the activity of every kind of change', async () => {
    const types = (await all<{ type: string }>('SELECT DISTINCT type FROM activity_log ORDER BY 1')).map(
      (r) => r.type,
    );
    expect(types).toEqual(['auth', 'gate', 'task', 'timeclock', 'user']);
    expect(yard.counts.activityLog).toBeGreaterThan(yard.counts.taskEvents);
  });

  it('fills only an empty database', async () => {
    await expect(generateYard({ seed: 7 })).rejects.toThrow(/base de datos ya tiene usuarios/);
  });
});

describe('the logins it returns', () => {
  it('log in through the API', async () => {
    const api = supertest(await setupDb());
    const yard = await generateYard({ seed: 5, drivers: 2, historicalTasks: 50, openTasks: 3 });
    for (const login of [yard.logins[0], yard.logins.find((l) => l.role === 'conductor')!]) {
      const res = await api.post('/api/auth/login').send({ email: login.email, password: login.password });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ id: login.id, role: login.role });
    }
  });
});

describe('an overloaded yard', () => {
  it('still keeps one open task per trailer and one active task per driver', async () => {
    await setupDb();
    const { counts } = await generateYard({ seed: 3, drivers: 3, historicalTasks: 3000, openTasks: 40 });
    expect(counts.tasks.finalizada + counts.deletedTasks).toBe(3000);
    expect(counts.tasks.en_proceso).toBeLessThanOrEqual(2);
    expect(counts.tasks.bolsa_trabajo + counts.tasks.en_proceso).toBe(40);
    const movements = (await one<{ n: number }>('SELECT sum(movements_count) AS n FROM users')).n;
    expect(movements).toBe(counts.tasks.finalizada);
  });
});
