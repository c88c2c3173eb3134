// Hardening II (CONTRACT §5, §14): each attack as a client would make it. Invisible characters in task
// text, two staff overwriting each other's edit, a move that lost a race answered 400, a spoofed
// X-Forwarded-For choosing the address the login limit counts, a CSP open to any socket host, and API
// answers left in a browser's or proxy's cache.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import express from 'express';
import supertest from 'supertest';
import { LOGIN_RATE_LIMIT } from '@shared/constants';
import { ERR, STARTUP_ERR } from '@shared/labels';
import { checkConfig, config, configure } from '../../server/config';
import { PROXY_SECRET_HEADER } from '../../server/http/forwarded';
import { createApp } from '../../server/app';
import { errorHandler } from '../../server/http/errors';
import { activityLog, taskEvents, tasks } from '../../server/db/tables';
import { db, makeTask, makeUser, setupApp, tx, type TestUser } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});

const row = async (id: string) => (await db.select().from(tasks).where(eq(tasks.id, id)))[0]!;
const eventsOf = (id: string) => db.select().from(taskEvents).where(eq(taskEvents.taskId, id));
const payload = (over: Record<string, unknown> = {}) => ({
  title: 'Mover',
  origin: 'Muelle 3',
  destination: 'Campa A-12',
  trailer_id: 'R-1',
  ...over,
});

