// Idempotency keys (CONTRACT §16): the phone's offline queue may send an action twice (a lost answer, a
// retry); the same `Idempotency-Key` by the same user on the same method and path gets the first
// answer and changes nothing. The key of the request being served travels in an AsyncLocalStorage
// context; every write transaction of that request (tx(), server/db/index.ts) first inserts a
// placeholder row for it (status 0, the request's own token as body), so the key commits or rolls back
// together with the effect. When the answer is known, the middleware (server/http/idempotency.ts) fills
// in its status and body: a tiny second write. A placeholder that never got its body means the process
// stopped between the commit and the answer: the action was applied, and a repeat is told so (409).
//
// One effect per key, on both engines and with any number of nodes: a duplicate on the same node waits
// for the first in the middleware; a duplicate on another node (PostgreSQL) is stopped by the row itself.
// The placement is `INSERT … ON CONFLICT DO NOTHING` on the key's primary key: PostgreSQL makes a second
// transaction's insert wait for the first's commit (then it inserts nothing), SQLite's one writer runs
// them one after the other. A placement that inserts nothing looks at the row: the request's own token
// (an earlier transaction of the same request) is fine; anyone else's means the key belongs to another
// request, so this transaction is given up (KeyTakenError) and the request answers with the first one's
// answer once stored (awaitAnswer). Answers likewise only overwrite the request's own placeholder.
// Also here: actionTime(), the rule for the `client_time` of those queued actions.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERR } from '@shared/labels';
import { execute, onWriteTransaction, query, tx } from '../db';
import { nowMs } from '../clock';
import { HttpError } from '../http/errors';

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
  /** The body of this request's placeholder row: tells its own row from another request's. */
  readonly owner: string;
  /** Set when another request (another node) placed the key first: this one answers with its answer. */
  taken: boolean;
}

/** A new request's context (owner: a random token, never a JSON answer). */
export const newContext = (scope: IdempotencyScope): IdempotencyContext => ({
  scope,
  closed: false,
  owner: `pending:${crypto.randomUUID()}`,
  taken: false,
});

/**
 * The key was placed by another request (a duplicate served by another node at the same moment): the
 * transaction that tried to place it is given up with nothing written. Should it reach the client
 * unchanged, it says what is true — the action was applied — but the middleware answers with the first
 * request's answer instead.
 */
export class KeyTakenError extends HttpError {
  constructor() {
    super(409, ERR.idempotencyAlreadyApplied);
  }
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

// Raw SQL through the db layer (statements prepared and cached per connection on SQLite); the same text
// on both engines (`ON CONFLICT` is SQLite's and PostgreSQL's; `?` becomes `$n` on PostgreSQL).
const PLACE_SQL = `INSERT INTO idempotency_keys (user_id, method, path, key, status, body, created_at)
     VALUES (?, ?, ?, ?, ${PLACEHOLDER_STATUS}, ?, ?)
     ON CONFLICT (user_id, method, path, key) DO NOTHING`;
// The answer goes over the request's own placeholder, or in a new row for a refusal that wrote nothing;
// never over another request's row (0 rows changed: the middleware then answers with that one's answer).
const ANSWER_SQL = `INSERT INTO idempotency_keys (user_id, method, path, key, status, body, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, method, path, key) DO UPDATE SET status = excluded.status, body = excluded.body
     WHERE idempotency_keys.status = ${PLACEHOLDER_STATUS} AND idempotency_keys.body = ?`;
// Quoted alias: PostgreSQL folds unquoted names to lower case.
const FIND_SQL = `SELECT status, body, created_at AS "createdAt" FROM idempotency_keys
     WHERE user_id = ? AND method = ? AND path = ? AND key = ?`;
const FORGET_SQL = `DELETE FROM idempotency_keys
     WHERE user_id = ? AND method = ? AND path = ? AND key = ?`;
const SWEEP_SQL = 'DELETE FROM idempotency_keys WHERE created_at <= ?';

const scopeParams = (s: IdempotencyScope) => [s.userId, s.method, s.path, s.key];

/**
 * Inside the caller's transaction: the placeholder row of the key (default: the current request's). A
 * second transaction of the same request finds its own row there and changes nothing; a row of another
 * request throws KeyTakenError (the caller's transaction rolls back: one effect per key).
 */
export async function placeKey(ctx: IdempotencyContext | undefined = currentKey()): Promise<void> {
  if (!ctx || ctx.closed) return;
  if ((await execute(PLACE_SQL, [...scopeParams(ctx.scope), ctx.owner, nowMs()])) > 0) return;
  // Committed by now: PostgreSQL's insert waited for the other transaction's end.
  const [row] = await query<{ status: number; body: string }>(FIND_SQL, scopeParams(ctx.scope));
  if (row && row.status === PLACEHOLDER_STATUS && row.body === ctx.owner) return;
  ctx.taken = true;
  throw new KeyTakenError();
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

/** How long a request whose key another request placed waits for that one's answer (then: 409). */
export const ANSWER_WAIT_MS = 5_000;
const ANSWER_POLL_MS = 25;

/**
 * The answer of the request that placed a key: it committed its effect a moment ago and stores its
 * answer right after. A placeholder still there after ANSWER_WAIT_MS (that request's node stopped, or it
 * failed after its commit) is returned as is: a repeat of an applied action (409).
 */
export async function awaitAnswer(scope: IdempotencyScope): Promise<StoredAnswer> {
  const deadline = Date.now() + ANSWER_WAIT_MS;
  for (;;) {
    const [row] = await query<StoredAnswer>(FIND_SQL, scopeParams(scope));
    if (row && row.status !== PLACEHOLDER_STATUS) return { status: row.status, body: row.body };
    if (Date.now() >= deadline) return { status: PLACEHOLDER_STATUS, body: '' };
    await sleep(ANSWER_POLL_MS);
  }
}

/** 429 and 5xx answers are not kept: a retry runs again. */
export const isStorable = (status: number): boolean => status !== 429 && status < 500;

/**
 * Keeps the answer of a key (over the request's own placeholder, or new for a refusal that wrote
 * nothing). False when another request holds the key: its answer is the key's.
 */
export async function saveAnswer(ctx: IdempotencyContext, answer: StoredAnswer): Promise<boolean> {
  if (!isStorable(answer.status)) return true;
  const at = nowMs();
  return tx(async () => {
    const params = [...scopeParams(ctx.scope), answer.status, answer.body, at, ctx.owner];
    const kept = (await execute(ANSWER_SQL, params)) > 0;
    await sweep(at);
    return kept;
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
