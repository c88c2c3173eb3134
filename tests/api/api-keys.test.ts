// API keys (CONTRACT §21 "API clients", "Scopes", "external_ref"): made, listed and revoked by the admin;
// the key's 401/403 texts, its scopes, acting as `API · {name}`, no /admin but the search, revocation at
// once, last_used_at once a minute, the per-key rate and its headers, no socket; GET /tasks/{id} per role;
// external_ref's repeat, race and lookup; the Idempotency-Key under the client (api:<id>); gate photos owned
// by the client. Both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { API_CLIENT_ERR, API_CLIENT_LOG, ERR, GATE_PHOTO_ERR } from '@shared/labels';
import type { ApiClient, ApiClientCreated, GateEntryResult, GatePhotoCreated, Task } from '@shared/schemas';
import type { ApiScope } from '@shared/enums';
import { IDEMPOTENCY_KEYS_PER_DAY } from '@shared/constants';
import {
  activityLog,
  apiClients,
  gatePhotos,
  gateVisits,
  idempotencyKeys,
  presenceIntervals,
  tasks,
} from '../../server/db/tables';
import { config, configure } from '../../server/config';
import {
  advanceClock,
  connectSocket,
  db,
  makeTask,
  makeUser,
  now,
  setupServer,
  tx,
  type TestUser,
} from '../helpers/context';
import { expectDocumented } from '../helpers/openapi';
import { makePlace } from '../helpers/places';

let server: Awaited<ReturnType<typeof setupServer>>;
let admin: TestUser;
let gestor: TestUser;
const api = () => server.api();
beforeAll(async () => {
  server = await setupServer();
  admin = await makeUser('admin', { name: 'Admin Ana' });
  gestor = await makeUser('gestor');
});
afterAll(async () => {
  await server.close();
});

let seq = 0;
const newTask = (extra: object = {}) => ({
  title: 'Mover',
  origin: 'Muelle 3',
  destination: 'Campa B-1',
  trailer_id: `AK-${String(++seq).padStart(5, '0')}`,
  priority: 'normal',
  vehicle_type: 'semiremolque',
  ...extra,
});

async function makeKey(scopes: ApiScope[], name = `WMS ${crypto.randomUUID().slice(0, 8)}`) {
  const res = await api().post('/api/admin/api-clients').set(admin.auth).send({ name, scopes });
  expect(res.status, res.text).toBe(201);
  const created = res.body as ApiClientCreated;
  return { ...created, auth: { Authorization: `Bearer ${created.key}` } };
}

