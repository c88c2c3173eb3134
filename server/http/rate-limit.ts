// The throttles of CONTRACT §4 and §14: failed logins per IP + email and per IP, registrations per IP
// — counted in the database (rate_limits), so every node serving the yard counts the same attempts
// (CONTRACT §18) — and how much bcrypt work one IP may have at once, per node (it protects that node's
// CPU). Every attempt is counted the moment it arrives, before any hashing, so requests already in
// flight cannot slip past a limit; a login that succeeds gives its count back. They read the server
// clock, so tests can move past a window.
import { LOGIN_IP_LIMIT, LOGIN_RATE_LIMIT, REGISTER_RATE_LIMIT } from '@shared/constants';
import { ERR } from '@shared/labels';
import { execute, query, tx } from '../db';
import { nowMs } from '../clock';
import { withoutKey } from '../services/idempotency';
import { logger } from '../logger';
import { HttpError } from './errors';

const tooMany = () => new HttpError(429, ERR.tooManyAttempts);

// One statement decides: a window that ended starts again at 1; a full one stays at max + 1 (refused).
const TAKE = `INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 1, ?)
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN rate_limits.reset_at <= ? THEN 1
      WHEN rate_limits.count > ? THEN rate_limits.count ELSE rate_limits.count + 1 END,
    reset_at = CASE WHEN rate_limits.reset_at <= ? THEN excluded.reset_at ELSE rate_limits.reset_at END
  RETURNING count`;
const REFUND = `UPDATE rate_limits SET count = count - 1 WHERE key = ? AND count > 0 AND reset_at > ?`;

/** A write of its own, never a request's effect (outside its Idempotency-Key). */
const write = <T>(fn: () => Promise<T>) => withoutKey(() => tx(fn));

export class WindowCounter {
  constructor(
    /** Keeps this counter's keys apart from the others' in the shared table. */
    private readonly name: string,
    private readonly windowMs: number,
    private readonly max: number,
  ) {}

  /** Counts one attempt now, or answers 429 when the key's window already holds `max`. */
  async take(key: string): Promise<void> {
    const at = nowMs();
    const [row] = await write(() =>
      query<{ count: number }>(TAKE, [`${this.name}:${key}`, at + this.windowMs, at, this.max, at]),
    );
    if (row!.count > this.max) throw tooMany();
  }

  /** Gives one attempt back (it turned out not to be a failure). */
  async refund(key: string): Promise<void> {
    await write(() => execute(REFUND, [`${this.name}:${key}`, nowMs()]));
  }

  async clear(key: string): Promise<void> {
    await write(() => execute('DELETE FROM rate_limits WHERE key = ?', [`${this.name}:${key}`]));
  }
}

/** How often each node removes the windows that have ended (idempotent on every node). */
export const RATE_LIMIT_SWEEP_MS = 10 * 60 * 1000;

/** Starts removing the windows that have ended; returns its stop. */
export function startRateLimitSweep(): () => void {
  const timer = setInterval(() => {
    write(async () => {
      await execute('DELETE FROM rate_limits WHERE reset_at <= ?', [nowMs()]);
      // The API keys' minutes (http/api-key-rate.ts): their store reads the wall clock.
      await execute('DELETE FROM api_rate_limits WHERE expire <= ?', [Date.now()]);
    }).catch((err: unknown) => logger.warn({ err }, 'no se pudieron limpiar los límites de intentos'));
  }, RATE_LIMIT_SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * At most `active` jobs of one key run at a time and `waiting` wait for a slot; beyond that, `refuse()`
 * (429 unless told) at once. bcrypt runs on libuv's four worker threads: one IP's flood must leave room
 * for everyone else; photo decodes (services/gate-photos.ts) share one key per node.
 */
export class ConcurrencyGate {
  private slots = new Map<string, { active: number; queue: (() => void)[] }>();

  constructor(
    private readonly active: number,
    private readonly waiting: number,
    private readonly refuse: () => Error = tooMany,
  ) {}

  async run<T>(key: string, job: () => Promise<T>): Promise<T> {
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = { active: 0, queue: [] }));
    if (slot.active < this.active) slot.active += 1;
    else if (slot.queue.length < this.waiting) await new Promise<void>((resolve) => slot.queue.push(resolve));
    else throw this.refuse();
    try {
      return await job();
    } finally {
      // The freed slot passes straight to the next in line, so the active count stays put.
      const next = slot.queue.shift();
      if (next) next();
      else if (--slot.active === 0) this.slots.delete(key);
    }
  }
}

/** Failed logins: 10 per 15 minutes per IP + email; a success clears the count. */
export const loginFailures = new WindowCounter('login', LOGIN_RATE_LIMIT.windowMs, LOGIN_RATE_LIMIT.max);
/** Failed logins per IP whatever the emails: 100 per 15 minutes. */
export const loginFailuresByIp = new WindowCounter(
  'login-ip',
  LOGIN_IP_LIMIT.windowMs,
  LOGIN_IP_LIMIT.failures,
);
/** Password hashing per IP (logins, registrations, password changes): 4 at once, 50 waiting. */
export const passwordWork = new ConcurrencyGate(LOGIN_IP_LIMIT.hashing, LOGIN_IP_LIMIT.waiting);
/** Accounts created: 200 per hour per IP (never lower, CONTRACT §4). */
export const registrations = new WindowCounter(
  'register',
  REGISTER_RATE_LIMIT.windowMs,
  REGISTER_RATE_LIMIT.max,
);
