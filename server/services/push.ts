// Web Push (CONTRACT §16): the VAPID key pair, the drivers' push subscriptions and the pushes of a
// `task_assigned` / `task_closed_by_staff` notification to a locked phone. A push is sent after the
// change's commit and never blocks nor fails the request: a push service that does not answer costs a
// warning in the log; one that answers 404 or 410 (the browser dropped the subscription) loses the row.
// An endpoint names where the server connects (CONTRACT §23): only the browsers' push services (or
// PUSH_ALLOWED_HOSTS) are accepted, and a push goes only to a public address (http/outbound.ts).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import webpush from 'web-push';
import { and, desc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { ESCALATION, PUSH_SERVICE_HOSTS } from '@shared/constants';
import { STAFF_ROLES } from '@shared/enums';
import { ESCALATION_NOTICE, PUSH_INPUT, STARTUP_ERR } from '@shared/labels';
import type { PushPayload, PushSubscriptionInput } from '@shared/schemas';
import { config, StartupError } from '../config';
import { db, execute, inTransaction, tx } from '../db';
import { appSettings, pushSubscriptions, taskEscalations, users } from '../db/tables';
import { now, nowMs } from '../clock';
import { badRequest, notFound } from '../http/errors';
import { outboundAgent } from '../http/outbound';
import { logger } from '../logger';
import { approvedIn } from './audience';
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

/** `*.x` matches a name under x, never x itself. */
const listed = (host: string) =>
  PUSH_SERVICE_HOSTS.some((entry) =>
    entry.startsWith('*.') ? host.endsWith(entry.slice(1)) : host === entry,
  );

/**
 * Whether an endpoint is an https URL, without credentials, of a browser's push service on port 443 or of
 * a PUSH_ALLOWED_HOSTS host on any port. The WHATWG parser's host name is judged: `0x7f000001`, `127.1`,
 * upper case and the like arrive normalised, and a trailing dot is not the listed name.
 */
export function isPushService(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false;
  if (config.pushAllowedHosts.includes(url.hostname)) return true;
  return url.port === '' && listed(url.hostname);
}

/** The route's check of an endpoint: anything but a push service is a 400. */
export function requirePushService(endpoint: string): void {
  if (!isPushService(endpoint)) throw badRequest(PUSH_INPUT.serviceNotAllowed);
}

/**
 * At start: subscriptions stored before the list (or under another PUSH_ALLOWED_HOSTS) are deleted, so
 * no push goes to them.
 */
export async function dropForeignSubscriptions(): Promise<void> {
  const rows = await db
    .select({ id: pushSubscriptions.id, endpoint: pushSubscriptions.endpoint })
    .from(pushSubscriptions);
  const foreign = rows.filter((r) => !isPushService(r.endpoint)).map((r) => r.id);
  if (foreign.length === 0) return;
  await tx(async () => {
    for (let i = 0; i < foreign.length; i += 500)
      await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, foreign.slice(i, i + 500)));
  });
  logger.info({ deleted: foreign.length }, 'suscripciones push de servicios no admitidos borradas');
}

/**
 * Stores the browser's subscription for the user (a driver, or staff: CONTRACT §23), or updates it: an
 * endpoint already stored (for them or, on a shared device, for another user) moves to this user with the
 * new keys.
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

/** Removes one of the user's subscriptions; an unknown endpoint, or another user's, is a 404. */
export async function unsubscribe(userId: string, endpoint: string): Promise<void> {
  const removed = await tx(() =>
    db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)))
      .returning({ id: pushSubscriptions.id }),
  );
  if (removed.length === 0) throw notFound(PUSH_INPUT.subscriptionNotFound);
}

