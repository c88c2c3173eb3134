// Presence (CONTRACT §4, §18): online while a socket is connected or a request came in the last 90 s,
// through any node serving the yard (one with SQLite).
// - Each node keeps in memory who is present through it (their sockets here, their last request here)
//   and mirrors that as one node_presence row per user.
// - The user's online state is the whole cluster's: users.is_online and the presence intervals change
//   only when the whole changes, decided under the user's row (locked on PostgreSQL; SQLite's writer is
//   alone) by a conditional UPDATE, so a transition happens once and online time is never counted twice.
// - Each node heartbeats in server_nodes. A node silent for NODE_TIMEOUT_MS is dead: the next sweep of
//   any node takes offline the users only it held, as of its last heartbeat, and removes it.
// - A node starting does not touch what the others hold; with SQLite, where one process serves the
//   file, every node before it is dead by definition.
import crypto from 'node:crypto';
import { PRESENCE_WINDOW_MS } from '@shared/constants';
import { afterCommit, execute, inTransaction, isDatabaseOpen, isPostgres, query, tx } from '../db';
import { FALSE, TRUE, sqlFor } from '../db/dialect';
import { nowMs, onClockShift } from '../clock';
import { isDatabaseUnavailable } from '../http/errors';
import { logger } from '../logger';
import { record } from '../changes/commit';
import { withoutKey } from './idempotency';

const JOIN_NODES = `INSERT INTO server_nodes (id, started_at, heartbeat_at) VALUES (?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`;
// A presence needs the node's row to exist, not to be touched: no lock on it, so the presences of a
// node's many reconnecting sockets do not queue behind one another.
const NODE_EXISTS = `INSERT INTO server_nodes (id, started_at, heartbeat_at) VALUES (?, ?, ?)
  ON CONFLICT (id) DO NOTHING`;

/** This process, as server_nodes knows it. */
export const NODE_ID = crypto.randomUUID();
/** How often each node heartbeats and sweeps (realtime/io.ts). */
export const PRESENCE_SWEEP_MS = 5_000;
/** A node whose heartbeat is older than this is dead: its users go offline within it plus one sweep. */
export const NODE_TIMEOUT_MS = 30_000;

interface Entry {
  sockets: number;
  lastRequestAt: number;
}

type Listener = (userId: string, online: boolean) => Promise<void>;

const done = Promise.resolve();

const LOCK_USER = `SELECT id FROM users WHERE id = ?${sqlFor({ sqlite: '', postgres: ' FOR UPDATE' })}`;
const LIVE_ROWS = `SELECT count(*) AS n FROM node_presence p JOIN server_nodes s ON s.id = p.node_id
  WHERE p.user_id = ? AND s.heartbeat_at > ?`;
/**
 * Which nodes count as alive: those with a recent heartbeat, or (`othersDead`, SQLite's start) this one
 * alone. `column` prefixes the node table's columns in the query it goes into.
 */
function liveNodes(othersDead: boolean, column = ''): { sql: string; param: string | number } {
  return othersDead
    ? { sql: `${column}id = ?`, param: NODE_ID }
    : { sql: `${column}heartbeat_at > ?`, param: nowMs() - NODE_TIMEOUT_MS };
}
// Online users no live node holds, with the last heartbeat of the nodes that held them.
const ABANDONED = (live: string) => `SELECT u.id,
    (SELECT max(s.heartbeat_at) FROM node_presence p JOIN server_nodes s ON s.id = p.node_id
      WHERE p.user_id = u.id) AS last_seen
  FROM users u
  WHERE u.is_online = ${TRUE} AND NOT EXISTS (
    SELECT 1 FROM node_presence p JOIN server_nodes s ON s.id = p.node_id WHERE p.user_id = u.id AND ${live})`;

/** The whole went online: the user's mirror and a new interval. True when this call made it so. */
async function wentOnline(userId: string, at: number): Promise<boolean> {
  const changed = await execute(
    `UPDATE users SET is_online = ${TRUE}, idle_since = ?, last_activity_at = ?
      WHERE id = ? AND is_online = ${FALSE}`,
    [at, at, userId],
  );
  if (changed)
    await execute('INSERT INTO presence_intervals (user_id, started_at) VALUES (?, ?)', [userId, at]);
  return changed > 0;
}

/** The whole went offline (as of `at`): the mirror and the open interval. True when this call made it so. */
async function wentOffline(userId: string, at: number): Promise<boolean> {
  const changed = await execute(
    `UPDATE users SET is_online = ${FALSE}, last_activity_at = ? WHERE id = ? AND is_online = ${TRUE}`,
    [at, userId],
  );
  // Never before it began: a dead node's last heartbeat may predate a presence opened after it.
  if (changed)
    await execute(
      `UPDATE presence_intervals SET ended_at = CASE WHEN started_at > ? THEN started_at ELSE ? END
        WHERE user_id = ? AND ended_at IS NULL`,
      [at, at, userId],
    );
  return changed > 0;
}