describe('invisible characters in task text (CONTRACT §14)', () => {
  it('a zero-width space or full-width letters do not make a second open task for one trailer', async () => {
    const gestor = await makeUser('gestor');
    const create = (trailer: string) =>
      api()
        .post('/api/tasks')
        .set(gestor.auth)
        .send(payload({ trailer_id: trailer }));
    const first = await create('DUP-1');
    expect(first.status).toBe(201);
    for (const twin of ['DUP-1\u200B', '\u2060dup-1', 'DUP\u00AD-1', 'ＤＵＰ－１', 'DUP-1\u200E']) {
      const res = await create(twin);
      expect(res.status, JSON.stringify(twin)).toBe(409);
      expect(res.body.detail).toBe('El remolque DUP-1 ya tiene una tarea abierta');
    }
    // An edit may not rename another task into the twin either.
    const other = await create('DUP-2');
    const renamed = await api()
      .put(`/api/tasks/${other.body.id}`)
      .set(gestor.auth)
      .send({ trailer_id: 'DUP-1\uFEFF' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.detail).toBe('El remolque DUP-1 ya tiene una tarea abierta');
    expect((await row(other.body.id)).trailerId).toBe('DUP-2');
    expect((await db.select().from(tasks)).map((t) => t.trailerId)).toEqual(['DUP-1', 'DUP-2']);
  });

  it('NUL, bidi overrides and zero-width characters are not stored; text is stored in NFC', async () => {
    const gestor = await makeUser('gestor');
    const res = await api()
      .post('/api/tasks')
      .set(gestor.auth)
      .send(
        payload({
          origin: '\u0000Muelle\u202E 3\u200B ',
          destination: 'Camio\u0301n \u2066Norte\u2069',
          trailer_id: ' r-9\u0000 ',
          description: 'Línea 1\r\nLínea\u200D 2\u202E\n\tfin',
        }),
      );
    expect(res.status).toBe(201);
    expect(await row(res.body.id)).toMatchObject({
      origin: 'Muelle 3',
      destination: 'Camión Norte',
      trailerId: 'R-9',
      description: 'Línea 1\nLínea 2\n\tfin',
    });
    expect((await row(res.body.id)).destination).toBe('Camión Norte'.normalize('NFC'));
    expect(res.body.origin).toBe('Muelle 3');

    const edit = await api()
      .put(`/api/tasks/${res.body.id}`)
      .set(gestor.auth)
      .send({ origin: 'Puerta\u202E 2\u0007' });
    expect(edit.status).toBe(200);
    expect((await row(res.body.id)).origin).toBe('Puerta 2');
  });

  it('a text of invisible characters only is empty: 400, nothing stored', async () => {
    const gestor = await makeUser('gestor');
    const blank = '\u200B\u200C\u200D\u2060\uFEFF\u202E\u0000';
    for (const field of ['origin', 'destination', 'trailer_id']) {
      const res = await api()
        .post('/api/tasks')
        .set(gestor.auth)
        .send(payload({ [field]: blank }));
      expect(res.status, field).toBe(400);
      expect(res.body.detail).toMatch(/^\w+: El (origen|destino|remolque) es obligatorio$/);
    }
    expect(await db.select().from(tasks)).toEqual([]);
    const task = await makeTask({ origin: 'Muelle 1' });
    const res = await api().put(`/api/tasks/${task.id}`).set(gestor.auth).send({ origin: blank });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('origin: El origen es obligatorio');
    expect(await row(task.id)).toMatchObject({ origin: 'Muelle 1', version: task.version });
    // A description of invisible characters only is no description.
    const described = await api()
      .post('/api/tasks')
      .set(gestor.auth)
      .send(payload({ trailer_id: 'R-DESC', description: blank }));
    expect(described.status).toBe(201);
    expect((await row(described.body.id)).description).toBeNull();
  });

  it('the searcher ignores a pasted zero-width space, and a query of invisible characters is no criterion', async () => {
    const gestor = await makeUser('gestor');
    await makeTask({ trailerId: 'ZW-7' });
    const found = await api()
      .get('/api/admin/search/tasks')
      .query({ search_type: 'trailer', query: 'ZW\u200B-7' })
      .set(gestor.auth);
    expect(found.status).toBe(200);
    expect(found.body.map((t: { trailer_id: string }) => t.trailer_id)).toEqual(['ZW-7']);
    const empty = await api()
      .get('/api/admin/search/tasks')
      .query({ query: '\u200B\u2060' })
      .set(gestor.auth);
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe(ERR.searchCriteria);
  });
});

describe('lost update between two staff (CONTRACT §5 version)', () => {
  it('two staff save the same version one after the other: the first wins, the second gets 409 and writes nothing', async () => {
    const gestor = await makeUser('gestor');
    const manager = await makeUser('manager');
    const task = await makeTask({ destination: 'Campa A' });
    const opened = (await api().get('/api/tasks').set(gestor.auth)).body[0].version as number;
    expect(opened).toBe(task.version);

    const first = await api()
      .put(`/api/tasks/${task.id}`)
      .set(gestor.auth)
      .send({ destination: 'Muelle 4', version: opened });
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(opened + 1);
    const logs = (await db.select().from(activityLog)).length;

    const second = await api()
      .put(`/api/tasks/${task.id}`)
      .set(manager.auth)
      .send({ destination: 'Muelle 9', priority: 'high', version: opened });
    expect(second.status).toBe(409);
    expect(second.body.detail).toBe(
      'La tarea ha cambiado mientras la editabas; revisa los datos y vuelve a intentarlo',
    );
    expect(second.body.detail).toBe(ERR.versionConflict);
    expect(await row(task.id)).toMatchObject({
      destination: 'Muelle 4',
      priority: 'normal',
      version: opened + 1,
    });
    expect(await eventsOf(task.id)).toHaveLength(1);
    expect(await db.select().from(activityLog)).toHaveLength(logs);

    // With the version they now see, the second editor's save goes through.
    const retry = await api()
      .put(`/api/tasks/${task.id}`)
      .set(manager.auth)
      .send({ destination: 'Muelle 9', version: opened + 1 });
    expect(retry.status).toBe(200);
    expect(await row(task.id)).toMatchObject({ destination: 'Muelle 9', version: opened + 2 });
  });

  it('two staff save the same version at once: exactly one 200, one 409, the winner kept', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await makeUser('gestor');
      const b = await makeUser('admin');
      const task = await makeTask();
      const [ra, rb] = await Promise.all([
        api().put(`/api/tasks/${task.id}`).set(a.auth).send({ origin: 'Puerta A', version: task.version }),
        api().put(`/api/tasks/${task.id}`).set(b.auth).send({ origin: 'Puerta B', version: task.version }),
      ]);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      const winner = ra.status === 200 ? 'Puerta A' : 'Puerta B';
      expect(await row(task.id)).toMatchObject({ origin: winner, version: task.version + 1 });
    }
  });

  it('a move with a stale version, and a driver with one, are refused too; without a version nothing changes', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id, vehicleType: 'swap' });
    await tx(() => db.update(tasks).set({ version: 5 }).where(eq(tasks.id, task.id)));
    const stale = await api()
      .put(`/api/tasks/${task.id}`)
      .set(admin.auth)
      .send({ status: 'bolsa_trabajo', version: 4 });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toBe(ERR.versionConflict);
    const mine = await api()
      .put(`/api/tasks/${task.id}`)
      .set(driver.auth)
      .send({ status: 'finalizada', version: 3 });
    expect(mine.status).toBe(409);
    expect(mine.body.detail).toBe(ERR.versionConflict);
    expect(await row(task.id)).toMatchObject({ status: 'en_proceso', version: 5 });

    for (const body of [
      { version: 'x' },
      { version: 1.5 },
      { version: -1 },
      { priority: 'high', version: null },
    ]) {
      const res = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toBe('version: Versión no válida');
    }
    const nothing = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ version: 5 });
    expect(nothing.status).toBe(400);
    expect(nothing.body.detail).toBe('No hay cambios que aplicar');

    const current = await api()
      .put(`/api/tasks/${task.id}`)
      .set(driver.auth)
      .send({ status: 'finalizada', version: 5 });
    expect(current.status).toBe(200);
    expect(await row(task.id)).toMatchObject({ status: 'finalizada', version: 6 });
  });
});