describe('the admin’s API clients', () => {
  it('creates a key shown once, lists it without the key, refuses a folded duplicate, revokes it', async () => {
    const made = await makeKey(['tasks:read', 'yard:read'], 'WMS Almacén');
    expect(made.key).toMatch(/^trc_[A-Za-z0-9_-]{43}$/);
    expect(made.scopes).toEqual(['tasks:read', 'yard:read']);
    const [row] = await db.select().from(apiClients).where(eq(apiClients.id, made.id));
    expect(row!.keyHash).toBe(crypto.createHash('sha256').update(made.key).digest('hex'));

    const list = await api().get('/api/admin/api-clients').set(admin.auth);
    expect(list.status).toBe(200);
    const listed = (list.body as ApiClient[]).find((c) => c.id === made.id)!;
    expect(listed).toMatchObject({
      name: 'WMS Almacén',
      key_prefix: made.key.slice(0, 12),
      scopes: ['tasks:read', 'yard:read'],
      created_by_name: 'Admin Ana',
      last_used_at: null,
    });
    expect(list.text).not.toContain(made.key);

    const dup = await api()
      .post('/api/admin/api-clients')
      .set(admin.auth)
      .send({ name: '  wms  almacen ', scopes: ['tasks:read'] });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toBe(API_CLIENT_ERR.duplicateName);

    const bad = await api().post('/api/admin/api-clients').set(admin.auth).send({ name: 'X', scopes: [] });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain(API_CLIENT_ERR.scopesRequired);

    expect((await api().get('/api/tasks').set(made.auth)).status).toBe(200);
    const writer = await makeKey(['tasks:write', 'tasks:read'], 'TMS Salidas');
    const madeTask = await api()
      .post('/api/tasks')
      .set(writer.auth)
      .send({ title: 'Mover', origin: 'Muelle 1', destination: 'Campa 2', trailer_id: 'R-REV-1' });
    expect(madeTask.status, madeTask.text).toBe(201);
    const revoked = await api().delete(`/api/admin/api-clients/${made.id}`).set(admin.auth);
    expect(revoked.status).toBe(200);
    // At once: the next request reads the key from the database.
    const after = await api().get('/api/tasks').set(made.auth);
    expect(after.status).toBe(401);
    expect(after.body.detail).toBe(API_CLIENT_ERR.invalidKey);
    // Gone from the list; a second revocation is a 404; the name may be given again.
    const listedAfter = await api().get('/api/admin/api-clients').set(admin.auth);
    expect((listedAfter.body as ApiClient[]).map((c) => c.id)).not.toContain(made.id);
    expect((await api().delete(`/api/admin/api-clients/${made.id}`).set(admin.auth)).status).toBe(404);
    expect((await makeKey(['tasks:read'], 'WMS Almacén')).name).toBe('WMS Almacén');
    // A revoked integration's tasks keep its name.
    expect((await api().delete(`/api/admin/api-clients/${writer.id}`).set(admin.auth)).status).toBe(200);
    const kept = await api()
      .get(`/api/tasks/${(madeTask.body as Task).id}`)
      .set(admin.auth);
    expect(kept.body).toMatchObject({
      created_by_name: 'API · TMS Salidas',
      created_by_client_id: writer.id,
    });

    const logs = await db.select().from(activityLog).where(eq(activityLog.type, 'integration'));
    expect(logs.map((l) => [l.action, l.userName])).toEqual(
      expect.arrayContaining([
        [API_CLIENT_LOG.created, 'Admin Ana'],
        [API_CLIENT_LOG.revoked, 'Admin Ana'],
      ]),
    );
  });

  it('answers 401 for an unknown key', async () => {
    const res = await api().get('/api/tasks').set({ Authorization: 'Bearer trc_nada' });
    expect(res.status).toBe(401);
    expect(res.body.detail).toBe(API_CLIENT_ERR.invalidKey);
  });
});

describe('a key’s reach', () => {
  it('stays within its scopes and out of /admin but the search', async () => {
    const reader = await makeKey(['tasks:read']);
    expect((await api().get('/api/tasks').set(reader.auth)).status).toBe(200);
    expect((await api().get('/api/admin/search/tasks?query=AK').set(reader.auth)).status).toBe(200);

    const write = await api().post('/api/tasks').set(reader.auth).send(newTask());
    expect(write.status).toBe(403);
    expect(write.body.detail).toBe(API_CLIENT_ERR.missingScope('tasks:write'));

    const yard = await api().get('/api/yard').set(reader.auth);
    expect(yard.status).toBe(403);
    expect(yard.body.detail).toBe(API_CLIENT_ERR.missingScope('yard:read'));

    const adminRoute = await api().get('/api/admin/api-clients').set(reader.auth);
    expect(adminRoute.status).toBe(403);
    expect(adminRoute.body.detail).toBe(API_CLIENT_ERR.noAdmin);

    const handover = await api().get('/api/handover').set(reader.auth);
    expect(handover.status).toBe(403);
    expect(handover.body.detail).toBe(API_CLIENT_ERR.notForKeys);
  });

  it('acts as a manager named API · {name}, with no presence', async () => {
    const writer = await makeKey(['tasks:write', 'tasks:read'], 'TMS Norte');
    const presenceBefore = (await db.select().from(presenceIntervals)).length;
    const res = await api().post('/api/tasks').set(writer.auth).send(newTask());
    expect(res.status, res.text).toBe(201);
    const task = res.body as Task;
    expect(task).toMatchObject({
      created_by: null,
      created_by_name: 'API · TMS Norte',
      created_by_client_id: writer.id,
    });
    const read = await api().get(`/api/tasks/${task.id}`).set(writer.auth);
    expect(read.body.created_by_name).toBe('API · TMS Norte');
    const logs = await db.select().from(activityLog).where(eq(activityLog.userName, 'API · TMS Norte'));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.every((l) => l.userId === null)).toBe(true);
    expect(await db.select().from(presenceIntervals)).toHaveLength(presenceBefore);
  });

  it('writes last_used_at at most once a minute', async () => {
    const key = await makeKey(['tasks:read']);
    const lastUsed = async () =>
      (await db.select().from(apiClients).where(eq(apiClients.id, key.id)))[0]!.lastUsedAt?.getTime();
    await api().get('/api/tasks').set(key.auth);
    const first = await lastUsed();
    expect(first).toBeTypeOf('number');
    await advanceClock(30_000);
    await api().get('/api/tasks').set(key.auth);
    expect(await lastUsed()).toBe(first);
    await advanceClock(31_000);
    await api().get('/api/tasks').set(key.auth);
    // The clock runs on between the requests: the second write is a minute and a little after the first.
    expect(await lastUsed()).toBeGreaterThanOrEqual(first! + 61_000);
    expect(await lastUsed()).toBeLessThan(first! + 70_000);
  });

  it('counts requests a minute per key, with RateLimit headers and a 429', async () => {
    const saved = config.apiKeyRatePerMin;
    configure({ apiKeyRatePerMin: 3 });
    try {
      const key = await makeKey(['tasks:read']);
      const other = await makeKey(['tasks:read']);
      for (let i = 1; i <= 3; i++) {
        const res = await api().get('/api/tasks').set(key.auth);
        expect(res.status).toBe(200);
        expect(res.headers['ratelimit-limit']).toBe('3');
        expect(res.headers['ratelimit-remaining']).toBe(String(3 - i));
        expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      }
      const over = await api().get('/api/tasks').set(key.auth);
      expect(over.status).toBe(429);
      const wait = Number(over.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect(over.body.detail).toBe(API_CLIENT_ERR.tooManyRequests(wait));
      // Per key: another key has its own minute; a session is not counted.
      expect((await api().get('/api/tasks').set(other.auth)).status).toBe(200);
      const staff = await api().get('/api/tasks').set(gestor.auth);
      expect(staff.status).toBe(200);
      expect(staff.headers['ratelimit-limit']).toBeUndefined();
    } finally {
      configure({ apiKeyRatePerMin: saved });
    }
  });

  it('opens no socket', async () => {
    const key = await makeKey(['tasks:read']);
    await expect(connectSocket(server.url, key.key)).rejects.toThrow(ERR.unauthorized);
  });
});

