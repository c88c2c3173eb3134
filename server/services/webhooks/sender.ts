// CONTRACT §21 "Delivery": the sender. Woken after every commit that queued deliveries
// (changes/processors/webhooks.ts), by its own timer (retries, and what a restart left pending) and by the
// test clock's advance. Per webhook one delivery in flight, the lowest `id` pending first: a failing head
// holds back that webhook's later deliveries, so the order per task or trailer holds. On many nodes one node
// sends for a webhook at a time: it holds a lease on the webhook's row (lease_owner, lease_until), taken by
// one atomic UPDATE … WHERE the lease is free, renewed before it could run out, given back when the queue
// has stayed empty a moment (LINGER_MS) or its head waits. Retry times, the 24 h of failures and the
// retention go by the server clock (server/clock.ts): tests move it to see a retry come due; only the
// signature's timestamp is the wall's.
import crypto from 'node:crypto';
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { WEBHOOK } from '@shared/constants';
import { WEBHOOK_LOG, WEBHOOK_NOTIFICATION } from '@shared/labels';
import { db, isDatabaseOpen, prepared, tx } from '../../db';
import { users, webhookDeliveries, webhooks } from '../../db/tables';
import { nowMs, onClockAdvance } from '../../clock';
import { logger } from '../../logger';
import { logActivity } from '../activity';
import { notify } from '../notifications';
import { closeKeptConnections, delivered, exchange, type ExchangeResult } from './exchange';
import { webhookEdits, webhooksChanged } from './outbox';

/** A lease outlives the longest exchange with room to spare: a node that died frees its webhooks then. */
const LEASE_MS = 3 * WEBHOOK.timeoutMs;
/**
 * A lease is renewed before an attempt that could outlast it: one starting later than this after the
 * lease was taken (an exchange's longest, with as much again to spare). Until then a batch goes on.
 */
