// Webhooks' admin routes (CONTRACT §21 "Webhooks", "Targets"): create (the secret once), list, read, edit,
// delete, rotate the secret, the `ping`, the deliveries and their retry; validation in Spanish; admin only;
// targets refused when created (and an edit's). Both engines (server-pg).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { WEBHOOK_EVENTS } from '@shared/enums';
import type { Webhook, WebhookDelivery, WebhookTestResult, WebhookWithSecret } from '@shared/schemas';
import { activityLog, webhookDeliveries, webhooks } from '../../server/db/tables';
import { configure } from '../../server/config';
import { resolveTargetsWith } from '../../server/services/webhooks/exchange';
import { db, makeUser, now, setupApp, setupServer, tx, type TestUser } from '../helpers/context';
import { answerWith, startReceiver, until, verified, type Receiver } from '../helpers/webhooks';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let admin: TestUser;
let receiver: Receiver;
beforeEach(async () => {
  ({ api } = await setupApp());
  configure({ webhookAllowLoopback: true });
  admin = await makeUser('admin');
  receiver = await startReceiver();
});
afterEach(async () => {
  resolveTargetsWith(undefined);
  await receiver.close();
});

const create = (body: Record<string, unknown>, who: TestUser = admin) =>
  api().post('/api/admin/webhooks').set(who.auth).send(body);

async function created(body: Record<string, unknown> = {}): Promise<WebhookWithSecret> {
  const res = await create({ url: receiver.url, events: ['task.created'], ...body });
  expect(res.status, res.text).toBe(201);
  return res.body as WebhookWithSecret;
}

describe('CRUD', () => {
  it('creates with the secret shown once; lists, reads, edits, rotates, deletes', async () => {
    const hook = await created({
      events: ['task.created', 'trailer.arrived', 'task.created'],
      description: ' WMS ',
    });
    expect(hook).toMatchObject({
      url: receiver.url,
      events: ['task.created', 'trailer.arrived'],
      description: 'WMS',
      active: true,
      failing_since: null,
      disabled_at: null,
    });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(hook.secret.slice(6), 'base64')).toHaveLength(32);

    const list = await api().get('/api/admin/webhooks').set(admin.auth);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ id: hook.id })]);
    expect((list.body as Record<string, unknown>[])[0]).not.toHaveProperty('secret');
    const one = await api().get(`/api/admin/webhooks/${hook.id}`).set(admin.auth);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('secret');

    const edited = await api()
      .put(`/api/admin/webhooks/${hook.id}`)
      .set(admin.auth)
      .send({ events: WEBHOOK_EVENTS, active: false });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body as Webhook).toMatchObject({
      events: [...WEBHOOK_EVENTS],
      active: false,
      url: receiver.url,
    });

    const rotated = await api().post(`/api/admin/webhooks/${hook.id}/rotate-secret`).set(admin.auth);
    expect(rotated.status).toBe(200);
    expect((rotated.body as WebhookWithSecret).secret).toMatch(/^whsec_/);
    expect((rotated.body as WebhookWithSecret).secret).not.toBe(hook.secret);
    const [row] = await db.select().from(webhooks).where(eq(webhooks.id, hook.id));
    expect(row!.secret).toBe((rotated.body as WebhookWithSecret).secret);

    const gone = await api().delete(`/api/admin/webhooks/${hook.id}`).set(admin.auth);
    expect(gone.status).toBe(204);
    expect(await db.select().from(webhooks)).toHaveLength(0);
    const missing = await api().get(`/api/admin/webhooks/${hook.id}`).set(admin.auth);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Webhook no encontrado');
    const logged = await db.select().from(activityLog).where(eq(activityLog.type, 'integration'));
    expect(logged.map((l) => l.action).sort()).toEqual(
      ['Secreto de webhook renovado', 'Webhook creado', 'Webhook eliminado', 'Webhook modificado'].sort(),
    );
  });

  it('refuses bad input with a Spanish detail', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'ftp://x.test/', events: ['task.created'] }, 'url: La dirección debe ser una URL http o https'],
      [{ url: 'no es una url', events: ['task.created'] }, 'url: La dirección debe ser una URL http o https'],
      [{ url: receiver.url, events: [] }, 'events: Elige al menos un evento'],
      [{ url: receiver.url, events: ['task.exploded'] }, 'events.0: Evento de webhook no válido'],
    ];
    for (const [body, detail] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    const hook = await created();
    const empty = await api().put(`/api/admin/webhooks/${hook.id}`).set(admin.auth).send({});
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('No hay nada que cambiar');
    const badId = await api().get('/api/admin/webhooks/nope').set(admin.auth);
    expect(badId.status).toBe(400);
    const badDelivery = await api().post('/api/admin/webhooks/deliveries/abc/retry').set(admin.auth);
    expect(badDelivery.status).toBe(400);
    const noDelivery = await api().post('/api/admin/webhooks/deliveries/999/retry').set(admin.auth);
    expect(noDelivery.status).toBe(404);
    expect(noDelivery.body.detail).toBe('Entrega no encontrada');
  });

  it('is the admin’s only: 403 for managers, gestores and drivers, 401 without a session', async () => {
    const hook = await created();
    for (const role of ['manager', 'gestor', 'conductor'] as const) {
      const who = await makeUser(role);
      const calls = [
        api().get('/api/admin/webhooks').set(who.auth),
        api()
          .post('/api/admin/webhooks')
          .set(who.auth)
          .send({ url: receiver.url, events: ['task.created'] }),
        api().get(`/api/admin/webhooks/${hook.id}`).set(who.auth),
        api().put(`/api/admin/webhooks/${hook.id}`).set(who.auth).send({ active: false }),
        api().delete(`/api/admin/webhooks/${hook.id}`).set(who.auth),
        api().post(`/api/admin/webhooks/${hook.id}/rotate-secret`).set(who.auth),
        api().post(`/api/admin/webhooks/${hook.id}/test`).set(who.auth),
        api().get(`/api/admin/webhooks/${hook.id}/deliveries`).set(who.auth),
        api().post('/api/admin/webhooks/deliveries/1/retry').set(who.auth),
      ];
      for (const [i, res] of (await Promise.all(calls)).entries())
        expect(res.status, `${role} #${i}`).toBe(403);
    }
    expect((await api().get('/api/admin/webhooks')).status).toBe(401);
    expect(await db.select().from(webhooks)).toHaveLength(1);
  });
});

