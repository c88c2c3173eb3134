// The `Idempotency-Key` header of every authenticated POST (CONTRACT §16; the storage and its
// transaction rule are in server/services/idempotency.ts). Scoped by user, method and path; kept 24 h.
//   - no header, or no valid token (the route answers 401/403 itself): the request runs as always;
//   - a key that is not a UUID: 400;
//   - a key already answered: that answer again (same status and body), nothing runs;
//   - a key whose request is still running here: waits for it, then gets its answer;
//   - a key whose effect committed but whose answer was never stored (the process stopped in between,
//     or the answer was a 5xx after the commit): 409 `idempotencyAlreadyApplied` — the action was applied;
//   - 429 and 5xx answers are not stored: a retry runs again.
import type { RequestHandler, Response } from 'express';
import { ERR } from '@shared/labels';
import { idempotencyKeySchema } from '@shared/schemas';
import type { UserRow } from '../db/schema';
import { logger } from '../logger';
import { presence } from '../services/presence';
import {
  findKey,
  PLACEHOLDER_STATUS,
  runWithKey,
  saveAnswer,
  type IdempotencyContext,
  type IdempotencyScope,
  type StoredAnswer,
} from '../services/idempotency';
import { authenticateToken } from './auth';
import { badRequest } from './errors';

/** Requests running now, by scope: a duplicate waits for the first. */
const inFlight = new Map<string, Promise<void>>();
const scopeId = (s: IdempotencyScope) => JSON.stringify([s.userId, s.method, s.path, s.key]);

/** The user of the request's bearer token, or undefined (requireAuth then answers the refusal). */
function tokenUser(authorization: string | undefined): UserRow | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return undefined;
  try {
    return authenticateToken(match[1]).user;
  } catch {
    return undefined;
  }
}

function replay(res: Response, answer: StoredAnswer): void {
  res.setHeader('Idempotent-Replayed', 'true');
  if (answer.status === PLACEHOLDER_STATUS) {
    res.status(409).json({ detail: ERR.idempotencyAlreadyApplied });
    return;
  }
  res.status(answer.status);
  if (answer.body) res.type('application/json').send(answer.body);
  else res.end();
}

function store(scope: IdempotencyScope, answer: StoredAnswer): void {
  try {
    saveAnswer(scope, answer);
  } catch (err) {
    // The effect (if any) committed with its placeholder: a repeat is told it was applied.
    logger.error({ err, path: scope.path }, 'no se pudo guardar la respuesta de la Idempotency-Key');
  }
}

export const idempotency: RequestHandler = async (req, res, next) => {
  const header = req.get('Idempotency-Key');
  if (req.method !== 'POST' || header === undefined) return next();
  const user = tokenUser(req.headers.authorization);
  if (!user) return next();
  const userId = user.id;
  const parsed = idempotencyKeySchema.safeParse(header.trim());
  if (!parsed.success) throw badRequest(ERR.idempotencyKeyInvalid);
  const scope: IdempotencyScope = {
    userId,
    method: req.method,
    path: req.baseUrl + req.path,
    key: parsed.data.toLowerCase(),
  };
  const id = scopeId(scope);
  for (let running = inFlight.get(id); running; running = inFlight.get(id)) await running;
  const stored = findKey(scope);
  if (stored) return replay(res, stored);

  let settle!: () => void;
  inFlight.set(id, new Promise<void>((resolve) => (settle = resolve)));
  const ctx: IdempotencyContext = { scope, closed: false };
  const close = (answer?: StoredAnswer) => {
    if (ctx.closed) return;
    ctx.closed = true;
    if (answer) store(scope, answer);
    inFlight.delete(id);
    settle();
  };
  const json = res.json.bind(res);
  res.json = (body?: unknown) => {
    close({ status: res.statusCode, body: JSON.stringify(body) ?? '' });
    return json(body);
  };
  res.on('finish', () => close({ status: res.statusCode, body: '' }));
  res.on('close', () => close());
  // Presence first, outside the key: a driver coming online writes in a transaction of its own that is
  // not this request's effect (requireAuth's own touch then changes nothing). Like requireAuth, an
  // account that must change its password first is not marked online here.
  if (!user.mustChangePassword) presence.touch(userId);
  runWithKey(ctx, next);
};
