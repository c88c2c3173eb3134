// Accounts API, part 1: register, login (and its rate limit), refresh, logout (CONTRACT §4).
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { LOGIN_RATE_LIMIT, REGISTER_RATE_LIMIT, TOKEN_TTL_MS } from '@shared/constants';
import { ERR } from '@shared/labels';
import { activityLog, notifications, users } from '../../server/db/tables';
import { configure } from '../../server/config';
import { isPostgres } from '../../server/db';
import { PASSWORD, advanceClock, db, makeUser, setupApp } from '../helpers/context';
import { messagesOf } from '../helpers/pg-messages';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeAll(async () => {
  // These tests speak through a proxy on loopback that names the client (TRUST_PROXY=loopback).
  configure({ trustProxy: 'loopback' });
  ({ api } = await setupApp());
});

const userByEmail = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];
const logRows = (action: string) => db.select().from(activityLog).where(eq(activityLog.action, action));
let seq = 0;
const freshEmail = () => `persona${++seq}@test.local`;
/** Each test that counts per IP speaks from its own address. */
const fromIp = (ip: string) => ({ 'X-Forwarded-For': ip });

describe('POST /api/auth/register', () => {
  it('creates a pending account and answers without a token or a hash', async () => {
    const res = await api().post('/api/auth/register').send({
      email: '  Ana.Garcia@Test.Local ',
      password: 'segura123',
      name: ' Ana García ',
      role: 'conductor',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: 'pending_approval',
      access_token: null,
      user: { id: expect.any(String), name: 'Ana García', email: 'ana.garcia@test.local', role: 'conductor' },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
    const row = await userByEmail('ana.garcia@test.local');
    expect(row).toMatchObject({ isApproved: false, taskTypes: ['semiremolque'], deletedAt: null });
    expect(row?.passwordHash).not.toBe('segura123');
    expect((await logRows('Registrarse')).map((r) => r.userId)).toContain(row?.id);
  });

  it('defaults the role to conductor and gives other roles no task types', async () => {
    const a = await api()
      .post('/api/auth/register')
      .send({ email: freshEmail(), password: 'segura123', name: 'A' });
    expect(a.body.user.role).toBe('conductor');
    const email = freshEmail();
    const g = await api()
      .post('/api/auth/register')
      .send({ email, password: 'segura123', name: 'G', role: 'gestor' });
    expect(g.status).toBe(201);
    expect((await userByEmail(email))?.taskTypes).toEqual([]);
  });

  it('tells every admin with a user_pending notification', async () => {
    const admin = await makeUser('admin');
    const email = freshEmail();
    await api()
      .post('/api/auth/register')
      .send({ email, password: 'segura123', name: 'Luis Pérez', role: 'manager' })
      .expect(201);
    const rows = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, admin.user.id), eq(notifications.type, 'user_pending')));
    expect(rows).toHaveLength(1);
    expect(rows[0].message).toBe(`Luis Pérez (${email}) solicita acceso como Manager`);
    const list = await api().get('/api/notifications').set(admin.auth).expect(200);
    expect(list.body[0]).toMatchObject({ type: 'user_pending', is_read: false });
  });

  it('refuses an email already taken, whatever its case and spaces (409)', async () => {
    const email = freshEmail();
    await api().post('/api/auth/register').send({ email, password: 'segura123', name: 'Uno' }).expect(201);
    const res = await api()
      .post('/api/auth/register')
      .send({ email: ` ${email.toUpperCase()} `, password: 'segura123', name: 'Dos' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: ERR.emailTaken });
  });

  it.each([
    [{ email: 'x@test.local', password: 'corta', name: 'X' }, 'entre 8 y 72'],
    // CONTRACT §14: bcrypt would silently ignore everything past 72 bytes (here 37 × 'ñ' = 74 bytes)
    [{ email: 'x@test.local', password: 'ñ'.repeat(37), name: 'X' }, 'entre 8 y 72'],
    [{ email: 'x@test.local', password: ' '.repeat(12), name: 'X' }, 'entre 8 y 72'],
    [{ email: 'x@test.local', password: 'segura\u0000123', name: 'X' }, 'caracteres de control'],
    [{ email: 'x@test.local', password: 'segura\u202E123', name: 'X' }, 'caracteres de control'],
    [{ email: 'no-es-un-email', password: 'segura123', name: 'X' }, 'formato válido'],
    [{ email: "' OR 1=1 --", password: 'segura123', name: 'X' }, 'formato válido'],
    [{ email: 'x@test.local', password: 'segura123' }, 'nombre'],
    [{ email: 'x@test.local', password: 'segura123', name: '   ' }, 'nombre'],
    [{ email: 'x@test.local', password: 'segura123', name: 'X', role: 'superadmin' }, 'Rol no válido'],
    [{ password: 'segura123', name: 'X' }, 'email'],
  ])('answers 400 with a Spanish detail for %j', async (body, fragment) => {
    const res = await api().post('/api/auth/register').send(body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(fragment);
    expect(await userByEmail('x@test.local')).toBeUndefined();
  });

  it('answers 400 to malformed JSON', async () => {
    const res = await api()
      .post('/api/auth/register')
      .set('Content-Type', 'application/json')
      .send('{"email": "x@test.local",');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: ERR.invalidJson });
  });

  it(
    `lets one address create ${REGISTER_RATE_LIMIT.max} accounts an hour, then 429`,
    { timeout: 60_000 },
    async () => {
      const ip = '10.9.9.9';
      for (let i = 0; i < REGISTER_RATE_LIMIT.max; i++)
        await api()
          .post('/api/auth/register')
          .set(fromIp(ip))
          .send({ email: `masivo${i}@test.local`, password: 'segura123', name: `M${i}` })
          .expect(201);
      const blocked = await api()
        .post('/api/auth/register')
        .set(fromIp(ip))
        .send({ email: 'masivo-extra@test.local', password: 'segura123', name: 'Extra' });
      expect(blocked.status).toBe(429);
      expect(blocked.body).toEqual({ detail: ERR.tooManyAttempts });
      expect(await userByEmail('masivo-extra@test.local')).toBeUndefined();
      await api()
        .post('/api/auth/register')
        .set(fromIp('10.9.9.10'))
        .send({ email: 'otra-ip@test.local', password: 'segura123', name: 'Otra' })
        .expect(201);
      await advanceClock(REGISTER_RATE_LIMIT.windowMs);
      await api()
        .post('/api/auth/register')
        .set(fromIp(ip))
        .send({ email: 'masivo-extra@test.local', password: 'segura123', name: 'Extra' })
        .expect(201);
    },
  );
});

