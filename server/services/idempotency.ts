// Idempotency keys (CONTRACT §16, §23): the phone's offline queue may send an action twice (a lost answer,
// a retry); the same `Idempotency-Key` for the same request gets the first answer and changes nothing. A
// key belongs to its principal (`user:<id>`, an API client's `api:<id>`) and is bound to its
// request by a fingerprint (SHA-256 of the method, the path with its query string and the raw body): the
// same key for another request is refused (422, in the middleware).
//
// Only a request that ran its effect keeps its key. The key of the request being served travels in an
// AsyncLocalStorage context; every write transaction of that request (tx(), server/db/index.ts) first
// inserts a placeholder row for it (status 0, the request's own token as body), so the key commits or
// rolls back together with the effect: a refused request (its transaction rolled back, or it never wrote)
// leaves no row. When the answer is known, the middleware (server/http/idempotency.ts) writes a success's
// status and body over that placeholder: a tiny second write. A placeholder that never got its body means
// the effect committed but the answer did not follow (the process stopped in between, or the request
// failed after its commit): the action was applied, and a repeat is told so (409).
//
// One effect per key, on both engines and with any number of nodes: a duplicate on the same node waits
// for the first in the middleware; a duplicate on another node (PostgreSQL) is stopped by the row itself.
// The placement is `INSERT … ON CONFLICT DO NOTHING` on the key's primary key: PostgreSQL makes a second
// transaction's insert wait for the first's commit (then it inserts nothing), SQLite's one writer runs
// them one after the other. A placement that inserts nothing looks at the row: the request's own token
// (an earlier transaction of the same request) is fine; anyone else's means the key belongs to another
// request, so this transaction is given up (KeyTakenError) and the request answers with the first one's
// answer once stored (awaitAnswer). Answers likewise only overwrite the request's own placeholder.
//
// A new key is also where the cap of keys a principal may use in 24 h is checked (IDEMPOTENCY_KEYS_PER_DAY):
// the placement counts the principal's keys, and the 1,001st of a user's day (100,001st of a client's) rolls back with a 429.
// Also here: actionTime(), the rule for the `client_time` of those queued actions.
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { IDEMPOTENCY_KEYS_PER_DAY } from '@shared/constants';
import { ERR } from '@shared/labels';
import { execute, onWriteTransaction, query, tx } from '../db';
import { nowMs } from '../clock';
import { HttpError } from '../http/errors';

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** The status of a placeholder row: the effect committed, the answer is not stored (yet). */
export const PLACEHOLDER_STATUS = 0;

/** Who a key belongs to: `user:<id>`, or (API clients, CONTRACT §21) `api:<id>`. */
export type Principal = `${keyof typeof IDEMPOTENCY_KEYS_PER_DAY}:${string}`;
export const userPrincipal = (userId: string): Principal => `user:${userId}`;
export const clientKeyPrincipal = (clientId: string): Principal => `api:${clientId}`;
const capOf = (principal: Principal): number =>
  IDEMPOTENCY_KEYS_PER_DAY[
    principal.slice(0, principal.indexOf(':')) as keyof typeof IDEMPOTENCY_KEYS_PER_DAY
  ];

/** A key of a principal. */
export interface IdempotencyScope {
  principal: Principal;
  key: string;
}

/** SHA-256 (hex) of the request a key stands for: its method, path with query string and raw body. */
export const fingerprintOf = (method: string, url: string, body: Buffer | undefined): string =>
  crypto
    .createHash('sha256')
    .update(`${method}\n${url}\n`)
    .update(body ?? Buffer.alloc(0))
    .digest('hex');

/** The key of one request; `closed` once its answer is known (later work it scheduled places nothing). */
export interface IdempotencyContext {
  scope: IdempotencyScope;
  fingerprint: string;
  closed: boolean;
  /** The body of this request's placeholder row: tells its own row from another request's. */
  readonly owner: string;
  /** Set when another request (another node) placed the key first: this one answers with its answer. */
  taken: boolean;
}

