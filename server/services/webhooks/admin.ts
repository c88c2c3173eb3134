// CONTRACT §21 "Webhooks": the admin's endpoints of other systems — created, edited, tested, watched.
import crypto from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { WEBHOOK } from '@shared/constants';
import { WEBHOOK_ERR, WEBHOOK_LOG } from '@shared/labels';
import type {
  CreateWebhookData,
  UpdateWebhookData,
  Webhook,
  WebhookDelivery,
  WebhookPayload,
  WebhookTestResult,
  WebhookWithSecret,
} from '@shared/schemas';
import { db, tx } from '../../db';
import { webhookDeliveries, webhooks } from '../../db/tables';
import { now } from '../../clock';
import { badRequest, conflict, notFound } from '../../http/errors';
import { presentDelivery, presentWebhook, presentWebhookWithSecret } from '../../presenters/webhooks';
import { logActivity, type Actor } from '../activity';
import { allowedTarget, exchange } from './exchange';
import { webhooksChanged } from './outbox';
import { wakeSenders } from './sender';

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks form of a signing secret. */
const newSecret = (): string => `${WEBHOOK.secretPrefix}${crypto.randomBytes(32).toString('base64')}`;

/** The activity log's line of an admin's change to a webhook (type `integration`). */
const logWebhook = (actor: Actor, change: 'created' | 'updated' | 'deleted' | 'rotated', url: string) =>
  logActivity('integration', actor, WEBHOOK_LOG[change].action, WEBHOOK_LOG[change].details(url));

async function refuseTarget(url: string): Promise<void> {
  if (!(await allowedTarget(url))) throw badRequest(WEBHOOK_ERR.targetRefused);
}

async function findWebhook(id: string) {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  if (!row) throw notFound(WEBHOOK_ERR.notFound);
  return row;
}

export async function createWebhook(data: CreateWebhookData, actor: Actor): Promise<WebhookWithSecret> {
  await refuseTarget(data.url);
  const at = now();
  return tx(async () => {
    webhooksChanged(); // inside the transaction: the next writer, after this commit, reads them again
    const [row] = await db
      .insert(webhooks)
      .values({
        id: crypto.randomUUID(),
        url: data.url,
        description: data.description ?? null,
        events: data.events,
        secret: newSecret(),
        createdBy: actor.id,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await logWebhook(actor, 'created', data.url);
    return presentWebhookWithSecret(row!);
  });
}

export async function listWebhooks(): Promise<Webhook[]> {
  return (await db.select().from(webhooks).orderBy(webhooks.createdAt)).map(presentWebhook);
}

export async function getWebhook(id: string): Promise<Webhook> {
  return presentWebhook(await findWebhook(id));
}

/** PUT: what is given changes; turning it on again starts a new run (no failures, not disabled). */
export async function updateWebhook(id: string, data: UpdateWebhookData, actor: Actor): Promise<Webhook> {
  if (data.url !== undefined) await refuseTarget(data.url);
  const updated = await tx(async () => {
    webhooksChanged(); // inside the transaction: the next writer, after this commit, reads them again
    const was = await findWebhook(id);
    const reactivated = data.active === true && !was.active;
    const [row] = await db
      .update(webhooks)
      .set({
        ...(data.url !== undefined && { url: data.url }),
        ...(data.events !== undefined && { events: data.events }),
        ...(data.active !== undefined && { active: data.active }),
        ...(data.description !== undefined && { description: data.description }),
        ...(reactivated && { failingSince: null, disabledAt: null }),
        updatedAt: now(),
      })
      .where(eq(webhooks.id, id))
      .returning();
    await logWebhook(actor, 'updated', row!.url);
    return row!;
  });
  if (updated.active) wakeSenders();
  return presentWebhook(updated);
}

/** DELETE: the webhook and its deliveries (the foreign key cascades). */
export async function deleteWebhook(id: string, actor: Actor): Promise<void> {
  await tx(async () => {
    webhooksChanged(); // inside the transaction: the next writer, after this commit, reads them again
    const was = await findWebhook(id);
    await db.delete(webhooks).where(eq(webhooks.id, id));
    await logWebhook(actor, 'deleted', was.url);
  });
}

/** A new secret, shown this once; the old one signs nothing more. */
export async function rotateSecret(id: string, actor: Actor): Promise<WebhookWithSecret> {
  return tx(async () => {
    await findWebhook(id);
    const [row] = await db
      .update(webhooks)
      .set({ secret: newSecret(), updatedAt: now() })
      .where(eq(webhooks.id, id))
      .returning();
    await logWebhook(actor, 'rotated', row!.url);
    return presentWebhookWithSecret(row!);
  });
}

/** POST …/test: a `ping` at once, outside the queue (nothing is stored). */
export async function pingWebhook(id: string): Promise<WebhookTestResult> {
  const row = await findWebhook(id);
  const payload: WebhookPayload = {
    id: crypto.randomUUID(),
    type: 'ping',
    occurred_at: now().toISOString(),
    data: { webhook_id: row.id },
  };
  const result = await exchange(row, { id: payload.id, body: JSON.stringify(payload) });
  return { status_code: result.statusCode, error: result.error, duration_ms: result.durationMs };
}

export async function listDeliveries(id: string): Promise<WebhookDelivery[]> {
  await findWebhook(id);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, id))
    .orderBy(desc(webhookDeliveries.id))
    .limit(WEBHOOK.listedDeliveries);
  return rows.map(presentDelivery);
}

/**
 * POST /admin/webhooks/deliveries/{id}/retry: a failed (or delivered) delivery joins the END of its
 * webhook's queue — a new row (a new serial id: the queue's order) with the same event and body, a fresh
 * schedule; the old row goes. A pending one is refused (409): it is queued already.
 */
export async function retryDelivery(deliveryId: number): Promise<WebhookDelivery> {
  const queued = await tx(async () => {
    const [was] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    if (!was) throw notFound(WEBHOOK_ERR.deliveryNotFound);
    if (was.status === 'pending') throw conflict(WEBHOOK_ERR.deliveryPending);
    await db.delete(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    const at = now();
    const [row] = await db
      .insert(webhookDeliveries)
      .values({
        webhookId: was.webhookId,
        eventId: was.eventId,
        type: was.type,
        subject: was.subject,
        payload: was.payload,
        nextAttemptAt: at,
        createdAt: at,
      })
      .returning();
    return row!;
  });
  wakeSenders();
  return presentDelivery(queued);
}