/** A deleted account's phones get nothing more (nor is its escalation-push turn kept): called inside the deletion's transaction. */
export async function forgetSubscriptions(userId: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  await db.delete(appSettings).where(eq(appSettings.key, lastPushKey(userId)));
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

/** Names resolved and checked by the socket itself; PUSH_ALLOWED_HOSTS as listed (the URL's bare host). */
const pushAgent = outboundAgent({
  trusted: (host) => config.pushAllowedHosts.some((h) => h.replace(/^\[(.*)\]$/, '$1') === host),
});

/**
 * How a push leaves: through PUSH_PROXY (which then resolves the name: the address check is its job,
 * docs/SECURITY.md), else through the checked agent.
 */
const route = () => (config.pushProxy ? { proxy: config.pushProxy } : { agent: pushAgent });

async function sendOne(sub: SubscriptionRow, body: string, keys: VapidKeys): Promise<void> {
  try {
    // A row another node stored under a longer PUSH_ALLOWED_HOSTS: not sent from here (and gone at our next start).
    if (!isPushService(sub.endpoint)) throw new Error('servicio de avisos no admitido');
    await webpush.sendNotification(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      body,
      {
        TTL: PUSH_TTL_S,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
        timeout: PUSH_TIMEOUT_MS,
        ...route(),
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

// ---- Escalation pushes (CONTRACT §20) ----------------------------------------------------------------
// Staff who enabled push get at most one escalation push a minute, across nodes: `{n} tareas requieren
// atención`, n the escalations since their last one. Each user's last push is a row of app_settings
// (`escalation_push:{user id}` → epoch ms), claimed by compare-and-swap: of two nodes pushing at once,
// one changes the row and pushes, the other changes nothing and does not.

const lastPushKey = (userId: string) => `escalation_push:${userId}`;

/** Takes the user's turn (last push `last`, null when never) at `at`: false when another node took it. */
async function claimPushTurn(userId: string, last: string | null, at: number): Promise<boolean> {
  const key = lastPushKey(userId);
  const changed = await withoutKey(() =>
    tx(() =>
      last === null
        ? execute('INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [
            key,
            String(at),
          ])
        : execute('UPDATE app_settings SET value = ? WHERE key = ? AND value = ?', [String(at), key, last]),
    ),
  );
  return changed === 1;
}

/**
 * Sends each staff user with a subscription the escalation push they are owed: escalations made since
 * their last push (the last minute, for one never pushed) once a minute has passed since it. Called after
 * every evaluation (services/escalation.ts), outside any transaction; never rejects.
 */
export async function pushEscalationSummaries(): Promise<void> {
  try {
    if (inTransaction()) throw new Error('pushEscalationSummaries dentro de una transacción');
    const at = nowMs();
    // The newest escalation (its index): nobody is owed a push made before their last one.
    const [newest] = await db
      .select({ at: taskEscalations.createdAt })
      .from(taskEscalations)
      .orderBy(desc(taskEscalations.createdAt))
      .limit(1);
    if (!newest) return;
    const subscribers = await db
      .selectDistinct({ id: users.id })
      .from(pushSubscriptions)
      .innerJoin(users, eq(users.id, pushSubscriptions.userId))
      .where(approvedIn(STAFF_ROLES));
    if (subscribers.length === 0) return;
    const lasts = new Map(
      (
        await db
          .select()
          .from(appSettings)
          .where(
            inArray(
              appSettings.key,
              subscribers.map((s) => lastPushKey(s.id)),
            ),
          )
      ).map((r) => [r.key, r.value]),
    );
    for (const { id } of subscribers) {
      const last = lasts.get(lastPushKey(id)) ?? null;
      if (
        last !== null &&
        (at - Number(last) < ESCALATION.pushEveryMs || newest.at.getTime() <= Number(last))
      )
        continue;
      const since = last === null ? at - ESCALATION.pushEveryMs : Number(last);
      const [{ n }] = await db
        .select({ n: sql<number>`count(*)` })
        .from(taskEscalations)
        .where(
          and(gt(taskEscalations.createdAt, new Date(since)), lte(taskEscalations.createdAt, new Date(at))),
        );
      const count = Number(n);
      if (count === 0 || !(await claimPushTurn(id, last, at))) continue;
      const text = ESCALATION_NOTICE.push(count);
      void pushToUser(id, { type: 'task_escalated', task_id: null, title: text, body: '' });
    }
  } catch (err) {
    logger.warn({ err }, 'no se pudieron enviar los avisos push de escalada');
  }
}