describe('POST /api/auth/login', () => {
  it('logs an approved user in, marks them online and writes the activity log', async () => {
    const driver = await makeUser('conductor', { email: 'marta@test.local', name: 'Marta' });
    const res = await api().post('/api/auth/login').send({ email: '  MARTA@test.local', password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'approved',
      access_token: expect.any(String),
      user: { id: driver.user.id, name: 'Marta', email: 'marta@test.local', role: 'conductor' },
    });
    expect((await userByEmail('marta@test.local'))?.isOnline).toBe(true);
    expect((await logRows('Iniciar sesión')).map((r) => r.userName)).toContain('Marta');
    await api()
      .get('/api/dashboard/stats')
      .set('Authorization', `Bearer ${res.body.access_token}`)
      .expect(200);
  });

  it('answers the same 401 to a wrong password and to an unknown email', async () => {
    await makeUser('gestor', { email: 'gestor-login@test.local' });
    const wrong = await api()
      .post('/api/auth/login')
      .send({ email: 'gestor-login@test.local', password: 'otra-cosa' });
    const unknown = await api()
      .post('/api/auth/login')
      .send({ email: 'nadie@test.local', password: PASSWORD });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: ERR.invalidCredentials });
    }
  });

  it('refuses a pending account with 403, but only with the right password', async () => {
    await makeUser('conductor', { email: 'pendiente@test.local', approved: false });
    const res = await api()
      .post('/api/auth/login')
      .send({ email: 'pendiente@test.local', password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: ERR.pendingApproval });
    const wrong = await api()
      .post('/api/auth/login')
      .send({ email: 'pendiente@test.local', password: 'no-es-esta' });
    expect(wrong.status).toBe(401);
  });

  it('refuses a deleted account with 401', async () => {
    const admin = await makeUser('admin');
    const gone = await makeUser('manager', { email: 'borrado@test.local' });
    await api().delete(`/api/admin/delete-user/${gone.user.id}`).set(admin.auth).expect(200);
    const res = await api().post('/api/auth/login').send({ email: 'borrado@test.local', password: PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: ERR.invalidCredentials });
  });

  it('answers 400 to a missing password or a bad email', async () => {
    expect((await api().post('/api/auth/login').send({ email: 'a@test.local' })).status).toBe(400);
    expect((await api().post('/api/auth/login').send({ email: 'a', password: 'x' })).status).toBe(400);
  });

  it(`blocks the ${LOGIN_RATE_LIMIT.max + 1}th failure in a row from one address for one email (429)`, async () => {
    await makeUser('manager', { email: 'objetivo@test.local' });
    const ip = '10.1.1.1';
    const attempt = (password: string, email = 'objetivo@test.local', from = ip) =>
      api().post('/api/auth/login').set(fromIp(from)).send({ email, password });
    for (let i = 0; i < LOGIN_RATE_LIMIT.max; i++) expect((await attempt('incorrecta')).status).toBe(401);
    const blocked = await attempt('incorrecta');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ detail: ERR.tooManyAttempts });
    // Blocked means blocked: the right password does not get through either.
    expect((await attempt(PASSWORD)).status).toBe(429);
    // Another address, or another email from the same address, is not affected.
    expect((await attempt(PASSWORD, 'objetivo@test.local', '10.1.1.2')).status).toBe(200);
    expect((await attempt('incorrecta', 'otro@test.local')).status).toBe(401);
    await advanceClock(LOGIN_RATE_LIMIT.windowMs);
    expect((await attempt(PASSWORD)).status).toBe(200);
  });

  it('counts only failures: a success starts the count again', async () => {
    await makeUser('manager', { email: 'despistado@test.local' });
    const attempt = (password: string) =>
      api()
        .post('/api/auth/login')
        .set(fromIp('10.2.2.2'))
        .send({ email: 'despistado@test.local', password });
    for (let i = 0; i < LOGIN_RATE_LIMIT.max - 1; i++) await attempt('mal').expect(401);
    await attempt(PASSWORD).expect(200);
    for (let i = 0; i < LOGIN_RATE_LIMIT.max - 1; i++) await attempt('mal').expect(401);
    await attempt(PASSWORD).expect(200);
  });
});