const RENEW_AFTER_MS = LEASE_MS - 2 * WEBHOOK.timeoutMs;
/** Pending deliveries read at once, in order; each is still sent one at a time. */
const SEND_BATCH = 50;
/** Longest a delivered attempt waits (while its drain goes on) to be written with the ones after it. */
const RECORD_EVERY_MS = 200;
/** How long a drain whose queue ran empty waits for more before giving its lease back. */
const LINGER_MS = 100;
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
  /** Webhooks found due, or given deliveries, while being drained: their drain reads its queue again. */
  private readonly lookAgain = new Set<string>();
  /**
   * Webhooks whose head waits for its retry, and until when: what is queued behind it cannot go before,
   * so a commit that queues more starts no look for them (a receiver that is down would cost one per
   * commit); the 5 s look and the clock's advance see the head come due.
   */
  private readonly waiting = new Map<string, number>();
  /** Drains whose queue ran empty, waiting a moment for more: each one's way to go on (true) or end. */
  private readonly lingering = new Map<string, (goOn: boolean) => void>();
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
    this.endLingering();
    await this.pass;
    await Promise.all(this.draining.values());
  }

  /**
   * Sends what is due soon. `queuedFor`: the webhooks a commit just gave deliveries — those this sender is
   * draining already read their queue again, with no look; the look (coalesced: a burst of commits costs
   * one) finds the others, and every due webhook when nothing is said.
   */
  wake(queuedFor?: ReadonlySet<string>): void {
    if (this.stopped) return;
    if (queuedFor) {
      let covered = true;
      for (const id of queuedFor)
        if (this.draining.has(id)) this.readAgain(id);
        else if ((this.waiting.get(id) ?? 0) <= nowMs()) covered = false;
      if (covered) return;
    }
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
    this.endLingering();
    await Promise.all(this.draining.values());
  }

  private async look(): Promise<void> {
    if (!isDatabaseOpen()) return;
    try {
      for (const { id } of await dueWebhooks({ now: nowMs() }))
        if (this.draining.has(id)) this.readAgain(id);
        else this.drain(id);
    } catch (err) {
      logger.warn({ err }, 'no se pudo leer la cola de webhooks');
    }
  }

  private readAgain(webhookId: string): void {
    this.lookAgain.add(webhookId);
    this.lingering.get(webhookId)?.(true);
  }

  /** Lingering drains read their queue once more, then end if it is still empty. */
  private endLingering(): void {
    for (const goOn of this.lingering.values()) goOn(false);
  }

  /** Waits up to LINGER_MS for more deliveries: true when some came (readAgain), false after the wait. */
  private linger(webhookId: string): Promise<boolean> {
    if (this.lookAgain.has(webhookId)) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => end(false), LINGER_MS).unref();
      const end = (goOn: boolean) => {
        clearTimeout(timer);
        this.lingering.delete(webhookId);
        resolve(goOn);
      };
      this.lingering.set(webhookId, end);
    });
  }

  private drain(webhookId: string): void {
    this.waiting.delete(webhookId);
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
   * Sends the webhook's queue in order while this node holds its lease and its head is due. The lease (and
   * with it the webhook's URL and secret) is taken once and renewed only when it could run out; delivered
   * attempts are recorded together; a queue read to its end waits LINGER_MS for more before the lease goes
   * back. So a flood of events costs a read per batch and a transaction per batch at most, not a lease,
   * a look and a record per delivery. A batch stops at a failure (its retry waits), when the lease
   * needs renewing, and when this process changed a webhook (an edited URL or secret, a deactivation: read
   * again at once).
   */
  private async sendQueue(webhookId: string): Promise<void> {
    let target: Target | undefined;
    let leasedAt = 0;
    let edits = 0;
    let lingered = false;
    // Delivered attempts not yet written: they are written together when the queue runs dry, and while it
    // does not RECORD_EVERY_MS after the first at the latest; always before a failure is written or the
    // lease goes back (a crash before that sends them again, as at-least-once allows). Meanwhile the queue
    // is read past them.
    let sent: Attempt[] = [];
    let sentSince = 0;
    const record = async (failed?: Attempt) => {
      const attempts = sent;
      sent = [];
      if ((attempts.length || failed) && target) await recordAttempts(target, attempts, failed);
    };
    const recordIfDue = () => (performance.now() - sentSince >= RECORD_EVERY_MS ? record() : undefined);
    try {
      while (!this.stopped && isDatabaseOpen()) {
        if (!target || nowMs() - leasedAt > RENEW_AFTER_MS || webhookEdits() !== edits) {
          leasedAt = nowMs();
          edits = webhookEdits();
          // Lost (deactivated, another node's): what was sent under the last one is still recorded.
          const leased = await this.takeLease(webhookId);
          if (!leased) return;
          target = leased;
        }
        this.lookAgain.delete(webhookId);
        const batch = await pendingBatch({ webhookId, after: sent.at(-1)?.head.id ?? 0 });
        if (!batch.length) {
          // Read once more after lingering (another node may have queued meanwhile), then end. The queue
          // ran dry: what was sent is written now (the deliveries' list shows it delivered at once).
          if (lingered) return;
          await record();
          lingered = !(await this.linger(webhookId));
          continue;
        }
        lingered = false;
        for (const head of batch) {
          if (this.stopped || !isDatabaseOpen()) return;
          if (!due(head)) return void this.waiting.set(webhookId, head.nextAttemptAt!.getTime());
          if (nowMs() - leasedAt > RENEW_AFTER_MS || webhookEdits() !== edits) break;
          const result = await exchange(target, { id: head.eventId, body: head.payload });
          if (!delivered(result)) {
            await record({ head, result });
            break;
          }
          if (!sent.length) sentSince = performance.now();
          sent.push({ head, result });
          await recordIfDue();
        }
      }
    } finally {
      if (isDatabaseOpen()) {
        await record();
        await this.giveBackLease(webhookId);
      }
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

/**
 * Written out, not a parameter: the statements below are planned once (prepared), and a plan made without
 * knowing the status walks every delivery ever kept in `id` order; knowing that few are pending, it takes
 * webhook_deliveries_queue.
 */
const PENDING = sql`${webhookDeliveries.status} = 'pending'`;

/**
 * The active webhooks whose queue's head is due (what a drain starts with): one probe along
 * webhook_deliveries_queue each, however long the backlog. Times are epoch milliseconds on both engines
 * (the column's own storage).
 */
const dueWebhooks = prepared('webhooks_due', (handle) => {
  const head = handle
    .select({ at: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.webhookId, webhooks.id), PENDING))
    .orderBy(asc(webhookDeliveries.id))
    .limit(1);
  return handle
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.active, true), sql`(${head}) <= ${sql.placeholder('now')}`));
});

