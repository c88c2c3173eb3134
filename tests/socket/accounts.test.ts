// Accounts over the socket (CONTRACT §4, §9): pending count to admins only, revocation, logout of one
// session, presence effects.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { REVOKE_MESSAGES } from '@shared/events';
import { tasks, users } from '../../server/db/tables';
import {
  PASSWORD,
  advanceClock,
  collect,
  connectSocket,
  db,
  makePunch,
  makeTask,
  makeUser,
  nextEvent,
  liveServer,
  nextMatching,
  type TestSocket,
  tokenFor,
} from '../helpers/context';

const server = liveServer();

const connect = server.connect;
const disconnected = (socket: TestSocket) =>
  new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

describe('a registration', () => {
  it('reaches admins (users:pending, users:changed, notification) and nobody else', async () => {
    const admin = await makeUser('admin');
    const manager = await makeUser('manager');
    const driver = await makeUser('conductor');
    const [adminSocket, managerSocket, driverSocket] = await Promise.all(
      [admin, manager, driver].map((u) => connect(u.token)),
    );
    const managerPending = collect(managerSocket, 'users:pending');
    const managerChanged = collect(managerSocket, 'users:changed');
    const driverPending = collect(driverSocket, 'users:pending');
    const pending = nextEvent(adminSocket, 'users:pending');
    const changed = nextMatching(adminSocket, 'users:changed', (p) => p.user.email === 'nueva@test.local');
    const notified = nextEvent(adminSocket, 'notification:new');

    const res = await server
      .api()
      .post('/api/auth/register')
      .send({ email: 'nueva@test.local', password: PASSWORD, name: 'Nueva', role: 'gestor' })
      .expect(201);
    expect(await pending).toEqual({ count: 1 });
    expect((await changed).user).toMatchObject({ id: res.body.user.id, is_approved: false, role: 'gestor' });
    expect((await notified).notification).toMatchObject({
      type: 'user_pending',
      title: 'Nuevo usuario pendiente',
    });

    // Barriers: events emitted later reach the manager and the driver; the pending count never did.
    const managerBarrier = nextEvent(managerSocket, 'timeclock:changed');
    const driverBarrier = nextEvent(driverSocket, 'timeclock:updated');
    await server.api().post('/api/timeclock/punch?clock_type=entrada').set(driver.auth).expect(200);
    await Promise.all([managerBarrier, driverBarrier]);
    expect(managerPending).toEqual([]);
    expect(managerChanged.filter((p) => p.user.email === 'nueva@test.local')).toEqual([]);
    expect(driverPending).toEqual([]);

    const decided = nextEvent(adminSocket, 'users:pending');
    const settled = nextEvent(adminSocket, 'notifications:read');
    const managerSettled = collect(managerSocket, 'notifications:read');
    await server
      .api()
      .post('/api/admin/approve-user')
      .set(admin.auth)
      .send({ user_id: res.body.user.id, approved: true })
      .expect(200);
    expect(await decided).toEqual({ count: 0 });
    // The admin's "Nuevo usuario pendiente" notice is settled on their open screens.
    expect(await settled).toEqual({ ids: [(await notified).notification.id] });
    expect(managerSettled).toEqual([]);
  });
});

describe('revocation', () => {
  it('a role change sends session:revoked role_changed, then drops every socket of the user', async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor');
    const socket = await connect(driver.token);
    const revoked = nextEvent(socket, 'session:revoked');
    const gone = disconnected(socket);
    await server
      .api()
      .post('/api/admin/update-user-role')
      .set(admin.auth)
      .send({ user_id: driver.user.id, new_role: 'gestor' })
      .expect(200);
    expect(await revoked).toEqual({ reason: 'role_changed', detail: REVOKE_MESSAGES.role_changed });
    expect(await gone).toBe('io server disconnect');
    await expect(connectSocket(server.url, driver.token)).rejects.toThrow('No autorizado');
  });

  it('a deletion sends session:revoked deleted, then drops the socket', async () => {
    const admin = await makeUser('admin');
    const manager = await makeUser('manager');
    const socket = await connect(manager.token);
    const revoked = nextEvent(socket, 'session:revoked');
    const gone = disconnected(socket);
    await server.api().delete(`/api/admin/delete-user/${manager.user.id}`).set(admin.auth).expect(200);
    expect(await revoked).toEqual({ reason: 'deleted', detail: REVOKE_MESSAGES.deleted });
    expect(await gone).toBe('io server disconnect');
    expect((await db.select().from(users).where(eq(users.id, manager.user.id)))[0]?.isOnline).toBe(false);
  });
});