/** A new request's context (owner: a random token, never a JSON answer). */
export const newContext = (scope: IdempotencyScope, fingerprint: string): IdempotencyContext => ({
  scope,
  fingerprint,
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
/** A key's row: its answer (or placeholder) and the fingerprint of the request that placed it. */
export interface KeyRow extends StoredAnswer {
  fingerprint: string;
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
const PLACE_SQL = `INSERT INTO idempotency_keys (principal, key, fingerprint, status, body, created_at)
     VALUES (?, ?, ?, ${PLACEHOLDER_STATUS}, ?, ?)
     ON CONFLICT (principal, key) DO NOTHING`;
// Counted right after a placement, within the placing transaction (the new key included).
const COUNT_SQL = 'SELECT count(*) AS n FROM idempotency_keys WHERE principal = ? AND created_at > ?';
// The answer goes over the request's own placeholder only: a request that wrote nothing stores nothing,
// and another request's row is never overwritten (the middleware then answers with that one's answer).
const ANSWER_SQL = `UPDATE idempotency_keys SET status = ?, body = ?
     WHERE principal = ? AND key = ? AND status = ${PLACEHOLDER_STATUS} AND body = ?`;
// Quoted alias: PostgreSQL folds unquoted names to lower case.
const FIND_SQL = `SELECT fingerprint, status, body, created_at AS "createdAt" FROM idempotency_keys
     WHERE principal = ? AND key = ?`;
const FORGET_SQL = 'DELETE FROM idempotency_keys WHERE principal = ? AND key = ?';
const SWEEP_SQL = 'DELETE FROM idempotency_keys WHERE created_at <= ?';

const scopeParams = (s: IdempotencyScope) => [s.principal, s.key];

/**
 * Inside the caller's transaction: the placeholder row of the key (default: the current request's). A
 * second transaction of the same request finds its own row there and changes nothing; a row of another
 * request throws KeyTakenError, and a new key beyond the principal's cap a 429 (the caller's transaction
 * rolls back: one effect per key, no row for a refusal).
 */
export async function placeKey(ctx: IdempotencyContext | undefined = currentKey()): Promise<void> {
  if (!ctx || ctx.closed) return;
  const at = nowMs();
  const { principal } = ctx.scope;
  if ((await execute(PLACE_SQL, [...scopeParams(ctx.scope), ctx.fingerprint, ctx.owner, at])) > 0) {
    const [used] = await query<{ n: number }>(COUNT_SQL, [principal, at - IDEMPOTENCY_TTL_MS]);
    if (Number(used.n) > capOf(principal)) throw new HttpError(429, ERR.idempotencyTooManyKeys);
    return;
  }
  // Committed by now: PostgreSQL's insert waited for the other transaction's end.
  const [row] = await query<KeyRow>(FIND_SQL, scopeParams(ctx.scope));
  if (row && row.status === PLACEHOLDER_STATUS && row.body === ctx.owner) return;
  ctx.taken = true;
  throw new KeyTakenError();
}

onWriteTransaction(() => placeKey());

/** The row of a key within its 24 h; an expired one is deleted (the key may be used again). */
export async function findKey(scope: IdempotencyScope): Promise<KeyRow | undefined> {
  const [row] = await query<KeyRow & { createdAt: number }>(FIND_SQL, scopeParams(scope));
  if (!row) return undefined;
  if (row.createdAt <= nowMs() - IDEMPOTENCY_TTL_MS) {
    await tx(() => execute(FORGET_SQL, scopeParams(scope)));
    return undefined;
  }
  return { fingerprint: row.fingerprint, status: row.status, body: row.body };
}

/** How long a request whose key another request placed waits for that one's answer (then: 409). */
export const ANSWER_WAIT_MS = 5_000;
const ANSWER_POLL_MS = 25;

/**
 * The answer of the request that placed a key: it committed its effect a moment ago and stores its
 * answer right after. A placeholder still there after ANSWER_WAIT_MS (that request's node stopped, or it
 * failed after its commit) is returned as is: a repeat of an applied action (409). Undefined: no row.
 */
export async function awaitAnswer(scope: IdempotencyScope): Promise<KeyRow | undefined> {
  const deadline = Date.now() + ANSWER_WAIT_MS;
  for (;;) {
    const row = await findKey(scope);
    if (!row || row.status !== PLACEHOLDER_STATUS || Date.now() >= deadline) return row;
    await sleep(ANSWER_POLL_MS);
  }
}

/** Only a success is kept: a refusal (4xx) or a failure (5xx) leaves the key free for a retry. */
export const isStorable = (status: number): boolean => status < 400;

/**
 * Keeps a success's answer over the request's own placeholder. False when there is none: the request
 * wrote nothing (nothing to keep), or another request holds the key.
 */
export async function saveAnswer(ctx: IdempotencyContext, answer: StoredAnswer): Promise<boolean> {
  const at = nowMs();
  return tx(async () => {
    const params = [answer.status, answer.body, ...scopeParams(ctx.scope), ctx.owner];
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