describe('targets', () => {
  it('refuses loopback, link-local, unspecified, multicast, broadcast and IPv4-mapped forms; allows the LAN', async () => {
    configure({ webhookAllowLoopback: false });
    const refused = [
      'http://127.0.0.1/',
      'http://127.8.9.1:8080/x',
      'http://[::1]/',
      'http://169.254.169.254/latest',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
      'http://[::]/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://2130706433/', // 127.0.0.1 as one number: the URL parser writes it dotted
    ];
    for (const url of refused) {
      const res = await create({ url, events: ['task.created'] });
      expect(res.status, url).toBe(400);
      expect(res.body.detail).toBe('Dirección de webhook no permitida');
    }
    for (const url of ['http://192.168.1.20:8080/wms', 'https://10.0.0.5/', 'http://[fd00::5]/']) {
      const res = await create({ url, events: ['task.created'] });
      expect(res.status, url).toBe(201);
    }
    // A name resolving to a refused address is refused when created, and so is an edit to it.
    resolveTargetsWith(async () => [{ address: '169.254.169.254', family: 4 }]);
    const named = await create({ url: 'http://metadata.test/', events: ['task.created'] });
    expect(named.status).toBe(400);
    expect(named.body.detail).toBe('Dirección de webhook no permitida');
    const [lan] = await db.select().from(webhooks);
    const edit = await api()
      .put(`/api/admin/webhooks/${lan!.id}`)
      .set(admin.auth)
      .send({ url: 'http://[::1]/' });
    expect(edit.status).toBe(400);
    expect(edit.body.detail).toBe('Dirección de webhook no permitida');
  });

  it('WEBHOOK_ALLOW_LOOPBACK allows loopback, never link-local', async () => {
    expect((await create({ url: 'http://127.0.0.1:9/', events: ['task.created'] })).status).toBe(201);
    const res = await create({ url: 'http://169.254.0.1/', events: ['task.created'] });
    expect(res.status).toBe(400);
  });
});