describe('logout', () => {
  it('drops only the sockets of the token that logged out; the user stays online elsewhere', async () => {
    const driver = await makeUser('conductor');
    await advanceClock(1000); // a second token with another iat
    const wallToken = await tokenFor(driver.user);
    expect(wallToken).not.toBe(driver.token);
    const phone = await connect(driver.token);
    const wall = await connect(wallToken);
    const phoneGone = disconnected(phone);
    const wallRevoked = collect(wall, 'session:revoked');
    await server.api().post('/api/auth/logout').set(driver.auth).expect(200);
    expect(await phoneGone).toBe('io server disconnect');
    // The other session still hears its own events.
    const barrier = nextEvent(wall, 'timeclock:updated');
    await server
      .api()
      .post('/api/timeclock/punch?clock_type=entrada')
      .set('Authorization', `Bearer ${wallToken}`)
      .expect(200);
    await barrier;
    expect(wall.connected).toBe(true);
    expect(wallRevoked).toEqual([]);
    expect((await db.select().from(users).where(eq(users.id, driver.user.id)))[0]?.isOnline).toBe(true);
  });
});

describe('presence effects', () => {
  it('admins see a conductor come online and go offline; coming online brings waiting work', async () => {
    const admin = await makeUser('admin');
    const adminSocket = await connect(admin.token);
    // A type no other driver of this file has, so only this driver can take the task.
    const driver = await makeUser('conductor', { name: 'Llega Ahora', taskTypes: ['semiremolque_out_km0'] });
    await makePunch(driver.user.id, 'entrada');
    const task = await makeTask({ vehicleType: 'semiremolque_out_km0' });
    const online = nextMatching(
      adminSocket,
      'users:changed',
      (p) => p.user.id === driver.user.id && p.user.is_online,
    );
    const stats = nextMatching(adminSocket, 'stats:updated', (p) => Boolean(p.stats.online_drivers));
    const driverSocket = await connect(driver.token);
    expect((await online).user).toMatchObject({ name: 'Llega Ahora', is_online: true });
    // The round starts once the transition is stored and announced, beside the push to the admins.
    await expect
      .poll(async () => (await db.select().from(tasks).where(eq(tasks.id, task.id)))[0])
      .toMatchObject({ status: 'en_proceso', assignedTo: driver.user.id });
    expect((await stats).stats.online_drivers).toBeGreaterThanOrEqual(1);

    const offline = nextMatching(
      adminSocket,
      'users:changed',
      (p) => p.user.id === driver.user.id && !p.user.is_online,
    );
    driverSocket.close();
    expect((await offline).user.is_online).toBe(false);
  });
});

describe('a change of task types', () => {
  it("brings the pool tasks of an added type to the driver's page and removes those of a removed type", async () => {
    const admin = await makeUser('admin');
    // Types no other driver of this file has, so the engine never takes these tasks meanwhile.
    const driver = await makeUser('conductor', { taskTypes: ['semiremolque_out_km0'] });
    const swap = await makeTask({ vehicleType: 'swap' });
    const semi = await makeTask({ vehicleType: 'semiremolque_out_km0' });
    const socket = await connect(driver.token);
    const gained = nextMatching(socket, 'task:created', (p) => p.task.id === swap.id);
    const lost = nextMatching(socket, 'task:removed', (p) => p.id === semi.id);
    const res = await server
      .api()
      .post('/api/admin/update-user-task-types')
      .set(admin.auth)
      .send({ user_id: driver.user.id, task_types: ['swap'] });
    expect(res.status).toBe(200);
    expect((await gained).task.vehicle_type).toBe('swap');
    expect(await lost).toEqual({ id: semi.id });
  });
});

describe('a removed account', () => {
  it('leaves the lists of every admin (users:removed) on deletion and on rejection', async () => {
    const admin = await makeUser('admin');
    const other = await makeUser('admin');
    const driver = await makeUser('conductor');
    const pending = await makeUser('gestor', { approved: false });
    const socket = await connect(other.token);
    const deleted = nextMatching(socket, 'users:removed', (p) => p.id === driver.user.id);
    expect(
      (await server.api().delete(`/api/admin/delete-user/${driver.user.id}`).set(admin.auth)).status,
    ).toBe(200);
    expect(await deleted).toEqual({ id: driver.user.id });
    const rejected = nextMatching(socket, 'users:removed', (p) => p.id === pending.user.id);
    const res = await server
      .api()
      .post('/api/admin/approve-user')
      .set(admin.auth)
      .send({ user_id: pending.user.id, approved: false });
    expect(res.status).toBe(200);
    expect(await rejected).toEqual({ id: pending.user.id });
  });
});
