// Socket isolation (CONTRACT §9): for every event type, who must hear it and who must not — other
// drivers, drivers without the task's type, other roles, revoked and expired sessions. "Must not" is
// proven without timers: events on one socket arrive in the order the server sent them, so once a later
// barrier event arrives on a socket, anything that was going to reach it before has reached it.
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_TTL_MS } from '@shared/constants';
import type { VehicleType } from '@shared/enums';
import type { ServerToClientEvents } from '@shared/events';
import type { Task } from '@shared/schemas';
import { flushFigures } from '../../server/realtime/emit';
import {
  advanceClock,
  collect,
  liveServer,
  makeUser,
  nextEvent,
  nextMatching,
  type TestSocket,
  type TestUser,
} from '../helpers/context';

const server = liveServer();
let boss: TestUser; // creates barrier tasks; never connected

beforeAll(async () => {
  boss = await makeUser('admin');
});

interface Member {
  user: TestUser;
  socket: TestSocket;
  /** Types whose pool tasks this socket hears (staff: all). */
  hears: VehicleType[];
}
type Cast = Record<'admin' | 'admin2' | 'manager' | 'gestor' | 'semi' | 'semi2' | 'swapOnly', Member>;

async function member(user: TestUser, hears: VehicleType[]): Promise<Member> {
  return { user, socket: await server.connect(user.token), hears };
}

/** A fresh set of connected users of every kind (fresh users: no room is shared with earlier tests). */
async function cast(): Promise<Cast> {
  const all: VehicleType[] = ['semiremolque', 'swap'];
  return {
    admin: await member(await makeUser('admin'), all),
    admin2: await member(await makeUser('admin'), all),
    manager: await member(await makeUser('manager'), all),
    gestor: await member(await makeUser('gestor'), all),
    semi: await member(await makeUser('conductor'), ['semiremolque']),
    semi2: await member(await makeUser('conductor'), ['semiremolque']),
    swapOnly: await member(await makeUser('conductor', { taskTypes: ['swap'] }), ['swap']),
  };
}

let seq = 0;
const createTask = (vehicle_type: VehicleType = 'semiremolque', by: TestUser = boss): Promise<Task> =>
  server.createTask(by, { vehicle_type });

/** Waits until every member has heard a pool task created after this call (see the file comment). */
async function barrier(members: Member[]): Promise<void> {
  const tag = `BAR-${++seq}`;
  const waits = members.map((m) => {
    // The swap barrier is created last, so a socket hearing swap waits for that one.
    const want: VehicleType = m.hears.includes('swap') ? 'swap' : 'semiremolque';
    const trailer = `${tag}-${want}`.toUpperCase();
    return nextMatching(m.socket, 'task:created', ({ task }) => task.trailer_id === trailer, 5000);
  });
  for (const vehicle_type of ['semiremolque', 'swap'] as const) {
    const res = await server
      .api()
      .post('/api/tasks')
      .set(boss.auth)
      .send({
        title: 'Mover',
        origin: 'M',
        destination: 'C',
        trailer_id: `${tag}-${vehicle_type}`,
        vehicle_type,
      });
    expect(res.status).toBe(201);
  }
  await Promise.all(waits);
}

type Ev = keyof ServerToClientEvents;
function record<E extends Ev>(c: Cast, event: E) {
  return Object.fromEntries(Object.entries(c).map(([k, m]) => [k, collect(m.socket, event)])) as Record<
    keyof Cast,
    Parameters<ServerToClientEvents[E]>[0][]
  >;
}
const heard = (log: Record<string, unknown[]>) =>
  Object.entries(log)
    .filter(([, events]) => events.length > 0)
    .map(([k]) => k)
    .sort();
const taskIds = (events: { task?: Task; id?: string }[], id: string) =>
  events.filter((e) => (e.task?.id ?? e.id) === id);

