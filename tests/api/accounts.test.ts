// Accounts API, part 2: the admin's user management (CONTRACT §4, §12).
import { beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ERR } from '@shared/labels';
import { activityLog, notifications, tasks, users } from '../../server/db/tables';
import { PASSWORD, db, makePunch, makeTask, makeUser, setupApp, type TestUser } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let admin: TestUser;
beforeAll(async () => {
  ({ api } = await setupApp());
  admin = await makeUser('admin', { name: 'Jefa de Patio' });
});

const userRow = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0];
const logActions = (action: string) => db.select().from(activityLog).where(eq(activityLog.action, action));
let seq = 0;
async function registerPending(role = 'conductor', name = `Solicitante ${++seq}`) {
  const email = `pendiente${++seq}@test.local`;
  const res = await api().post('/api/auth/register').send({ email, password: PASSWORD, name, role });
  expect(res.status).toBe(201);
  return { id: res.body.user.id as string, email, name };
}
const login = (email: string) => api().post('/api/auth/login').send({ email, password: PASSWORD });

const ADMIN_ENDPOINTS = [
  ['get', '/api/admin/pending-users'],
  ['post', '/api/admin/approve-user'],
  ['get', '/api/admin/users'],
  ['post', '/api/admin/update-user-role'],
  ['post', '/api/admin/update-user-task-types'],
  ['delete', `/api/admin/delete-user/${crypto.randomUUID()}`],
] as const;

describe('admin endpoints are for the admin only', () => {
  it.each(ADMIN_ENDPOINTS)('%s %s: 401 without a token', async (method, path) => {
    const res = await api()[method](path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: ERR.unauthorized });
  });

  it.each(
    ADMIN_ENDPOINTS.flatMap(([m, p]) => (['conductor', 'gestor', 'manager'] as const).map((r) => [m, p, r])),
  )('%s %s: 403 for a %s', async (method, path, role) => {
    const request = api()[method as 'get'];
    const res = await request(path).set((await makeUser(role as 'gestor')).auth);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: ERR.forbidden });
  });

  it('401 for a forged token', async () => {
    const res = await api().get('/api/admin/users').set('Authorization', 'Bearer abc.def.ghi');
    expect(res.status).toBe(401);
  });
});

describe('GET /api/admin/pending-users', () => {
  it('lists pending accounts with their request text, oldest first', async () => {
    const a = await registerPending('gestor', 'Pepa Gestora');
    const b = await registerPending('admin', 'Álex Admin');
    const res = await api().get('/api/admin/pending-users').set(admin.auth);
    expect(res.status).toBe(200);
    const mine = res.body.filter((u: { id: string }) => [a.id, b.id].includes(u.id));
    expect(mine).toEqual([
      {
        id: a.id,
        name: 'Pepa Gestora',
        email: a.email,
        role: 'gestor',
        created_at: expect.stringMatching(/Z$/),
        request_text: 'Solicita acceso como Gestor',
      },
      {
        id: b.id,
        name: 'Álex Admin',
        email: b.email,
        role: 'admin',
        created_at: expect.stringMatching(/Z$/),
        request_text: 'Solicita acceso como Administrador',
      },
    ]);
    expect(res.body.every((u: { id: string }) => u.id !== admin.user.id)).toBe(true);
  });
});

