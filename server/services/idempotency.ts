// Idempotency keys (CONTRACT §16): the phone's offline queue may send an action twice (a lost answer, a
// retry); the same `Idempotency-Key` by the same user on the same method and path gets the first
// answer and changes nothing. The key of the request being served travels in an AsyncLocalStorage
// context; every write transaction of that request (tx(), server/db/index.ts) first inserts a
// placeholder row for it (status 0, no body), so the key commits or rolls back together with the
// effect. When the answer is known, the middleware (server/http/idempotency.ts) fills in its status and
// body: a tiny second write. A placeholder that never got its body means the process stopped between
// the commit and the answer: the action was applied, and a repeat is told so (409).
// Also here: actionTime(), the rule for the `client_time` of those queued actions.
import { AsyncLocalStorage } from 'node:async_hooks';
import { execute, onWriteTransaction, query, tx } from '../db';
import { nowMs } from '../clock';

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** The status of a placeholder row: the effect committed, the answer is not stored (yet). */
export const PLACEHOLDER_STATUS = 0;

export interface IdempotencyScope {
  userId: string;
  method: string;
  path: string;
  key: string;
}

/** The key of one request; `closed` once its answer is known (later work it scheduled places nothing). */
export interface IdempotencyContext {
  scope: IdempotencyScope;
  closed: boolean;
}

export interface StoredAnswer {
  status: number;
  body: string;
}

const storage = new AsyncLocalStorage<IdempotencyContext>();

/** Runs the rest of a request with its key. */
export const runWithKey = <T>(ctx: IdempotencyContext, fn: () => T): T => storage.run(ctx, fn);

/** The key of the request being served, while its answer is still open. */
export function currentKey(): IdempotencyContext | undefined {
  const ctx = storage.getStore();
  return ctx && !ctx.closed ? ctx : undefined;
}

/**
 * Runs fn outside any request's key (work shared by several requests places each key itself). What fn
 * starts asynchronously stays outside it too.
 */
export const withoutKey = <T>(fn: () => T): T => storage.exit(fn);

// Raw SQL through the db layer (statements prepared and cached per connection on SQLite).
const PLACE_SQL = `INSERT OR IGNORE INTO idempotency_keys (user_id, method, path, key, status, body, created_at)
     VALUES (?, ?, ?, ?, ${PLACEHOLDER_STATUS}, '', ?)`;
const ANSWER_SQL = `INSERT INTO idempotency_keys (user_id, method, path, key, status, body, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, method, path, key) DO UPDATE SET status = excluded.status, body = excluded.body`;
const FIND_SQL = `SELECT status, body, created_at AS createdAt FROM idempotency_keys
     WHERE user_id = ? AND method = ? AND path = ? AND key = ?`;
const FORGET_SQL = `DELETE FROM idempotency_keys
     WHERE user_id = ? AND method = ? AND path = ? AND key = ?`;
const SWEEP_SQL = 'DELETE FROM idempotency_keys WHERE created_at <= ?';

const scopeParams = (s: IdempotencyScope) => [s.userId, s.method, s.path, s.key];

/**
 * Inside the caller's transaction: the placeholder row of the key (default: the current request's). A
 * second transaction of the same request finds it there and changes nothing.
 */
export async function placeKey(ctx: IdempotencyContext | undefined = currentKey()): Promise<void> {
  if (!ctx || ctx.closed) return;
  await execute(PLACE_SQL, [...scopeParams(ctx.scope), nowMs()]);
}

onWriteTransaction(() => placeKey());

/** The stored row of a key within its 24 h; an expired one is deleted (the key may be used again). */
export async function findKey(scope: IdempotencyScope): Promise<StoredAnswer | undefined> {
  const [row] = await query<StoredAnswer & { createdAt: number }>(FIND_SQL, scopeParams(scope));
  if (!row) return undefined;
  if (row.createdAt <= nowMs() - IDEMPOTENCY_TTL_MS) {
    await tx(() => execute(FORGET_SQL, scopeParams(scope)));
    return undefined;
  }
  return { status: row.status, body: row.body };
}

/** 429 and 5xx answers are not kept: a retry runs again. */
export const isStorable = (status: number): boolean => status !== 429 && status < 500;

/** Keeps the answer of a key (over its placeholder, or new for a refusal that wrote nothing). */
export async function saveAnswer(scope: IdempotencyScope, answer: StoredAnswer): Promise<void> {
  if (!isStorable(answer.status)) return;
  const at = nowMs();
  await tx(async () => {
    await execute(ANSWER_SQL, [...scopeParams(scope), answer.status, answer.body, at]);
    await sweep(at);
  });
}

const sweep = (at: number): Promise<number> => execute(SWEEP_SQL, [at - IDEMPOTENCY_TTL_MS]);

/** Deletes the keys older than 24 h; returns how many. */
export function sweepExpiredKeys(at: number = nowMs()): Promise<number> {
  return tx(() => sweep(at));
}

// ---- client_time (CONTRACT §16) -----------------------------------------------------------------

/** How far back an offline action's client_time is believed (CONTRACT §16). */
export const CLIENT_TIME_MAX_AGE_MS = 12 * 60 * 60 * 1000;

/**
 * When an action happened: the phone's `client_time` (CONTRACT §16) when it is not after `now`, within
 * 12 h, and after `after` (the task's assigned_at, the driver's previous punch); else `now`.
 */
export function actionTime(clientTime: string | undefined, now: Date, after: Date | null): Date {
  if (!clientTime) return now;
  const t = new Date(clientTime).getTime();
  const ok =
    Number.isFinite(t) &&
    t <= now.getTime() &&
    t >= now.getTime() - CLIENT_TIME_MAX_AGE_MS &&
    (!after || t > after.getTime());
  return ok ? new Date(t) : now;
}