describe('task events', () => {
  it('task:created for a pool task: staff and drivers with its type; never a driver without it', async () => {
    const c = await cast();
    const log = record(c, 'task:created');
    const swap = await createTask('swap');
    const semi = await createTask('semiremolque');
    await barrier(Object.values(c));
    const got = (ids: string) =>
      Object.entries(log)
        .filter(([, evs]) => taskIds(evs, ids).length > 0)
        .map(([k]) => k)
        .sort();
    expect(got(semi.id)).toEqual(['admin', 'admin2', 'gestor', 'manager', 'semi', 'semi2']);
    expect(got(swap.id)).toEqual(['admin', 'admin2', 'gestor', 'manager', 'swapOnly']);
  });

  it('task:updated / task:removed when staff assign a pool task to one driver', async () => {
    const c = await cast();
    const task = await createTask('semiremolque');
    await barrier(Object.values(c));
    const updated = record(c, 'task:updated');
    const removed = record(c, 'task:removed');
    const res = await server
      .api()
      .put(`/api/tasks/${task.id}`)
      .set(c.gestor.user.auth)
      .send({ status: 'en_proceso', assigned_to: c.semi.user.user.id });
    expect(res.status).toBe(200);
    await barrier(Object.values(c));
    const upd = Object.fromEntries(Object.entries(updated).map(([k, evs]) => [k, taskIds(evs, task.id)]));
    expect(heard(upd)).toEqual(['admin', 'admin2', 'gestor', 'manager', 'semi']);
    expect(upd.semi[0].task?.assigned_to).toBe(c.semi.user.user.id);
    // The other semi driver saw it in the pool: told it left, with the id only.
    expect(heard(removed)).toEqual(['semi2']);
    expect(removed.semi2).toEqual([{ id: task.id }]);
  });

  it('task:deleted: those who could see the task; a driver without its type never hears of it', async () => {
    const c = await cast();
    const task = await createTask('semiremolque');
    await barrier(Object.values(c));
    const deleted = record(c, 'task:deleted');
    expect((await server.api().delete(`/api/tasks/${task.id}`).set(boss.auth)).status).toBe(200);
    await barrier(Object.values(c));
    expect(heard(deleted)).toEqual(['admin', 'admin2', 'gestor', 'manager', 'semi', 'semi2']);
    expect(deleted.semi).toEqual([{ id: task.id }]);
  });

  it("a driver's own task and its notification reach that driver only", async () => {
    const c = await cast();
    const notes = record(c, 'notification:new');
    const updated = record(c, 'task:updated');
    const task = await createTask('swap');
    await barrier(Object.values(c));
    const res = await server
      .api()
      .put(`/api/tasks/${task.id}`)
      .set(boss.auth)
      .send({ status: 'en_proceso', assigned_to: c.swapOnly.user.user.id });
    expect(res.status).toBe(200);
    await barrier(Object.values(c));
    expect(heard(notes)).toEqual(['swapOnly']);
    expect(notes.swapOnly[0].notification.type).toBe('task_assigned');
    const upd = Object.fromEntries(Object.entries(updated).map(([k, evs]) => [k, taskIds(evs, task.id)]));
    expect(heard(upd)).toEqual(['admin', 'admin2', 'gestor', 'manager', 'swapOnly']);
  });
});

describe('figures', () => {
  it('stats:updated: staff only, pending_users only in the admins’ copy; drivers:updated: non-drivers only', async () => {
    const c = await cast();
    // A pending registration gives a non-zero pending count.
    const reg = await server
      .api()
      .post('/api/auth/register')
      .send({ email: `p-${++seq}@iso.test`, password: 'abcdefgh1', name: 'Pendiente', role: 'gestor' });
    expect(reg.status).toBe(201);
    await flushFigures();
    const stats = record(c, 'stats:updated');
    const drivers = record(c, 'drivers:updated');
    await createTask('semiremolque');
    await flushFigures(); // the coalesced push, now rather than in 250 ms
    await barrier(Object.values(c));
    expect(heard(stats)).toEqual(['admin', 'admin2', 'gestor', 'manager']);
    expect(heard(drivers)).toEqual(['admin', 'admin2', 'gestor', 'manager']);
    expect(stats.admin.at(-1)?.stats.pending_users).toBeGreaterThan(0);
    expect(stats.manager.at(-1)?.stats.pending_users).toBe(0);
    expect(stats.gestor.at(-1)?.stats.pending_users).toBe(0);
  });
});

