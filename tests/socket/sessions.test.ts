// Login sessions (CONTRACT §14): logout ends a session on the server, an admin lists and ends a
// user's sessions, resets a password, edits a user; old tokens without a session end at the upgrade.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { REVOKE_MESSAGES } from '@shared/events';
import { ERR } from '@shared/labels';
import { TOKEN_TTL_MS } from '@shared/constants';
import { config } from '../../server/config';
import { activityLog, sessions, users } from '../../server/db/tables';
import {
  PASSWORD,
  advanceClock,
  connectSocket,
  db,
  makeUser,
  nextEvent,
  nextMatching,
  now,
  liveServer,
} from '../helpers/context';

const server = liveServer();

const connect = server.connect;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function login(
  email: string,
  password = PASSWORD,
  userAgent = 'Mozilla/5.0 (Linux; Android 14) Chrome/130',
) {
  const res = await server
    .api()
    .post('/api/auth/login')
    .set('User-Agent', userAgent)
    .send({ email, password });
  return res;
}

describe('logout', () => {
  it('ends the session on the server: its token and every refresh of it answer 401, its socket is told', async () => {
    const driver = await makeUser('conductor', { email: 'salida@test.local' });
    const first = await login('salida@test.local');
    expect(first.status).toBe(200);
    const token: string = first.body.access_token;
    await advanceClock(1000);
    const refreshed = await server.api().post('/api/auth/refresh').set(bearer(token));
    expect(refreshed.status).toBe(200);
    const socket = await connect(refreshed.body.access_token);
    const revoked = nextEvent(socket, 'session:revoked');

    await server.api().post('/api/auth/logout').set(bearer(token)).expect(200);

    expect(await revoked).toEqual({ reason: 'logged_out', detail: REVOKE_MESSAGES.logged_out });
    for (const t of [token, refreshed.body.access_token]) {
      const res = await server.api().get('/api/tasks').set(bearer(t));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: ERR.sessionRevoked });
      expect((await server.api().post('/api/auth/refresh').set(bearer(t))).status).toBe(401);
    }
    await expect(connectSocket(server.url, token)).rejects.toThrow(ERR.unauthorized);
    // The user's other sessions (the fixture's token) stay open.
    expect((await server.api().get('/api/tasks').set(driver.auth)).status).toBe(200);
  });

  it('refuses a token from before sessions existed (no sid) and one without a numeric exp', async () => {
    const { user } = await makeUser('admin');
    const iat = Math.floor(now().getTime() / 1000);
    const legacy = jwt.sign({ sub: user.id, tv: 0, iat, exp: iat + TOKEN_TTL_MS / 1000 }, config.jwtSecret);
    const [sid] = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    const noExp = jwt.sign({ sub: user.id, tv: 0, sid: sid.id, iat }, config.jwtSecret);
    for (const t of [legacy, noExp]) {
      const res = await server.api().get('/api/tasks').set(bearer(t));
      expect(res.status).toBe(401);
    }
  });

  it('a session not refreshed for 12 h is closed even if a token of it were still valid', async () => {
    const driver = await makeUser('conductor');
    await advanceClock(TOKEN_TTL_MS - 60_000);
    expect((await server.api().get('/api/tasks').set(driver.auth)).status).toBe(200);
    const { access_token } = (await server.api().post('/api/auth/refresh').set(driver.auth)).body;
    await advanceClock(TOKEN_TTL_MS - 60_000);
    // refreshed 11 h 59 min ago: still open
    expect((await server.api().get('/api/tasks').set(bearer(access_token))).status).toBe(200);
  });
});

