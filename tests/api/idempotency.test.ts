// The Idempotency-Key of authenticated POSTs (CONTRACT §16, §23): a repeated key for the same request gets
// the first answer and changes nothing, a duplicate in flight waits for the first; a key belongs to its
// user and to one request (method, path with query string, raw body): another request under it is a 422;
// only requests that ran their effect are kept (no row for a refusal); login, refresh, change-password and
// a password reset ignore the header; at most 1,000 keys a user in 24 h; the key is written in the
// effect's transaction; 24 h expiry.
import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ERR } from '@shared/labels';
import { IDEMPOTENCY_KEYS_PER_DAY } from '@shared/constants';
import { idempotencyKeys, punches, taskEvents, tasks, users } from '../../server/db/tables';
import { session } from '../../server/db';
import { presence } from '../../server/services/presence';
import { fingerprintOf } from '../../server/services/idempotency';
import {
  advanceClock,
  db,
  makeTask,
  makeUser,
  now,
  PASSWORD,
  setupApp,
  tokenFor,
  tx,
} from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});
afterEach(() => {
  vi.restoreAllMocks();
});

const HOUR = 3_600_000;
const newKey = () => crypto.randomUUID();
type Auth = Record<string, string>;
const post = (path: string, auth: Auth, key?: string, body?: object) => {
  const req = api().post(path).set(auth);
  if (key !== undefined) req.set('Idempotency-Key', key);
  return body ? req.send(body) : req;
};
const punchUrl = (type: 'entrada' | 'salida') => `/api/timeclock/punch?clock_type=${type}`;
const punch = (auth: Auth, type: 'entrada' | 'salida', key?: string) => post(punchUrl(type), auth, key);
const punchesOf = (userId: string) => db.select().from(punches).where(eq(punches.userId, userId));
const eventsOf = (taskId: string, type: string) =>
  db
    .select()
    .from(taskEvents)
    .where(and(eq(taskEvents.taskId, taskId), eq(taskEvents.type, type as 'completed')));
const movements = async (userId: string) =>
  (await db.select().from(users).where(eq(users.id, userId)))[0]!.movementsCount;
const keyRows = (key: string) => db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
const principal = (userId: string) => `user:${userId}`;
const rowsOf = (userId: string) =>
  db
    .select()
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.principal, principal(userId)));
const tasksByTrailer = (trailer: string) => db.select().from(tasks).where(eq(tasks.trailerId, trailer));
const statusOf = async (taskId: string) =>
  (await db.select().from(tasks).where(eq(tasks.id, taskId)))[0]!.status;
const answer = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });
const newTask = (trailer: string) => ({
  title: 'Mover',
  origin: 'Muelle 3',
  destination: 'Campa B-7',
  trailer_id: trailer,
  vehicle_type: 'swap',
});

