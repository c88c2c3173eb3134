// CONTRACT §21 "Delivery": the sender. Woken after every commit that queued deliveries
// (changes/processors/webhooks.ts), by its own timer (retries, and what a restart left pending) and by the
// test clock's advance. Per webhook one delivery in flight, the lowest `id` pending first: a failing head
// holds back that webhook's later deliveries, so the order per task or trailer holds. On many nodes one node
// sends for a webhook at a time: it holds a lease on the webhook's row (lease_owner, lease_until), taken by
// one atomic UPDATE … WHERE the lease is free, renewed before every attempt, given back when the queue is
// empty or its head waits. Retry times, the 24 h of failures and the retention go by the server clock
// (server/clock.ts): tests move it to see a retry come due; only the signature's timestamp is the wall's.
import crypto from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { WEBHOOK } from '@shared/constants';
import { WEBHOOK_LOG, WEBHOOK_NOTIFICATION } from '@shared/labels';
import { db, isDatabaseOpen, tx } from '../../db';
import { users, webhookDeliveries, webhooks } from '../../db/tables';
import { nowMs, onClockAdvance } from '../../clock';
import { commit } from '../../changes/commit';
import { logger } from '../../logger';
import { logActivity } from '../activity';
import { notify } from '../notifications';
import { delivered, exchange, type ExchangeResult } from './exchange';
import { webhookEdits, webhooksChanged } from './outbox';

/** A lease outlives the longest exchange with room to spare: a node that died frees its webhooks then. */
const LEASE_MS = 3 * WEBHOOK.timeoutMs;
/**
 * A lease is renewed before an attempt that could outlast it: one starting later than this after the
 * lease was taken (an exchange's longest, with as much again to spare). Until then a batch goes on.
 */
const RENEW_AFTER_MS = LEASE_MS - 2 * WEBHOOK.timeoutMs;
/** Pending deliveries read at once, in order; each is still sent, then recorded, one at a time. */
const SEND_BATCH = 50;
/** How often a sender looks for due retries and what another node left behind. */
const POLL_MS = 5_000;
/** How often delivered rows and a deactivated webhook's old pending ones are removed. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface SenderOptions {
  /** This node's name in the leases (several senders in one process are several nodes). */
  nodeId?: string;
}

export class WebhookSender {
  readonly nodeId: string;
  /** Webhooks this sender is draining now (one loop each). */
  private readonly draining = new Map<string, Promise<void>>();
  /** Webhooks found due while being drained. */
  private readonly lookAgain = new Set<string>();
  private timers: NodeJS.Timeout[] = [];
  private pass: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(opts: SenderOptions = {}) {
    this.nodeId = opts.nodeId ?? crypto.randomUUID();
  }

  start(): void {
    this.stopped = false;
    const poll = setInterval(() => this.wake(), POLL_MS);
    const sweep = setInterval(
      () =>
        void sweepDeliveries().catch((err: unknown) => logger.warn({ err }, 'limpieza de webhooks fallida')),
      SWEEP_EVERY_MS,
    );
    this.timers = [poll, sweep];
    for (const t of this.timers) t.unref();
    this.wake();
  }

