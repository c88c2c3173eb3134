// The throttles of CONTRACT §4 and §14, in memory: failed logins per IP + email and per IP,
// registrations per IP, and how much bcrypt work one IP may have at once. Every attempt is counted
// the moment it arrives, before any hashing, so requests already in flight cannot slip past a limit;
// a login that succeeds gives its count back. They read the server clock, so tests can move past a
// window.
import { LOGIN_IP_LIMIT, LOGIN_RATE_LIMIT, REGISTER_RATE_LIMIT } from '@shared/constants';
import { ERR } from '@shared/labels';
import { nowMs } from '../clock';
import { HttpError } from './errors';

/** Above this many keys, expired windows are swept so an attacker cannot grow the map forever. */
const SWEEP_AT = 10_000;

const tooMany = () => new HttpError(429, ERR.tooManyAttempts);

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

  /** Counts one attempt now, or answers 429 when the key's window already holds `max`. */
  take(key: string): void {
    const entry = this.live(key);
    if (entry) {
      if (entry.count >= this.max) throw tooMany();
      entry.count += 1;
      return;
    }
    if (this.hits.size >= SWEEP_AT) for (const k of [...this.hits.keys()]) this.live(k);
    this.hits.set(key, { count: 1, resetAt: nowMs() + this.windowMs });
  }

  /** Gives one attempt back (it turned out not to be a failure). */
  refund(key: string): void {
    const entry = this.live(key);
    if (entry) entry.count = Math.max(0, entry.count - 1);
  }

  clear(key: string): void {
    this.hits.delete(key);
  }
}

/**
 * At most `active` jobs of one key run at a time and `waiting` wait for a slot; beyond that, 429 at
 * once. bcrypt runs on libuv's four worker threads: one IP's flood must leave room for everyone else.
 */
export class ConcurrencyGate {
  private slots = new Map<string, { active: number; queue: (() => void)[] }>();

  constructor(
    private readonly active: number,
    private readonly waiting: number,
  ) {}

  async run<T>(key: string, job: () => Promise<T>): Promise<T> {
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = { active: 0, queue: [] }));
    if (slot.active < this.active) slot.active += 1;
    else if (slot.queue.length < this.waiting) await new Promise<void>((resolve) => slot.queue.push(resolve));
    else throw tooMany();
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
export const loginFailures = new WindowCounter(LOGIN_RATE_LIMIT.windowMs, LOGIN_RATE_LIMIT.max);
/** Failed logins per IP whatever the emails: 100 per 15 minutes. */
export const loginFailuresByIp = new WindowCounter(LOGIN_IP_LIMIT.windowMs, LOGIN_IP_LIMIT.failures);
/** Password hashing per IP (logins, registrations, password changes): 4 at once, 50 waiting. */
export const passwordWork = new ConcurrencyGate(LOGIN_IP_LIMIT.hashing, LOGIN_IP_LIMIT.waiting);
/** Accounts created: 200 per hour per IP (never lower, CONTRACT §4). */
export const registrations = new WindowCounter(REGISTER_RATE_LIMIT.windowMs, REGISTER_RATE_LIMIT.max);
