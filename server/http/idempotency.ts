// The `Idempotency-Key` header of every authenticated POST (CONTRACT §16; the storage and its
// transaction rule are in server/services/idempotency.ts). Scoped by user, method and path; kept 24 h.
//   - no header, or no valid token (the route answers 401/403 itself): the request runs as always;
//   - a key that is not a UUID: 400;
//   - a key already answered: that answer again (same status and body), nothing runs;
//   - a key whose request is still running here: waits for it, then gets its answer;
//   - a key another node's request placed at the same moment (PostgreSQL): this request's transaction is
//     given up before it writes anything (services/idempotency.ts, placeKey), and it answers with the
//     first request's answer once that is stored (awaitAnswer) — one effect, one answer;
//   - a key whose effect committed but whose answer was never stored (the process stopped in between,
//     or the answer was a 5xx after the commit): 409 `idempotencyAlreadyApplied` — the action was applied;
//   - 429 and 5xx answers are not stored: a retry runs again.
import type { RequestHandler, Response } from 'express';
import { ERR } from '@shared/labels';
import { idempotencyKeySchema } from '@shared/schemas';
import type { UserRow } from '../db/tables';
import { logger } from '../logger';
import { presence } from '../services/presence';
import {
  awaitAnswer,
  findKey,
  newContext,
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
async function tokenUser(authorization: string | undefined): Promise<UserRow | undefined> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return undefined;
  try {
    return (await authenticateToken(match[1])).user;
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

/**
 * Stores the request's answer; resolves with the answer the key has: the request's own, or — when
 * another request placed the key first (another node, at the same moment) — that one's.
 */
async function store(ctx: IdempotencyContext, answer: StoredAnswer): Promise<StoredAnswer> {
  const { scope } = ctx;
  try {
    if (!ctx.taken && (await saveAnswer(ctx, answer))) return answer;
    return await awaitAnswer(scope);
  } catch (err) {
    // The effect (if any) committed with its placeholder: a repeat is told it was applied.
    logger.error({ err, path: scope.path }, 'no se pudo guardar la respuesta de la Idempotency-Key');
    return answer;
  }
}

export const idempotency: RequestHandler = async (req, res, next) => {
  const header = req.get('Idempotency-Key');
  if (req.method !== 'POST' || header === undefined) return next();
  const user = await tokenUser(req.headers.authorization);
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
  // Claimed before the lookup awaits: a duplicate arriving meanwhile waits for this one.
  let settle!: () => void;
  inFlight.set(id, new Promise<void>((resolve) => (settle = resolve)));
  const release = () => {
    inFlight.delete(id);
    settle();
  };
  let stored: StoredAnswer | undefined;
  try {
    stored = await findKey(scope);
  } catch (err) {
    release();
    throw err;
  }
  if (stored) {
    release();
    return replay(res, stored);
  }

  const ctx = newContext(scope);
  // A duplicate waiting for this request goes on once the answer is stored (or given up).
  const close = (answer?: StoredAnswer): Promise<StoredAnswer | undefined> => {
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
    const own: StoredAnswer = { status: res.statusCode, body: JSON.stringify(body) ?? '' };
    void close(own).then((kept) => {
      try {
        if (kept && kept !== own) replay(res, kept);
        else json(body);
      } catch (err) {
        logger.error({ err, path: scope.path }, 'no se pudo enviar la respuesta de la Idempotency-Key');
      }
    });
    return res;
  };
  res.on('finish', () => void close({ status: res.statusCode, body: '' }));
  res.on('close', () => void close());
  // Presence first, outside the key: a driver coming online writes in a transaction of its own that is
  // not this request's effect (requireAuth's own touch then changes nothing). Like requireAuth, an
  // account that must change its password first is not marked online here.
  if (!user.mustChangePassword) await presence.touch(userId);
  runWithKey(ctx, next);
};
