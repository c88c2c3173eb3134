// Web Push on the server (CONTRACT §16, §12): the VAPID public key, a driver's subscriptions (stored,
// moved, removed, validated, role-gated) and the pushes a `task_assigned` / `task_closed_by_staff`
// notification starts after the commit — web-push's sender is spied on here; tests/process/push.test.ts
// sends real encrypted pushes to a local push service.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import webpush from 'web-push';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUSH_INPUT, PUSH_MSG, STARTUP_ERR } from '@shared/labels';
import { checkConfig, config, configure, DEFAULT_VAPID_SUBJECT } from '../../server/config';
import { pushSubscriptions } from '../../server/db/tables';
import { PUSH_SUBSCRIPTIONS_MAX, PUSH_TTL_S, VAPID_FILE, vapidKeys } from '../../server/services/push';
import { db, makePunch, makeTask, makeUser, setupApp } from '../helpers/context';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
beforeEach(async () => {
  ({ api } = await setupApp());
});
afterEach(() => {
  vi.restoreAllMocks();
  configure({ vapidPublicKey: undefined, vapidPrivateKey: undefined, vapidSubject: DEFAULT_VAPID_SUBJECT });
});

/** A browser's subscription: a real P-256 public key and a 16-byte auth secret, base64url. */
function browserKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: crypto.randomBytes(16).toString('base64url'),
  };
}
let seq = 0;
const subscription = (host = 'push.example.com') => ({
  endpoint: `https://${host}/send/${++seq}-${crypto.randomUUID()}`,
  keys: browserKeys(),
});
const rowsOf = (userId: string) =>
  db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
const rowByEndpoint = async (endpoint: string) =>
  (await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)))[0];

describe('GET /api/push/public-key', () => {
  it('answers the VAPID public key (uncompressed P-256, base64url) to every signed-in role, the same each time', async () => {
    const keys: string[] = [];
    for (const role of ['conductor', 'gestor', 'manager', 'admin'] as const) {
      const res = await api()
        .get('/api/push/public-key')
        .set((await makeUser(role)).auth);
      expect(res.status, role).toBe(200);
      expect(Object.keys(res.body)).toEqual(['public_key']);
      keys.push(res.body.public_key);
    }
    expect(new Set(keys).size).toBe(1);
    const raw = Buffer.from(keys[0], 'base64url');
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(raw.length).toBe(65);
    expect(raw[0]).toBe(0x04);
    // A point on the curve: node accepts it as a P-256 public key.
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    expect(() => ecdh.computeSecret(raw)).not.toThrow();
  });

  it('needs a token', async () => {
    const res = await api().get('/api/push/public-key');
    expect(res.status).toBe(401);
  });

  it('answers VAPID_PUBLIC_KEY when the keys come from the environment', async () => {
    const pair = webpush.generateVAPIDKeys();
    configure({ vapidPublicKey: pair.publicKey, vapidPrivateKey: pair.privateKey });
    const res = await api()
      .get('/api/push/public-key')
      .set((await makeUser('conductor')).auth);
    expect(res.body).toEqual({ public_key: pair.publicKey });
  });
});