/** A webhook's first pending deliveries after `after` (an id; 0 for the head), in order. */
const pendingBatch = prepared('webhook_pending_batch', (handle) =>
  handle
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.webhookId, sql.placeholder('webhookId')),
        PENDING,
        gt(webhookDeliveries.id, sql.placeholder('after')),
      ),
    )
    .orderBy(asc(webhookDeliveries.id))
    .limit(SEND_BATCH),
);

/** A pending delivery whose attempt may start now (a retry waits for its time). */
const due = (row: WebhookDeliveryRow): boolean =>
  !row.nextAttemptAt || row.nextAttemptAt.getTime() <= nowMs();
type Target = NonNullable<Awaited<ReturnType<WebhookSender['takeLease']>>>;

interface Attempt {
  head: WebhookDeliveryRow;
  result: ExchangeResult;
}

/**
 * Writes how attempts went, in one transaction: the delivered ones (in the order sent), then the failed
 * one that stopped the batch — its next attempt of the schedule, or `failed` after the last. The webhook's
 * run of failures with them (a delivery ends it, a failure starts it), and after 24 h of failures its
 * deactivation, told to every admin. A row another sender recorded meanwhile (its attempts moved) is left.
 */
async function recordAttempts(target: Target, sent: Attempt[], failed: Attempt | undefined): Promise<void> {
  await tx(async () => {
    const at = new Date(nowMs());
    // One UPDATE per status code and earlier attempts: almost always one for the whole batch.
    const groups = new Map<string, Attempt[]>();
    for (const attempt of sent) {
      const key = `${attempt.result.statusCode}:${attempt.head.attempts}`;
      groups.set(key, [...(groups.get(key) ?? []), attempt]);
    }
    for (const group of groups.values()) {
      const [{ head, result }] = group as [Attempt];
      await db
        .update(webhookDeliveries)
        .set({
          attempts: head.attempts + 1,
          lastStatusCode: result.statusCode,
          lastError: null,
          status: 'delivered',
          nextAttemptAt: null,
          deliveredAt: at,
        })
        .where(
          and(
            inArray(
              webhookDeliveries.id,
              group.map((a) => a.head.id),
            ),
            eq(webhookDeliveries.attempts, head.attempts),
          ),
        );
    }
    const wasFailing = target.failingSince;
    if (sent.length) target.failingSince = null;
    if (!failed) {
      if (sent.length && wasFailing)
        await db.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, target.id));
      return;
    }
    const { head, result } = failed;
    const attempts = head.attempts + 1;
    const wait = WEBHOOK.retryDelaysMs[attempts - 1];
    await db
      .update(webhookDeliveries)
      .set({
        attempts,
        lastStatusCode: result.statusCode,
        lastError: result.error,
        status: wait === undefined ? 'failed' : 'pending',
        nextAttemptAt: wait === undefined ? null : new Date(at.getTime() + wait),
      })
      .where(and(eq(webhookDeliveries.id, head.id), eq(webhookDeliveries.attempts, head.attempts)));
    const failingSince = target.failingSince ?? at;
    if (at.getTime() - failingSince.getTime() < WEBHOOK.disableAfterMs) {
      if (failingSince !== wasFailing)
        await db.update(webhooks).set({ failingSince }).where(eq(webhooks.id, target.id));
      return;
    }
    await disable(target.id, target.url, at);
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
  closeKeptConnections();
}

/** After a commit that queued deliveries for `queuedFor` (changes/processors/webhooks.ts), or any change. */
export function wakeSenders(queuedFor?: ReadonlySet<string>): void {
  running?.wake(queuedFor);
}