describe('test and deliveries', () => {
  it('POST …/test sends a signed ping at once, outside the queue', async () => {
    const hook = await created();
    const res = await api().post(`/api/admin/webhooks/${hook.id}/test`).set(admin.auth);
    expect(res.status, res.text).toBe(200);
    const result = res.body as WebhookTestResult;
    expect(result).toMatchObject({ status_code: 200, error: null });
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    expect(receiver.received).toHaveLength(1);
    const ping = verified(hook.secret, receiver.received[0]!);
    expect(ping).toMatchObject({ type: 'ping', data: { webhook_id: hook.id } });
    expect(receiver.received[0]!.headers['webhook-id']).toBe(ping.id);
    expect(await db.select().from(webhookDeliveries)).toHaveLength(0);

    receiver.answer = answerWith(503);
    const failed = await api().post(`/api/admin/webhooks/${hook.id}/test`).set(admin.auth);
    expect(failed.body).toMatchObject({ status_code: 503, error: 'El receptor respondió 503' });
  });

  it('lists the last 100 deliveries, newest first; a retry joins the end of the queue', async () => {
    const hook = await created();
    const at = now();
    await tx(() =>
      db.insert(webhookDeliveries).values(
        Array.from({ length: 105 }, (_, i) => ({
          webhookId: hook.id,
          eventId: `evento-${i}`,
          type: 'task.created' as const,
          subject: `task:${i}`,
          payload: '{}',
          status: 'failed' as const,
          attempts: 10,
          lastStatusCode: 500,
          lastError: 'El receptor respondió 500',
          createdAt: at,
        })),
      ),
    );
    const res = await api().get(`/api/admin/webhooks/${hook.id}/deliveries`).set(admin.auth);
    expect(res.status).toBe(200);
    const list = res.body as WebhookDelivery[];
    expect(list).toHaveLength(100);
    expect(list[0]).toMatchObject({
      event_id: 'evento-104',
      type: 'task.created',
      status: 'failed',
      attempts: 10,
      last_status_code: 500,
      last_error: 'El receptor respondió 500',
      next_attempt_at: null,
      delivered_at: null,
    });
    const first = list.at(-1)!;
    expect(first.event_id).toBe('evento-5');
    const retried = await api().post(`/api/admin/webhooks/deliveries/${first.id}/retry`).set(admin.auth);
    expect(retried.status, retried.text).toBe(200);
    const queued = retried.body as WebhookDelivery;
    expect(queued).toMatchObject({ event_id: 'evento-5', status: 'pending', attempts: 0 });
    expect(queued.id).toBeGreaterThan(list[0]!.id);
    const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, 'evento-5'));
    expect(rows.map((r) => r.id)).toEqual([queued.id]);
    // Queued already: moving it would let its task's later events overtake it.
    const again = await api().post(`/api/admin/webhooks/deliveries/${queued.id}/retry`).set(admin.auth);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('La entrega ya está en cola');
  });
});

describe('the running server', () => {
  it('starts its sender: a change committed through the API reaches the receiver', async () => {
    const server = await setupServer();
    configure({ webhookAllowLoopback: true });
    try {
      const boss = await makeUser('admin');
      const made = await server
        .api()
        .post('/api/admin/webhooks')
        .set(boss.auth)
        .send({ url: receiver.url, events: ['task.created'] });
      expect(made.status, made.text).toBe(201);
      const task = await server.api().post('/api/tasks').set(boss.auth).send({
        title: 'Mover',
        origin: 'Fuera',
        destination: 'Fuera',
        trailer_id: 'R-77',
        vehicle_type: 'swap',
      });
      expect(task.status, task.text).toBe(201);
      await until(() => receiver.received.length === 1, 'la creación');
      const payload = verified((made.body as WebhookWithSecret).secret, receiver.received[0]!);
      expect(payload).toMatchObject({ type: 'task.created', data: { task: { id: task.body.id } } });
    } finally {
      await server.close();
    }
  });
});
