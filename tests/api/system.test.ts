// Sistema APIs (CONTRACT §10, §12, §13): who may call them, db-status counts, the health check, the
// activity log's limit, run-migrations' repair and clear-all-tokens.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { COLLECTION_LABELS, ERR, HEALTH_MSG } from '@shared/labels';
import { HEALTH_CHECK_NAMES, type DbStatus, type HealthCheck, type LogEntry } from '@shared/schemas';
import { HEALTH_STATUSES } from '@shared/enums';
import { configure } from '../../server/config';
import { execute, isPostgres, query, sqlite } from '../../server/db';
import { sqlFor } from '../../server/db/dialect';
import { activityLog, notifications, taskEvents, users } from '../../server/db/tables';
import {
  advanceClock,
  connectSocket,
  db,
  makePunch,
  makeTask,
  makeUser,
  now,
  setupServer,
  sleep,
  tokenFor,
  tx,
} from '../helpers/context';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-system-'));
let server: Awaited<ReturnType<typeof setupServer>>;

beforeEach(async () => {
  // A data folder of its own per test: backups taken by one test never show in another's health check.
  configure({ dataDir: fs.mkdtempSync(path.join(tmpRoot, 'data-')) });
  server = await setupServer();
});
afterEach(async () => {
  await server.close();
});
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

const BASE = '/api/admin/system';
const ENDPOINTS = [
  ['get', 'db-status'],
  ['get', 'health-check'],
  ['get', 'logs'],
  ['post', 'run-migrations'],
  ['post', 'clear-all-tokens'],
  ['post', 'backup'],
] as const;

const call = (method: 'get' | 'post', endpoint: string, auth?: { Authorization: string }) => {
  const req = server.api()[method](`${BASE}/${endpoint}`);
  return auth ? req.set(auth) : req;
};

const rawTaskTypes = async (id: string) =>
  (await query<{ task_types: string }>('SELECT task_types FROM users WHERE id = ?', [id]))[0].task_types;
// drizzle's journal of applied migrations: PostgreSQL's migrator keeps it in its own schema.
const JOURNAL = sqlFor({ sqlite: '__drizzle_migrations', postgres: 'drizzle.__drizzle_migrations' });
const appliedMigrations = async () => (await query<{ n: number }>(`SELECT count(*) AS n FROM ${JOURNAL}`))[0];

describe('permissions', () => {
  it.each(ENDPOINTS)(
    '%s %s: 401 without token, 403 for conductor/gestor/manager, 200 for admin',
    async (m, e) => {
      const none = await call(m, e);
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ detail: ERR.unauthorized });
      for (const role of ['conductor', 'gestor', 'manager'] as const) {
        const res = await call(m, e, (await makeUser(role)).auth);
        expect(res.status, role).toBe(403);
        expect(res.body).toEqual({ detail: ERR.forbidden });
      }
      const ok = await call(m, e, (await makeUser('admin')).auth);
      // Past the role check: on PostgreSQL the backup endpoint then refuses (CONTRACT §18).
      expect(ok.status).toBe(isPostgres && e === 'backup' ? 409 : 200);
    },
  );
});

