// `npm run demo` (scripts/demo): it never touches the server's default database, it generates its yard
// once and reuses it, and its simulated gestor and drivers keep the yard moving through the real API
// under the yard's rules, leaving the drivers meant for humans alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RETURN_REASONS } from '@shared/enums';
import { configure } from '../../server/config';
import { query } from '../../server/db';
import { startServer, type RunningServer } from '../../server/server';
import { DEMO_DB, demoEnv, demoSettings } from '../../scripts/demo/settings';
import { startSimulation, type Pace, type Simulation } from '../../scripts/demo/simulation';
import { CARRIERS } from '../../scripts/generator/vocabulary';
import { prepareDemoYard, splitDrivers, type DemoAccount } from '../../scripts/demo/yard';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-demo-test-'));
const dbPath = path.join(dir, 'demo.db');
const quiet = () => undefined;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('demo settings', () => {
  it('always uses data/demo.db, whatever DB_PATH says, and DEMO_PORT or 3000', () => {
    const env: NodeJS.ProcessEnv = { DB_PATH: './data/torre.db', PORT: '8080' };
    const settings = demoSettings(env, []);
    expect(settings.dbPath).toBe(DEMO_DB);
    expect(path.basename(settings.dbPath)).toBe('demo.db');
    expect(settings.port).toBe(3000);
    expect(settings.dataDir).not.toBe(path.dirname(DEMO_DB));
    demoEnv(env, settings);
    expect(env.DB_PATH).toBe(DEMO_DB);
    expect(env.PORT).toBe('3000');

    const other = demoSettings({ DEMO_PORT: '3100' }, ['--fresh', '--quiet']);
    expect(other).toMatchObject({ port: 3100, fresh: true, quiet: true, dbPath: DEMO_DB });
    expect(() => demoSettings({ DEMO_PORT: 'x' }, [])).toThrow('DEMO_PORT');
  });
});

describe('the demo yard', () => {
  let accounts: DemoAccount[];

  it('is generated the first time and reused afterwards; --fresh makes a new one', async () => {
    const first = await prepareDemoYard({ dbPath, fresh: false, seed: 7 }, quiet);
    expect(first.generated).toBe(true);
    accounts = first.accounts;
    const roles = accounts.map((a) => a.role);
    expect(roles.filter((r) => r === 'admin')).toHaveLength(1);
    expect(roles.filter((r) => r === 'gestor')).toHaveLength(2);
    expect(roles.filter((r) => r === 'manager')).toHaveLength(1);
    expect(roles.filter((r) => r === 'conductor')).toHaveLength(8);
    expect(roles[0]).toBe('admin');

    // A mark in the database survives a reuse and disappears with --fresh.
    const Database = (await import('better-sqlite3')).default;
    const mark = (sql: string) => {
      const conn = new Database(dbPath);
      const out = conn.prepare(sql).get() as { n: number } | undefined;
      conn.close();
      return out?.n;
    };
    const tasks = mark('SELECT count(*) AS n FROM tasks');
    // The gate's history: closed visits of the carriers (Tiempos de espera has data), none open.
    expect(mark('SELECT count(*) AS n FROM gate_visits WHERE exited_at IS NOT NULL')).toBeGreaterThan(200);
    expect(mark('SELECT count(*) AS n FROM gate_visits WHERE exited_at IS NULL')).toBe(0);
    expect(mark('SELECT count(DISTINCT carrier) AS n FROM gate_visits')).toBeGreaterThanOrEqual(10);
    expect(
      mark(`SELECT count(*) AS n FROM gate_visits WHERE exited_at - max(entered_at,
      coalesce(appointment_at, 0)) > 3600000`),
    ).toBeGreaterThan(0);
    mark("UPDATE users SET name = 'Marca de la prueba' WHERE role = 'manager' RETURNING 1 AS n");
    const again = await prepareDemoYard({ dbPath, fresh: false, seed: 7 }, quiet);
    expect(again.generated).toBe(false);
    expect(mark('SELECT count(*) AS n FROM tasks')).toBe(tasks);
    expect(again.accounts.find((a) => a.role === 'manager')?.name).toBe('Marca de la prueba');

    const fresh = await prepareDemoYard({ dbPath, fresh: true, seed: 7 }, quiet);
    expect(fresh.generated).toBe(true);
    expect(fresh.accounts.find((a) => a.role === 'manager')?.name).not.toBe('Marca de la prueba');
    expect(fresh.accounts.map((a) => a.email)).toEqual(accounts.map((a) => a.email));
  });

  it('leaves three drivers to humans, one of them with the Swap type', () => {
    const drivers = accounts.filter((a) => a.role === 'conductor');
    const { simulated, human } = splitDrivers(drivers, 3);
    expect(human).toHaveLength(3);
    expect(simulated).toHaveLength(5);
    expect(human.some((d) => d.taskTypes.includes('swap'))).toBe(true);
    expect(simulated.filter((d) => human.includes(d))).toEqual([]);
  });
});

