// Web Push on the server (CONTRACT §16, §12): the VAPID public key, a driver's subscriptions (stored,
// moved, removed, validated, role-gated) and the pushes a `task_assigned` / `task_closed_by_staff`
// notification starts after the commit — web-push's sender is spied on here; tests/process/push.test.ts
// sends real encrypted pushes to a local push service.
import dns from 'node:dns';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import webpush from 'web-push';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUSH_INPUT, PUSH_MSG, PUSH_STARTUP_ERR, STARTUP_ERR } from '@shared/labels';
import { checkConfig, config, configure, DEFAULT_VAPID_SUBJECT, loadConfig } from '../../server/config';
import { startServer } from '../../server/server';
import { appSettings, pushSubscriptions } from '../../server/db/tables';
import { logger } from '../../server/logger';
import {
  PUSH_SUBSCRIPTIONS_MAX,
  PUSH_TTL_S,
  VAPID_FILE,
  pushToUser,
  vapidKeys,
} from '../../server/services/push';
import { db, makePunch, makeTask, makeUser, now, setupApp, setupServer, tx } from '../helpers/context';

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
const subscription = (host = 'fcm.googleapis.com') => ({
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

  it('deleting a staff account forgets its escalation-push turn (CONTRACT §20), and only its own', async () => {
    const leaving = await makeUser('gestor');
    const staying = await makeUser('gestor');
    const admin = await makeUser('admin');
    const turn = (id: string) => `escalation_push:${id}`;
    await tx(() =>
      db.insert(appSettings).values([
        { key: turn(leaving.user.id), value: '1' },
        { key: turn(staying.user.id), value: '1' },
      ]),
    );
    const res = await api().delete(`/api/admin/delete-user/${leaving.user.id}`).set(admin.auth);
    expect(res.status).toBe(200);
    const keys = (await db.select().from(appSettings)).map((r) => r.key);
    expect(keys).not.toContain(turn(leaving.user.id));
    expect(keys).toContain(turn(staying.user.id));
  });

  it('staff subscribe and unsubscribe their own devices too (CONTRACT §24); no token is a 401', async () => {
    for (const role of ['gestor', 'manager', 'admin'] as const) {
      const who = await makeUser(role);
      const sub = subscription();
      const post = await api().post('/api/push/subscriptions').set(who.auth).send(sub);
      expect(post.status, role).toBe(200);
      expect((await rowsOf(who.user.id)).map((r) => r.endpoint)).toEqual([sub.endpoint]);
      const del = await api()
        .delete('/api/push/subscriptions')
        .set(who.auth)
        .send({ endpoint: sub.endpoint });
      expect(del.status, role).toBe(200);
      expect(await rowsOf(who.user.id)).toEqual([]);
    }
    expect((await api().post('/api/push/subscriptions').send(subscription())).status).toBe(401);
    const anonymous = await api()
      .delete('/api/push/subscriptions')
      .send({ endpoint: subscription().endpoint });
    expect(anonymous.status).toBe(401);
  });

  const good = subscription();
  const invalid: [string, unknown, string][] = [
    ['no body', undefined, PUSH_INPUT.endpoint],
    ['an endpoint that is not a URL', { ...good, endpoint: 'no es una url' }, PUSH_INPUT.endpoint],
    ['a numeric endpoint', { ...good, endpoint: 42 }, PUSH_INPUT.endpoint],
    [
      'an endpoint over 1000 characters',
      { ...good, endpoint: `https://fcm.googleapis.com/${'a'.repeat(1000)}` },
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
    for (const [body, detail] of [
      [{}, PUSH_INPUT.endpoint],
      [{ endpoint: ['https://fcm.googleapis.com/c'] }, PUSH_INPUT.endpoint],
      [{ endpoint: 'http://fcm.googleapis.com/x' }, PUSH_INPUT.serviceNotAllowed],
      [{ endpoint: 'https://10.0.0.1/x' }, PUSH_INPUT.serviceNotAllowed],
    ] as const) {
      const res = await api().delete('/api/push/subscriptions').set(driver.auth).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toContain(detail);
    }
  });
});

