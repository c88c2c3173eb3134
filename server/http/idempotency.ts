// The `Idempotency-Key` header of every authenticated POST (CONTRACT §16, §23; the storage and its
// transaction rule are in server/services/idempotency.ts). A key belongs to its user, or to its API key's
// client (CONTRACT §21), and stands for one request: its fingerprint (method, path with query string, raw
// body). Kept 24 h.
//   - no header, or no valid token or API key (the route answers 401/403 itself), or a path of
//     WITHOUT_KEY: the request runs as always;
//   - a key that is not a UUID: 400;
//   - a key already answered for the same request: that answer again (same status and body), nothing runs;
//   - a key already answered for another request: 422 `idempotencyKeyReused`, nothing runs;
//   - a key whose request is still running here: waits for it, then gets its answer (or the 422);
//   - a key another node's request placed at the same moment (PostgreSQL): this request's transaction is
//     given up before it writes anything (services/idempotency.ts, placeKey), and it answers with the
//     first request's answer once that is stored (awaitAnswer) — one effect, one answer;
//   - a key whose effect committed but whose answer was never stored (the process stopped in between,
//     or the request failed after the commit): 409 `idempotencyAlreadyApplied` — the action was applied;
//   - only a success is stored: a refusal (4xx) or a 5xx leaves no row, and a retry runs again.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { ERR } from '@shared/labels';
import { idempotencyKeySchema } from '@shared/schemas';
import type { UserRow } from '../db/tables';
import { logger } from '../logger';
import { clientOfKey, isApiKey } from '../services/api-clients';
import { presence } from '../services/presence';
import {
  awaitAnswer,
  clientKeyPrincipal,
  findKey,
  fingerprintOf,
  isStorable,
  newContext,
  PLACEHOLDER_STATUS,
  runWithKey,
  saveAnswer,
  userPrincipal,
  type IdempotencyContext,
  type IdempotencyScope,
  type KeyRow,
  type Principal,
  type StoredAnswer,
} from '../services/idempotency';
import { countKeyRequest } from './api-key-rate';
import { authenticateToken } from './auth';
import { badRequest } from './errors';

/**
 * The POSTs that ignore the header (CONTRACT §23), the one list: their answers carry a token or a
 * password, which is never stored (login, refresh, change-password, an admin's password reset), or their
 * body is a file (the gate's photos). Matched like Express routes: any case, an optional trailing slash.
 */
const WITHOUT_KEY: readonly RegExp[] = [
  /^\/api\/auth\/(login|refresh|change-password)\/?$/i,
  /^\/api\/admin\/users\/[^/]+\/reset-password\/?$/i,
  /^\/api\/gate\/photos\/?$/i,
];

/**
 * The raw bodies of keyed POSTs, as the JSON parser read them: their fingerprint is taken over them. A body
 * the parser does not read (not JSON) reaches no route either: it counts as empty.
 */
const rawBodies = new WeakMap<IncomingMessage, Buffer>();

/** express.json's `verify` (server/app.ts): keeps the raw body of a keyed POST for its fingerprint. */
export function keepRawBody(req: IncomingMessage, _res: ServerResponse, body: Buffer): void {
  if (req.method === 'POST' && req.headers['idempotency-key'] !== undefined) rawBodies.set(req, body);
}

/** Requests running now, by key: a duplicate waits for the first. */
const inFlight = new Map<string, Promise<void>>();
const scopeId = (s: IdempotencyScope) => JSON.stringify([s.principal, s.key]);

/** Whom a request's key belongs to: its session's user or its API key's client (CONTRACT §21, §23). */
type KeyOwner = { principal: Principal; user: UserRow } | { principal: Principal; clientId: string };

/** The owner of the request's bearer token or API key, or undefined (requireAuth then answers the refusal). */
async function keyOwner(authorization: string | undefined): Promise<KeyOwner | undefined> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return undefined;
  const bearer = match[1];
  if (isApiKey(bearer)) {
    const client = await clientOfKey(bearer);
    return client && { principal: clientKeyPrincipal(client.id), clientId: client.id };
  }
  try {
    const { user } = await authenticateToken(bearer);
    return { principal: userPrincipal(user.id), user };
  } catch {
    return undefined;
  }
}