describe('GET db-status', () => {
  it('names every table it counts in Spanish (Sistema shows COLLECTION_LABELS, never a raw table name)', async () => {
    const res = await server
      .api()
      .get(`${BASE}/db-status`)
      .set((await makeUser('admin')).auth);
    expect(res.status).toBe(200);
    const names = Object.keys((res.body as DbStatus).collections);
    expect(names.length).toBeGreaterThanOrEqual(11);
    expect(names.filter((name) => !(name in COLLECTION_LABELS))).toEqual([]);
  });

  it('counts every table raw, users and tasks without the deleted ones, and the integrity issue', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor');
    await makeUser('conductor', { taskTypes: [] }); // the integrity issue
    await makeUser('conductor', { taskTypes: [], approved: false }); // pending: not an issue yet
    const gone = await makeUser('conductor', { taskTypes: [] });
    await tx(() => db.update(users).set({ deletedAt: now() }).where(eq(users.id, gone.user.id)));
    await makeUser('gestor');
    await makeUser('manager');

    const pool = await makeTask();
    await makeTask({ vehicleType: 'swap' });
    await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    await makeTask({ status: 'finalizada' });
    await makeTask({ status: 'finalizada' });
    const deleted = await makeTask();
    await tx(() => execute('UPDATE tasks SET deleted_at = ? WHERE id = ?', [now().getTime(), deleted.id]));
    await tx(async () => {
      await db.insert(taskEvents).values({ taskId: pool.id, type: 'created', at: now() });
      await db.insert(notifications).values({
        id: crypto.randomUUID(),
        userId: driver.user.id,
        type: 'info',
        title: 'Aviso',
        message: 'Prueba',
        createdAt: now(),
      });
    });
    await makePunch(driver.user.id, 'entrada');
    await makePunch(driver.user.id, 'salida');

    const res = await call('get', 'db-status', admin.auth);
    expect(res.status).toBe(200);
    const body = res.body as DbStatus;
    const raw = async (table: string) =>
      (await query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))[0].n;
    expect(Object.keys(body.collections).sort()).toEqual(
      [
        'activity_log',
        'api_clients',
        'gate_visits',
        'idempotency_keys',
        'notifications',
        'presence_intervals',
        'punch_corrections',
        'punches',
        'push_subscriptions',
        'sessions',
        'task_events',
        'tasks',
        'users',
        'webhook_deliveries',
        'webhooks',
      ].sort(),
    );
    // root admin + 7 made here, the deleted and the pending included
    expect(body.collections.users).toBe(8);
    expect(body.collections.tasks).toBe(6);
    expect(body.collections.task_events).toBe(1);
    expect(body.collections.notifications).toBe(1);
    expect(body.collections.punches).toBe(2);
    expect(body.collections.presence_intervals).toBe(await raw('presence_intervals'));
    expect(body.collections.activity_log).toBe(await raw('activity_log'));
    expect(body.users_by_role).toEqual({ admin: 2, conductor: 3, gestor: 1, manager: 1 });
    expect(body.tasks_by_status).toEqual({ bolsa_trabajo: 2, en_proceso: 1, finalizada: 2 });
    expect(body.data_integrity).toEqual({ has_issues: true, users_without_task_types: 1 });
  });

  it('reports no issue on a clean database, with every role and status present as 0', async () => {
    const res = await call('get', 'db-status', (await makeUser('admin')).auth);
    expect(res.body.users_by_role).toEqual({ admin: 2, conductor: 0, gestor: 0, manager: 0 });
    expect(res.body.tasks_by_status).toEqual({ bolsa_trabajo: 0, en_proceso: 0, finalizada: 0 });
    expect(res.body.data_integrity).toEqual({ has_issues: false, users_without_task_types: 0 });
  });
});

