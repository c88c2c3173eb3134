// CONTRACT §21: API_KEY_RATE_PER_MIN requests a minute per key across nodes, counted by rate-limiter-flexible
// in the api_rate_limits table (its Drizzle store runs on both engines through our `db`), with the
// RateLimit headers on every key answer and 429 beyond the limit. The store reads the wall clock, never
// the test clock: a minute of requests is a real minute.
import type { Response } from 'express';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import { API_CLIENT_ERR } from '@shared/labels';
import { db, tx } from '../db';
import { isPostgres } from '../db/engine';
import { apiRateLimits } from '../db/tables';
import { config } from '../config';
import { withoutKey } from '../services/idempotency';
import { HttpError } from './errors';

const WINDOW_S = 60;

let limiter: { points: number; store: RateLimiterDrizzle } | undefined;
/** One limiter per limit (tests change the configuration); expired rows go with startRateLimitSweep(). */
function limiterOf(points: number): RateLimiterDrizzle {
  if (limiter?.points !== points)
    limiter = {
      points,
      store: new RateLimiterDrizzle({
        storeClient: db,
        schema: apiRateLimits,
        points,
        duration: WINDOW_S,
        keyPrefix: 'api_key',
        clearExpiredByTimeout: false,
      }),
    };
  return limiter.store;
}

/** Counts one request of the client; sets the RateLimit headers; 429 with Retry-After beyond the limit. */
export async function countKeyRequest(clientId: string, res: Response): Promise<void> {
  const points = config.apiKeyRatePerMin;
  const consume = () =>
    limiterOf(points)
      .consume(clientId)
      .then(
        (state) => ({ over: false, state }),
        (refusal: unknown) => {
          if (refusal instanceof RateLimiterRes) return { over: true, state: refusal };
          throw refusal;
        },
      );
  // A write of its own (never part of the request's Idempotency-Key); a refusal is an answer, not a
  // failure. The store's one upsert is atomic by itself: on PostgreSQL it goes straight to the pool (no
  // BEGIN and COMMIT around it); SQLite writes only through its one writer's transactions.
  const { over, state } = await withoutKey(() => (isPostgres ? consume() : tx(consume)));
  const resetS = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  res.set({
    'RateLimit-Limit': String(points),
    'RateLimit-Remaining': String(state.remainingPoints),
    'RateLimit-Reset': String(resetS),
  });
  if (!over) return;
  res.set('Retry-After', String(resetS));
  throw new HttpError(429, API_CLIENT_ERR.tooManyRequests(resetS));
}