describe('a move that lost a race is a 409, never a 400 (CONTRACT §5)', () => {
  it('staff reassign ({assigned_to} alone) a task the driver has just completed: 409', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    const other = await makeUser('conductor', { taskTypes: ['swap'] });
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id, vehicleType: 'swap' });
    expect((await api().post(`/api/tasks/${task.id}/complete`).set(driver.auth)).status).toBe(200);
    const res = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ assigned_to: other.user.id });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(ERR.taskFinished);
    expect(await row(task.id)).toMatchObject({ status: 'finalizada', assignedTo: driver.user.id });
    // Naming a driver together with a status that takes none can never succeed: still a 400.
    const never = await api()
      .put(`/api/tasks/${task.id}`)
      .set(admin.auth)
      .send({ status: 'bolsa_trabajo', assigned_to: other.user.id });
    expect(never.status).toBe(400);
  });

  it("the driver's complete and the staff's PUT at once, repeated: every answer 200 or 409, never 400", async () => {
    const admin = await makeUser('admin');
    const gestor = await makeUser('gestor');
    const seen = new Set<number>();
    let staffLost = 0;
    const staffBodies = (task: { version: number }, other: TestUser) => [
      { assigned_to: other.user.id },
      { status: 'finalizada', version: task.version },
      { status: 'bolsa_trabajo', version: task.version },
      { destination: 'Muelle 8', version: task.version },
    ];
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 4; i++) {
        const driver = await makeUser('conductor', { taskTypes: ['swap'] });
        const other = await makeUser('conductor', { taskTypes: ['swap'] });
        const task = await makeTask({
          status: 'en_proceso',
          assignedTo: driver.user.id,
          vehicleType: 'swap',
        });
        const staff = i % 2 ? admin : gestor;
        const body = staffBodies(task, other)[i];
        const calls = [
          () => api().post(`/api/tasks/${task.id}/complete`).set(driver.auth),
          () => api().put(`/api/tasks/${task.id}`).set(staff.auth).send(body),
        ];
        // Alternate who leaves first, so both orders are met.
        const answers = await Promise.all(
          round % 2 ? calls.reverse().map((c) => c()) : calls.map((c) => c()),
        );
        for (const res of answers) {
          seen.add(res.status);
          expect([200, 409], `${JSON.stringify(body)} → ${res.status} ${res.body.detail}`).toContain(
            res.status,
          );
          if (res.status === 409) expect(typeof res.body.detail).toBe('string');
        }
        const staffAnswer = round % 2 ? answers[0] : answers[1];
        if (staffAnswer.status === 409) staffLost++;
        const done = await row(task.id);
        expect(['en_proceso', 'finalizada', 'bolsa_trabajo']).toContain(done.status);
      }
    }
    expect(seen.has(400)).toBe(false);
    // The staff's side did lose races (the driver's completion went first), and got 409s for it.
    expect(staffLost).toBeGreaterThan(0);
  });
});

