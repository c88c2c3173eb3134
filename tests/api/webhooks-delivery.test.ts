// Webhook deliveries (CONTRACT §21 "Events", "Delivery", "Targets"): every event type reaches a local
// receiver signed the Standard Webhooks way, with its snapshot; a 500 then a 200 delivers twice with the same
// webhook-id and holds the task's next event behind it; a rolled-back change sends nothing; pending rows
// survive a restart of the sender; two senders (two nodes) deliver each event once and in order; a drain
// reads its queue once more before its lease goes back; a batch over one kept connection, recorded up to
// its failure; a kept connection cut as it is reused is tried once more; a slow receiver keeps the writes'
// p99 within noise (issue 29); a name resolving to a refused address is refused at send; 64 kB, timeouts
// and redirects; the schedule and `failed`; deactivation after 24 h with `webhook_disabled`; retention.
// Both engines (server-pg).
import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { WEBHOOK } from '@shared/constants';
import { WEBHOOK_FAILURE } from '@shared/labels';
import { WEBHOOK_EVENTS, type WebhookEvent } from '@shared/enums';
import type { GateEntryResult, Task, WebhookWithSecret } from '@shared/schemas';
import { percentile } from '@shared/gate';
import { plateKey } from '@shared/text';
import { notifications, webhookDeliveries, webhooks } from '../../server/db/tables';
import { configure } from '../../server/config';
import { commit } from '../../server/changes/commit';
import { markDamaged } from '../../server/services/trailers';
import { exchange, resolveTargetsWith } from '../../server/services/webhooks/exchange';
import {
  WebhookSender,
  startWebhookSender,
  stopWebhookSender,
  sweepDeliveries,
} from '../../server/services/webhooks/sender';
import { advanceClock, db, makeUser, now, setupApp, tx, type TestUser } from '../helpers/context';
import { createMove, makePlace } from '../helpers/places';
import { answerWith, startReceiver, until, verified, type Receiver } from '../helpers/webhooks';
import { messagesOf } from '../helpers/pg-messages';

let api: Awaited<ReturnType<typeof setupApp>>['api'];
let admin: TestUser;
let manager: TestUser;
let receiver: Receiver;
beforeEach(async () => {
  ({ api } = await setupApp());
  configure({ webhookAllowLoopback: true });
  admin = await makeUser('admin');
  manager = await makeUser('manager');
  receiver = await startReceiver();
  startWebhookSender({ nodeId: 'nodo-test' });
});
afterEach(async () => {
  await stopWebhookSender();
  resolveTargetsWith(undefined);
  await receiver.close();
});

const SECOND = 1000;
const HOUR = 3600 * SECOND;

async function subscribe(events: readonly WebhookEvent[] = WEBHOOK_EVENTS, url = receiver.url) {
  const res = await api().post('/api/admin/webhooks').set(admin.auth).send({ url, events });
  expect(res.status, res.text).toBe(201);
  return res.body as WebhookWithSecret;
}

