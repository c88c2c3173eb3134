// Small in-memory counters for the two throttles of CONTRACT §4 (failed logins per IP + email,
// registrations per IP). They read the server clock, so tests can move past a window.
import { LOGIN_RATE_LIMIT, REGISTER_RATE_LIMIT } from '@shared/constants';
import { ERR } from '@shared/labels';
import { nowMs } from '../clock';
import { HttpError } from './errors';

/** Above this many keys, expired windows are swept so an attacker cannot grow the map forever. */
const SWEEP_AT = 10_000;

export class WindowCounter {
  private hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly windowMs: number,
    private readonly max: number,
  ) {}

  private live(key: string) {
    const entry = this.hits.get(key);
    if (entry && entry.resetAt <= nowMs()) {
      this.hits.delete(key);
      return undefined;
    }
    return entry;
  }

  /** 429 once `max` hits were counted in the key's current window. */
  check(key: string): void {
    if ((this.live(key)?.count ?? 0) >= this.max) throw new HttpError(429, ERR.tooManyAttempts);
  }

  hit(key: string): void {
    const entry = this.live(key);
    if (entry) entry.count += 1;
    else {
      if (this.hits.size >= SWEEP_AT) for (const k of [...this.hits.keys()]) this.live(k);
      this.hits.set(key, { count: 1, resetAt: nowMs() + this.windowMs });
    }
  }

  clear(key: string): void {
    this.hits.delete(key);
  }
}

/** Failed logins: 10 per 15 minutes per IP + email; a success clears the count. */
export const loginFailures = new WindowCounter(LOGIN_RATE_LIMIT.windowMs, LOGIN_RATE_LIMIT.max);
/** Accounts created: 200 per hour per IP (never lower, CONTRACT §4). */
export const registrations = new WindowCounter(REGISTER_RATE_LIMIT.windowMs, REGISTER_RATE_LIMIT.max);