  /** Stops sending: no attempt starts after it; resolves once the ones in flight are recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timers.forEach(clearInterval);
    this.timers = [];
    await this.pass;
    await Promise.all(this.draining.values());
  }

  /** Looks for due deliveries soon (coalesced: a burst of commits costs one look). */
  wake(): void {
    if (this.stopped) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = this.look().finally(() => {
      this.pass = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** One look, then every drain it started, done (the test clock's advance waits for it). */
  async settle(): Promise<void> {
    this.wake();
    await this.pass;
    await Promise.all(this.draining.values());
  }

  private async look(): Promise<void> {
    if (!isDatabaseOpen()) return;
    try {
      // Per active webhook, whether the head of its queue is due (what a drain starts with): one probe
      // along webhook_deliveries_queue each, however long the backlog (a flood being delivered).
      const head = db
        .select({ at: webhookDeliveries.nextAttemptAt })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.webhookId, webhooks.id), eq(webhookDeliveries.status, 'pending')))
        .orderBy(asc(webhookDeliveries.id))
        .limit(1);
      // Epoch milliseconds on both engines (the column's own storage).
      const due = await db
        .select({ id: webhooks.id })
        .from(webhooks)
        .where(and(eq(webhooks.active, true), sql`(${head}) <= ${nowMs()}`));
      for (const { id } of due)
        if (this.draining.has(id)) this.lookAgain.add(id);
        else this.drain(id);
    } catch (err) {
      logger.warn({ err }, 'no se pudo leer la cola de webhooks');
    }
  }

  private drain(webhookId: string): void {
    const run = this.sendQueue(webhookId)
      .catch((err: unknown) => logger.warn({ err, webhookId }, 'envío de webhook interrumpido'))
      .finally(() => {
        this.draining.delete(webhookId);
        // Found due while this drain was ending (its head read before the clock moved): look once more.
        if (this.lookAgain.delete(webhookId)) this.wake();
      });
    this.draining.set(webhookId, run);
  }

  /**
   * Sends the webhook's queue in order while this node holds its lease and its head is due. The lease and
   * the webhook's URL and secret are read once per batch of pending deliveries, so a delivery costs the
   * writer one transaction (its record), not three: at 100 events a second the queue keeps up. A batch
   * stops at a failure (its retry waits), when the lease needs renewing, and when this process changed a
   * webhook (an edited URL or secret, a deactivation: read again at once).
   */
  private async sendQueue(webhookId: string): Promise<void> {
    try {
      while (!this.stopped && isDatabaseOpen()) {
        const leasedAt = nowMs();
        const target = await this.takeLease(webhookId);
        if (!target) return;
        const edits = webhookEdits();
        const batch = await db
          .select()
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.status, 'pending')))
          .orderBy(asc(webhookDeliveries.id))
          .limit(SEND_BATCH);
        if (!batch.length || !due(batch[0])) return;
        for (const head of batch) {
          if (this.stopped || !isDatabaseOpen() || !due(head)) return;
          if (nowMs() - leasedAt > RENEW_AFTER_MS || webhookEdits() !== edits) break;
          const result = await exchange(target, { id: head.eventId, body: head.payload });
          await recordAttempt(target, head, result);
          if (!delivered(result)) break;
          target.failingSince = null;
        }
      }
    } finally {
      if (isDatabaseOpen()) await this.giveBackLease(webhookId);
    }
  }

  /** The lease on an active webhook, when free, expired or already ours: its URL and secret then. */
  private async takeLease(webhookId: string) {
    const at = nowMs();
    const [target] = await tx(() =>
      db
        .update(webhooks)
        .set({ leaseOwner: this.nodeId, leaseUntil: new Date(at + LEASE_MS) })
        .where(
          and(
            eq(webhooks.id, webhookId),
            eq(webhooks.active, true),
            or(
              isNull(webhooks.leaseOwner),
              eq(webhooks.leaseOwner, this.nodeId),
              lt(webhooks.leaseUntil, new Date(at)),
            ),
          ),
        )
        .returning({
          id: webhooks.id,
          url: webhooks.url,
          secret: webhooks.secret,
          failingSince: webhooks.failingSince,
        }),
    );
    return target;
  }

  private async giveBackLease(webhookId: string): Promise<void> {
    await tx(() =>
      db
        .update(webhooks)
        .set({ leaseOwner: null, leaseUntil: null })
        .where(and(eq(webhooks.id, webhookId), eq(webhooks.leaseOwner, this.nodeId))),
    ).catch((err: unknown) => logger.warn({ err, webhookId }, 'no se pudo liberar el webhook'));
  }
}

type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A pending delivery whose attempt may start now (a retry waits for its time). */
const due = (row: WebhookDeliveryRow): boolean =>
  !row.nextAttemptAt || row.nextAttemptAt.getTime() <= nowMs();
type Target = NonNullable<Awaited<ReturnType<WebhookSender['takeLease']>>>;