describe('the generated VAPID key pair', () => {
  it('is made once and kept next to the database, mode 0600; a restart reads the same pair', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'torre-vapid-'));
    const saved = { dbPath: config.dbPath, dataDir: config.dataDir };
    try {
      configure({ dbPath: path.join(dir, 'torre.db'), dataDir: dir });
      const first = vapidKeys();
      const file = path.join(dir, VAPID_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(first);
      // Another data folder in between drops the cached pair: the file is read again.
      configure(saved);
      expect(vapidKeys()).not.toEqual(first);
      configure({ dbPath: path.join(dir, 'torre.db'), dataDir: dir });
      expect(vapidKeys()).toEqual(first);
    } finally {
      configure(saved);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('start-up refuses half a pair, keys that are not P-256 and a subject that is not mailto:/https:', () => {
    const pair = webpush.generateVAPIDKeys();
    const base = { ...config, jwtSecret: 'x'.repeat(40), adminEmail: undefined, adminPassword: undefined };
    expect(() =>
      checkConfig({ ...base, vapidPublicKey: pair.publicKey, vapidPrivateKey: undefined }),
    ).toThrow(STARTUP_ERR.vapidPair);
    expect(() => checkConfig({ ...base, vapidPublicKey: pair.publicKey, vapidPrivateKey: 'corta' })).toThrow(
      STARTUP_ERR.vapidKeys,
    );
    expect(() =>
      checkConfig({ ...base, vapidPublicKey: pair.privateKey, vapidPrivateKey: pair.privateKey }),
    ).toThrow(STARTUP_ERR.vapidKeys);
    expect(() => checkConfig({ ...base, vapidSubject: 'admin@torre.local' })).toThrow(
      STARTUP_ERR.vapidSubject('admin@torre.local'),
    );
    expect(() =>
      checkConfig({ ...base, vapidPublicKey: pair.publicKey, vapidPrivateKey: pair.privateKey }),
    ).not.toThrow();
    expect(() => checkConfig({ ...base, vapidSubject: 'https://torre.example.com' })).not.toThrow();
  });
});

describe('POST/DELETE /api/push/subscriptions', () => {
  it('stores the driver’s subscription; the same endpoint again updates it, never a second row', async () => {
    const driver = await makeUser('conductor');
    const sub = subscription();
    const res = await api().post('/api/push/subscriptions').set(driver.auth).send(sub);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: PUSH_MSG.subscribed });
    expect(await rowsOf(driver.user.id)).toEqual([
      expect.objectContaining({ endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth }),
    ]);
    const renewed = { endpoint: sub.endpoint, keys: browserKeys() };
    expect((await api().post('/api/push/subscriptions').set(driver.auth).send(renewed)).status).toBe(200);
    expect(await rowsOf(driver.user.id)).toEqual([
      expect.objectContaining({
        endpoint: sub.endpoint,
        p256dh: renewed.keys.p256dh,
        auth: renewed.keys.auth,
      }),
    ]);
  });

  it('an endpoint stored for another driver (a shared phone) moves to the one subscribing now', async () => {
    const first = await makeUser('conductor');
    const second = await makeUser('conductor');
    const sub = subscription();
    await api().post('/api/push/subscriptions').set(first.auth).send(sub);
    await api().post('/api/push/subscriptions').set(second.auth).send(sub);
    expect(await rowsOf(first.user.id)).toEqual([]);
    expect((await rowsOf(second.user.id)).map((r) => r.endpoint)).toEqual([sub.endpoint]);
  });

  it(`keeps at most ${PUSH_SUBSCRIPTIONS_MAX} per driver, dropping the oldest`, async () => {
    const driver = await makeUser('conductor');
    const subs = Array.from({ length: PUSH_SUBSCRIPTIONS_MAX + 2 }, () => subscription());
    for (const sub of subs) await api().post('/api/push/subscriptions').set(driver.auth).send(sub);
    const kept = (await rowsOf(driver.user.id)).map((r) => r.endpoint);
    expect(kept).toHaveLength(PUSH_SUBSCRIPTIONS_MAX);
    // Rows made within one millisecond tie on created_at: at least the last one stays.
    expect(kept).toContain(subs.at(-1)!.endpoint);
  });

  it('DELETE removes the driver’s own subscription; another’s or an unknown endpoint is a 404 and stays', async () => {
    const owner = await makeUser('conductor');
    const other = await makeUser('conductor');
    const sub = subscription();
    await api().post('/api/push/subscriptions').set(owner.auth).send(sub);
    const foreign = await api()
      .delete('/api/push/subscriptions')
      .set(other.auth)
      .send({ endpoint: sub.endpoint });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: PUSH_INPUT.subscriptionNotFound });
    expect((await rowByEndpoint(sub.endpoint))?.userId).toBe(owner.user.id);
    const res = await api()
      .delete('/api/push/subscriptions')
      .set(owner.auth)
      .send({ endpoint: sub.endpoint });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: PUSH_MSG.unsubscribed });
    expect(await rowByEndpoint(sub.endpoint)).toBeUndefined();
    const again = await api()
      .delete('/api/push/subscriptions')
      .set(owner.auth)
      .send({ endpoint: sub.endpoint });
    expect(again.status).toBe(404);
  });

  it('deleting a driver’s account removes their subscriptions (and only theirs)', async () => {
    const leaving = await makeUser('conductor');
    const staying = await makeUser('conductor');
    const admin = await makeUser('admin');
    for (const who of [leaving, leaving, staying])
      expect((await api().post('/api/push/subscriptions').set(who.auth).send(subscription())).status).toBe(
        200,
      );
    expect(await rowsOf(leaving.user.id)).toHaveLength(2);
    const res = await api().delete(`/api/admin/delete-user/${leaving.user.id}`).set(admin.auth);
    expect(res.status).toBe(200);
    expect(await rowsOf(leaving.user.id)).toHaveLength(0);
    expect(await rowsOf(staying.user.id)).toHaveLength(1);
  });

  it('staff get 403 on subscriptions (conductor only); no token is a 401', async () => {
    for (const role of ['gestor', 'manager', 'admin'] as const) {
      const who = await makeUser(role);
      const post = await api().post('/api/push/subscriptions').set(who.auth).send(subscription());
      expect(post.status, role).toBe(403);
      const del = await api()
        .delete('/api/push/subscriptions')
        .set(who.auth)
        .send({ endpoint: 'https://a.b/c' });
      expect(del.status, role).toBe(403);
      expect(await rowsOf(who.user.id)).toEqual([]);
    }
    expect((await api().post('/api/push/subscriptions').send(subscription())).status).toBe(401);
    expect((await api().delete('/api/push/subscriptions').send({ endpoint: 'https://a.b/c' })).status).toBe(
      401,
    );
  });

  const good = subscription();
  const invalid: [string, unknown, string][] = [
    ['no body', undefined, PUSH_INPUT.endpoint],
    ['an http endpoint', { ...good, endpoint: 'http://push.example.com/x' }, PUSH_INPUT.endpoint],
    ['an endpoint that is not a URL', { ...good, endpoint: 'no es una url' }, PUSH_INPUT.endpoint],
    ['a numeric endpoint', { ...good, endpoint: 42 }, PUSH_INPUT.endpoint],
    [
      'an endpoint over 1000 characters',
      { ...good, endpoint: `https://push.example.com/${'a'.repeat(1000)}` },
      PUSH_INPUT.endpointTooLong(1000),
    ],
    ['no keys', { endpoint: good.endpoint }, PUSH_INPUT.keysRequired],
    [
      'a p256dh that is not base64url',
      { ...good, keys: { ...good.keys, p256dh: '+/'.repeat(44) } },
      PUSH_INPUT.p256dh,
    ],
    [
      'a p256dh of the wrong length',
      { ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(0, 40) } },
      PUSH_INPUT.p256dh,
    ],
    [
      'an auth that is not base64url',
      { ...good, keys: { ...good.keys, auth: 'a b c d e f g h i j k ' } },
      PUSH_INPUT.auth,
    ],
    [
      'an auth of 32 bytes',
      { ...good, keys: { ...good.keys, auth: crypto.randomBytes(32).toString('base64url') } },
      PUSH_INPUT.auth,
    ],
    ['a numeric auth', { ...good, keys: { ...good.keys, auth: 7 } }, PUSH_INPUT.auth],
  ];
  for (const [what, body, detail] of invalid) {
    it(`400 for ${what}, nothing stored`, async () => {
      const driver = await makeUser('conductor');
      const req = api().post('/api/push/subscriptions').set(driver.auth);
      const res = await (body === undefined ? req : req.send(body as object));
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(detail);
      expect(await rowsOf(driver.user.id)).toEqual([]);
    });
  }

  it('400 for a DELETE without a valid endpoint', async () => {
    const driver = await makeUser('conductor');
    for (const body of [{}, { endpoint: 'http://push.example.com/x' }, { endpoint: ['https://a.b/c'] }]) {
      const res = await api().delete('/api/push/subscriptions').set(driver.auth).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toContain(PUSH_INPUT.endpoint);
    }
  });
});