describe('the same key twice: the first answer again, one effect', () => {
  it('complete: one completion, one movement credited, one history event', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const key = newKey();
    const first = await post(`/api/tasks/${task.id}/complete`, driver.auth, key);
    const second = await post(`/api/tasks/${task.id}/complete`, driver.auth, key);
    expect(first.status).toBe(200);
    expect(answer(second)).toEqual(answer(first));
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await movements(driver.user.id)).toBe(1);
    expect(await eventsOf(task.id, 'completed')).toHaveLength(1);
    expect(await keyRows(key)).toMatchObject([{ principal: principal(driver.user.id), status: 200 }]);
  });

  it('return: one return event, the task in the pool once', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id, vehicleType: 'swap' });
    const key = newKey();
    const body = { reason: 'Remolque no encontrado' };
    const first = await post(`/api/tasks/${task.id}/return`, driver.auth, key, body);
    const second = await post(`/api/tasks/${task.id}/return`, driver.auth, key, body);
    expect(first.status).toBe(200);
    expect(answer(second)).toEqual(answer(first));
    expect(await eventsOf(task.id, 'returned')).toHaveLength(1);
    // Without the key the repeat is refused: the task is no longer the driver's.
    expect((await post(`/api/tasks/${task.id}/return`, driver.auth, undefined, body)).status).toBe(409);
  });

  it('punch: one punch; without a key the repeat is refused as always', async () => {
    const driver = await makeUser('conductor');
    const key = newKey();
    const first = await punch(driver.auth, 'entrada', key);
    await advanceClock(60_000);
    const second = await punch(driver.auth, 'entrada', key);
    expect(first.status).toBe(200);
    expect(answer(second)).toEqual(answer(first));
    expect(await punchesOf(driver.user.id)).toHaveLength(1);
    const plain = await punch(driver.auth, 'entrada');
    expect(plain.status).toBe(409);
    expect(plain.body).toEqual({ detail: ERR.alreadyClockedIn });
  });

  it('create (POST /tasks): one task, the same 201 body with the same id', async () => {
    const staff = await makeUser('gestor');
    const key = newKey();
    const first = await post('/api/tasks', staff.auth, key, newTask('IDEM-001'));
    const second = await post('/api/tasks', staff.auth, key, newTask('IDEM-001'));
    expect(first.status).toBe(201);
    expect(answer(second)).toEqual(answer(first));
    expect(await tasksByTrailer('IDEM-001')).toHaveLength(1);
    expect(await eventsOf(first.body.id, 'created')).toHaveLength(1);
  });

  it('self-assign: one assignment event', async () => {
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    const task = await makeTask({ vehicleType: 'swap' });
    const key = newKey();
    const first = await post(`/api/tasks/${task.id}/self-assign`, driver.auth, key);
    const second = await post(`/api/tasks/${task.id}/self-assign`, driver.auth, key);
    expect(first.status).toBe(200);
    expect(answer(second)).toEqual(answer(first));
    expect(await eventsOf(task.id, 'assigned')).toHaveLength(1);
    // A fresh attempt without the key meets the rule: the task is already taken.
    expect((await post(`/api/tasks/${task.id}/self-assign`, driver.auth)).status).toBe(409);
  });
});

describe('the same key twice at once', () => {
  it('complete: both get the same answer, one effect', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const key = newKey();
    const [a, b] = await Promise.all([
      post(`/api/tasks/${task.id}/complete`, driver.auth, key),
      post(`/api/tasks/${task.id}/complete`, driver.auth, key),
    ]);
    expect(a.status).toBe(200);
    expect(answer(b)).toEqual(answer(a));
    expect(await movements(driver.user.id)).toBe(1);
    expect(await eventsOf(task.id, 'completed')).toHaveLength(1);
  });

  it('create (answered after a batched transaction): the duplicate waits and gets the same task', async () => {
    const staff = await makeUser('manager');
    const key = newKey();
    const [a, b, other] = await Promise.all([
      post('/api/tasks', staff.auth, key, newTask('IDEM-002')),
      post('/api/tasks', staff.auth, key, newTask('IDEM-002')),
      post('/api/tasks', staff.auth, newKey(), newTask('IDEM-003')),
    ]);
    expect(a.status).toBe(201);
    expect(answer(b)).toEqual(answer(a));
    expect(other.status).toBe(201);
    expect(await tasksByTrailer('IDEM-002')).toHaveLength(1);
    expect(await tasksByTrailer('IDEM-003')).toHaveLength(1);
  });

  it('punch: both get the same answer, one punch', async () => {
    const driver = await makeUser('conductor');
    const key = newKey();
    const [a, b] = await Promise.all([
      punch(driver.auth, 'entrada', key),
      punch(driver.auth, 'entrada', key),
    ]);
    expect(a.status).toBe(200);
    expect(answer(b)).toEqual(answer(a));
    expect(await punchesOf(driver.user.id)).toHaveLength(1);
  });

  it('return: both get the same answer, one return event, the task in the pool', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const key = newKey();
    const [a, b] = await Promise.all([
      post(`/api/tasks/${task.id}/return`, driver.auth, key, { reason: 'Otro' }),
      post(`/api/tasks/${task.id}/return`, driver.auth, key, { reason: 'Otro' }),
    ]);
    expect(a.status).toBe(200);
    expect(answer(b)).toEqual(answer(a));
    expect(await eventsOf(task.id, 'returned')).toHaveLength(1);
    expect(await statusOf(task.id)).toBe('bolsa_trabajo');
  });

  it('self-assign: both get the same answer, one assignment event', async () => {
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    const task = await makeTask({ vehicleType: 'swap' });
    const key = newKey();
    const [a, b] = await Promise.all([
      post(`/api/tasks/${task.id}/self-assign`, driver.auth, key),
      post(`/api/tasks/${task.id}/self-assign`, driver.auth, key),
    ]);
    expect(a.status).toBe(200);
    expect(answer(b)).toEqual(answer(a));
    expect(await eventsOf(task.id, 'assigned')).toHaveLength(1);
  });
});

