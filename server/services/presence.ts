// Presence (CONTRACT §4): online while a socket is connected or a request came in the last 90 s.
// Transitions are stored as presence intervals (analytics) and mirrored in users.is_online.
import { and, eq, isNull } from 'drizzle-orm';
import { PRESENCE_WINDOW_MS } from '@shared/constants';
import { afterCommit, db, inTransaction, tx } from '../db';
import { presenceIntervals, users } from '../db/tables';
import { now, nowMs } from '../clock';
import { isDatabaseUnavailable } from '../http/errors';
import { logger } from '../logger';
import { withoutKey } from './idempotency';

interface Entry {
  sockets: number;
  lastRequestAt: number;
}

type Listener = (userId: string, online: boolean) => Promise<void>;

const done = Promise.resolve();

/**
 * Presence itself lives in memory and changes at once; the methods that may change it return the
 * transition's database mirror and announcement, to await where the caller's next step depends on them
 * (a request's handler, a test). That promise never rejects: a failure costs the mirror, never the
 * request, socket or timer that changed presence (fire and forget is safe: `void presence.forget(id)`).
 */
class Presence {
  private entries = new Map<string, Entry>();
  private listeners = new Set<Listener>();
  /** Each user's last transition still being stored or announced: the next one waits for it. */
  private pending = new Map<string, Promise<void>>();

  /** Called on every presence transition, after it is stored (realtime, assignment). */
  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  isOnline(userId: string): boolean {
    return this.entries.has(userId);
  }

  touch(userId: string): Promise<void> {
    const entry = this.entries.get(userId);
    if (entry) {
      entry.lastRequestAt = nowMs();
      return done;
    }
    return this.goOnline(userId, { sockets: 0, lastRequestAt: nowMs() });
  }

  socketConnected(userId: string): Promise<void> {
    const entry = this.entries.get(userId);
    if (!entry) return this.goOnline(userId, { sockets: 1, lastRequestAt: 0 });
    entry.sockets += 1;
    return done;
  }

  socketDisconnected(userId: string): Promise<void> {
    const entry = this.entries.get(userId);
    if (!entry) return done;
    entry.sockets = Math.max(0, entry.sockets - 1);
    return this.expire(userId, entry);
  }

  /** Logout: offline at once unless another session still has a socket open. */
  loggedOut(userId: string): Promise<void> {
    const entry = this.entries.get(userId);
    if (!entry) return done;
    entry.lastRequestAt = 0;
    return this.expire(userId, entry);
  }

  /**
   * A deleted or revoked user leaves presence whatever their sockets say. Already offline (their
   * sockets were just dropped): the promise of that transition, so the caller's answer still comes after
   * the mirror says offline.
   */
  forget(userId: string): Promise<void> {
    return this.entries.has(userId) ? this.goOffline(userId) : (this.pending.get(userId) ?? done);
  }

  /** Ends the polling-fallback presence of users whose last request is older than the window. */
  async sweep(): Promise<void> {
    const transitions: Promise<void>[] = [];
    for (const [userId, entry] of this.entries) transitions.push(this.expire(userId, entry));
    await Promise.all(transitions);
  }

  /** Resolves once the transitions started so far are stored and announced (before the database closes). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending.values());
  }

  /** At start-up nobody is connected: close intervals a crash left open. */
  async reset(): Promise<void> {
    this.entries.clear();
    this.pending.clear();
    const at = now();
    await tx(async () => {
      // Offline since the restart (tasks show how long their driver has been offline from it).
      await db.update(users).set({ isOnline: false, lastActivityAt: at }).where(eq(users.isOnline, true));
      await db.update(presenceIntervals).set({ endedAt: at }).where(isNull(presenceIntervals.endedAt));
    });
  }

  private expire(userId: string, entry: Entry): Promise<void> {
    if (entry.sockets === 0 && nowMs() - entry.lastRequestAt > PRESENCE_WINDOW_MS)
      return this.goOffline(userId);
    return done;
  }

  /**
   * Stores and announces a transition after the user's previous one (so the mirror ends in the state
   * memory holds), in a transaction of its own that is no request's effect: outside the request's
   * Idempotency-Key, and after the commit when called inside a transaction (awaiting the writer's turn
   * there would wait for itself; a rollback then leaves the mirror as it was).
   */
  private transition(userId: string, write: () => Promise<void>, online: boolean): Promise<void> {
    if (inTransaction()) {
      // Not awaitable from inside the transaction: it starts once that commits.
      afterCommit(() => void this.transition(userId, write, online));
      return done;
    }
    const previous = this.pending.get(userId) ?? done;
    const next = withoutKey(() =>
      previous.then(async () => {
        await this.store(write);
        await this.announce(userId, online);
      }),
    ).catch((err: unknown) => logger.error({ err }, 'presencia: fallo al guardar o avisar un cambio'));
    this.pending.set(userId, next);
    void next.then(() => {
      if (this.pending.get(userId) === next) this.pending.delete(userId);
    });
    return next;
  }

  // Presence lives in memory; the database only mirrors it. A disk that refuses the write (CONTRACT §14),
  // or a PostgreSQL that cannot be reached, costs that mirror, never the request, socket or timer that
  // changed presence.
  private async store(write: () => Promise<void>): Promise<void> {
    try {
      await tx(write);
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      logger.warn({ err }, 'presencia: el almacenamiento no acepta escrituras');
    }
  }

  private async announce(userId: string, online: boolean): Promise<void> {
    for (const fn of this.listeners) {
      try {
        await fn(userId, online);
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw err;
        logger.warn({ err }, 'presencia: el almacenamiento no acepta escrituras');
      }
    }
  }

  private goOnline(userId: string, entry: Entry): Promise<void> {
    this.entries.set(userId, entry);
    const at = now();
    return this.transition(
      userId,
      async () => {
        await db
          .update(users)
          .set({ isOnline: true, idleSince: at, lastActivityAt: at })
          .where(eq(users.id, userId));
        await db.insert(presenceIntervals).values({ userId, startedAt: at });
      },
      true,
    );
  }

  private goOffline(userId: string): Promise<void> {
    this.entries.delete(userId);
    const at = now();
    return this.transition(
      userId,
      async () => {
        await db.update(users).set({ isOnline: false, lastActivityAt: at }).where(eq(users.id, userId));
        await db
          .update(presenceIntervals)
          .set({ endedAt: at })
          .where(and(eq(presenceIntervals.userId, userId), isNull(presenceIntervals.endedAt)));
      },
      false,
    );
  }
}

export const presence = new Presence();