/** Offline unless a live node still holds them. */
async function settle(userId: string, at: number): Promise<boolean> {
  const [held] = await query<{ n: number }>(LIVE_ROWS, [userId, nowMs() - NODE_TIMEOUT_MS]);
  return held!.n === 0 && wentOffline(userId, at);
}

/**
 * Presence itself changes at once in memory; the methods that may change it return the transition's
 * database work and announcement, to await where the caller's next step depends on them (a request's
 * handler, a test). That promise never rejects: a failure costs the mirror, never the request, socket or
 * timer that changed presence (fire and forget is safe: `void presence.forget(id)`).
 */
class Presence {
  private entries = new Map<string, Entry>();
  private listeners = new Set<Listener>();
  /** Each user's last transition still being stored or announced: the next one waits for it. */
  private pending = new Map<string, Promise<void>>();

  /** Called on every transition of the whole, after it is stored, on the node that made it. */
  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  touch(userId: string): Promise<void> {
    const entry = this.entries.get(userId);
    if (entry) {
      entry.lastRequestAt = nowMs();
      return done;
    }
    return this.arrive(userId, { sockets: 0, lastRequestAt: nowMs() });
  }

  socketConnected(userId: string): Promise<void> {
    const entry = this.entries.get(userId);
    if (!entry) return this.arrive(userId, { sockets: 1, lastRequestAt: 0 });
    entry.sockets += 1;
    return done;
  }

  socketDisconnected(userId: string): Promise<void> {
    const entry = this.entries.get(userId);
    if (!entry) return done;
    entry.sockets = Math.max(0, entry.sockets - 1);
    return this.expire(userId, entry);
  }

  /** Logout: gone from this node at once unless another session still has a socket open here. */
  loggedOut(userId: string): Promise<void> {
    const entry = this.entries.get(userId);
    if (!entry) return done;
    entry.lastRequestAt = 0;
    return this.expire(userId, entry);
  }

  /**
   * A deleted or revoked user leaves presence on every node whatever their sockets say (the other nodes
   * are told to drop what they hold in memory). Already offline: the promise of that transition, so the
   * caller's answer still comes after the mirror says offline.
   */
  forget(userId: string): Promise<void> {
    this.entries.delete(userId);
    return this.transition(userId, async () => {
      await execute(LOCK_USER, [userId]);
      await execute('DELETE FROM node_presence WHERE user_id = ?', [userId]);
      record((changes) => changes.person({ kind: 'presence-forgotten', userId }));
      return (await wentOffline(userId, nowMs())) ? false : undefined;
    });
  }

  /** Another node forgot the user: what this one holds in memory goes, with no transition of its own. */
  dropLocal(userId: string): void {
    this.entries.delete(userId);
  }

  /**
   * Every PRESENCE_SWEEP_MS and after a move of the test clock: the heartbeat, the end of this node's
   * polling presences older than the window, then the users no live node holds.
   */
  async sweep(): Promise<void> {
    try {
      await this.heartbeat();
      const transitions: Promise<void>[] = [];
      for (const [userId, entry] of this.entries) transitions.push(this.expire(userId, entry));
      await Promise.all(transitions);
      await this.settleAbandoned(false);
    } catch (err) {
      // A database closed or unreachable meanwhile: the next sweep tries again.
      if (isDatabaseUnavailable(err)) logger.warn({ err }, 'presencia: barrido sin base de datos');
      else logger.error({ err }, 'presencia: el barrido falló');
    }
  }

  /** Resolves once the transitions started so far are stored and announced (before the database closes). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all(this.pending.values());
  }

  /**
   * At start-up: this node joins server_nodes holding nobody. With SQLite the nodes before it are dead
   * (one process serves the file): their users go offline as of their last heartbeat, now.
   */
  async reset(): Promise<void> {
    this.entries.clear();
    this.pending.clear();
    const at = nowMs();
    await tx(() => execute(JOIN_NODES, [NODE_ID, at, at]));
    await this.settleAbandoned(!isPostgres);
  }

  /** A graceful stop: this node leaves server_nodes (its presences were ended as its sockets closed). */
  async leave(): Promise<void> {
    await this.settled();
    await tx(() => execute('DELETE FROM server_nodes WHERE id = ?', [NODE_ID])).catch((err: unknown) =>
      logger.warn({ err }, 'presencia: no se pudo dar de baja el nodo'),
    );
  }