describe('GET health-check', () => {
  it('answers every check with a status and a Spanish message; overall is the worst', async () => {
    const res = await call('get', 'health-check', (await makeUser('admin')).auth);
    expect(res.status).toBe(200);
    const body = res.body as HealthCheck;
    expect(Object.keys(body.checks)).toEqual([...HEALTH_CHECK_NAMES]);
    for (const check of Object.values(body.checks)) {
      expect(HEALTH_STATUSES).toContain(check.status);
      expect(check.message.length).toBeGreaterThan(0);
    }
    expect(body.checks.database).toEqual({
      status: 'healthy',
      message: expect.stringMatching(
        isPostgres
          ? /^PostgreSQL \d+(\.\d+)*, \d+(,\d)? MB; \d+ de \d+ conexiones; (ninguna transacción abierta|la transacción abierta más antigua lleva \d+ s)$/
          : /^Integridad correcta \(\d+(,\d)? KB\)$/,
      ),
    });
    expect(body.checks.disk.message).toMatch(/libres de/);
    expect(body.checks.memory.message).toMatch(/^Proceso .+; heap .+ de .+ \(.+ %\)$/);
    expect(body.checks.auto_assignment).toEqual({ status: 'healthy', message: HEALTH_MSG.autoIdle });
    expect(body.checks.backup).toEqual({
      status: 'healthy',
      message: isPostgres ? HEALTH_MSG.backupPostgres : HEALTH_MSG.backupNoneYet,
    });
    const rank = { healthy: 0, warning: 1, error: 2 };
    const worst = Object.values(body.checks).reduce((w, c) => Math.max(w, rank[c.status]), 0);
    expect(rank[body.overall_status]).toBe(worst);
  });

  it('counts the connected sockets', async () => {
    const admin = await makeUser('admin');
    const before = await call('get', 'health-check', admin.auth);
    expect(before.body.checks.websocket).toEqual({ status: 'healthy', message: '0 clientes conectados' });
    const a = await connectSocket(server.url, (await makeUser('conductor')).token);
    const b = await connectSocket(server.url, admin.token);
    const after = await call('get', 'health-check', admin.auth);
    expect(after.body.checks.websocket).toEqual({ status: 'healthy', message: '2 clientes conectados' });
    a.close();
    b.close();
  });

  it('warns when a pool task waits over 10 min and errs over 30 min; Swap tasks count, said apart (CONTRACT §20)', async () => {
    const admin = await makeUser('admin');
    await makeTask({ trailerId: 'R-WAIT-1' });
    await advanceClock(5 * 60_000);
    await makeTask({ vehicleType: 'swap', trailerId: 'SWAP-1' });
    await makeTask({ vehicleType: 'semiremolque_out_km0' });

    await advanceClock(6 * 60_000);
    const warn = await call('get', 'health-check', admin.auth);
    expect(warn.body.checks.auto_assignment).toEqual({
      status: 'warning',
      message:
        '3 tareas en la bolsa (2 automáticas, 1 Swap); la más antigua (R-WAIT-1) espera desde hace 11 min',
    });
    expect(['warning', 'error']).toContain(warn.body.overall_status);

    await advanceClock(20 * 60_000);
    const err = await call('get', 'health-check', admin.auth);
    expect(err.body.checks.auto_assignment.status).toBe('error');
    expect(err.body.overall_status).toBe('error');

    // Only the Swap task waits now: the check still sees it.
    await tx(() => execute("UPDATE tasks SET status = 'finalizada' WHERE vehicle_type != 'swap'"));
    const swap = await call('get', 'health-check', admin.auth);
    expect(swap.body.checks.auto_assignment).toEqual({
      status: 'warning',
      message:
        '1 tarea en la bolsa (0 automáticas, 1 Swap); la más antigua (SWAP-1) espera desde hace 26 min',
    });

    await tx(() => execute("UPDATE tasks SET status = 'finalizada'"));
    const idle = await call('get', 'health-check', admin.auth);
    expect(idle.body.checks.auto_assignment).toEqual({ status: 'healthy', message: HEALTH_MSG.autoIdle });
  });

  it('warns about missing backups once the server is older than a day (PostgreSQL: its own backups)', async () => {
    await advanceClock(25 * 60 * 60_000);
    const res = await call('get', 'health-check', (await makeUser('admin')).auth);
    if (isPostgres) {
      // CONTRACT §18: the database's backups (pg_dump, point-in-time recovery), said as healthy.
      expect(res.body.checks.backup).toEqual({ status: 'healthy', message: HEALTH_MSG.backupPostgres });
      return;
    }
    expect(res.body.checks.backup).toEqual({
      status: 'warning',
      message: 'No hay ninguna copia de seguridad',
    });
    expect(res.body.overall_status).not.toBe('healthy');
  });

  it("tells the engine's own facts: SQLite's file size; PostgreSQL's version, size, connections and oldest transaction", async () => {
    const admin = await makeUser('admin');
    if (!isPostgres) {
      const bytes =
        (sqlite.pragma('page_count', { simple: true }) as number) *
        (sqlite.pragma('page_size', { simple: true }) as number);
      const res = await call('get', 'health-check', admin.auth);
      expect(res.body.checks.database).toEqual({ status: 'healthy', message: HEALTH_MSG.databaseOk(bytes) });
      return;
    }
    // Another connection's transaction, open for over a second, is the oldest one.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const open = tx(async () => {
      await execute('SELECT 1');
      await held;
    });
    await sleep(1_100);
    const res = await call('get', 'health-check', admin.auth);
    release();
    await open;
    const [facts] = await query<{ version: string; max: number }>(
      "SELECT current_setting('server_version') AS version, current_setting('max_connections')::int AS max",
    );
    const version = facts.version.split(' ')[0].replace(/\./g, '\\.');
    expect(res.body.checks.database).toEqual({
      status: 'healthy',
      message: expect.stringMatching(
        new RegExp(
          `^PostgreSQL ${version}, \\d+(,\\d)? MB; (?:[2-9]|\\d{2,}) de ${facts.max} conexiones; la transacción abierta más antigua lleva [1-9]\\d* s$`,
        ),
      ),
    });
    // The probe's write left nothing behind.
    expect(await query("SELECT key FROM app_settings WHERE key = 'health_probe'")).toEqual([]);
  });
});

