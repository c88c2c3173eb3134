// Web Push end to end (CONTRACT §16): the real server in a child process pushes to a push service of
// our own — a local HTTPS server with the self-signed certificate of tests/fixtures, trusted by the
// child through NODE_EXTRA_CA_CERTS. The driver's subscription carries a real P-256 key pair and auth
// secret, so the test decrypts what arrives as a browser would (RFC 8291 over RFC 8188 aes128gcm) and
// checks the VAPID signature (RFC 8292); then the push service answers 410 and the row must go.
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROOT,
  adminToken,
  api,
  cleanup,
  loginAs,
  sleep,
  startServer,
  tempDir,
  type ServerProcess,
} from './harness';

const FIXTURES = path.join(ROOT, 'tests/fixtures');
const CERT = path.join(FIXTURES, 'push-service.crt');
const KEY = path.join(FIXTURES, 'push-service.key');

interface Received {
  id: string;
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  answered: number;
}

/** A push service: records every request; answers 201, or what `answers` says for an endpoint id. */
function startPushService() {
  const received: Received[] = [];
  const answers = new Map<string, number>();
  const waiters: (() => void)[] = [];
  const server = https.createServer(
    { cert: fs.readFileSync(CERT), key: fs.readFileSync(KEY) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = (req.url ?? '').replace(/^\/push\//, '');
        const answered = answers.get(id) ?? 201;
        received.push({
          id,
          method: req.method ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
          answered,
        });
        res.writeHead(answered).end();
        waiters.splice(0).forEach((w) => w());
      });
    },
  );
  return {
    received,
    answers,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
      ),
    /** The n-th request (1-based), waiting up to `ms` for it. */
    async nth(n: number, ms = 10_000): Promise<Received> {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`push ${n} did not arrive within ${ms} ms`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
      return received[n - 1];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) =>
  Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, length));

/** RFC 8291 §3.4 + RFC 8188 §2: the plaintext of a one-record aes128gcm body, as the browser gets it. */
function decrypt(
  body: Buffer,
  ua: crypto.ECDH,
  authSecret: Buffer,
): { plaintext: string; serverKey: Buffer; rs: number } {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const serverKey = body.subarray(21, 21 + idlen); // the application server's ephemeral public key
  const record = body.subarray(21 + idlen);
  const ecdhSecret = ua.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), serverKey]);
  const ikm = hkdf(authSecret, ecdhSecret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(0x02);
  return { plaintext: padded.subarray(0, end).toString('utf8'), serverKey, rs };
}

/** RFC 8292: `vapid t=<JWT ES256>, k=<public key>`; the signature checks out with k; aud is the push service. */
function checkVapid(authorization: string, publicKey: string, audience: string) {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  expect(m, authorization).not.toBeNull();
  const [, jwt, k] = m!;
  expect(k).toBe(publicKey);
  const [header, claims, signature] = jwt.split('.');
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES256' });
  const payload = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
    aud: string;
    exp: number;
    sub: string;
  };
  expect(payload.aud).toBe(audience);
  expect(payload.sub).toMatch(/^mailto:|^https:/);
  expect(payload.exp * 1000).toBeGreaterThan(Date.now());
  const raw = Buffer.from(k, 'base64url');
  const key = crypto.createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  expect(ok).toBe(true);
}