describe('X-Forwarded-For only through TRUST_PROXY (CONTRACT §14)', () => {
  afterEach(() => {
    configure({ trustProxy: false });
  });

  const wrongLogin = (app: ReturnType<typeof supertest>, email: string, forwardedFor: string) =>
    app
      .post('/api/auth/login')
      .set('X-Forwarded-For', forwardedFor)
      .send({ email, password: 'contraseña-incorrecta' });

  it('off by default: a loopback client cannot pick a new address per request; the 11th failure is a 429', async () => {
    configure({ trustProxy: false });
    const app = supertest(createApp());
    const victim = await makeUser('gestor');
    for (let i = 0; i < LOGIN_RATE_LIMIT.max; i++) {
      const res = await wrongLogin(app, victim.user.email, `203.0.113.${i + 1}`);
      expect(res.status).not.toBe(200);
    }
    const eleventh = await wrongLogin(app, victim.user.email, '198.51.100.77');
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.detail).toBe(ERR.tooManyAttempts);
  });

  it('the default configuration trusts no proxy', async () => {
    const { parseTrustProxy } = await import('../../server/config');
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy(' 10.0.0.1, 10.0.0.0/8 ')).toBe('10.0.0.1, 10.0.0.0/8');
  });

  it('with TRUST_PROXY=1 the forwarded address counts: another client behind the proxy is not blocked', async () => {
    configure({ trustProxy: 1 });
    const app = supertest(createApp());
    const victim = await makeUser('gestor');
    for (let i = 0; i < LOGIN_RATE_LIMIT.max; i++)
      expect((await wrongLogin(app, victim.user.email, '203.0.113.10')).status).toBe(401);
    expect((await wrongLogin(app, victim.user.email, '203.0.113.10')).status).toBe(429);
    const neighbour = await wrongLogin(app, victim.user.email, '203.0.113.11');
    expect(neighbour.status).toBe(401);
  });
});

describe("X-Forwarded-For only with the proxy's secret (npm run cluster, CONTRACT §23)", () => {
  const secret = 'el-secreto-compartido-del-proxy-y-sus-nodos';
  afterEach(() => {
    configure({ trustProxy: false, proxySecret: undefined });
  });

  const wrongLogin = (app: ReturnType<typeof supertest>, email: string, headers: Record<string, string>) =>
    app.post('/api/auth/login').set(headers).send({ email, password: 'contraseña-incorrecta' });

  it('a request straight to a node cannot pick its address: the 11th failure is a 429 whatever it claims', async () => {
    // A cluster's node: it trusts the loopback proxy, and any local program is loopback too.
    configure({ trustProxy: 'loopback', proxySecret: secret });
    const app = supertest(createApp());
    const victim = await makeUser('gestor');
    for (let i = 0; i < LOGIN_RATE_LIMIT.max; i++) {
      const res = await wrongLogin(app, victim.user.email, {
        'X-Forwarded-For': `203.0.113.${i + 1}`,
        [PROXY_SECRET_HEADER]: `${secret}-no`,
      });
      expect(res.status).toBe(401);
    }
    const eleventh = await wrongLogin(app, victim.user.email, { 'X-Forwarded-For': '198.51.100.77' });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.detail).toBe(ERR.tooManyAttempts);
  });

  it("through the proxy (its secret), each client's forwarded address counts on its own", async () => {
    configure({ trustProxy: 'loopback', proxySecret: secret });
    const app = supertest(createApp());
    const victim = await makeUser('gestor');
    const viaProxy = (ip: string) => ({ 'X-Forwarded-For': ip, [PROXY_SECRET_HEADER]: secret });
    for (let i = 0; i < LOGIN_RATE_LIMIT.max; i++)
      expect((await wrongLogin(app, victim.user.email, viaProxy('203.0.113.10'))).status).toBe(401);
    expect((await wrongLogin(app, victim.user.email, viaProxy('203.0.113.10'))).status).toBe(429);
    expect((await wrongLogin(app, victim.user.email, viaProxy('203.0.113.11'))).status).toBe(401);
  });

  it('refuses to start with a short PROXY_SECRET', () => {
    expect(() => checkConfig({ ...config, proxySecret: 'corto' })).toThrow(STARTUP_ERR.proxySecretShort(5));
  });
});