describe('only the browsers’ push services (CONTRACT §23)', () => {
  // The tests' own PUSH_ALLOWED_HOSTS (127.0.0.1, tests/helpers/setup-env.ts) is left out here.
  const allowedHosts = config.pushAllowedHosts;
  beforeEach(() => configure({ pushAllowedHosts: [] }));
  afterEach(() => configure({ pushAllowedHosts: allowedHosts, pushProxy: undefined }));

  const refused: [string, string][] = [
    ['loopback with a port', 'https://127.0.0.1:8443/x'],
    ['localhost', 'https://localhost/x'],
    ['the cloud metadata address', 'https://169.254.169.254/x'],
    ['a private address', 'https://10.0.0.1/x'],
    ['loopback written in hex', 'https://0x7f000001/x'],
    ['loopback written short', 'https://127.1/x'],
    ['IPv6 loopback', 'https://[::1]/x'],
    ['credentials in the URL', 'https://user:pw@fcm.googleapis.com/x'],
    ['a user name alone', 'https://user@fcm.googleapis.com/x'],
    ['plain http', 'http://fcm.googleapis.com/x'],
    ['another port', 'https://fcm.googleapis.com:8443/x'],
    ['a listed name inside another domain', 'https://evilfcm.googleapis.com.attacker.com/x'],
    ['a name ending like a listed one', 'https://evilfcm.googleapis.com/x'],
    ['the bare apex of a wildcard', 'https://push.services.mozilla.com/x'],
    ['a trailing dot', 'https://fcm.googleapis.com./x'],
    ['another scheme', 'ftp://fcm.googleapis.com/x'],
  ];
  for (const [what, endpoint] of refused)
    it(`400 \`Servicio de avisos no admitido\` for ${what}: ${endpoint}`, async () => {
      const driver = await makeUser('conductor');
      const res = await api()
        .post('/api/push/subscriptions')
        .set(driver.auth)
        .send({ endpoint, keys: browserKeys() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: PUSH_INPUT.serviceNotAllowed });
      expect(await rowsOf(driver.user.id)).toEqual([]);
    });

  it('accepts the push services of Chrome, Firefox, Safari and Edge, in any letter case', async () => {
    const driver = await makeUser('conductor');
    const endpoints = [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/x',
      'https://web.push.apple.com/x',
      'https://api.push.apple.com/x',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
      'https://FCM.GoogleAPIs.com:443/fcm/send/upper',
    ];
    for (const endpoint of endpoints) {
      const res = await api()
        .post('/api/push/subscriptions')
        .set(driver.auth)
        .send({ endpoint, keys: browserKeys() });
      expect(res.status, endpoint).toBe(200);
    }
    expect(await rowsOf(driver.user.id)).toHaveLength(endpoints.length);
  });

  it('a PUSH_ALLOWED_HOSTS host is accepted on any port (https only, no credentials); the list is exact', async () => {
    const driver = await makeUser('conductor');
    configure({ pushAllowedHosts: ['127.0.0.1', 'push.lan'] });
    const post = (endpoint: string) =>
      api().post('/api/push/subscriptions').set(driver.auth).send({ endpoint, keys: browserKeys() });
    for (const endpoint of [
      'https://127.0.0.1:8443/push/1',
      'https://127.0.0.1/push/2',
      'https://PUSH.lan:9/x',
    ])
      expect((await post(endpoint)).status, endpoint).toBe(200);
    for (const endpoint of ['http://127.0.0.1:8443/x', 'https://a:b@push.lan/x', 'https://127.0.0.2/x'])
      expect((await post(endpoint)).body, endpoint).toEqual({ detail: PUSH_INPUT.serviceNotAllowed });
    configure({ pushAllowedHosts: [] });
    expect((await post('https://127.0.0.1:8443/push/3')).status).toBe(400);
  });

  it('PUSH_ALLOWED_HOSTS is read as the URL parser writes hosts; start-up refuses an entry with a port or a path', () => {
    const env = { JWT_SECRET: 'x'.repeat(40), DB_PATH: ':memory:' };
    expect(
      loadConfig({ ...env, PUSH_ALLOWED_HOSTS: ' 127.0.0.1 , Push.LAN,[::1]' }).pushAllowedHosts,
    ).toEqual(['127.0.0.1', 'push.lan', '[::1]']);
    const base = { ...config, jwtSecret: 'x'.repeat(40), adminEmail: undefined, adminPassword: undefined };
    for (const entry of ['127.0.0.1:8443', 'push.lan/x', 'a@push.lan'])
      expect(() =>
        checkConfig({
          ...base,
          pushAllowedHosts: loadConfig({ ...env, PUSH_ALLOWED_HOSTS: entry }).pushAllowedHosts,
        }),
      ).toThrow(PUSH_STARTUP_ERR.allowedHosts(entry));
    expect(() => checkConfig({ ...base, pushProxy: 'socks5://proxy:1080' })).toThrow(PUSH_STARTUP_ERR.proxy);
    expect(() => checkConfig({ ...base, pushProxy: 'http://proxy.lan:3128' })).not.toThrow();
  });

  it('at send time a listed service that resolves to 127.0.0.1 gets no connection, only a warning', async () => {
    const driver = await makeUser('conductor');
    const endpoint = `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`;
    await api().post('/api/push/subscriptions').set(driver.auth).send({ endpoint, keys: browserKeys() });
    const system = dns.promises.lookup.bind(dns.promises);
    const resolve = vi
      .spyOn(dns.promises, 'lookup')
      .mockImplementation(((host: string, options: dns.LookupAllOptions) =>
        host === 'fcm.googleapis.com'
          ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
          : system(host, options)) as typeof dns.promises.lookup);
    const warn = vi.spyOn(logger, 'warn');
    await pushToUser(driver.user.id, { type: 'task_assigned', task_id: null, title: 't', body: 'b' });
    expect(resolve).toHaveBeenCalledWith('fcm.googleapis.com', expect.anything());
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({
        // The refusal itself (tests/unit/outbound.test.ts: no socket is opened), not a refused connection.
        err: expect.stringMatching(
          /fcm\.googleapis\.com resuelve a 127\.0\.0\.1, una dirección que no es pública/,
        ),
        push_service: 'https://fcm.googleapis.com',
      }),
      'no se pudo enviar un aviso push',
    );
    // The subscription stays: the service may resolve properly later.
    expect(await rowByEndpoint(endpoint)).toBeDefined();
  });

  it('a push leaves through the checked agent, or through PUSH_PROXY when set', async () => {
    const send = vi
      .spyOn(webpush, 'sendNotification')
      .mockResolvedValue({ statusCode: 201, body: '', headers: {} });
    const driver = await makeUser('conductor');
    await api().post('/api/push/subscriptions').set(driver.auth).send(subscription());
    const payload = { type: 'task_assigned', task_id: null, title: 't', body: 'b' } as const;
    await pushToUser(driver.user.id, payload);
    expect(send.mock.calls[0][2]).toMatchObject({ agent: expect.any(https.Agent) });
    expect(send.mock.calls[0][2]).not.toHaveProperty('proxy');
    configure({ pushProxy: 'http://proxy.lan:3128' });
    await pushToUser(driver.user.id, payload);
    expect(send.mock.calls[1][2]).toMatchObject({ proxy: 'http://proxy.lan:3128' });
    expect(send.mock.calls[1][2]).not.toHaveProperty('agent');
  });

  it('at start, stored subscriptions outside the list are deleted and the others kept', async () => {
    const server = await setupServer();
    const driver = await makeUser('conductor');
    const row = (endpoint: string) => ({
      id: crypto.randomUUID(),
      userId: driver.user.id,
      endpoint,
      ...browserKeys(),
      createdAt: now(),
    });
    const kept = row('https://fcm.googleapis.com/fcm/send/kept');
    const foreign = [row('https://169.254.169.254/latest/meta-data'), row('https://push.example.com/old')];
    await tx(() => db.insert(pushSubscriptions).values([kept, ...foreign]));
    await server.close();
    const again = await startServer({ port: 0, host: '127.0.0.1', print: () => {} });
    try {
      expect((await rowsOf(driver.user.id)).map((r) => r.endpoint)).toEqual([kept.endpoint]);
    } finally {
      await again.close();
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