/** Answers with what a key holds: its stored answer for the same request, else the 422. */
function replay(res: Response, row: KeyRow, fingerprint: string): void {
  if (row.fingerprint !== fingerprint) {
    res
      .status(422)
      .type('application/json')
      .send(JSON.stringify({ detail: ERR.idempotencyKeyReused }));
    return;
  }
  res.setHeader('Idempotent-Replayed', 'true');
  if (row.status === PLACEHOLDER_STATUS) {
    res
      .status(409)
      .type('application/json')
      .send(JSON.stringify({ detail: ERR.idempotencyAlreadyApplied }));
    return;
  }
  res.status(row.status);
  if (row.body) res.type('application/json').send(row.body);
  else res.end();
}

/**
 * Stores the request's answer if it is a success over its own placeholder; resolves with the row the key
 * has when that belongs to another request (another node placed it at the same moment), else undefined:
 * the request's own answer stands.
 */
async function store(ctx: IdempotencyContext, answer: StoredAnswer): Promise<KeyRow | undefined> {
  const { scope } = ctx;
  try {
    if (!ctx.taken) {
      if (isStorable(answer.status) && (await saveAnswer(ctx, answer))) return undefined;
      const row = await findKey(scope);
      // No row: the request wrote nothing. Its own placeholder: a refusal or failure after its effect
      // committed, kept so that a repeat is told the action was applied.
      if (!row || row.body === ctx.owner) return undefined;
    }
    return await awaitAnswer(scope);
  } catch (err) {
    // The effect (if any) committed with its placeholder: a repeat is told it was applied.
    logger.error({ err }, 'no se pudo guardar la respuesta de la Idempotency-Key');
    return undefined;
  }
}

export const idempotency: RequestHandler = async (req, res, next) => {
  const header = req.get('Idempotency-Key');
  if (req.method !== 'POST' || header === undefined) return next();
  const path = req.baseUrl + req.path;
  if (WITHOUT_KEY.some((pattern) => pattern.test(path))) return next();
  const owner = await keyOwner(req.headers.authorization);
  if (!owner) return next();
  const parsed = idempotencyKeySchema.safeParse(header.trim());
  if (!parsed.success) throw badRequest(ERR.idempotencyKeyInvalid);
  const scope: IdempotencyScope = { principal: owner.principal, key: parsed.data.toLowerCase() };
  const fingerprint = fingerprintOf(req.method, req.originalUrl, rawBodies.get(req));
  const id = scopeId(scope);
  for (let running = inFlight.get(id); running; running = inFlight.get(id)) await running;
  // Claimed before the lookup awaits: a duplicate arriving meanwhile waits for this one.
  let settle!: () => void;
  inFlight.set(id, new Promise<void>((resolve) => (settle = resolve)));
  const release = () => {
    inFlight.delete(id);
    settle();
  };
  let stored: KeyRow | undefined;
  try {
    stored = await findKey(scope);
  } catch (err) {
    release();
    throw err;
  }
  if (stored) {
    release();
    // A key's replay is one more request of its client: counted against its rate, with its headers.
    if ('clientId' in owner) await countKeyRequest(owner.clientId, res);
    return replay(res, stored, fingerprint);
  }

  const ctx = newContext(scope, fingerprint);
  // A duplicate waiting for this request goes on once the answer is stored (or given up).
  const close = (answer?: StoredAnswer): Promise<KeyRow | undefined> => {
    if (ctx.closed) return Promise.resolve(undefined);
    ctx.closed = true;
    if (!answer) {
      release();
      return Promise.resolve(undefined);
    }
    return store(ctx, answer).finally(release);
  };
  const json = res.json.bind(res);
  // The answer is stored before it leaves: a client that heard it and repeats gets it back.
  res.json = (body?: unknown) => {
    if (ctx.closed) return json(body);
    void close({ status: res.statusCode, body: JSON.stringify(body) ?? '' }).then((other) => {
      try {
        if (other) replay(res, other, fingerprint);
        else json(body);
      } catch (err) {
        logger.error({ err, path }, 'no se pudo enviar la respuesta de la Idempotency-Key');
      }
    });
    return res;
  };
  res.on('finish', () => void close({ status: res.statusCode, body: '' }));
  res.on('close', () => void close());
  // Presence first, outside the key: a driver coming online writes in a transaction of its own that is
  // not this request's effect (requireAuth's own touch then changes nothing). Like requireAuth, an
  // account that must change its password first is not marked online here.
  if ('user' in owner && !owner.user.mustChangePassword) await presence.touch(owner.user.id);
  runWithKey(ctx, next);
};