  /**
   * Tells the others this node is alive. Taken for dead meanwhile (a long pause), it joins again and
   * holds again whom it holds in memory. Also as the clock moves (shiftClock), before any node sweeps.
   */
  async heartbeat(): Promise<void> {
    const at = nowMs();
    const alive = await tx(() =>
      execute('UPDATE server_nodes SET heartbeat_at = ? WHERE id = ?', [at, NODE_ID]),
    );
    if (alive) return;
    await tx(() => execute(JOIN_NODES, [NODE_ID, at, at]));
    for (const userId of this.entries.keys()) void this.transition(userId, () => this.hold(userId));
  }

  /**
   * Online users no live node holds go offline as of the last heartbeat of the nodes that held them; dead
   * nodes are removed, their rows with them. `othersDead`: every node but this one counts as dead.
   */
  private async settleAbandoned(othersDead: boolean): Promise<void> {
    const now = nowMs();
    const live = liveNodes(othersDead, 's.');
    const abandoned = await query<{ id: string; last_seen: number | null }>(ABANDONED(live.sql), [
      live.param,
    ]);
    const nodes = liveNodes(othersDead);
    const [dead] = await query<{ n: number }>(
      `SELECT count(*) AS n FROM server_nodes WHERE NOT (${nodes.sql})`,
      [nodes.param],
    );
    if (dead!.n) await tx(() => execute(`DELETE FROM server_nodes WHERE NOT (${nodes.sql})`, [nodes.param]));
    await Promise.all(
      abandoned.map(({ id, last_seen }) =>
        this.transition(id, async () => {
          await execute(LOCK_USER, [id]);
          return (await settle(id, Math.min(last_seen ?? now, now))) ? false : undefined;
        }),
      ),
    );
  }

  private expire(userId: string, entry: Entry): Promise<void> {
    if (entry.sockets === 0 && nowMs() - entry.lastRequestAt > PRESENCE_WINDOW_MS) {
      this.entries.delete(userId);
      return this.transition(userId, async () => {
        await execute(LOCK_USER, [userId]);
        await execute('DELETE FROM node_presence WHERE node_id = ? AND user_id = ?', [NODE_ID, userId]);
        return (await settle(userId, nowMs())) ? false : undefined;
      });
    }
    return done;
  }

  private arrive(userId: string, entry: Entry): Promise<void> {
    this.entries.set(userId, entry);
    return this.transition(userId, () => this.hold(userId));
  }

  /** This node holds the user: its row, and online if nobody held them. */
  private async hold(userId: string): Promise<boolean | undefined> {
    const at = nowMs();
    await execute(LOCK_USER, [userId]);
    // The node's own row first (its first presence, or after others took it for dead).
    await execute(NODE_EXISTS, [NODE_ID, at, at]);
    // A user deleted meanwhile (or of another database, in tests) is held by nobody.
    await execute(
      `INSERT INTO node_presence (node_id, user_id, since) SELECT ?, id, ? FROM users WHERE id = ?
        ON CONFLICT DO NOTHING`,
      [NODE_ID, at, userId],
    );
    return (await wentOnline(userId, at)) ? true : undefined;
  }

  /**
   * Runs a transition's database work after the user's previous one, in a transaction of its own that is
   * no request's effect (outside the request's Idempotency-Key; after the commit when called inside a
   * transaction: awaiting the writer's turn there would wait for itself). `work` resolves with the new
   * state of the whole when it changed (then announced), undefined when it did not.
   */
  private transition(userId: string, work: () => Promise<boolean | undefined>): Promise<void> {
    if (inTransaction()) {
      // Not awaitable from inside the transaction: it starts once that commits.
      afterCommit(() => void this.transition(userId, work));
      return done;
    }
    const previous = this.pending.get(userId) ?? done;
    const next = withoutKey(() =>
      previous.then(async () => {
        const online = await this.store(work);
        if (online !== undefined) await this.announce(userId, online);
      }),
    ).catch((err: unknown) => logger.error({ err }, 'presencia: fallo al guardar o avisar un cambio'));
    this.pending.set(userId, next);
    void next.then(() => {
      if (this.pending.get(userId) === next) this.pending.delete(userId);
    });
    return next;
  }

  // A disk that refuses the write (CONTRACT §14), or a PostgreSQL that cannot be reached, costs the
  // mirror, never the request, socket or timer that changed presence.
  private async store(work: () => Promise<boolean | undefined>): Promise<boolean | undefined> {
    try {
      return await tx(work);
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      logger.warn({ err }, 'presencia: el almacenamiento no acepta escrituras');
      return undefined;
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
}

export const presence = new Presence();

// The clock moved: alive at the new time before any node (this one included) sweeps at it.
onClockShift(async () => {
  if (!isDatabaseOpen()) return;
  await presence.heartbeat().catch((err: unknown) => logger.warn({ err }, 'presencia: latido fallido'));
});