describe("an admin and a user's sessions", () => {
  it("lists the open sessions with device and address, marks the caller's own, and ends one (a lost phone)", async () => {
    const admin = await makeUser('admin', { email: 'jefa@test.local' });
    const driver = await makeUser('conductor', { email: 'movil@test.local' });
    const phone = await login('movil@test.local');
    const wall = await login('movil@test.local', PASSWORD, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130');
    const adminLogin = await login('jefa@test.local');
    const adminAuth = bearer(adminLogin.body.access_token);

    const list = await server.api().get(`/api/admin/users/${driver.user.id}/sessions`).set(adminAuth);
    expect(list.status).toBe(200);
    // the fixture's session, the phone and the wall
    expect(list.body).toHaveLength(3);
    expect(list.body[0]).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      last_refreshed_at: expect.any(String),
      ip: expect.stringContaining('127.0.0.1'),
      user_agent: expect.stringContaining('Linux'),
      current: false,
    });
    const own = await server.api().get(`/api/admin/users/${admin.user.id}/sessions`).set(adminAuth);
    expect(own.body.filter((s: { current: boolean }) => s.current)).toHaveLength(1);

    const phoneSid = (jwt.decode(phone.body.access_token) as { sid: string }).sid;
    const phoneSocket = await connect(phone.body.access_token);
    const wallSocket = await connect(wall.body.access_token);
    const phoneTold = nextEvent(phoneSocket, 'session:revoked');
    let wallTold = false;
    wallSocket.on('session:revoked', () => (wallTold = true));

    const end = await server
      .api()
      .delete(`/api/admin/users/${driver.user.id}/sessions/${phoneSid}`)
      .set(adminAuth);
    expect(end.status).toBe(200);
    expect((await phoneTold).reason).toBe('logged_out');
    expect((await server.api().get('/api/tasks').set(bearer(phone.body.access_token))).status).toBe(401);
    expect((await server.api().get('/api/tasks').set(bearer(wall.body.access_token))).status).toBe(200);
    expect(wallTold).toBe(false);
    expect(wallSocket.connected).toBe(true);
    const after = await server.api().get(`/api/admin/users/${driver.user.id}/sessions`).set(adminAuth);
    expect(after.body.map((s: { id: string }) => s.id)).not.toContain(phoneSid);

    // ending it again, or a session of someone else → 404
    const again = await server
      .api()
      .delete(`/api/admin/users/${driver.user.id}/sessions/${phoneSid}`)
      .set(adminAuth);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: ERR.sessionNotFound });
    const adminSid = (jwt.decode(adminLogin.body.access_token) as { sid: string }).sid;
    expect(
      (await server.api().delete(`/api/admin/users/${driver.user.id}/sessions/${adminSid}`).set(adminAuth))
        .status,
    ).toBe(404);
  });

  it('is for admins only', async () => {
    const manager = await makeUser('manager');
    const driver = await makeUser('conductor');
    expect(
      (await server.api().get(`/api/admin/users/${driver.user.id}/sessions`).set(manager.auth)).status,
    ).toBe(403);
    expect(
      (await server.api().post(`/api/admin/users/${driver.user.id}/reset-password`).set(manager.auth)).status,
    ).toBe(403);
    expect(
      (await server.api().put(`/api/admin/users/${driver.user.id}`).set(driver.auth).send({ name: 'X' }))
        .status,
    ).toBe(403);
  });
});