describe('the same key on two nodes at once (one database, CONTRACT §18)', () => {
  // Another node's request with the same key places it between this request's lookup (nothing there
  // yet) and its own transaction: it is simulated at the only await in between (the presence touch),
  // then that node stores its answer a moment later. On PostgreSQL a placement that meets the other
  // node's open transaction waits for its commit; on SQLite the other write simply came first.
  const otherNode = { status: 200, body: JSON.stringify({ message: 'respuesta del otro nodo' }) };
  /** `url`: the request the other node served under the key (its fingerprint). */
  function anotherNodeTakes(userId: string, url: string, key: string): void {
    const touch = presence.touch.bind(presence);
    let done = false;
    vi.spyOn(presence, 'touch').mockImplementation(async (id: string) => {
      if (!done) {
        done = true;
        const row = { principal: principal(userId), key, fingerprint: fingerprintOf('POST', url, undefined) };
        await tx(() =>
          db.insert(idempotencyKeys).values({ ...row, status: 0, body: 'pending:otro', createdAt: now() }),
        );
        setTimeout(
          () =>
            void tx(() =>
              db
                .update(idempotencyKeys)
                .set(otherNode)
                .where(and(eq(idempotencyKeys.principal, row.principal), eq(idempotencyKeys.key, key))),
            ),
          150,
        );
      }
      return touch(id);
    });
  }

  it("the second writes nothing and answers with the first one's answer", async () => {
    const driver = await makeUser('conductor');
    const key = newKey();
    anotherNodeTakes(driver.user.id, punchUrl('entrada'), key);
    const res = await punch(driver.auth, 'entrada', key);
    expect(answer(res)).toEqual({ status: 200, body: JSON.parse(otherNode.body) });
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(await punchesOf(driver.user.id)).toHaveLength(0);
    expect(await keyRows(key)).toMatchObject([otherNode]);
  });

  it("a refusal that wrote nothing does not overwrite the first one's answer either", async () => {
    const driver = await makeUser('conductor');
    const key = newKey();
    anotherNodeTakes(driver.user.id, punchUrl('salida'), key);
    // Not clocked in: this request alone would be a 409 that writes nothing.
    const res = await punch(driver.auth, 'salida', key);
    expect(answer(res)).toEqual({ status: 200, body: JSON.parse(otherNode.body) });
    expect(await keyRows(key)).toMatchObject([otherNode]);
  });

  it('the other node ran another request under the key: 422, nothing written', async () => {
    const driver = await makeUser('conductor');
    const key = newKey();
    anotherNodeTakes(driver.user.id, punchUrl('salida'), key);
    const res = await punch(driver.auth, 'entrada', key);
    expect(answer(res)).toEqual({ status: 422, body: { detail: ERR.idempotencyKeyReused } });
    expect(await punchesOf(driver.user.id)).toHaveLength(0);
    expect(await keyRows(key)).toMatchObject([otherNode]);
  });
});

