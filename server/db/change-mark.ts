// Has the database changed since a moment? (CONTRACT §23, reads after writes on many nodes.) What a node
// keeps computed from the database — the figures, the driver lists, the shared answers — is served only
// while no write transaction has committed since it was read, whichever node or process committed it.
// SQLite has one writing process: its count of committed write transactions says it, with no query.
// PostgreSQL says it itself, and no write pays for it: a snapshot (pg_current_snapshot) holds the first
// transaction id not yet handed out (xmax) and the ids still running; a transaction that has committed
// since an earlier snapshot was running in it or got its id after it, and is running in no later one.
// docs/SCALING.md, "Reads after writes".
import { AsyncLocalStorage } from 'node:async_hooks';
import { commitCount, inTransaction, isPostgres, query } from './index';

/** SQLite: the process's commit count. PostgreSQL: a snapshot's xmax and the ids running in it. */
export type ChangeMark = number | { xmax: bigint; running: Set<bigint> };

/**
 * PostgreSQL: a snapshot a request's first read took along (`pg_current_snapshot()::text`, the
 * authentication's: services/sessions.ts), and how many transactions this process had committed before.
 */
export interface RequestMark {
  snapshot: string;
  commits: number;
}
export const SNAPSHOT_COLUMN = 'pg_current_snapshot()::text AS snapshot';

const requestMarks = new AsyncLocalStorage<RequestMark>();

/**
 * Runs the rest of a request with the mark its first read took along: what it reads of the kept figures
 * and answers is checked against that snapshot, a round trip fewer. It was taken after the request
 * arrived, so it holds every write answered before (§23); once this process has committed anything since
 * (the request's own write, say) it is not used any more.
 */
export function withRequestMark<T>(mark: RequestMark | undefined, fn: () => T): T {
  return mark ? requestMarks.run(mark, fn) : fn();
}

/** The database's current mark: read it before what is computed from the database. */
export async function changeMark(): Promise<ChangeMark> {
  if (!isPostgres) return commitCount();
  const kept = requestMarks.getStore();
  const snapshot =
    kept && kept.commits === commitCount() && !inTransaction()
      ? kept.snapshot
      : (await query<{ snapshot: string }>(`SELECT ${SNAPSHOT_COLUMN}`))[0]!.snapshot;
  // `xmin:xmax:running,running,…`
  const [, xmax, running] = snapshot.split(':');
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