describe('POST /api/auth/refresh', () => {
  it('needs a token (401)', async () => {
    const res = await api().post('/api/auth/refresh');
    expect(res.status).toBe(401);
    expect(res.body.detail).toBe(ERR.unauthorized);
  });

  it('gives a fresh 12 h token while the old one still expires on time', async () => {
    const manager = await makeUser('manager');
    await advanceClock(TOKEN_TTL_MS - 60 * 60 * 1000);
    const res = await api().post('/api/auth/refresh').set(manager.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String) });
    expect(res.body.access_token).not.toBe(manager.token);
    const fresh = { Authorization: `Bearer ${res.body.access_token}` };
    await advanceClock(2 * 60 * 60 * 1000);
    const old = await api().get('/api/dashboard/stats').set(manager.auth);
    expect(old.status).toBe(401);
    expect(old.body.detail).toBe(ERR.sessionExpired);
    await api().get('/api/dashboard/stats').set(fresh).expect(200);
  });

  it.each(['conductor', 'gestor', 'manager', 'admin'] as const)('works for a %s', async (role) => {
    await api()
      .post('/api/auth/refresh')
      .set((await makeUser(role)).auth)
      .expect(200);
  });
});

describe('POST /api/auth/logout', () => {
  it('needs a token (401)', async () => {
    expect((await api().post('/api/auth/logout')).status).toBe(401);
  });

  it('takes the user offline at once and writes the activity log', async () => {
    const gestor = await makeUser('gestor', { name: 'Gestor Saliente' });
    await api().get('/api/dashboard/stats').set(gestor.auth).expect(200);
    expect((await userByEmail(gestor.user.email))?.isOnline).toBe(true);
    const res = await api().post('/api/auth/logout').set(gestor.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Sesión cerrada' });
    expect((await userByEmail(gestor.user.email))?.isOnline).toBe(false);
    expect((await logRows('Cerrar sesión')).map((r) => r.userName)).toContain('Gestor Saliente');
  });
});

describe('authenticating a burst of requests', () => {
  it('answers each request as its own token says, the burst read together (PostgreSQL)', async () => {
    const admin = await makeUser('admin');
    const gestor = await makeUser('gestor');
    const gone = await makeUser('gestor');
    await api().post('/api/auth/logout').set(gone.auth).expect(200);
    await api()
      .post('/api/auth/register')
      .send({ email: freshEmail(), password: 'segura123', name: 'Pendiente' })
      .expect(201);
    const who = [admin, gestor, gone, admin, gestor, gone, admin, gestor, gone];
    let answers: { status: number; body: unknown }[] = [];
    const sent = await messagesOf(async () => {
      answers = await Promise.all(who.map((u) => api().get('/api/notifications').set(u.auth)));
    });
    who.forEach((u, i) => {
      const { status, body } = answers[i]!;
      if (u === gone) expect({ status, body }).toEqual({ status: 401, body: { detail: ERR.sessionRevoked } });
      else if (u === admin) expect({ status, n: (body as unknown[]).length }).toEqual({ status: 200, n: 1 });
      else expect({ status, body }).toEqual({ status: 200, body: [] });
    });
    const reads = sent.filter((t) => /FROM sessions s/.test(t));
    if (isPostgres) {
      // Every request of the burst is answered, by fewer reads than requests.
      expect(reads.some((t) => t.includes('unnest'))).toBe(true);
      expect(reads.length).toBeLessThan(who.length);
    } else expect(reads).toEqual([]);
  });
});