describe('the simulation', () => {
  // The demo's yard, fast: a new task every ~100 ms, tasks done in ~200 ms, shifts of ~2 s.
  const FAST: Pace = {
    createEvery: [60, 120],
    maxPool: 40,
    tick: [30, 60],
    work: [100, 250],
    returnChance: 0.3,
    claimChance: 1,
    shift: [1_500, 2_500],
    rest: [200, 400],
    firstClockIn: [0, 100],
    gateEvery: [60, 150],
    openVisits: 3,
    maxOpenVisits: 5,
    damageChance: 0.5,
  };
  let server: RunningServer;
  let simulation: Simulation;
  let simulated: DemoAccount[];
  let human: DemoAccount[];
  let gestor: DemoAccount;
  const started = Date.now();

  beforeAll(async () => {
    const { accounts } = await prepareDemoYard({ dbPath, fresh: true, seed: 7 }, quiet);
    gestor = accounts.find((a) => a.role === 'gestor')!;
    ({ simulated, human } = splitDrivers(
      accounts.filter((a) => a.role === 'conductor'),
      3,
    ));
    configure({ dbPath, dataDir: dir, serveClient: false, testClock: false });
    server = await startServer({ port: 0, host: '127.0.0.1', print: quiet });
  });
  afterAll(async () => {
    await simulation?.stop();
    await server?.close();
  });

  const idOf = async (email: string) =>
    (await query<{ id: string }>('SELECT id FROM users WHERE email = ?', [email]))[0].id;
  const all = <T>(sql: string, ...params: unknown[]) => query<T>(sql, params);

  it('creates tasks, and drivers clock in, take, finish, return and clock out through the API', async () => {
    simulation = await startSimulation({ url: server.url, gestor, drivers: simulated, pace: FAST, seed: 3 });
    const { counts } = simulation;
    // Trucks are in the yard once it has started: visits opened through the API by the gestor.
    const gestorId = await idOf(gestor.email);
    const opened = await all<{ entered_by: string }>(
      'SELECT entered_by FROM gate_visits WHERE exited_at IS NULL AND entered_at >= ?',
      started,
    );
    expect(opened.length).toBe(3);
    for (const v of opened) expect(v.entered_by).toBe(gestorId);
    await vi.waitFor(
      () => {
        expect(counts.created).toBeGreaterThanOrEqual(8);
        expect(counts.received).toBeGreaterThanOrEqual(2);
        expect(counts.completed).toBeGreaterThanOrEqual(3);
        expect(counts.returned).toBeGreaterThanOrEqual(1);
        expect(counts.clockIns).toBeGreaterThanOrEqual(1);
        expect(counts.clockOuts).toBeGreaterThanOrEqual(1);
        expect(counts.gateEntries).toBeGreaterThanOrEqual(6);
        expect(counts.gateExits).toBeGreaterThanOrEqual(3);
      },
      { timeout: 45_000, interval: 200 },
    );
    expect(counts.errors).toBe(0);

    // The simulated drivers are online (their sockets), the humans' drivers are not.
    const online = async (email: string) =>
      (await query<{ o: number }>('SELECT is_online AS o FROM users WHERE email = ?', [email]))[0].o;
    for (const d of simulated) expect(await online(d.email)).toBe(1);
    for (const d of human) expect(await online(d.email)).toBe(0);

    // Every task of the gestor went through the API: created by them, with its history.
    const created = await all<{ trailer_id: string; origin: string; destination: string }>(
      `SELECT t.trailer_id, t.origin, t.destination FROM tasks t
        JOIN task_events e ON e.task_id = t.id AND e.type = 'created'
       WHERE t.created_by = ? AND t.created_at >= ?`,
      await idOf(gestor.email),
      started,
    );
    expect(created.length).toBeGreaterThanOrEqual(counts.created);
    for (const t of created) expect(t.origin).not.toBe(t.destination);
    // One open task per trailer.
    expect(
      await all(`SELECT trailer_id FROM tasks WHERE status IN ('bolsa_trabajo', 'en_proceso') AND deleted_at IS NULL
           GROUP BY trailer_id HAVING count(*) > 1`),
    ).toEqual([]);

    const simulatedIds = await Promise.all(simulated.map((d) => idOf(d.email)));
    const events = await all<{ type: string; actor_id: string | null; reason: string | null }>(
      "SELECT type, actor_id, reason FROM task_events WHERE at >= ? AND type IN ('completed', 'returned')",
      started,
    );
    expect(events.some((e) => e.type === 'completed' && simulatedIds.includes(e.actor_id!))).toBe(true);
    const returns = events.filter((e) => e.type === 'returned');
    expect(returns.length).toBeGreaterThanOrEqual(1);
    for (const r of returns) expect(RETURN_REASONS).toContain(r.reason);

    // Punches: entradas and salidas of simulated drivers only.
    const punched = await all<{ user_id: string; clock_type: string }>(
      'SELECT user_id, clock_type FROM punches WHERE timestamp >= ?',
      started,
    );
    expect(punched.some((p) => p.clock_type === 'entrada')).toBe(true);
    expect(punched.some((p) => p.clock_type === 'salida')).toBe(true);
    for (const p of punched) expect(simulatedIds).toContain(p.user_id);

    // The gate: entries that dropped a trailer at a place with room (some found damaged at the
    // inspection), and exits that took a trailer an earlier truck left, out of the yard now.
    const entered = await all<{ dropped_trailer_key: string | null; carrier: string }>(
      'SELECT dropped_trailer_key, carrier FROM gate_visits WHERE entered_at >= ?',
      started,
    );
    expect(entered.length).toBeGreaterThanOrEqual(counts.gateEntries);
    for (const v of entered) expect(CARRIERS).toContain(v.carrier);
    const placed = await all<{ location_id: string | null; damaged: number; kind: string }>(
      `SELECT t.location_id, t.damaged, l.kind FROM gate_visits v JOIN trailers t ON t.trailer_key = v.dropped_trailer_key
         LEFT JOIN locations l ON l.id = t.location_id
        WHERE v.entered_at >= ?`,
      started,
    );
    expect(placed.filter((t) => t.location_id).length).toBeGreaterThan(0);
    for (const t of placed.filter((p) => p.location_id))
      expect(['campa', 'aparcamiento', 'muelle', 'zona_swap']).toContain(t.kind);
    expect(placed.some((t) => t.damaged === 1)).toBe(true);
    const exited = await all<{ location_id: string | null }>(
      `SELECT t.location_id FROM gate_visits v JOIN trailers t ON t.trailer_key = v.picked_trailer_key
        WHERE v.exited_at >= ?`,
      started,
    );
    expect(exited.length).toBeGreaterThan(0);
    for (const t of exited) expect(t.location_id).toBeNull();
    expect(
      (await all('SELECT 1 FROM gate_visits WHERE exited_at >= ? AND exited_by = ?', started, gestorId))
        .length,
    ).toBe(counts.gateExits);

    // Nothing was done for or by the humans' drivers.
    const humanIds = await Promise.all(human.map((d) => idOf(d.email)));
    expect(
      await all(
        `SELECT 1 FROM task_events WHERE at >= ? AND (actor_id IN (${humanIds.map(() => '?').join(',')})
           OR driver_id IN (${humanIds.map(() => '?').join(',')}))`,
        started,
        ...humanIds,
        ...humanIds,
      ),
    ).toEqual([]);
  }, 60_000);

  it('stops: the sockets close and nothing more happens', async () => {
    await simulation.stop();
    const count = async () => (await query<{ n: number }>('SELECT count(*) AS n FROM task_events'))[0].n;
    const before = await count();
    await new Promise((r) => setTimeout(r, 500));
    expect(await count()).toBe(before);
    await vi.waitFor(() => expect(server.io.engine.clientsCount).toBe(0));
  });
});