describe("changing one's own password (CONTRACT §23)", () => {
  it("ends the user's other sessions, told password_changed; the current one goes on with its sid", async () => {
    await makeUser('gestor', { email: 'cambio@test.local' });
    const here = await login('cambio@test.local', PASSWORD, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131');
    const phone = await login('cambio@test.local');
    const other = await makeUser('gestor', { email: 'vecino@test.local' });
    const hereSocket = await connect(here.body.access_token);
    const phoneSocket = await connect(phone.body.access_token);
    const otherSocket = await connect(other.token);
    const phoneTold = nextEvent(phoneSocket, 'session:revoked');
    let hereTold = false;
    let otherTold = false;
    hereSocket.on('session:revoked', () => (hereTold = true));
    otherSocket.on('session:revoked', () => (otherTold = true));
    const sidOf = (token: string) => (jwt.decode(token) as { sid: string }).sid;

    const changed = await server
      .api()
      .post('/api/auth/change-password')
      .set(bearer(here.body.access_token))
      .send({ current_password: PASSWORD, new_password: 'otra-clave-segura-2' });
    expect(changed.status).toBe(200);

    expect(await phoneTold).toEqual({ reason: 'password_changed', detail: REVOKE_MESSAGES.password_changed });
    const phoneRes = await server.api().get('/api/tasks').set(bearer(phone.body.access_token));
    expect(phoneRes.status).toBe(401);
    expect(phoneRes.body).toEqual({ detail: ERR.sessionRevoked });
    // This device: the new token has the same session, and the old one still works until it expires.
    expect(sidOf(changed.body.access_token)).toBe(sidOf(here.body.access_token));
    expect((await server.api().get('/api/tasks').set(bearer(changed.body.access_token))).status).toBe(200);
    expect((await server.api().get('/api/tasks').set(bearer(here.body.access_token))).status).toBe(200);
    expect(hereSocket.connected).toBe(true);
    expect(otherSocket.connected).toBe(true);
    expect(hereTold || otherTold).toBe(false);
    const open = await db.select().from(sessions).where(eq(sessions.userId, here.body.user.id));
    expect(open.filter((s) => s.endedAt === null).map((s) => s.id)).toEqual([sidOf(here.body.access_token)]);
  });
});

describe('password reset by an admin', () => {
  it('shows a temporary password once, ends every session, and at the next login only change-password works', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor', { email: 'olvido@test.local', name: 'Olvido' });
    const socket = await connect(driver.token);
    const told = nextEvent(socket, 'session:revoked');

    const reset = await server
      .api()
      .post(`/api/admin/users/${driver.user.id}/reset-password`)
      .set(admin.auth);
    expect(reset.status).toBe(200);
    const temporary: string = reset.body.temporary_password;
    expect(temporary).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(await told).toEqual({ reason: 'password_reset', detail: REVOKE_MESSAGES.password_reset });
    expect((await server.api().get('/api/tasks').set(driver.auth)).status).toBe(401);
    expect((await login('olvido@test.local')).status).toBe(401); // the old password is gone

    const first = await login('olvido@test.local', temporary);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'password_change_required',
      user: { email: 'olvido@test.local' },
    });
    const limited = bearer(first.body.access_token);
    const refused = await server.api().get('/api/tasks').set(limited);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: ERR.mustChangePassword });
    expect((await server.api().post('/api/auth/refresh').set(limited)).status).toBe(403);
    await expect(connectSocket(server.url, first.body.access_token)).rejects.toThrow();

    // wrong current password, or a new one that breaks the rules → 400, nothing changes
    const wrong = await server
      .api()
      .post('/api/auth/change-password')
      .set(limited)
      .send({ current_password: 'no-es-esta', new_password: 'nueva-segura-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: ERR.wrongCurrentPassword });
    const weak = await server
      .api()
      .post('/api/auth/change-password')
      .set(limited)
      .send({ current_password: temporary, new_password: '        ' });
    expect(weak.status).toBe(400);

    const changed = await server
      .api()
      .post('/api/auth/change-password')
      .set(limited)
      .send({ current_password: temporary, new_password: 'nueva-segura-1' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ status: 'approved', access_token: expect.any(String) });
    expect((await server.api().get('/api/tasks').set(bearer(changed.body.access_token))).status).toBe(200);
    expect((await login('olvido@test.local', 'nueva-segura-1')).body.status).toBe('approved');
    expect((await login('olvido@test.local', temporary)).status).toBe(401);
    const [row] = await db.select().from(users).where(eq(users.id, driver.user.id));
    expect(row.mustChangePassword).toBe(false);
    const actions = (await db.select().from(activityLog)).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['Restablecer contraseña', 'Cambiar contraseña']));
  });

  it('404 for an unknown user', async () => {
    const admin = await makeUser('admin');
    const res = await server
      .api()
      .post('/api/admin/users/00000000-0000-4000-8000-000000000000/reset-password')
      .set(admin.auth);
    expect(res.status).toBe(404);
  });
});

describe('PUT /admin/users/{id}', () => {
  it('edits name and email, keeps the email unique, and pushes the change to admins', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor', { email: 'viejo@test.local', name: 'Nombre Viejo' });
    await makeUser('gestor', { email: 'ocupado@test.local' });
    const adminSocket = await connect(admin.token);
    // The driver's change (the admin's own coming online is pushed too, whenever it is stored).
    const pushed = nextMatching(adminSocket, 'users:changed', (p) => p.user.id === driver.user.id);

    const res = await server
      .api()
      .put(`/api/admin/users/${driver.user.id}`)
      .set(admin.auth)
      .send({ name: '  Nombre\u200B Nuevo ', email: ' NUEVO@test.local ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: driver.user.id, name: 'Nombre Nuevo', email: 'nuevo@test.local' });
    expect((await pushed).user).toMatchObject({ name: 'Nombre Nuevo' });
    expect((await login('nuevo@test.local')).status).toBe(200);

    const taken = await server
      .api()
      .put(`/api/admin/users/${driver.user.id}`)
      .set(admin.auth)
      .send({ email: 'ocupado@test.local' });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ detail: ERR.emailTaken });
    const empty = await server.api().put(`/api/admin/users/${driver.user.id}`).set(admin.auth).send({});
    expect(empty.status).toBe(400);
    const badEmail = await server
      .api()
      .put(`/api/admin/users/${driver.user.id}`)
      .set(admin.auth)
      .send({ email: 'x' });
    expect(badEmail.status).toBe(400);
    expect((await db.select().from(users).where(eq(users.id, driver.user.id)))[0]?.email).toBe(
      'nuevo@test.local',
    );
  });
});