describe('GET /tasks/{id}', () => {
  it('shows a task as GET /tasks does, 404 when the caller may not see it', async () => {
    const driver = await makeUser('conductor', { taskTypes: ['semiremolque'] });
    const done = await makeTask({
      status: 'finalizada',
      completedAt: new Date(),
      vehicleType: 'semiremolque',
    });
    const swap = await makeTask({ vehicleType: 'swap' });
    const manager = await makeUser('manager');
    const board = (await api().get('/api/tasks').set(manager.auth)).body as Task[];
    const got = await api().get(`/api/tasks/${done.id}`).set(manager.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(board.find((t) => t.id === done.id));
    // A gestor sees no finished task, a driver no pool task of another type.
    expect((await api().get(`/api/tasks/${done.id}`).set(gestor.auth)).status).toBe(404);
    expect((await api().get(`/api/tasks/${swap.id}`).set(driver.auth)).status).toBe(404);
    expect((await api().get(`/api/tasks/${swap.id}`).set(gestor.auth)).status).toBe(200);
    expect((await api().get('/api/tasks/no-es-un-id').set(gestor.auth)).status).toBe(400);
  });
});

describe('external_ref', () => {
  it('answers a repeat with the open task unchanged, before the trailer’s 409', async () => {
    const key = await makeKey(['tasks:write', 'tasks:read']);
    const body = newTask({ external_ref: ' PED-1 ' });
    const first = await api().post('/api/tasks').set(key.auth).send(body);
    expect(first.status, first.text).toBe(201);
    expect(first.body.external_ref).toBe('PED-1');
    const again = await api()
      .post('/api/tasks')
      .set(key.auth)
      .send({ ...body, priority: 'high' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // Scoped to the caller: the same reference from staff is a new task (here its trailer is busy: 409).
    const staff = await api().post('/api/tasks').set(gestor.auth).send(body);
    expect(staff.status).toBe(409);
  });

  it('makes two racing creates one 201 and one 200', async () => {
    const key = await makeKey(['tasks:write']);
    const body = newTask({ external_ref: 'PED-RACE' });
    const answers = await Promise.all([
      api().post('/api/tasks').set(key.auth).send(body),
      api().post('/api/tasks').set(key.auth).send(body),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.body.id).toBe(answers[1]!.body.id);
    const rows = await db
      .select()
      .from(tasks)
      .where(and(eq(tasks.externalRef, 'PED-RACE'), eq(tasks.createdByClientId, key.id)));
    expect(rows).toHaveLength(1);
  });

  it('lists the caller’s tasks with a reference, any status, newest first', async () => {
    const key = await makeKey(['tasks:write', 'tasks:read']);
    const one = await api()
      .post('/api/tasks')
      .set(key.auth)
      .send(newTask({ external_ref: 'PED-L' }));
    await tx(() =>
      db
        .update(tasks)
        .set({ status: 'finalizada', completedAt: new Date(0) })
        .where(eq(tasks.id, one.body.id)),
    );
    await advanceClock(1000);
    const two = await api()
      .post('/api/tasks')
      .set(key.auth)
      .send(newTask({ external_ref: 'PED-L' }));
    expect(two.status).toBe(201);
    await api()
      .post('/api/tasks')
      .set(gestor.auth)
      .send(newTask({ external_ref: 'PED-L' }));
    const list = await api().get('/api/tasks').query({ external_ref: 'PED-L' }).set(key.auth);
    expect(list.status).toBe(200);
    expect((list.body as Task[]).map((t) => t.id)).toEqual([two.body.id, one.body.id]);
  });
});

describe('Idempotency-Key through a key (CONTRACT §23)', () => {
  const keyed = (auth: Record<string, string>, key: string, body: object) =>
    api().post('/api/tasks').set(auth).set('Idempotency-Key', key).send(body);
  const keyRows = (key: string) =>
    db
      .select({ principal: idempotencyKeys.principal })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, key));
  const byTrailer = (trailer: string) => db.select().from(tasks).where(eq(tasks.trailerId, trailer));

  it('the same key twice: one task, the same 201 again, counted against the rate; kept under api:<id>', async () => {
    const client = await makeKey(['tasks:write']);
    const key = crypto.randomUUID();
    const body = newTask();
    const first = await keyed(client.auth, key, body);
    expect(first.status, first.text).toBe(201);
    const again = await keyed(client.auth, key, body);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(Number(again.headers['ratelimit-remaining'])).toBe(
      Number(first.headers['ratelimit-remaining']) - 1,
    );
    expect(await byTrailer(body.trailer_id)).toHaveLength(1);
    expect(await keyRows(key)).toEqual([{ principal: `api:${client.id}` }]);
  });

  it('the same key with another body: 422 with the detail, nothing more written', async () => {
    const client = await makeKey(['tasks:write']);
    const key = crypto.randomUUID();
    expect((await keyed(client.auth, key, newTask())).status).toBe(201);
    const other = newTask();
    const reused = await keyed(client.auth, key, other);
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ detail: ERR.idempotencyKeyReused });
    expect(await byTrailer(other.trailer_id)).toHaveLength(0);
  });

  it('a refusal (a scope the key lacks) keeps no row: the key is free for a retry', async () => {
    const client = await makeKey(['tasks:read']);
    const key = crypto.randomUUID();
    const refused = await keyed(client.auth, key, newTask());
    expect(refused.status).toBe(403);
    expect(await keyRows(key)).toEqual([]);
  });

  it('a revoked key gets no replay: 401 as for any request', async () => {
    const client = await makeKey(['tasks:write']);
    const key = crypto.randomUUID();
    const body = newTask();
    expect((await keyed(client.auth, key, body)).status).toBe(201);
    expect((await api().delete(`/api/admin/api-clients/${client.id}`).set(admin.auth)).status).toBe(200);
    const replay = await keyed(client.auth, key, body);
    expect(replay.status).toBe(401);
    expect(replay.body.detail).toBe(API_CLIENT_ERR.invalidKey);
  });

  it('a user and a key with the same key string do not collide', async () => {
    const client = await makeKey(['tasks:write']);
    const key = crypto.randomUUID();
    const byKey = newTask();
    const byUser = newTask();
    expect((await keyed(client.auth, key, byKey)).status).toBe(201);
    const staff = await keyed(gestor.auth, key, byUser);
    expect(staff.status).toBe(201);
    expect(staff.headers['idempotent-replayed']).toBeUndefined();
    expect(await byTrailer(byKey.trailer_id)).toHaveLength(1);
    expect(await byTrailer(byUser.trailer_id)).toHaveLength(1);
    expect((await keyRows(key)).map((r) => r.principal).sort()).toEqual(
      [`api:${client.id}`, `user:${gestor.user.id}`].sort(),
    );
  });

  it('at most 100,000 keys a client in 24 h: the next one is refused with 429 and changes nothing', async () => {
    const cap = IDEMPOTENCY_KEYS_PER_DAY.api;
    expect(cap).toBe(100_000);
    const client = await makeKey(['tasks:write']);
    const createdAt = new Date(now().getTime() - 60_000);
    // 5,000 rows a statement: within SQLite's 32,766 parameters.
    const CHUNK = 5_000;
    for (let done = 0; done < cap; done += CHUNK)
      await tx(() =>
        db.insert(idempotencyKeys).values(
          Array.from({ length: CHUNK }, () => ({
            principal: `api:${client.id}`,
            key: crypto.randomUUID(),
            fingerprint: 'f',
            status: 201,
            body: '{}',
            createdAt,
          })),
        ),
      );
    const body = newTask();
    const refused = await keyed(client.auth, crypto.randomUUID(), body);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: ERR.idempotencyTooManyKeys });
    expect(await byTrailer(body.trailer_id)).toHaveLength(0);
    // A user's keys are counted apart.
    expect((await keyed(gestor.auth, crypto.randomUUID(), newTask())).status).toBe(201);
  }, 60_000);
});