describe('Web Push from the real server to a push service', () => {
  const push = startPushService();
  let server: ServerProcess;
  let dbPath: string;
  let pushPort: number;

  beforeAll(async () => {
    pushPort = await push.listen();
    dbPath = path.join(tempDir('push'), 'torre.db');
    // The local push service is on 127.0.0.1: listed as an operator would (CONTRACT §23).
    server = await startServer({
      env: { DB_PATH: dbPath, NODE_EXTRA_CA_CERTS: CERT, PUSH_ALLOWED_HOSTS: '127.0.0.1' },
    });
  });
  afterAll(async () => {
    await cleanup();
    await push.close();
  });

  it('sends an encrypted, VAPID-signed task_assigned push the phone can read; a 410 drops the subscription', async () => {
    const admin = await adminToken(server.url);
    // A driver registers, is approved, signs in.
    const driverLogin = { email: 'conductora@proceso.test', password: 'clave-conductora-1234' };
    const reg = await api<{ user: { id: string } }>(server.url, '/auth/register', {
      method: 'POST',
      body: { ...driverLogin, name: 'Conductora Push' },
    });
    expect(reg.status).toBe(201);
    const approve = await api(server.url, '/admin/approve-user', {
      method: 'POST',
      token: admin,
      body: { user_id: reg.body.user.id, approved: true },
    });
    expect(approve.status).toBe(200);
    const login = await loginAs(server.url, driverLogin);
    expect(login.status).toBe(200);
    const driver = login.body.access_token;

    // The phone: a real P-256 key pair and a 16-byte auth secret, subscribed with the server's key.
    const key = await api<{ public_key: string }>(server.url, '/push/public-key', { token: driver });
    expect(key.status).toBe(200);
    const ua = crypto.createECDH('prime256v1');
    ua.generateKeys();
    const authSecret = crypto.randomBytes(16);
    const id = crypto.randomUUID();
    const endpoint = `https://127.0.0.1:${pushPort}/push/${id}`;
    const sub = await api(server.url, '/push/subscriptions', {
      method: 'POST',
      token: driver,
      body: {
        endpoint,
        keys: { p256dh: ua.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
      },
    });
    expect(sub.status).toBe(200);

    // Clocked in, then a semiremolque task: the engine gives it to her, and the push goes out.
    const punch = await api(server.url, '/timeclock/punch?clock_type=entrada', {
      method: 'POST',
      token: driver,
    });
    expect(punch.status).toBe(200);
    const task = await api<{ id: string; assigned_to: string | null }>(server.url, '/tasks', {
      method: 'POST',
      token: admin,
      body: {
        title: 'Mover',
        origin: 'Muelle 3',
        destination: 'Campa B-7',
        trailer_id: 'R-8291-WP',
        vehicle_type: 'semiremolque',
      },
    });
    expect(task.status).toBe(201);
    expect(task.body.assigned_to).toBe(reg.body.user.id);

    const got = await push.nth(1);
    expect(got.method).toBe('POST');
    expect(got.id).toBe(id);
    expect(Number(got.headers.ttl)).toBeGreaterThanOrEqual(60);
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    expect(got.headers['content-type']).toBe('application/octet-stream');
    expect(got.headers.urgency).toBe('high');
    checkVapid(String(got.headers.authorization), key.body.public_key, `https://127.0.0.1:${pushPort}`);

    const { plaintext, serverKey, rs } = decrypt(got.body, ua, authSecret);
    expect(serverKey.length).toBe(65);
    expect(rs).toBeGreaterThanOrEqual(18);
    const notes = await api<{ type: string; title: string; message: string; task_id: string }[]>(
      server.url,
      '/notifications',
      { token: driver },
    );
    const note = notes.body.find((n) => n.type === 'task_assigned')!;
    expect(JSON.parse(plaintext)).toEqual({
      type: 'task_assigned',
      task_id: task.body.id,
      title: 'Nueva tarea asignada',
      body: note.message,
    });
    expect(note.message).toContain('R-8291-WP');

    // The browser dropped the subscription: the push service answers 410 to the next push (staff
    // finishing her task), and the server forgets the endpoint.
    const rows = () => {
      const db = new Database(dbPath, { readonly: true, fileMustExist: true });
      try {
        return db.prepare('SELECT endpoint FROM push_subscriptions WHERE endpoint = ?').all(endpoint);
      } finally {
        db.close();
      }
    };
    expect(rows()).toHaveLength(1);
    push.answers.set(id, 410);
    const done = await api(server.url, `/tasks/${task.body.id}`, {
      method: 'PUT',
      token: admin,
      body: { status: 'finalizada' },
    });
    expect(done.status).toBe(200);
    const second = await push.nth(2);
    expect(second.answered).toBe(410);
    expect(JSON.parse(decrypt(second.body, ua, authSecret).plaintext)).toMatchObject({
      type: 'task_closed_by_staff',
      task_id: task.body.id,
    });
    const deadline = Date.now() + 5_000;
    while (rows().length > 0 && Date.now() < deadline) await sleep(50);
    expect(rows()).toEqual([]);
  });
});