describe('a key belongs to its user and to one request', () => {
  it('a different key is a new request: a second effect where the rules allow it', async () => {
    const staff = await makeUser('gestor');
    const first = await post('/api/tasks', staff.auth, newKey(), newTask('IDEM-010'));
    const second = await post('/api/tasks', staff.auth, newKey(), newTask('IDEM-011'));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).not.toBe(first.body.id);

    const driver = await makeUser('conductor');
    expect((await punch(driver.auth, 'entrada', newKey())).status).toBe(200);
    await advanceClock(60_000);
    expect((await punch(driver.auth, 'salida', newKey())).status).toBe(200);
    expect((await punchesOf(driver.user.id)).map((p) => p.clockType)).toEqual(['entrada', 'salida']);
  });

  it('the same key by another user is independent', async () => {
    const a = await makeUser('conductor');
    const b = await makeUser('conductor');
    const key = newKey();
    expect((await punch(a.auth, 'entrada', key)).status).toBe(200);
    expect((await punch(b.auth, 'entrada', key)).status).toBe(200);
    expect(await punchesOf(a.user.id)).toHaveLength(1);
    expect(await punchesOf(b.user.id)).toHaveLength(1);
    expect(await keyRows(key)).toHaveLength(2);
  });

  it('the same key with another body: 422 with the detail, the first effect unchanged', async () => {
    const staff = await makeUser('gestor');
    const key = newKey();
    const first = await post('/api/tasks', staff.auth, key, newTask('IDEM-020'));
    expect(first.status).toBe(201);
    const other = await post('/api/tasks', staff.auth, key, newTask('IDEM-021'));
    expect(answer(other)).toEqual({ status: 422, body: { detail: ERR.idempotencyKeyReused } });
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await tasksByTrailer('IDEM-020')).toHaveLength(1);
    expect(await tasksByTrailer('IDEM-021')).toHaveLength(0);
    // The same body is still the same request: its stored answer.
    const same = await post('/api/tasks', staff.auth, key, newTask('IDEM-020'));
    expect(answer(same)).toEqual(answer(first));
    expect(same.headers['idempotent-replayed']).toBe('true');
    expect(await keyRows(key)).toMatchObject([{ status: 201, body: JSON.stringify(first.body) }]);
  });

  it('another query string or another path under the same key: 422, no second effect', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    const key = newKey();
    expect((await punch(driver.auth, 'entrada', key)).status).toBe(200);
    await advanceClock(60_000);
    const salida = await punch(driver.auth, 'salida', key);
    expect(answer(salida)).toEqual({ status: 422, body: { detail: ERR.idempotencyKeyReused } });
    const extra = await post(`${punchUrl('entrada')}&otra=1`, driver.auth, key);
    expect(extra.status).toBe(422);
    const done = await post(`/api/tasks/${task.id}/complete`, driver.auth, key);
    expect(answer(done)).toEqual({ status: 422, body: { detail: ERR.idempotencyKeyReused } });
    expect((await punchesOf(driver.user.id)).map((p) => p.clockType)).toEqual(['entrada']);
    expect(await eventsOf(task.id, 'completed')).toHaveLength(0);
    expect(await statusOf(task.id)).toBe('en_proceso');
  });

  it('two requests at once under one key with different bodies: one effect, the other 422', async () => {
    const staff = await makeUser('manager');
    const key = newKey();
    const results = await Promise.all([
      post('/api/tasks', staff.auth, key, newTask('IDEM-030')),
      post('/api/tasks', staff.auth, key, newTask('IDEM-031')),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    const created = [...(await tasksByTrailer('IDEM-030')), ...(await tasksByTrailer('IDEM-031'))];
    expect(created).toHaveLength(1);
  });
});