/**
 * Writes how an attempt went: delivered, or the next attempt of the schedule, or `failed` after the last;
 * the webhook's run of failures with it, and after 24 h of them its deactivation, told to every admin.
 */
async function recordAttempt(
  target: Target,
  head: WebhookDeliveryRow,
  result: ExchangeResult,
): Promise<void> {
  await commit(async (fx) => {
    const attempts = head.attempts + 1;
    const ok = delivered(result);
    const wait = WEBHOOK.retryDelaysMs[attempts - 1];
    await db
      .update(webhookDeliveries)
      .set({
        attempts,
        lastStatusCode: result.statusCode,
        lastError: result.error,
        status: ok ? 'delivered' : wait === undefined ? 'failed' : 'pending',
        nextAttemptAt: ok || wait === undefined ? null : new Date(fx.at.getTime() + wait),
        deliveredAt: ok ? fx.at : null,
      })
      .where(and(eq(webhookDeliveries.id, head.id), eq(webhookDeliveries.attempts, head.attempts)));
    if (ok) {
      if (target.failingSince)
        await db.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, target.id));
      return;
    }
    const failingSince = target.failingSince ?? fx.at;
    if (fx.at.getTime() - failingSince.getTime() < WEBHOOK.disableAfterMs) {
      if (!target.failingSince)
        await db.update(webhooks).set({ failingSince }).where(eq(webhooks.id, target.id));
      return;
    }
    await disable(target.id, target.url, fx.at);
  });
}

/** Deactivates a webhook that failed for 24 h (its pending deliveries stay 7 days) and tells every admin. */
async function disable(webhookId: string, url: string, at: Date): Promise<void> {
  const [was] = await db
    .update(webhooks)
    .set({ active: false, disabledAt: at, updatedAt: at, leaseOwner: null, leaseUntil: null })
    .where(and(eq(webhooks.id, webhookId), eq(webhooks.active, true)))
    .returning({ id: webhooks.id });
  if (!was) return;
  webhooksChanged();
  const admins = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isApproved, true), isNull(users.deletedAt)));
  for (const admin of admins)
    await notify(admin.id, 'webhook_disabled', WEBHOOK_NOTIFICATION.title, WEBHOOK_NOTIFICATION.message(url));
  await logActivity('integration', null, WEBHOOK_LOG.disabled.action, WEBHOOK_LOG.disabled.details(url));
}

/**
 * Retention (CONTRACT §21): delivered rows after 30 days; the pending ones of a webhook deactivated more
 * than 7 days ago. Every node may run it: the same DELETEs by age, whoever runs them.
 */
export async function sweepDeliveries(): Promise<void> {
  const at = nowMs();
  await tx(async () => {
    await db
      .delete(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.status, 'delivered'),
          lt(webhookDeliveries.deliveredAt, new Date(at - WEBHOOK.keepDeliveredMs)),
        ),
      );
    const stale = db
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(
        and(
          eq(webhooks.active, false),
          isNotNull(webhooks.disabledAt),
          lt(webhooks.disabledAt, new Date(at - WEBHOOK.keepPendingMs)),
        ),
      );
    await db
      .delete(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, 'pending'), inArray(webhookDeliveries.webhookId, stale)));
  });
}

// ---- this node's sender -------------------------------------------------------------------------------

let running: WebhookSender | undefined;
let stopClockHook: (() => void) | undefined;

/** Starts this node's sender (server.ts): what a restart left pending goes at once. */
export function startWebhookSender(opts: SenderOptions = {}): WebhookSender {
  running = new WebhookSender(opts);
  running.start();
  const sender = running;
  stopClockHook = onClockAdvance(() => sender.settle());
  return sender;
}

export async function stopWebhookSender(): Promise<void> {
  stopClockHook?.();
  stopClockHook = undefined;
  const sender = running;
  running = undefined;
  await sender?.stop();
}

/** After a commit that queued deliveries (changes/processors/webhooks.ts). */
export function wakeSenders(): void {
  running?.wake();
}