async function newTask(fields: Record<string, unknown> = {}): Promise<Task> {
  const res = await createMove(api, manager, {
    trailer_id: `R-${Math.random().toString(36).slice(2, 8)}`,
    ...fields,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as Task;
}

async function put(id: string, body: Record<string, unknown>, who: TestUser = manager): Promise<Task> {
  const res = await api().put(`/api/tasks/${id}`).set(who.auth).send(body);
  expect(res.status, res.text).toBe(200);
  return res.body as Task;
}

const deliveries = () => db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id);
const types = () => receiver.received.map((r) => r.payload.type);
/** The receiver has them before the sender writes so: wait for the rows too. */
const allDelivered = () =>
  until(async () => (await deliveries()).every((d) => d.status === 'delivered'), 'todas anotadas');

describe('events', () => {
  it('every event type is delivered in order, signed, with its snapshot', async () => {
    const hook = await subscribe();
    const driver = await makeUser('conductor', { taskTypes: ['swap'] });
    const a = await makePlace(api, manager, 'CA-1', 'Campa A-1', 'campa', 2);
    const b = await makePlace(api, manager, 'CA-2', 'Campa A-2', 'campa', 2);
    const entry = await api()
      .post('/api/gate/entries')
      .set(manager.auth)
      .send({
        truck_plate: '1234-BCD',
        carrier: 'Transportes Pérez',
        trailer: { trailer_id: 'R-1', load_state: 'vacio', location_id: a.id },
      });
    expect(entry.status, entry.text).toBe(201);
    const { visit } = entry.body as GateEntryResult;
    const task = await newTask({
      trailer_id: 'R-1',
      origin_location_id: a.id,
      destination_location_id: b.id,
    });
    await put(task.id, { description: 'Con prisa' });
    await put(task.id, { on_hold: true, hold_reason: 'Esperando papeles' });
    await put(task.id, { on_hold: false });
    await put(task.id, { status: 'en_proceso', assigned_to: driver.user.id });
    const returned = await api().post(`/api/tasks/${task.id}/return`).set(driver.auth).send({});
    expect(returned.status, returned.text).toBe(200);
    await put(task.id, { status: 'en_proceso', assigned_to: driver.user.id });
    await put(task.id, { status: 'finalizada' });
    await put(task.id, { status: 'bolsa_trabajo' });
    expect((await api().delete(`/api/tasks/${task.id}`).set(manager.auth)).status).toBe(200);
    const corrected = await api()
      .post('/api/trailers/R-1/position')
      .set(manager.auth)
      .send({ location_id: b.id, note: 'Estaba en la A-2' });
    expect(corrected.status, corrected.text).toBe(200);
    expect(
      (await api().post('/api/trailers/R-1/damage').set(manager.auth).send({ note: 'Lona rota' })).status,
    ).toBe(200);
    expect(
      (await api().post('/api/trailers/R-1/clear-damage').set(manager.auth).send({ note: 'Cosida' })).status,
    ).toBe(200);
    const exit = await api()
      .post('/api/gate/exits')
      .set(manager.auth)
      .send({ visit_id: visit.id, trailer: { trailer_id: 'R-1' } });
    expect(exit.status, exit.text).toBe(200);

    const expected: WebhookEvent[] = [
      'trailer.arrived',
      'visit.opened',
      'task.created',
      'task.updated',
      'task.held',
      'task.released',
      'task.assigned',
      'task.returned',
      'task.assigned',
      'task.completed',
      'trailer.moved',
      'task.reopened',
      'trailer.moved',
      'task.deleted',
      'trailer.moved',
      'trailer.damaged',
      'trailer.damage_cleared',
      'trailer.departed',
      'visit.closed',
    ];
    await until(() => receiver.received.length >= expected.length, 'todos los eventos');
    expect(types()).toEqual(expected);
    expect(new Set(WEBHOOK_EVENTS)).toEqual(new Set(types()));
    for (const r of receiver.received) {
      const payload = verified(hook.secret, r);
      expect(r.headers['webhook-id']).toBe(payload.id);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(payload.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    const byType = (type: WebhookEvent, nth = 0) =>
      receiver.received.filter((r) => r.payload.type === type)[nth]!.payload;
    expect(byType('task.created').data.task).toMatchObject({
      id: task.id,
      status: 'bolsa_trabajo',
      version: 1,
    });
    expect(byType('task.assigned').data.task).toMatchObject({
      status: 'en_proceso',
      assigned_to: driver.user.id,
    });
    expect(byType('task.completed').data.task).toMatchObject({ id: task.id, status: 'finalizada' });
    expect(byType('task.deleted').data.task).toMatchObject({ id: task.id });
    expect(byType('trailer.arrived').data).toMatchObject({
      trailer: { trailer_id: 'R-1', in_yard: true, location: { id: a.id } },
      visit: { id: visit.id },
      from_location_id: null,
      to_location_id: a.id,
    });
    expect(byType('trailer.moved').data).toMatchObject({ from_location_id: a.id, to_location_id: b.id });
    expect(byType('trailer.moved', 2).data).toMatchObject({ from_location_id: a.id, to_location_id: b.id });
    expect(byType('trailer.damaged').data).toMatchObject({
      trailer: { damaged: true, damage_note: 'Lona rota' },
      from_location_id: b.id,
      to_location_id: b.id,
    });
    expect(byType('trailer.departed').data).toMatchObject({
      trailer: { in_yard: false },
      visit: { id: visit.id },
      from_location_id: b.id,
      to_location_id: null,
    });
    expect(byType('visit.closed').data.visit).toMatchObject({ id: visit.id, picked_trailer_id: 'R-1' });
    await allDelivered();
    const rows = await deliveries();
    expect(rows).toHaveLength(expected.length);
    expect(rows.every((r) => r.attempts === 1 && r.lastStatusCode === 200 && r.lastError === null)).toBe(
      true,
    );
  });

  it('only subscribed events of active webhooks are queued; without webhooks nothing is', async () => {
    await newTask();
    expect(await deliveries()).toHaveLength(0);
    const hook = await subscribe(['task.deleted']);
    const off = await subscribe(['task.created']);
    await api().put(`/api/admin/webhooks/${off.id}`).set(admin.auth).send({ active: false });
    const task = await newTask();
    expect(await deliveries()).toHaveLength(0);
    expect((await api().delete(`/api/tasks/${task.id}`).set(manager.auth)).status).toBe(200);
    const rows = await deliveries();
    expect(rows.map((r) => [r.webhookId, r.type, r.subject])).toEqual([
      [hook.id, 'task.deleted', `task:${task.id}`],
    ]);
  });

  it('a change rolled back sends nothing', async () => {
    await subscribe();
    await newTask({ trailer_id: 'R-9' });
    await until(() => receiver.received.length === 1, 'la creación');
    await expect(
      commit(async () => {
        await markDamaged(plateKey('R-9'), 'Golpe', null);
        throw new Error('deshecho');
      }),
    ).rejects.toThrow('deshecho');
    await advanceClock(SECOND);
    expect(types()).toEqual(['task.created']);
    expect(await deliveries()).toHaveLength(1);
  });
});

describe('delivery', () => {
  it('500 then 200: the same webhook-id twice, and the task’s next event only after it', async () => {
    const hook = await subscribe();
    receiver.answer = (n, _req, res) => res.writeHead(n === 0 ? 500 : 200).end();
    const task = await newTask();
    await until(() => receiver.received.length === 1, 'el primer intento');
    await until(async () => (await deliveries())[0]?.attempts === 1, 'el intento anotado');
    await put(task.id, { description: 'Cambiada' });
    const [first, second] = await deliveries();
    expect(first).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: 500,
      lastError: 'El receptor respondió 500',
    });
    expect(first!.nextAttemptAt!.getTime() - now().getTime()).toBeGreaterThan(4 * SECOND);
    expect(second).toMatchObject({ status: 'pending', attempts: 0 });
    await advanceClock(2 * SECOND);
    expect(receiver.received).toHaveLength(1); // not due yet: the head waits, and so does what follows it
    await advanceClock(3 * SECOND);
    await until(() => receiver.received.length === 3, 'el reintento y el siguiente');
    expect(types()).toEqual(['task.created', 'task.created', 'task.updated']);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    verified(hook.secret, receiver.received[1]!);
    await allDelivered();
    expect((await deliveries()).map((d) => [d.status, d.attempts])).toEqual([
      ['delivered', 2],
      ['delivered', 1],
    ]);
  });

  it('behind a head waiting for its retry, a commit that queues more starts no look for due deliveries', async () => {
    await subscribe(['task.created']);
    receiver.answer = answerWith(500);
    await newTask();
    await until(async () => (await deliveries())[0]?.attempts === 1, 'el primer fallo');
    const sent = await messagesOf(async () => {
      for (let i = 0; i < 3; i++) await newTask();
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(sent.filter((text) => /select "next_attempt_at" from "webhook_deliveries"/.test(text))).toEqual(
      [],
    );
    expect(receiver.received).toHaveLength(1);
    receiver.answer = answerWith(200);
    await advanceClock(WEBHOOK.retryDelaysMs[0]!);
    await allDelivered();
    expect(receiver.received).toHaveLength(5);
  });

  it('the retry schedule, then failed; the failing head no longer holds the queue', async () => {
    await subscribe(['task.created']);
    receiver.answer = answerWith(500);
    await newTask();
    await until(() => receiver.received.length === 1, 'el primer intento');
    for (const [i, wait] of WEBHOOK.retryDelaysMs.entries()) {
      await until(async () => (await deliveries())[0]?.attempts === i + 1, `intento ${i + 1}`);
      const [row] = await deliveries();
      expect(row!.status).toBe('pending');
      expect(row!.nextAttemptAt!.getTime() - now().getTime()).toBeGreaterThan(wait - SECOND);
      expect(row!.nextAttemptAt!.getTime() - now().getTime()).toBeLessThanOrEqual(wait);
      await advanceClock(wait);
    }
    await until(async () => (await deliveries())[0]?.status === 'failed', 'fallida');
    expect(receiver.received).toHaveLength(10);
    expect(await deliveries()).toMatchObject([{ attempts: 10, nextAttemptAt: null, lastStatusCode: 500 }]);
  });

  it('a batch goes over one kept connection, its attempts recorded up to the one that failed', async () => {
    await subscribe(['task.created']);
    await stopWebhookSender();
    for (let i = 0; i < 5; i++) await newTask();
    // The 4th answers 500: the three before it delivered, it waits for its retry, the 5th behind it.
    receiver.answer = (n, _req, res) => res.writeHead(n === 3 ? 500 : 200).end();
    const sender = startWebhookSender({ nodeId: 'nodo-lotes' });
    await sender.settle();
    expect(receiver.received).toHaveLength(4);
    expect(receiver.connections()).toBe(1);
    const rows = await deliveries();
    expect(rows.map((d) => [d.status, d.attempts, d.lastStatusCode])).toEqual([
      ['delivered', 1, 200],
      ['delivered', 1, 200],
      ['delivered', 1, 200],
      ['pending', 1, 500],
      ['pending', 0, null],
    ]);
    const wait = rows[3]!.nextAttemptAt!.getTime() - now().getTime();
    expect(wait).toBeGreaterThan(WEBHOOK.retryDelaysMs[0]! - SECOND);
    expect(wait).toBeLessThanOrEqual(WEBHOOK.retryDelaysMs[0]!);
    expect((await db.select().from(webhooks))[0]!.failingSince).not.toBeNull();
    await advanceClock(WEBHOOK.retryDelaysMs[0]!);
    await allDelivered();
    expect(receiver.received).toHaveLength(6);
    expect(receiver.connections()).toBe(1);
    expect((await db.select().from(webhooks))[0]!.failingSince).toBeNull();
  });

  it('a kept connection the receiver closes as it is reused: the attempt once more on a new one, only once', async () => {
    const message = { id: 'msg_1', body: '{}' };
    const target = { url: receiver.url, secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` };
    // The 2nd request arrives on the kept connection and is cut: sent again, on a new connection.
    receiver.answer = (n, req, res) => (n === 1 ? req.socket.destroy() : res.writeHead(200).end());
    expect(await exchange(target, message)).toMatchObject({ statusCode: 200, error: null });
    expect(await exchange(target, message)).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.received).toHaveLength(3);
    expect(receiver.connections()).toBe(2);
    expect(receiver.received[2]!.headers['webhook-id']).toBe(receiver.received[1]!.headers['webhook-id']);
    // Cut again on the new connection too: a failure, not a third try.
    receiver.answer = (_n, req) => req.socket.destroy();
    expect(await exchange(target, message)).toMatchObject({
      statusCode: null,
      error: WEBHOOK_FAILURE.network('ECONNRESET'),
    });
    expect(receiver.received).toHaveLength(5);
  });

  it('a drain whose queue ran dry reads it once more before its lease goes back: another node’s event goes at once', async () => {
    await subscribe(['task.created']);
    await newTask();
    await until(() => receiver.received.length === 1, 'la primera');
    // Queued as another node's commit would queue it: this node's sender is not woken for it.
    const [first] = await deliveries();
    const eventId = crypto.randomUUID();
    await tx(() =>
      db.insert(webhookDeliveries).values({
        webhookId: first!.webhookId,
        eventId,
        type: first!.type,
        subject: first!.subject,
        payload: first!.payload.replace(first!.eventId, eventId),
        nextAttemptAt: now(),
        createdAt: now(),
      }),
    );
    // Well before the sender's own look every 5 s.
    await until(() => receiver.received.length === 2, 'la del otro nodo', 2000);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(eventId);
    await allDelivered();
  });

  it('pending deliveries survive a restart of the sender', async () => {
    await subscribe(['task.created']);
    await stopWebhookSender();
    await newTask();
    await newTask();
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received).toHaveLength(0);
    expect((await deliveries()).map((d) => d.status)).toEqual(['pending', 'pending']);
    startWebhookSender({ nodeId: 'nodo-reiniciado' });
    await until(() => receiver.received.length === 2, 'tras el reinicio');
    await allDelivered();
    await stopWebhookSender(); // its lease given back
    expect((await deliveries()).map((d) => d.status)).toEqual(['delivered', 'delivered']);
    expect((await db.select().from(webhooks))[0]).toMatchObject({ leaseOwner: null, leaseUntil: null });
  });

  it('two senders (two nodes) deliver each event once, in order', async () => {
    await subscribe(['task.created', 'task.updated']);
    await stopWebhookSender();
    receiver.answer = (_n, _req, res) => setTimeout(() => res.writeHead(200).end(), 5);
    const task = await newTask();
    for (let i = 0; i < 12; i++) await put(task.id, { description: `Versión ${i}` });
    const nodes = [new WebhookSender({ nodeId: 'nodo-a' }), new WebhookSender({ nodeId: 'nodo-b' })];
    nodes.forEach((n) => n.start());
    for (let round = 0; round < 5; round++) await Promise.all(nodes.map((n) => n.settle()));
    await until(() => receiver.received.length >= 13, 'los trece');
    await Promise.all(nodes.map((n) => n.stop()));
    const ids = receiver.received.map((r) => r.payload.id);
    expect(new Set(ids).size).toBe(13);
    expect(ids).toEqual((await deliveries()).map((d) => d.eventId));
    expect(receiver.received.map((r) => (r.payload.data.task as Task).version)).toEqual(
      Array.from({ length: 13 }, (_, i) => i + 1),
    );
  });
  it('a slow receiver (100 ms an answer) slows no write, and loses or reorders nothing', async () => {
    await subscribe(['task.created', 'task.updated']);
    receiver.answer = (_n, _req, res) => setTimeout(() => res.writeHead(200).end(), 100);
    const tasks = await Promise.all([0, 1, 2, 3].map(() => newTask()));
    const started = performance.now();
    for (let round = 0; round < 15; round++)
      await Promise.all(tasks.map((t) => put(t.id, { description: `Cambio ${round}` })));
    const writing = performance.now() - started;
    const sentMeanwhile = receiver.received.length;
    const changes = tasks.length * 16;
    // Had the writes waited for the receiver, 60 of them would have taken 6 s at least.
    expect(writing).toBeLessThan(60 * 100);
    expect(sentMeanwhile).toBeLessThan(changes);
    await until(() => receiver.received.length === changes, 'todos los cambios', 20_000);
    for (const t of tasks) {
      const versions = receiver.received
        .map((r) => r.payload.data.task as Task)
        .filter((task) => task.id === t.id)
        .map((task) => task.version);
      expect(versions).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    }
    expect(new Set(receiver.received.map((r) => r.payload.id)).size).toBe(changes);
  }, 30_000);

  it('200 task changes with a slow receiver: the writes’ p99 stays within noise of the same writes without it', async () => {
    const hook = await subscribe(['task.updated']);
    receiver.answer = (_n, _req, res) => setTimeout(() => res.writeHead(200).end(), 100);
    const tasks = await Promise.all([0, 1, 2, 3].map(() => newTask()));
    const setActive = async (active: boolean) =>
      expect(
        (await api().put(`/api/admin/webhooks/${hook.id}`).set(admin.auth).send({ active })).status,
      ).toBe(200);
    /** Each write's own time, four at once (a busy yard), 100 of them. */
    const timedWrites = async (label: string) => {
      const times: number[] = [];
      for (let round = 0; round < 25; round++)
        await Promise.all(
          tasks.map(async (t) => {
            const started = performance.now();
            await put(t.id, { description: `${label} ${round}` });
            times.push(performance.now() - started);
          }),
        );
      return times;
    };
    // Blocks alternate, so that what else the machine does weighs on both sides alike: without a sending
    // webhook (inactive: nothing queued, nothing sent) and with it (every change queued, the receiver
    // taking 100 ms an answer, the sender busy all along).
    const without: number[] = [];
    const withHook: number[] = [];
    for (const block of [0, 1]) {
      await setActive(false);
      without.push(...(await timedWrites(`Sin webhook ${block}`)));
      await setActive(true);
      withHook.push(...(await timedWrites(`Con webhook ${block}`)));
    }
    expect(withHook).toHaveLength(200);
    // The sender was still at it: had the writes waited for it, 200 of them would have taken 20 s.
    expect(receiver.received.length).toBeLessThan(200);
    expect(await db.select().from(webhookDeliveries)).toHaveLength(200);
    const p99 = (times: number[]) =>
      percentile(
        [...times].sort((a, b) => a - b),
        0.99,
      );
    expect(p99(withHook)).toBeLessThanOrEqual(3 * p99(without) + 20);
  }, 60_000);
});

describe('targets and limits', () => {
  it('connects to the address its name resolved to; a name resolving to a refused address is refused at send', async () => {
    resolveTargetsWith(async () => [{ address: '127.0.0.1', family: 4 }]);
    await subscribe(['task.created'], `http://wms.test:${receiver.port}/hooks`);
    await newTask();
    await until(() => receiver.received.length === 1, 'por el nombre');
    expect(receiver.received[0]!.headers.host).toBe(`wms.test:${receiver.port}`);
    // The name now answers the cloud's metadata address (a rebinding): the attempt fails, nothing is sent.
    resolveTargetsWith(async () => [
      { address: '127.0.0.1', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ]);
    await newTask();
    await until(async () => (await deliveries())[1]?.attempts === 1, 'el intento rechazado');
    expect((await deliveries())[1]).toMatchObject({
      status: 'pending',
      lastStatusCode: null,
      lastError: 'Dirección no permitida',
    });
    expect(receiver.received).toHaveLength(1);
  });

  it('reads at most 64 kB of an answer, follows no redirect, gives up at its time limit', async () => {
    const message = { id: 'msg_1', body: '{}' };
    const target = { url: receiver.url, secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` };
    // An endless 200: taken as delivered once 64 kB are read.
    receiver.answer = (_n, _req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 120);
      const pump = setInterval(() => res.write(chunk), 1);
      res.on('close', () => clearInterval(pump));
    };
    expect(await exchange(target, message)).toMatchObject({ statusCode: 200, error: null });
    // A redirect is a failure, its target never asked.
    receiver.answer = (_n, _req, res) => res.writeHead(302, { location: `${receiver.url}/otra` }).end();
    expect(await exchange(target, message)).toMatchObject({
      statusCode: 302,
      error: 'Redirección (302) no seguida',
    });
    expect(receiver.received).toHaveLength(2);
    // No answer within the limit (10 s in production; shortened here).
    receiver.answer = () => {};
    const slow = await exchange(target, message, 300);
    expect(slow).toMatchObject({ statusCode: null, error: 'Sin respuesta completa en 10 s' });
    expect(slow.durationMs).toBeGreaterThanOrEqual(290);
    expect(slow.durationMs).toBeLessThan(3000);
    // A name that never resolves spends the same time, not more.
    resolveTargetsWith(() => new Promise(() => {}));
    const unresolved = await exchange({ ...target, url: `http://wms.test:${receiver.port}/` }, message, 300);
    expect(unresolved).toMatchObject({ statusCode: null, error: 'Sin respuesta completa en 10 s' });
    expect(unresolved.durationMs).toBeLessThan(3000);
    expect(receiver.received).toHaveLength(3);
  });
});

describe('failing endpoints and retention', () => {
  it('failing for 24 h: deactivated, every admin told, its pending deliveries kept', async () => {
    const hook = await subscribe(['task.created']);
    const other = await makeUser('admin');
    receiver.answer = answerWith(500);
    await newTask();
    await until(async () => (await deliveries())[0]?.attempts === 1, 'el primer fallo');
    const [failing] = await db.select().from(webhooks);
    expect(failing!.failingSince).not.toBeNull();
    await advanceClock(23 * HOUR);
    await until(async () => (await deliveries())[0]?.attempts === 2, 'el segundo fallo');
    expect((await db.select().from(webhooks))[0]!.active).toBe(true);
    await advanceClock(HOUR + SECOND);
    await until(async () => !(await db.select().from(webhooks))[0]!.active, 'la desactivación');
    const [disabled] = await db.select().from(webhooks);
    expect(disabled).toMatchObject({ active: false, leaseOwner: null });
    expect(disabled!.disabledAt).not.toBeNull();
    for (const who of [admin, other]) {
      const told = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, who.user.id), eq(notifications.type, 'webhook_disabled')));
      expect(told.map((n) => n.message)).toEqual([
        `El webhook ${hook.url} se ha desactivado tras 24 h de fallos`,
      ]);
    }
    expect(
      await db.select().from(notifications).where(eq(notifications.userId, manager.user.id)),
    ).toHaveLength(0);
    expect((await deliveries())[0]!.status).toBe('pending');
    // Reactivated, it starts over and sends what waited.
    receiver.answer = answerWith(200);
    const later = await makeUser('admin'); // a day on, the first admin's session has expired
    const on = await api().put(`/api/admin/webhooks/${hook.id}`).set(later.auth).send({ active: true });
    expect(on.body).toMatchObject({ active: true, failing_since: null, disabled_at: null });
    await advanceClock(WEBHOOK.retryDelaysMs[2]!); // after its third attempt
    await until(async () => (await deliveries())[0]?.status === 'delivered', 'tras reactivarlo');
  });

  it('delivered rows go after 30 days; a deactivated webhook’s pending ones after 7', async () => {
    const hook = await subscribe(['task.created']);
    const off = await subscribe(['task.created']);
    await stopWebhookSender();
    const at = now();
    const row = (webhookId: string, status: 'delivered' | 'pending', ageMs: number, eventId: string) => ({
      webhookId,
      eventId,
      type: 'task.created' as const,
      subject: 'task:x',
      payload: '{}',
      status,
      createdAt: new Date(at.getTime() - ageMs),
      deliveredAt: status === 'delivered' ? new Date(at.getTime() - ageMs) : null,
    });
    const DAY = 24 * HOUR;
    await tx(async () => {
      await db
        .insert(webhookDeliveries)
        .values([
          row(hook.id, 'delivered', 31 * DAY, 'viejo'),
          row(hook.id, 'delivered', 29 * DAY, 'reciente'),
          row(hook.id, 'pending', 20 * DAY, 'activo-pendiente'),
          row(off.id, 'pending', 9 * DAY, 'apagado-pendiente'),
        ]);
      await db
        .update(webhooks)
        .set({ active: false, disabledAt: new Date(at.getTime() - 8 * DAY) })
        .where(eq(webhooks.id, off.id));
    });
    await sweepDeliveries();
    expect((await deliveries()).map((d) => d.eventId).sort()).toEqual(['activo-pendiente', 'reciente']);
  });
});