describe('only a request that ran its effect is stored', () => {
  it('refused POSTs with fresh keys (403, 404, 400, 409) leave no row at all', async () => {
    const driver = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    for (let i = 0; i < 20; i++)
      expect((await post('/api/tasks', driver.auth, newKey(), newTask(`IDEM-1${i}`))).status).toBe(403);
    const missing = `/api/tasks/${crypto.randomUUID()}/complete`;
    expect((await post(missing, driver.auth, newKey())).status).toBe(404);
    expect((await post(`/api/tasks/${task.id}/return`, driver.auth, newKey(), { reason: '' })).status).toBe(
      400,
    );
    expect((await punch(driver.auth, 'salida', newKey())).status).toBe(409);
    expect(await rowsOf(driver.user.id)).toHaveLength(0);
    expect(await db.select().from(idempotencyKeys)).toHaveLength(0);
  });

  it('a 409 is not stored: the same queued completion runs again once the task is the driver’s', async () => {
    const driver = await makeUser('conductor');
    const other = await makeUser('conductor');
    const task = await makeTask({ status: 'en_proceso', assignedTo: other.user.id });
    const key = newKey();
    const body = { client_time: new Date(now().getTime() - 1_000).toISOString() };
    const refused = await post(`/api/tasks/${task.id}/complete`, driver.auth, key, body);
    expect(answer(refused)).toEqual({ status: 409, body: { detail: ERR.notYourTask } });
    expect(await keyRows(key)).toHaveLength(0);
    // The control room gives the task to this driver: the queued action, replayed, now succeeds.
    await tx(() =>
      db.update(tasks).set({ assignedTo: driver.user.id, assignedAt: now() }).where(eq(tasks.id, task.id)),
    );
    await advanceClock(60_000);
    const replayed = await post(`/api/tasks/${task.id}/complete`, driver.auth, key, body);
    expect(replayed.status).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBeUndefined();
    expect(await statusOf(task.id)).toBe('finalizada');
    expect(await movements(driver.user.id)).toBe(1);
    expect(await keyRows(key)).toMatchObject([{ principal: principal(driver.user.id), status: 200 }]);
  });

  it('self-assign refused (409), then claimable: the same key claims it', async () => {
    const holder = await makeUser('conductor', { taskTypes: ['swap'] });
    const other = await makeUser('conductor', { taskTypes: ['swap'] });
    const task = await makeTask({ vehicleType: 'swap', status: 'en_proceso', assignedTo: holder.user.id });
    const key = newKey();
    const refused = await post(`/api/tasks/${task.id}/self-assign`, other.auth, key);
    expect(answer(refused)).toEqual({ status: 409, body: { detail: ERR.alreadyAssigned } });
    expect(await keyRows(key)).toHaveLength(0);
    expect((await post(`/api/tasks/${task.id}/return`, holder.auth)).status).toBe(200);
    const again = await post(`/api/tasks/${task.id}/self-assign`, other.auth, key);
    expect(again.status).toBe(200);
    const [claimed] = await db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(claimed).toMatchObject({ status: 'en_proceso', assignedTo: other.user.id });
    expect(await eventsOf(task.id, 'assigned')).toHaveLength(1);
  });

  it('a 5xx is not stored, and the key rolled back with the failed effect: a retry runs again', async () => {
    const driver = await makeUser('conductor');
    const key = newKey();
    const seenInside: unknown[] = [];
    // Every handle of the engine shares drizzle's class: spied on there, a punch's insert fails inside the
    // effect's transaction too.
    const proto = Object.getPrototypeOf(session().db) as { insert: (table: unknown) => unknown };
    const insert = proto.insert;
    vi.spyOn(proto, 'insert').mockImplementation(function (this: unknown, table: unknown) {
      if (table !== punches) return insert.call(this, table);
      // Inside the effect's transaction, the key's placeholder is already written…
      const failing = keyRows(key).then((rows) => {
        seenInside.push(...rows);
        throw new Error('fallo simulado');
      });
      return { values: () => failing };
    });
    const failed = await punch(driver.auth, 'entrada', key);
    expect(failed.status).toBe(500);
    expect(seenInside).toMatchObject([
      {
        principal: principal(driver.user.id),
        fingerprint: fingerprintOf('POST', punchUrl('entrada'), undefined),
        status: 0,
      },
    ]);
    // …and it rolled back with the failed effect.
    expect(await keyRows(key)).toHaveLength(0);
    expect(await punchesOf(driver.user.id)).toHaveLength(0);
    vi.restoreAllMocks();
    const retry = await punch(driver.auth, 'entrada', key);
    expect(retry.status).toBe(200);
    expect(await punchesOf(driver.user.id)).toHaveLength(1);
    expect(await keyRows(key)).toMatchObject([{ status: 200 }]);
  });

  it('an effect committed without its answer (the process stopped): a repeat gets 409, nothing runs', async () => {
    const driver = await makeUser('conductor');
    const key = newKey();
    await tx(() =>
      db.insert(idempotencyKeys).values({
        principal: principal(driver.user.id),
        key,
        fingerprint: fingerprintOf('POST', punchUrl('entrada'), undefined),
        status: 0,
        body: '',
        createdAt: now(),
      }),
    );
    const res = await punch(driver.auth, 'entrada', key);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: ERR.idempotencyAlreadyApplied });
    expect(await punchesOf(driver.user.id)).toHaveLength(0);
  });

  it('a malformed key: 400 with the Spanish detail, no effect', async () => {
    const driver = await makeUser('conductor');
    for (const bad of ['abc', '', '123e4567-e89b-12d3-a456-42661417400Z']) {
      const res = await punch(driver.auth, 'entrada', bad);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: ERR.idempotencyKeyInvalid });
    }
    expect(await punchesOf(driver.user.id)).toHaveLength(0);
  });

  it('without a valid token the key changes nothing: 401 as always, nothing stored', async () => {
    const key = newKey();
    const res = await api()
      .post('/api/timeclock/punch?clock_type=entrada')
      .set('Idempotency-Key', key)
      .set('Authorization', 'Bearer nope');
    expect(res.status).toBe(401);
    expect(await keyRows(key)).toHaveLength(0);
  });
});