describe('pushes after a task_assigned or task_closed_by_staff notification', () => {
  /** A clocked-in, online driver with two phones subscribed. */
  async function driverWithPhones() {
    const driver = await makeUser('conductor', { online: true });
    await makePunch(driver.user.id, 'entrada');
    const phones = [subscription('fcm.googleapis.com'), subscription('updates.push.services.mozilla.com')];
    for (const p of phones) await api().post('/api/push/subscriptions').set(driver.auth).send(p);
    return { driver, phones };
  }
  const newTask = {
    title: 'Mover',
    origin: 'Muelle 3',
    destination: 'Campa B-7',
    trailer_id: 'R-5150-PU',
    vehicle_type: 'semiremolque',
  };

  it('an assignment by the engine sends {type, task_id, title, body} to each of the driver’s subscriptions', async () => {
    const send = vi
      .spyOn(webpush, 'sendNotification')
      .mockResolvedValue({ statusCode: 201, body: '', headers: {} });
    const { driver, phones } = await driverWithPhones();
    const bystander = await makeUser('conductor');
    await api().post('/api/push/subscriptions').set(bystander.auth).send(subscription());
    const admin = await makeUser('admin');
    const res = await api().post('/api/tasks').set(admin.auth).send(newTask);
    expect(res.status).toBe(201);
    expect(res.body.assigned_to).toBe(driver.user.id);
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    const { publicKey } = vapidKeys();
    // The push says what the notification says.
    const notes = (await api().get('/api/notifications').set(driver.auth)).body as { message: string }[];
    expect(notes).toHaveLength(1);
    expect(notes[0].message).toContain('R-5150-PU');
    const payload = {
      type: 'task_assigned',
      task_id: res.body.id,
      title: 'Nueva tarea asignada',
      body: notes[0].message,
    };
    for (const phone of phones)
      expect(send).toHaveBeenCalledWith(
        { endpoint: phone.endpoint, keys: phone.keys },
        expect.any(String),
        expect.objectContaining({
          TTL: PUSH_TTL_S,
          urgency: 'high',
          contentEncoding: 'aes128gcm',
          vapidDetails: expect.objectContaining({ subject: DEFAULT_VAPID_SUBJECT, publicKey }),
        }),
      );
    for (const call of send.mock.calls) expect(JSON.parse(call[1] as string)).toEqual(payload);
    expect(PUSH_TTL_S).toBeGreaterThanOrEqual(60);
  });

  it('staff finishing the driver’s task sends task_closed_by_staff; a driver’s own completion sends nothing', async () => {
    const send = vi
      .spyOn(webpush, 'sendNotification')
      .mockResolvedValue({ statusCode: 201, body: '', headers: {} });
    const { driver } = await driverWithPhones();
    const admin = await makeUser('admin');
    const task = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id, trailerId: 'R-7788-XY' });
    const done = await api().put(`/api/tasks/${task.id}`).set(admin.auth).send({ status: 'finalizada' });
    expect(done.status).toBe(200);
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    for (const call of send.mock.calls)
      expect(JSON.parse(call[1] as string)).toEqual({
        type: 'task_closed_by_staff',
        task_id: task.id,
        title: 'Tarea finalizada por la torre',
        body: 'La torre ha finalizado tu tarea R-7788-XY',
      });
    send.mockClear();
    const own = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id, trailerId: 'R-7789-XY' });
    const mine = await api().post(`/api/tasks/${own.id}/complete`).set(driver.auth);
    expect(mine.status).toBe(200);
    expect(send).not.toHaveBeenCalled(); // congratulations stay on the screen
  });

  it('a push service that hangs or fails never delays nor fails the request; 404/410 drop the subscription', async () => {
    const { driver, phones } = await driverWithPhones();
    const gone = new webpush.WebPushError('Gone', 410, {}, '', phones[0].endpoint);
    const send = vi
      .spyOn(webpush, 'sendNotification')
      .mockImplementationOnce(() => Promise.reject(gone))
      .mockImplementationOnce(() => new Promise(() => {})); // never answers
    const admin = await makeUser('admin');
    const res = await api().post('/api/tasks').set(admin.auth).send(newTask);
    expect(res.status).toBe(201);
    expect(res.body.assigned_to).toBe(driver.user.id);
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    await vi.waitFor(async () => expect(await rowByEndpoint(phones[0].endpoint)).toBeUndefined());
    expect(await rowByEndpoint(phones[1].endpoint)).toBeDefined();

    // Another failure (a 500 of the push service, a refused connection) keeps the subscription.
    send.mockReset();
    send.mockRejectedValueOnce(new webpush.WebPushError('Boom', 500, {}, '', phones[1].endpoint));
    const closed = await api()
      .put(`/api/tasks/${res.body.id}`)
      .set(admin.auth)
      .send({ status: 'finalizada' });
    expect(closed.status).toBe(200);
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(await rowByEndpoint(phones[1].endpoint)).toBeDefined();
    const notFoundErr = new webpush.WebPushError('Not Found', 404, {}, '', phones[1].endpoint);
    send.mockRejectedValueOnce(notFoundErr);
    const next = await makeTask({ status: 'en_proceso', assignedTo: driver.user.id });
    await api().put(`/api/tasks/${next.id}`).set(admin.auth).send({ status: 'finalizada' });
    await vi.waitFor(async () => expect(await rowsOf(driver.user.id)).toEqual([]));
  });
});