describe('gate photos through a key (CONTRACT §21: gate:write)', () => {
  const photo = () =>
    sharp({ create: { width: 40, height: 30, channels: 3, background: 'red' } })
      .jpeg()
      .toBuffer();
  const upload = async (auth: Record<string, string>) =>
    api()
      .post('/api/gate/photos')
      .set(auth)
      .attach('photo', await photo(), { filename: 'f.jpg', contentType: 'image/jpeg' });
  const photoRow = async (id: string) =>
    (await db.select().from(gatePhotos).where(eq(gatePhotos.id, id)))[0]!;

  it('a key uploads a photo its client owns and attaches it to an entry; photos never cross owners', async () => {
    const key = await makeKey(['gate:write']);
    const otherKey = await makeKey(['gate:write']);
    const campa = await makePlace(api, admin, `AK-C-${++seq}`, `Campa clave ${seq}`, 'campa', 5);

    const up = await upload(key.auth);
    expect(up.status, up.text).toBe(201);
    await expectDocumented('post', '/gate/photos', up);
    const keyPhoto = (up.body as GatePhotoCreated).id;
    expect(await photoRow(keyPhoto)).toMatchObject({
      ownerId: null,
      ownerClientId: key.id,
      attachedAt: null,
    });
    const staffUp = await upload(gestor.auth);
    expect(staffUp.status).toBe(201);
    const staffPhoto = (staffUp.body as GatePhotoCreated).id;

    const truckPlate = `AK-${seq}-XYZ`;
    const entry = (photoId: string) => ({
      truck_plate: truckPlate,
      carrier: 'Transportes Pérez',
      trailer: {
        trailer_id: `AK-R-${seq}`,
        load_state: 'vacio',
        location_id: campa.id,
        inspection: { items: [{ code: 'puertas', ok: true }], photo_ids: [photoId] },
      },
    });
    const enter = (auth: Record<string, string>, photoId: string) =>
      api().post('/api/gate/entries').set(auth).send(entry(photoId));
    // A user's photo through a key, another client's photo, a key's photo through a user: 400.
    for (const [auth, photoId] of [
      [key.auth, staffPhoto],
      [otherKey.auth, keyPhoto],
      [gestor.auth, keyPhoto],
    ] as const) {
      const refused = await enter(auth, photoId);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.detail).toBe(GATE_PHOTO_ERR.invalid);
    }
    await expectDocumented('post', '/gate/entries', await enter(key.auth, staffPhoto));
    expect(await db.select().from(gateVisits).where(eq(gateVisits.truckPlate, truckPlate))).toHaveLength(0);

    const entered = await enter(key.auth, keyPhoto);
    expect(entered.status, entered.text).toBe(201);
    await expectDocumented('post', '/gate/entries', entered);
    const visitId = (entered.body as GateEntryResult).visit.id;
    expect((await photoRow(keyPhoto)).attachedTo).toBe(visitId);
    expect((await photoRow(staffPhoto)).attachedAt).toBeNull();
  });

  it('needs gate:write', async () => {
    const reader = await makeKey(['yard:read']);
    const refused = await upload(reader.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(API_CLIENT_ERR.missingScope('gate:write'));
    await expectDocumented('post', '/gate/photos', refused);
  });
});