describe('POST /api/admin/approve-user', () => {
  it('approves: the user can log in, the log says so', async () => {
    const p = await registerPending('conductor', 'Nuevo Conductor');
    expect((await login(p.email)).status).toBe(403);
    const res = await api()
      .post('/api/admin/approve-user')
      .set(admin.auth)
      .send({ user_id: p.id, approved: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Usuario Nuevo Conductor aprobado' });
    expect(await userRow(p.id)).toMatchObject({ isApproved: true, approvedAt: expect.any(Date) });
    expect((await login(p.email)).status).toBe(200);
    expect((await logActions('Aprobar usuario')).at(-1)).toMatchObject({
      userName: 'Jefa de Patio',
      type: 'user',
    });
    const pending = await api().get('/api/admin/pending-users').set(admin.auth);
    expect(pending.body.map((u: { id: string }) => u.id)).not.toContain(p.id);
  });

  it('rejects: the pending account is deleted and its email can register again', async () => {
    const p = await registerPending('manager', 'Rechazable');
    const res = await api()
      .post('/api/admin/approve-user')
      .set(admin.auth)
      .send({ user_id: p.id, approved: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Solicitud de Rechazable rechazada' });
    expect(await userRow(p.id)).toBeUndefined();
    expect((await login(p.email)).status).toBe(401);
    expect(await logActions('Rechazar usuario')).toHaveLength(1);
    await api()
      .post('/api/auth/register')
      .send({ email: p.email, password: PASSWORD, name: 'Otra vez' })
      .expect(201);
  });

  it("deciding (approve, reject or delete) settles every admin's notice about that account only", async () => {
    const other = await makeUser('admin');
    const notices = (subject: string) =>
      db.select().from(notifications).where(eq(notifications.subjectUserId, subject));
    const [approved, rejected, deleted, waiting] = await Promise.all(
      ['Aprobada', 'Rechazada', 'Borrada', 'Esperando'].map((name) => registerPending('gestor', name)),
    );
    for (const p of [approved, rejected, deleted, waiting]) {
      const rows = await notices(p.id);
      expect(rows.map((n) => n.userId).sort()).toEqual([admin.user.id, other.user.id].sort());
      expect(rows.every((n) => n.type === 'user_pending' && !n.isRead)).toBe(true);
    }
    const decide = (id: string, ok: boolean) =>
      api().post('/api/admin/approve-user').set(admin.auth).send({ user_id: id, approved: ok }).expect(200);
    await decide(approved.id, true);
    await decide(rejected.id, false);
    await api().delete(`/api/admin/delete-user/${deleted.id}`).set(other.auth).expect(200);
    for (const p of [approved, rejected, deleted])
      expect((await notices(p.id)).every((n) => n.isRead)).toBe(true);
    expect((await notices(waiting.id)).some((n) => n.isRead)).toBe(false);
    const listed = await api().get('/api/notifications').set(other.auth).expect(200);
    const unread = listed.body.filter((n: { is_read: boolean }) => !n.is_read);
    expect(unread.map((n: { message: string }) => n.message)).toEqual([expect.stringContaining('Esperando')]);
  });

  it('409 for a user no longer pending, 404 for an unknown one', async () => {
    const approved = await makeUser('gestor');
    const again = await api()
      .post('/api/admin/approve-user')
      .set(admin.auth)
      .send({ user_id: approved.user.id, approved: false });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: ERR.userNotPending });
    expect(await userRow(approved.user.id)).toBeDefined();
    const unknown = await api()
      .post('/api/admin/approve-user')
      .set(admin.auth)
      .send({ user_id: crypto.randomUUID(), approved: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: ERR.userNotFound });
  });

  it('two admins deciding at once: one 200, one refused (409, or 404 once rejected)', async () => {
    const other = await makeUser('admin');
    const p = await registerPending();
    const [a, b] = await Promise.all([
      api().post('/api/admin/approve-user').set(admin.auth).send({ user_id: p.id, approved: true }),
      api().post('/api/admin/approve-user').set(other.auth).send({ user_id: p.id, approved: false }),
    ]);
    // The approval first: the rejection finds the user no longer pending (409). The rejection first:
    // it deleted the pending account, so the approval finds no such user (404). PostgreSQL runs the two
    // side by side, so either may commit first.
    const winnerApproved = a.status === 200;
    expect([a.status, b.status].sort()).toEqual(winnerApproved ? [200, 409] : [200, 404]);
    expect((await userRow(p.id))?.isApproved ?? false).toBe(winnerApproved);
  });

  it.each([
    [{ user_id: 'no-es-uuid', approved: true }, 'Identificador no válido'],
    [{ user_id: crypto.randomUUID() }, 'aprueba'],
    [{ user_id: crypto.randomUUID(), approved: 'sí' }, 'aprueba'],
  ])('400 for %j', async (body, fragment) => {
    const res = await api().post('/api/admin/approve-user').set(admin.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(fragment);
  });
});

describe('GET /api/admin/users', () => {
  it('lists live accounts (pending included, deleted hidden) without hashes', async () => {
    const online = await makeUser('conductor', { name: 'Zoe En Línea', online: true, taskTypes: ['swap'] });
    const gone = await makeUser('gestor');
    const p = await registerPending('gestor');
    await api().delete(`/api/admin/delete-user/${gone.user.id}`).set(admin.auth).expect(200);
    const res = await api().get('/api/admin/users').set(admin.auth);
    expect(res.status).toBe(200);
    const ids = res.body.map((u: { id: string }) => u.id);
    expect(ids).toContain(p.id);
    expect(ids).not.toContain(gone.user.id);
    expect(res.body.find((u: { id: string }) => u.id === online.user.id)).toEqual({
      id: online.user.id,
      name: 'Zoe En Línea',
      email: online.user.email,
      role: 'conductor',
      is_approved: true,
      is_online: true,
      movements_count: 0,
      task_types: ['swap'],
      created_at: expect.stringMatching(/Z$/),
    });
    expect(res.body.find((u: { id: string }) => u.id === p.id)).toMatchObject({ is_approved: false });
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
    const names = res.body.map((u: { name: string }) => u.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'es')));
  });
});

describe('POST /api/admin/update-user-role', () => {
  it('changes the role and revokes the old tokens (they log in again with the new role)', async () => {
    const user = await makeUser('gestor', { name: 'Cambiante' });
    await api().get('/api/dashboard/stats').set(user.auth).expect(200);
    const res = await api()
      .post('/api/admin/update-user-role')
      .set(admin.auth)
      .send({ user_id: user.user.id, new_role: 'manager' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Rol de Cambiante cambiado a Manager' });
    const old = await api().get('/api/dashboard/stats').set(user.auth);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ detail: ERR.sessionRevoked });
    const again = await login(user.user.email);
    expect(again.body.user.role).toBe('manager');
    expect(await userRow(user.user.id)).toMatchObject({ role: 'manager', tokenVersion: 1, isOnline: true });
    expect((await logActions('Cambiar rol')).at(-1)?.details).toBe(
      'El rol de Cambiante pasó de Gestor a Manager',
    );
  });

  it('a conductor who stops being one gives their active task back to the pool', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    await api()
      .post('/api/admin/update-user-role')
      .set(admin.auth)
      .send({ user_id: driver.user.id, new_role: 'gestor' })
      .expect(200);
    expect((await db.select().from(tasks).where(eq(tasks.id, task.id)))[0]).toMatchObject({
      status: 'bolsa_trabajo',
      assignedTo: null,
    });
  });

  it('a new conductor without task types gets the default one', async () => {
    const gestor = await makeUser('gestor');
    await api()
      .post('/api/admin/update-user-role')
      .set(admin.auth)
      .send({ user_id: gestor.user.id, new_role: 'conductor' })
      .expect(200);
    expect((await userRow(gestor.user.id))?.taskTypes).toEqual(['semiremolque']);
  });

  it('the same role changes nothing and keeps the session', async () => {
    const manager = await makeUser('manager', { name: 'Igual' });
    const res = await api()
      .post('/api/admin/update-user-role')
      .set(admin.auth)
      .send({ user_id: manager.user.id, new_role: 'manager' });
    expect(res.body).toEqual({ message: 'Igual ya tiene el rol Manager' });
    await api().get('/api/dashboard/stats').set(manager.auth).expect(200);
  });

  it('the last admin cannot be demoted (400); with another admin they may step down', async () => {
    await setupApp();
    const solo = await makeUser('admin');
    const res = await api()
      .post('/api/admin/update-user-role')
      .set(solo.auth)
      .send({ user_id: solo.user.id, new_role: 'manager' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: ERR.lastAdmin });
    expect((await userRow(solo.user.id))?.role).toBe('admin');
    await makeUser('admin');
    await api()
      .post('/api/admin/update-user-role')
      .set(solo.auth)
      .send({ user_id: solo.user.id, new_role: 'manager' })
      .expect(200);
    expect((await api().get('/api/admin/users').set(solo.auth)).status).toBe(401);
    admin = await makeUser('admin', { name: 'Jefa de Patio' });
  });

  /** `who` makes `whom` a manager. */
  const demote = (who: TestUser, whom: TestUser) =>
    api()
      .post('/api/admin/update-user-role')
      .set(who.auth)
      .send({ user_id: whom.user.id, new_role: 'manager' });

  it('two admins stepping down at once leave one admin: one 200, one 400', async () => {
    await setupApp();
    const [a, b] = [await makeUser('admin'), await makeUser('admin')];
    const [aa, bb] = await Promise.all([demote(a, a), demote(b, b)]);
    expect([aa.status, bb.status].sort()).toEqual([200, 400]);
    expect((aa.status === 400 ? aa : bb).body).toEqual({ detail: ERR.lastAdmin });
    expect([(await userRow(a.user.id))?.role, (await userRow(b.user.id))?.role].sort()).toEqual([
      'admin',
      'manager',
    ]);
    admin = await makeUser('admin', { name: 'Jefa de Patio' });
  });

  it('two admins demoting each other at once leave one admin', async () => {
    await setupApp();
    const [a, b] = [await makeUser('admin'), await makeUser('admin')];
    const [ab, ba] = await Promise.all([demote(a, b), demote(b, a)]);
    // The loser is refused as the last admin (400), or, when the winner's commit came first, its
    // revoked token no longer authenticates it (401).
    const [win, lose] = ab.status === 200 ? [ab, ba] : [ba, ab];
    expect(win.status).toBe(200);
    expect([400, 401]).toContain(lose.status);
    expect([(await userRow(a.user.id))?.role, (await userRow(b.user.id))?.role].sort()).toEqual([
      'admin',
      'manager',
    ]);
    admin = await makeUser('admin', { name: 'Jefa de Patio' });
  });

  it('404 for an unknown user, 400 for an unknown role', async () => {
    const unknown = await api()
      .post('/api/admin/update-user-role')
      .set(admin.auth)
      .send({ user_id: crypto.randomUUID(), new_role: 'gestor' });
    expect(unknown.status).toBe(404);
    const bad = await api()
      .post('/api/admin/update-user-role')
      .set(admin.auth)
      .send({ user_id: admin.user.id, new_role: 'jefe' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('Rol no válido');
  });
});

describe('POST /api/admin/update-user-task-types', () => {
  it('sets a conductor’s types (duplicates dropped) and logs it', async () => {
    const driver = await makeUser('conductor', { name: 'Tipos' });
    const res = await api()
      .post('/api/admin/update-user-task-types')
      .set(admin.auth)
      .send({ user_id: driver.user.id, task_types: ['swap', 'semiremolque_out_km0', 'swap'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Tipos de tarea de Tipos actualizados' });
    expect((await userRow(driver.user.id))?.taskTypes).toEqual(['swap', 'semiremolque_out_km0']);
    expect((await logActions('Cambiar tipos de tarea')).at(-1)?.details).toBe(
      'Tipos de tarea de Tipos: Swap, Semi Out',
    );
    await api().get('/api/dashboard/stats').set(driver.auth).expect(200);
  });

  it('a new type brings waiting work to an available driver at once', async () => {
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    await api().post('/api/timeclock/punch?clock_type=entrada').set(driver.auth).expect(200);
    const task = await makeTask({ vehicleType: 'semiremolque_out_km0' });
    await api()
      .post('/api/admin/update-user-task-types')
      .set(admin.auth)
      .send({ user_id: driver.user.id, task_types: ['swap', 'semiremolque_out_km0'] })
      .expect(200);
    expect((await db.select().from(tasks).where(eq(tasks.id, task.id)))[0]).toMatchObject({
      status: 'en_proceso',
      assignedTo: driver.user.id,
    });
  });

  it('400 for no types or an unknown type, 409 for a non-conductor, 404 for nobody', async () => {
    const driver = await makeUser('conductor');
    const none = await api()
      .post('/api/admin/update-user-task-types')
      .set(admin.auth)
      .send({ user_id: driver.user.id, task_types: [] });
    expect(none.status).toBe(400);
    expect(none.body.detail).toContain('Debes seleccionar al menos un tipo de tarea');
    const unknownType = await api()
      .post('/api/admin/update-user-task-types')
      .set(admin.auth)
      .send({ user_id: driver.user.id, task_types: ['camion'] });
    expect(unknownType.status).toBe(400);
    expect((await userRow(driver.user.id))?.taskTypes).toEqual(['semiremolque']);
    const gestor = await makeUser('gestor');
    const notDriver = await api()
      .post('/api/admin/update-user-task-types')
      .set(admin.auth)
      .send({ user_id: gestor.user.id, task_types: ['swap'] });
    expect(notDriver.status).toBe(409);
    expect(notDriver.body).toEqual({ detail: ERR.notADriver });
    const nobody = await api()
      .post('/api/admin/update-user-task-types')
      .set(admin.auth)
      .send({ user_id: crypto.randomUUID(), task_types: ['swap'] });
    expect(nobody.status).toBe(404);
  });
});

describe('DELETE /api/admin/delete-user/{id}', () => {
  it('soft-deletes: sessions end, login fails, the email is free, history stays', async () => {
    const driver = await makeUser('conductor', { name: 'Se Va', email: 'se-va@test.local' });
    await makePunch(driver.user.id, 'entrada');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const res = await api().delete(`/api/admin/delete-user/${driver.user.id}`).set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Usuario Se Va eliminado' });
    expect(await userRow(driver.user.id)).toMatchObject({ deletedAt: expect.any(Date), tokenVersion: 1 });
    const old = await api().get('/api/dashboard/stats').set(driver.auth);
    expect(old.status).toBe(401);
    expect((await login('se-va@test.local')).status).toBe(401);
    expect((await db.select().from(tasks).where(eq(tasks.id, task.id)))[0]).toMatchObject({
      status: 'bolsa_trabajo',
      assignedTo: null,
    });
    const rankings = await api().get('/api/dashboard/rankings').set(admin.auth);
    expect(rankings.body.map((r: { id: string }) => r.id)).not.toContain(driver.user.id);
    await api()
      .post('/api/auth/register')
      .send({ email: 'se-va@test.local', password: PASSWORD, name: 'Vuelve' })
      .expect(201);
    expect((await logActions('Eliminar usuario')).at(-1)?.details).toBe(
      'Se eliminó la cuenta de Se Va (se-va@test.local)',
    );
  });

  it('400 for yourself, 404 for unknown or already deleted, 400 for a bad id', async () => {
    const self = await api().delete(`/api/admin/delete-user/${admin.user.id}`).set(admin.auth);
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ detail: ERR.cannotDeleteSelf });
    expect((await userRow(admin.user.id))?.deletedAt).toBeNull();
    expect((await api().delete(`/api/admin/delete-user/${crypto.randomUUID()}`).set(admin.auth)).status).toBe(
      404,
    );
    const gone = await makeUser('gestor');
    await api().delete(`/api/admin/delete-user/${gone.user.id}`).set(admin.auth).expect(200);
    expect((await api().delete(`/api/admin/delete-user/${gone.user.id}`).set(admin.auth)).status).toBe(404);
    const bad = await api().delete('/api/admin/delete-user/1%20OR%201=1').set(admin.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('Identificador no válido');
  });

  it('another admin can be deleted while one remains', async () => {
    const other = await makeUser('admin');
    await api().delete(`/api/admin/delete-user/${other.user.id}`).set(admin.auth).expect(200);
    expect((await api().get('/api/admin/users').set(other.auth)).status).toBe(401);
  });
});
