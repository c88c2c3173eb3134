// Presence (CONTRACT §4): online while a socket is connected or a request came in the last 90 s.
// Transitions are stored as presence intervals (analytics) and mirrored in users.is_online.
import { and, eq, isNull } from 'drizzle-orm';
import { PRESENCE_WINDOW_MS } from '@shared/constants';
import { db, isStorageFailure, tx } from '../db';
import { presenceIntervals, users } from '../db/schema';
import { now, nowMs } from '../clock';
import { logger } from '../logger';

interface Entry {
  sockets: number;
  lastRequestAt: number;
}

type Listener = (userId: string, online: boolean) => void;

class Presence {
  private entries = new Map<string, Entry>();
  private listeners = new Set<Listener>();

  /** Called on every presence transition, after it is stored (realtime, assignment). */
  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  isOnline(userId: string): boolean {
    return this.entries.has(userId);
  }

  touch(userId: string): void {
    const entry = this.entries.get(userId);
    if (entry) entry.lastRequestAt = nowMs();
    else this.goOnline(userId, { sockets: 0, lastRequestAt: nowMs() });
  }

  socketConnected(userId: string): void {
    const entry = this.entries.get(userId);
    if (entry) entry.sockets += 1;
    else this.goOnline(userId, { sockets: 1, lastRequestAt: 0 });
  }

  socketDisconnected(userId: string): void {
    const entry = this.entries.get(userId);
    if (!entry) return;
    entry.sockets = Math.max(0, entry.sockets - 1);
    this.expire(userId, entry);
  }

  /** Logout: offline at once unless another session still has a socket open. */
  loggedOut(userId: string): void {
    const entry = this.entries.get(userId);
    if (!entry) return;
    entry.lastRequestAt = 0;
    this.expire(userId, entry);
  }

  /** A deleted or revoked user leaves presence whatever their sockets say. */
  forget(userId: string): void {
    if (this.entries.has(userId)) this.goOffline(userId);
  }

  /** Ends the polling-fallback presence of users whose last request is older than the window. */
  sweep(): void {
    for (const [userId, entry] of this.entries) this.expire(userId, entry);
  }

  /** At start-up nobody is connected: close intervals a crash left open. */
  reset(): void {
    this.entries.clear();
    const at = now();
    tx(() => {
      // Offline since the restart (tasks show how long their driver has been offline from it).
      db.update(users).set({ isOnline: false, lastActivityAt: at }).where(eq(users.isOnline, true)).run();
      db.update(presenceIntervals).set({ endedAt: at }).where(isNull(presenceIntervals.endedAt)).run();
    });
  }

  private expire(userId: string, entry: Entry): void {
    if (entry.sockets === 0 && nowMs() - entry.lastRequestAt > PRESENCE_WINDOW_MS) this.goOffline(userId);
  }

  // Presence lives in memory; the database only mirrors it. A disk that refuses the write (CONTRACT §14)
  // costs that mirror, never the request, socket or timer that changed presence (it would crash them).
  private store(write: () => void): void {
    try {
      tx(write);
    } catch (err) {
      if (!isStorageFailure(err)) throw err;
      logger.warn({ err }, 'presencia: el almacenamiento no acepta escrituras');
    }
  }

  private announce(userId: string, online: boolean): void {
    for (const fn of this.listeners) {
      try {
        fn(userId, online);
      } catch (err) {
        if (!isStorageFailure(err)) throw err;
        logger.warn({ err }, 'presencia: el almacenamiento no acepta escrituras');
      }
    }
  }

  private goOnline(userId: string, entry: Entry): void {
    this.entries.set(userId, entry);
    const at = now();
    this.store(() => {
      db.update(users)
        .set({ isOnline: true, idleSince: at, lastActivityAt: at })
        .where(eq(users.id, userId))
        .run();
      db.insert(presenceIntervals).values({ userId, startedAt: at }).run();
    });
    this.announce(userId, true);
  }

  private goOffline(userId: string): void {
    this.entries.delete(userId);
    const at = now();
    this.store(() => {
      db.update(users).set({ isOnline: false, lastActivityAt: at }).where(eq(users.id, userId)).run();
      db.update(presenceIntervals)
        .set({ endedAt: at })
        .where(and(eq(presenceIntervals.userId, userId), isNull(presenceIntervals.endedAt)))
        .run();
    });
    this.announce(userId, false);
  }
}

export const presence = new Presence();
