// Has the database changed since a moment? (CONTRACT §23, reads after writes on many nodes.) What a node
// keeps computed from the database — the figures, the driver lists, the shared answers — is served only
// while no write transaction has committed since it was read, whichever node or process committed it.
// SQLite has one writing process: its count of committed write transactions says it, with no query.
// PostgreSQL says it itself, and no write pays for it: a snapshot (pg_current_snapshot) holds the first
// transaction id not yet handed out (xmax) and the ids still running; a transaction that has committed
// since an earlier snapshot was running in it or got its id after it, and is running in no later one.
// docs/SCALING.md, "Reads after writes".
import { commitCount, isPostgres, query } from './index';

/** SQLite: the process's commit count. PostgreSQL: a snapshot's xmax and the ids running in it. */
export type ChangeMark = number | { xmax: bigint; running: Set<bigint> };

/** The database's current mark: read it before what is computed from the database. */
export async function changeMark(): Promise<ChangeMark> {
  if (!isPostgres) return commitCount();
  const [row] = await query<{ snapshot: string }>('SELECT pg_current_snapshot()::text AS snapshot');
  // `xmin:xmax:running,running,…`
  const [, xmax, running] = row!.snapshot.split(':');
  return { xmax: BigInt(xmax!), running: new Set(running ? running.split(',').map(BigInt) : []) };
}

/**
 * True when nothing committed between the two marks. PostgreSQL: every id running at `then`, and every id
 * handed out since, still runs at `now` (a subtransaction's id, never listed as running, counts as a
 * change: a needless recomputation, never a stale answer).
 */
export function unchangedSince(then: ChangeMark, now: ChangeMark): boolean {
  if (typeof then === 'number' || typeof now === 'number') return then === now;
  if (now.xmax < then.xmax) return false;
  for (const id of then.running) if (!now.running.has(id)) return false;
  let handedOut = 0n;
  for (const id of now.running) if (id >= then.xmax) handedOut++;
  return handedOut === now.xmax - then.xmax;
}