describe('HTTP headers (CONTRACT §14)', () => {
  const connectSrc = (csp: string) =>
    csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('connect-src'));

  afterEach(() => {
    configure({ corsOrigin: undefined });
    delete process.env.VITE_API_URL;
  });

  it("CSP connect-src is 'self' only, with no bare ws:/wss:", async () => {
    configure({ corsOrigin: undefined });
    delete process.env.VITE_API_URL;
    const res = await supertest(createApp()).get('/api/server-time');
    expect(connectSrc(res.headers['content-security-policy'])).toBe("connect-src 'self'");
  });

  it('CSP connect-src adds the CORS_ORIGIN and VITE_API_URL origins, and nothing else', async () => {
    configure({ corsOrigin: 'https://patio.example.com' });
    process.env.VITE_API_URL = 'https://api.example.com:8443/torre/';
    const res = await supertest(createApp()).get('/api/server-time');
    const directive = connectSrc(res.headers['content-security-policy'])!;
    expect(directive).toBe("connect-src 'self' https://patio.example.com https://api.example.com:8443");
    expect(directive.split(' ')).not.toContain('ws:');
    expect(directive.split(' ')).not.toContain('wss:');
  });

  it('every /api answer says Cache-Control: no-store, errors and 404s included; a staff board no-cache', async () => {
    const gestor = await makeUser('gestor');
    const answers = [
      await api().get('/api/server-time'),
      await api().get('/api/tasks').set(gestor.auth),
      await api().get('/api/tasks'),
      await api().get('/api/no-existe').set(gestor.auth),
      await api().get('/api/admin/users').set(gestor.auth),
      await api().put(`/api/tasks/${crypto.randomUUID()}`).set(gestor.auth).send({ priority: 'high' }),
      await api()
        .post('/api/tasks')
        .set(gestor.auth)
        .set('Content-Type', 'application/json')
        .send('{no json'),
      await api().post('/api/auth/login').send({ email: 'nadie@test.local', password: 'mala-contraseña' }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 404, 403, 404, 400, 401]);
    // The staff's board is revalidated with its ETag (CONTRACT §14: no-cache there, services/board.ts).
    for (const [i, res] of answers.entries())
      expect(res.headers['cache-control'], `answer ${i}`).toBe(i === 1 ? 'no-cache' : 'no-store');
    expect(answers[1]!.headers.etag).toMatch(/^W\//);
  });
});

describe('database errors: the same answers on both engines (CONTRACT §3, §14, §18)', () => {
  // Errors as the drivers throw them (node-postgres: a SQLSTATE `code`, or node's socket code, or words
  // only), wrapped in `cause` as drizzle does, through the app's own error handler.
  const driverError = (message: string, code?: string) =>
    Object.assign(new Error('Failed query: select …'), {
      cause: Object.assign(new Error(message), { code }),
    });
  const answerTo = async (err: unknown) => {
    const app = express();
    app.get('/boom', () => {
      throw err;
    });
    app.use(errorHandler);
    const res = await supertest(app).get('/boom');
    return { status: res.status, detail: (res.body as { detail: string }).detail };
  };

  it('a database that cannot be reached or cannot keep a write is a 503, never a 500', async () => {
    const unavailable = [
      driverError('SQLITE_FULL: database or disk is full', 'SQLITE_FULL'),
      driverError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      driverError('Connection terminated unexpectedly'),
      driverError('timeout exceeded when trying to connect'),
      driverError('terminating connection due to administrator command', '57P01'),
      driverError('the database system is starting up', '57P03'),
      driverError('sorry, too many clients already', '53300'),
      driverError('could not extend file: No space left on device', '53100'),
      driverError('cannot execute UPDATE in a read-only transaction', '25006'),
      driverError('connection failure', '08006'),
    ];
    for (const err of unavailable)
      expect(await answerTo(err)).toEqual({ status: 503, detail: ERR.storageUnavailable });
  });

  it('a value PostgreSQL refuses where SQLite takes it is bad input (4xx); the server’s own faults stay 500', async () => {
    for (const code of ['22021', '22003', '22P02', '22001', '22007'])
      expect((await answerTo(driverError('invalid input value', code))).status).toBe(400);
    expect((await answerTo(driverError('index row size exceeds btree maximum', '54000'))).status).toBe(413);
    for (const err of [
      driverError('division by zero', '22012'),
      new Error('fallo'),
      driverError('x', '23503'),
    ])
      expect(await answerTo(err)).toEqual({ status: 500, detail: ERR.internal });
  });
});