describe('people', () => {
  it('notification:new, users:pending and users:changed on a registration: admins only, each their own', async () => {
    const c = await cast();
    const notes = record(c, 'notification:new');
    const pending = record(c, 'users:pending');
    const changed = record(c, 'users:changed');
    const reg = await server
      .api()
      .post('/api/auth/register')
      .send({ email: `q-${++seq}@iso.test`, password: 'abcdefgh1', name: 'Nueva' });
    expect(reg.status).toBe(201);
    await barrier(Object.values(c));
    expect(heard(notes)).toEqual(['admin', 'admin2']);
    expect(notes.admin[0].notification.id).not.toBe(notes.admin2[0].notification.id);
    expect(heard(pending)).toEqual(['admin', 'admin2']);
    expect(heard(changed)).toEqual(['admin', 'admin2']);
    expect(changed.admin.some((e) => e.user.id === reg.body.user.id)).toBe(true);
    expect(JSON.stringify(changed.admin)).not.toContain('password');
  });

  it('notifications:read when a registration is decided: each admin their own notice ids, nobody else', async () => {
    const c = await cast();
    const notes = record(c, 'notification:new');
    const reg = await server
      .api()
      .post('/api/auth/register')
      .send({ email: `r-${++seq}@iso.test`, password: 'abcdefgh1', name: 'Decidida' });
    expect(reg.status).toBe(201);
    await barrier(Object.values(c));
    const read = record(c, 'notifications:read');
    const res = await server
      .api()
      .post('/api/admin/approve-user')
      .set(c.admin.user.auth)
      .send({ user_id: reg.body.user.id, approved: false });
    expect(res.status).toBe(200);
    await barrier(Object.values(c));
    expect(heard(read)).toEqual(['admin', 'admin2']);
    expect(read.admin).toEqual([{ ids: [notes.admin[0].notification.id] }]);
    expect(read.admin2).toEqual([{ ids: [notes.admin2[0].notification.id] }]);
  });

  it('timeclock:updated to the owner; timeclock:changed to managers and admins only', async () => {
    const c = await cast();
    const updated = record(c, 'timeclock:updated');
    const changed = record(c, 'timeclock:changed');
    const punch = (type: string) =>
      server.api().post(`/api/timeclock/punch?clock_type=${type}`).set(c.swapOnly.user.auth);
    expect((await punch('entrada')).status).toBe(200);
    expect((await punch('salida')).status).toBe(200);
    await barrier(Object.values(c));
    expect(heard(updated)).toEqual(['swapOnly']);
    expect(updated.swapOnly.map((e) => e.status.status)).toHaveLength(2);
    expect(heard(changed)).toEqual(['admin', 'admin2', 'manager']);
    expect(changed.manager.every((e) => e.user_id === c.swapOnly.user.user.id)).toBe(true);
  });
});

describe('ended sessions', () => {
  it('session:revoked reaches only the changed user, whose socket then hears nothing more', async () => {
    const c = await cast();
    const revoked = record(c, 'session:revoked');
    const created = record(c, 'task:created');
    const gone = new Promise((resolve) => c.semi2.socket.once('disconnect', resolve));
    const res = await server
      .api()
      .post('/api/admin/update-user-role')
      .set(boss.auth)
      .send({ user_id: c.semi2.user.user.id, new_role: 'gestor' });
    expect(res.status).toBe(200);
    await gone;
    const rest = Object.values(c).filter((m) => m !== c.semi2);
    await barrier(rest);
    expect(heard(revoked)).toEqual(['semi2']);
    expect(revoked.semi2[0].reason).toBe('role_changed');
    expect(created.semi2).toEqual([]);
    await expect(server.connect(c.semi2.user.token)).rejects.toThrow('No autorizado');
  });

  it('a deleted user is told so and dropped; clear-all-tokens drops everyone but the caller', async () => {
    const c = await cast();
    const revoked = record(c, 'session:revoked');
    const del = await server
      .api()
      .delete(`/api/admin/delete-user/${c.semi.user.user.id}`)
      .set(c.admin.user.auth);
    expect(del.status).toBe(200);
    const clear = await server.api().post('/api/admin/system/clear-all-tokens').set(c.admin.user.auth);
    expect(clear.status).toBe(200);
    boss = await makeUser('admin'); // the barrier's author had its token cleared too
    await barrier([c.admin]);
    expect(revoked.semi.map((e) => e.reason)).toEqual(['deleted']);
    expect(revoked.admin).toEqual([]);
    for (const k of ['admin2', 'manager', 'gestor', 'semi2', 'swapOnly'] as const)
      expect(revoked[k].map((e) => e.reason)).toEqual(['tokens_cleared']);
  });

  it('an expired socket is dropped and hears nothing more, while a fresher session keeps hearing', async () => {
    const old = await member(await makeUser('manager'), ['semiremolque', 'swap']);
    await advanceClock(TOKEN_TTL_MS - 3_600_000);
    boss = await makeUser('admin');
    const fresh = await member(await makeUser('manager'), ['semiremolque', 'swap']);
    const oldRevoked = nextEvent(old.socket, 'session:revoked');
    const oldCreated = collect(old.socket, 'task:created');
    await advanceClock(2 * 3_600_000);
    expect((await oldRevoked).reason).toBe('expired');
    await barrier([fresh]);
    expect(oldCreated).toEqual([]);
    expect(fresh.socket.connected).toBe(true);
    await expect(server.connect(old.user.token)).rejects.toThrow();
  });
});