describe('answers that carry a token or a password ignore the header', () => {
  it('login and refresh: nothing stored, the same key again runs again (a new token)', async () => {
    const driver = await makeUser('conductor');
    const key = newKey();
    const login = { email: driver.user.email, password: PASSWORD };
    const first = await post('/api/auth/login', driver.auth, key, login);
    await advanceClock(1_000);
    const second = await post('/api/auth/login', driver.auth, key, login);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.access_token).not.toBe(first.body.access_token);

    const refreshed = await post('/api/auth/refresh/', driver.auth, key);
    await advanceClock(1_000);
    const again = await post('/api/AUTH/refresh', driver.auth, key);
    expect([refreshed.status, again.status]).toEqual([200, 200]);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.access_token).not.toBe(refreshed.body.access_token);
    expect(await keyRows(key)).toHaveLength(0);
  });

  it('change-password: nothing stored, the same key and body again is checked again (400)', async () => {
    const user = await makeUser('manager');
    const key = newKey();
    const body = { current_password: PASSWORD, new_password: 'otra-contraseña-larga' };
    const first = await post('/api/auth/change-password', user.auth, key, body);
    expect(first.status).toBe(200);
    const second = await post('/api/auth/change-password', user.auth, key, body);
    expect(answer(second)).toEqual({ status: 400, body: { detail: ERR.wrongCurrentPassword } });
    expect(await keyRows(key)).toHaveLength(0);
  });

  it("an admin's password reset: the temporary password is never stored", async () => {
    const admin = await makeUser('admin');
    const driver = await makeUser('conductor');
    const key = newKey();
    const first = await post(`/api/admin/users/${driver.user.id}/reset-password`, admin.auth, key);
    const second = await post(`/api/admin/users/${driver.user.id}/reset-password`, admin.auth, key);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.temporary_password).not.toBe(first.body.temporary_password);
    expect(await keyRows(key)).toHaveLength(0);
  });
});