describe('GET logs', () => {
  const seed = async (n: number) => {
    const base = now().getTime() + 60_000; // newer than anything the server logged itself
    await tx(() =>
      db.insert(activityLog).values(
        Array.from({ length: n }, (_, i) => ({
          type: 'task' as const,
          userName: 'Gestor Prueba',
          action: 'Crear tarea',
          details: `Tarea ${i}`,
          timestamp: new Date(base + i * 1000),
        })),
      ),
    );
  };

  it('gives the newest 50 by default, newest first, in the LogEntry shape', async () => {
    await seed(60);
    const res = await call('get', 'logs', (await makeUser('admin')).auth);
    expect(res.status).toBe(200);
    const logs = res.body as LogEntry[];
    expect(logs).toHaveLength(50);
    expect(logs[0]).toEqual({
      id: expect.any(Number),
      type: 'task',
      user: 'Gestor Prueba',
      action: 'Crear tarea',
      details: 'Tarea 59',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(logs[49].details).toBe('Tarea 10');
    const times = logs.map((l) => Date.parse(l.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('honours a smaller limit and clamps a larger one to 500', async () => {
    await seed(520);
    const admin = await makeUser('admin');
    const three = await server.api().get(`${BASE}/logs?limit=3`).set(admin.auth);
    expect(three.body.map((l: LogEntry) => l.details)).toEqual(['Tarea 519', 'Tarea 518', 'Tarea 517']);
    const many = await server.api().get(`${BASE}/logs?limit=1000`).set(admin.auth);
    expect(many.status).toBe(200);
    expect(many.body).toHaveLength(500);
  });

  it.each(['abc', '0', '-5', '2.5'])('answers 400 in Spanish for limit=%s', async (limit) => {
    const res = await server
      .api()
      .get(`${BASE}/logs?limit=${limit}`)
      .set((await makeUser('admin')).auth);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/límite/);
  });
});

describe('POST run-migrations', () => {
  it('gives default task types to drivers without any, says so, logs it, and is idempotent', async () => {
    const admin = await makeUser('admin', { name: 'Ana Admin' });
    const empty = await makeUser('conductor', { taskTypes: [] });
    const alsoEmpty = await makeUser('conductor', { taskTypes: [] });
    const swapOnly = await makeUser('conductor', { taskTypes: ['swap'] });
    const gestor = await makeUser('gestor');
    const migrationsBefore = await appliedMigrations();

    const status = await call('get', 'db-status', admin.auth);
    expect(status.body.data_integrity).toEqual({ has_issues: true, users_without_task_types: 2 });

    const first = await call('post', 'run-migrations', admin.auth);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: 'Migraciones al día. Reparados 2 conductores sin tipos de tarea' });
    expect(JSON.parse(await rawTaskTypes(empty.user.id))).toEqual(['semiremolque']);
    expect(JSON.parse(await rawTaskTypes(alsoEmpty.user.id))).toEqual(['semiremolque']);
    expect(JSON.parse(await rawTaskTypes(swapOnly.user.id))).toEqual(['swap']);
    expect(JSON.parse(await rawTaskTypes(gestor.user.id))).toEqual([]);
    expect(await appliedMigrations()).toEqual(migrationsBefore);

    const logs = await call('get', 'logs', admin.auth);
    expect(logs.body[0]).toMatchObject({
      type: 'system',
      user: 'Ana Admin',
      action: 'Ejecutar migraciones',
      details: 'Migraciones al día. Reparados 2 conductores sin tipos de tarea',
    });

    const after = await call('get', 'db-status', admin.auth);
    expect(after.body.data_integrity).toEqual({ has_issues: false, users_without_task_types: 0 });

    const second = await call('post', 'run-migrations', admin.auth);
    expect(second.body).toEqual({ message: 'Migraciones al día. Sin problemas de integridad' });
  });

  it('says it in the singular for one driver', async () => {
    const admin = await makeUser('admin');
    await makeUser('conductor', { taskTypes: [] });
    const res = await call('post', 'run-migrations', admin.auth);
    expect(res.body.message).toBe('Migraciones al día. Reparado 1 conductor sin tipos de tarea');
  });
});

describe('POST clear-all-tokens', () => {
  it("revokes every other user's tokens in one go; the caller's keeps working", async () => {
    const caller = await makeUser('admin', { name: 'Ana Admin' });
    const others = [
      await makeUser('admin'),
      await makeUser('conductor'),
      await makeUser('gestor'),
      await makeUser('manager'),
    ];
    const pending = await makeUser('conductor', { approved: false });
    const version = async (id: string) =>
      (await db.select({ v: users.tokenVersion }).from(users).where(eq(users.id, id)))[0].v;

    const res = await call('post', 'clear-all-tokens', caller.auth);
    expect(res.status).toBe(200);
    // the four made here and the server's first admin
    expect(res.body).toEqual({ message: 'Sesiones cerradas: 5 usuarios deberán iniciar sesión de nuevo' });

    for (const other of others) {
      const denied = await server.api().get('/api/notifications').set(other.auth);
      expect(denied.status).toBe(401);
      expect(denied.body).toEqual({ detail: ERR.sessionRevoked });
      expect(await version(other.user.id)).toBe(other.user.tokenVersion + 1);
    }
    expect(await version(caller.user.id)).toBe(caller.user.tokenVersion);
    expect(await version(pending.user.id)).toBe(pending.user.tokenVersion);
    expect((await server.api().get('/api/notifications').set(caller.auth)).status).toBe(200);

    // a fresh login (a token of the new version) works again
    const [driver] = await db.select().from(users).where(eq(users.id, others[1].user.id));
    const fresh = await server
      .api()
      .get('/api/notifications')
      .set({ Authorization: `Bearer ${await tokenFor(driver)}` });
    expect(fresh.status).toBe(200);

    const logs = await call('get', 'logs', caller.auth);
    expect(logs.body[0]).toMatchObject({
      type: 'system',
      user: 'Ana Admin',
      action: 'Cerrar todas las sesiones',
    });
  });
});
