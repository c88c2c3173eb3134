// Web Push (CONTRACT §16): the VAPID key pair, the drivers' push subscriptions and the pushes of a
// `task_assigned` / `task_closed_by_staff` notification to a locked phone. A push is sent after the
// change's commit and never blocks nor fails the request: a push service that does not answer costs a
// warning in the log; one that answers 404 or 410 (the browser dropped the subscription) loses the row.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import webpush from 'web-push';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { PUSH_INPUT, STARTUP_ERR } from '@shared/labels';
import type { PushPayload, PushSubscriptionInput } from '@shared/schemas';
import { config, StartupError } from '../config';
import { db, inTransaction, tx } from '../db';
import { pushSubscriptions, users } from '../db/tables';
import { now } from '../clock';
import { notFound } from '../http/errors';
import { logger } from '../logger';
import { withoutKey } from './idempotency';

/** The generated key pair's file, next to jwt-secret in the data folder. */
export const VAPID_FILE = 'vapid-keys.json';
/** How long a push service keeps a push for a phone that is off (RFC 8030 TTL, seconds; ≥ 60). */
export const PUSH_TTL_S = 10 * 60;
/** How long a push service may take to accept a push before it is given up (and logged). */
export const PUSH_TIMEOUT_MS = 10_000;
/** Subscriptions kept per driver (phones, browsers); the oldest beyond go, so nobody fans out a flood. */
export const PUSH_SUBSCRIPTIONS_MAX = 10;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

let cached: { source: string; keys: VapidKeys } | undefined;

function readOrCreate(file: string): VapidKeys {
  try {
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      try {
        // 'wx': two processes starting together over one data folder keep the first pair.
        fs.writeFileSync(file, JSON.stringify(webpush.generateVAPIDKeys()), { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string')
      throw Object.assign(new Error('invalid'), { code: 'EINVAL' });
    return { publicKey: keys.publicKey, privateKey: keys.privateKey };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err instanceof SyntaxError ? 'EINVAL' : String(err));
    throw new StartupError(STARTUP_ERR.vapidFile(file, code));
  }
}

/**
 * The VAPID key pair: VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, else generated once and kept in the data
 * folder (mode 0600) so the phones' subscriptions outlive a restart; an in-memory database gets
 * a pair per process.
 */
export function vapidKeys(): VapidKeys {
  if (config.vapidPublicKey && config.vapidPrivateKey)
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey };
  const source = config.dbPath === ':memory:' ? ':memory:' : path.join(config.dataDir, VAPID_FILE);
  if (cached?.source !== source)
    cached = { source, keys: source === ':memory:' ? webpush.generateVAPIDKeys() : readOrCreate(source) };
  return cached.keys;
}

/**
 * Stores the browser's subscription for the driver, or updates it: an endpoint already stored (for them
 * or, on a shared phone, for another driver) moves to this driver with the new keys.
 */
export async function subscribe(userId: string, input: PushSubscriptionInput): Promise<void> {
  await tx(async () => {
    const at = now();
    const fields = { userId, p256dh: input.keys.p256dh, auth: input.keys.auth, createdAt: at };
    await db
      .insert(pushSubscriptions)
      .values({ id: crypto.randomUUID(), endpoint: input.endpoint, ...fields })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: fields });
    const stale = (
      await db
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id))
    ).slice(PUSH_SUBSCRIPTIONS_MAX);
    for (const { id } of stale) await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  });
}

/** Removes one of the driver's subscriptions; an unknown endpoint, or another user's, is a 404. */
export async function unsubscribe(userId: string, endpoint: string): Promise<void> {
  const removed = await tx(() =>
    db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)))
      .returning({ id: pushSubscriptions.id }),
  );
  if (removed.length === 0) throw notFound(PUSH_INPUT.subscriptionNotFound);
}

/** A deleted account's phones get nothing more: called inside the deletion's transaction. */
export async function forgetSubscriptions(userId: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}

type SubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** Only the push service's origin goes to the log: the rest of an endpoint is the phone's capability. */
const originOf = (endpoint: string): string => {
  try {
    return new URL(endpoint).origin;
  } catch {
    return '?';
  }
};

/** The push service said the subscription is gone: drop the row, unless it was renewed meanwhile. */
async function forget(sub: SubscriptionRow): Promise<void> {
  try {
    // Not the effect of the request that set the push off: its Idempotency-Key stays out of it.
    await withoutKey(() =>
      tx(() =>
        db
          .delete(pushSubscriptions)
          .where(
            and(
              eq(pushSubscriptions.id, sub.id),
              eq(pushSubscriptions.endpoint, sub.endpoint),
              eq(pushSubscriptions.p256dh, sub.p256dh),
            ),
          ),
      ),
    );
  } catch (err) {
    logger.warn({ err, push_service: originOf(sub.endpoint) }, 'no se pudo borrar una suscripción caducada');
  }
}

async function sendOne(sub: SubscriptionRow, body: string, keys: VapidKeys): Promise<void> {
  try {
    await webpush.sendNotification(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      body,
      {
        TTL: PUSH_TTL_S,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
        timeout: PUSH_TIMEOUT_MS,
        vapidDetails: {
          subject: config.vapidSubject,
          publicKey: keys.publicKey,
          privateKey: keys.privateKey,
        },
      },
    );
  } catch (err) {
    const status = err instanceof webpush.WebPushError ? err.statusCode : undefined;
    if (status === 404 || status === 410) await forget(sub);
    else
      logger.warn(
        {
          err: err instanceof Error ? err.message : String(err),
          status,
          push_service: originOf(sub.endpoint),
        },
        'no se pudo enviar un aviso push',
      );
  }
}

/**
 * Sends the payload to each of the user's subscriptions. Call after the commit, outside any transaction
 * (the sends are network work: they must never hold one); it never rejects (the subscriptions are read
 * from what is committed, the sends go on in the background; their failures are logged at warn).
 */
export async function pushToUser(userId: string, payload: PushPayload): Promise<void> {
  let subs: SubscriptionRow[];
  let keys: VapidKeys;
  try {
    if (inTransaction()) throw new Error('pushToUser dentro de una transacción');
    subs = (
      await db
        .select({ sub: pushSubscriptions })
        .from(pushSubscriptions)
        .innerJoin(users, eq(users.id, pushSubscriptions.userId))
        .where(and(eq(pushSubscriptions.userId, userId), isNull(users.deletedAt)))
    ).map((r) => r.sub);
    if (subs.length === 0) return;
    keys = vapidKeys();
  } catch (err) {
    logger.warn({ err }, 'no se pudieron preparar los avisos push');
    return;
  }
  const body = JSON.stringify(payload);
  await Promise.all(subs.map((s) => sendOne(s, body, keys)));
}