describe('at most 1,000 keys a user in 24 h', () => {
  const PER_USER = IDEMPOTENCY_KEYS_PER_DAY.user;
  /** `count` keys of the user, as if stored `age` ms ago. */
  const usedKeys = (userId: string, count: number, age: number) =>
    tx(() =>
      db.insert(idempotencyKeys).values(
        Array.from({ length: count }, () => ({
          principal: principal(userId),
          key: newKey(),
          fingerprint: 'f',
          status: 200,
          body: '{}',
          createdAt: new Date(now().getTime() - age),
        })),
      ),
    );

  it('the 1,001st key is refused with 429, changes nothing and is not kept; old and used keys still answer', async () => {
    expect(PER_USER).toBe(1_000);
    const driver = await makeUser('conductor');
    const key = newKey();
    expect((await punch(driver.auth, 'entrada', key)).status).toBe(200);
    await usedKeys(driver.user.id, PER_USER - 1, 60_000);
    await advanceClock(60_000);
    const fresh = newKey();
    const refused = await punch(driver.auth, 'salida', fresh);
    expect(answer(refused)).toEqual({ status: 429, body: { detail: ERR.idempotencyTooManyKeys } });
    expect(await punchesOf(driver.user.id)).toHaveLength(1);
    expect(await keyRows(fresh)).toHaveLength(0);
    expect(await rowsOf(driver.user.id)).toHaveLength(PER_USER);
    // A key already used is not a new one: its answer again.
    const replayed = await punch(driver.auth, 'entrada', key);
    expect(replayed.status).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    // Without a key the action runs as always; another user has a cap of their own.
    expect((await punch(driver.auth, 'salida')).status).toBe(200);
    const other = await makeUser('conductor');
    expect((await punch(other.auth, 'entrada', newKey())).status).toBe(200);
  });

  it('keys older than 24 h do not count', async () => {
    const driver = await makeUser('conductor');
    await usedKeys(driver.user.id, PER_USER, 24 * HOUR - 60_000);
    expect((await punch(driver.auth, 'entrada', newKey())).status).toBe(429);
    await advanceClock(2 * 60_000);
    const auth = { Authorization: `Bearer ${await tokenFor(driver.user)}` };
    expect((await punch(auth, 'entrada', newKey())).status).toBe(200);
    expect(await punchesOf(driver.user.id)).toHaveLength(1);
  });
});

describe('expiry', () => {
  it('a key is kept 24 h: after that the same key runs again and old rows are swept', async () => {
    const driver = await makeUser('conductor');
    // Tokens expire long before a day passes: a fresh login session for each step.
    const auth = async () => ({ Authorization: `Bearer ${await tokenFor(driver.user)}` });
    const key = newKey();
    expect((await punch(await auth(), 'entrada', key)).status).toBe(200);
    await advanceClock(HOUR);
    expect((await punch(await auth(), 'salida', newKey())).status).toBe(200);
    await advanceClock(23 * HOUR - 60_000);
    // Still within 24 h: the entrada's answer, no new punch.
    const replayed = await punch(await auth(), 'entrada', key);
    expect(replayed.status).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(await punchesOf(driver.user.id)).toHaveLength(2);
    await advanceClock(2 * 60_000);
    const again = await punch(await auth(), 'entrada', key);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await punchesOf(driver.user.id)).toHaveLength(3);
    // The expired row was replaced by the new answer's.
    expect(await keyRows(key)).toHaveLength(1);
    expect((await keyRows(key))[0].createdAt.getTime()).toBeGreaterThan(now().getTime() - 60_000);
    await advanceClock(25 * HOUR);
    const other = await makeUser('conductor');
    expect((await punch(other.auth, 'entrada', newKey())).status).toBe(200);
    const cutoff = now().getTime() - 24 * HOUR;
    const rows = await db.select().from(idempotencyKeys);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.createdAt.getTime() <= cutoff)).toHaveLength(0);
  });
});
