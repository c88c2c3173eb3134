// What only one engine says, chosen by the engine this process runs on (./engine.ts). The services keep
// one rule each; where the SQL or the driver's answer differs, both forms sit side by side here or at
// the call (sqlFor), so a reader sees the two together.
import { isPostgres, SHOWN_WRITER_SQL, SHOWN_WRITERS_LOCK } from './engine';
import { sendAhead } from '.';

/** The form of the engine this process runs on: `sqlFor({ sqlite: …, postgres: … })`. */
export function sqlFor<T>(forms: { sqlite: T; postgres: T }): T {
  return isPostgres ? forms.postgres : forms.sqlite;
}

type LockStrength = 'update' | 'no key update';

/**
 * Locks the rows a decision reads before it writes (SELECT … FOR UPDATE) on PostgreSQL, whose
 * transactions run side by side; SQLite's one writer is alone already, so there it adds nothing.
 * `no key update` for a row others reference by foreign key meanwhile: it does not wait on the key-share
 * locks their inserts take (FOR UPDATE would, and two such writers deadlock).
 */
export function forUpdate<Q>(query: Q, strength: LockStrength = 'update'): Q {
  return isPostgres ? (query as Q & { for(strength: LockStrength): Q }).for(strength) : query;
}

/**
 * Serialises a decision that no single row stands for (an assignment round, the last admin) until the
 * transaction ends: a transaction-scoped advisory lock on PostgreSQL; nothing on SQLite, whose writer
 * runs one transaction at a time.
 */
export async function lockDecision(key: DecisionLock): Promise<void> {
  // The key inline, no parameters: it can leave in one message with a savepoint waiting, and it leaves
  // with the next statement, which runs once the lock is held (db/postgres.ts).
  if (isPostgres) await sendAhead(`SELECT pg_advisory_xact_lock(${key})`);
}

/** The decisions serialised with lockDecision (fixed numbers: advisory locks are keyed by integers). */
export const DECISION_LOCK = {
  assignmentRound: 1601,
  admins: 1602,
} as const;
type DecisionLock = (typeof DECISION_LOCK)[keyof typeof DECISION_LOCK];

/**
 * The `table.column` a unique index refused, or undefined for any other error. SQLite says
 * `UNIQUE constraint failed: tasks.trailer_id`; PostgreSQL says SQLSTATE 23505 with the table and
 * `Key (trailer_id)=(…) already exists.` (drizzle may wrap either in `cause`).
 */
export function uniqueViolation(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, table, detail } = e as {
      code?: unknown;
      message?: unknown;
      table?: unknown;
      detail?: unknown;
    };
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string')
      return /UNIQUE constraint failed: ([\w.]+)/.exec(message)?.[1];
    if (code === '23505') {
      const column = typeof detail === 'string' ? /^Key \(([^)]+)\)/.exec(detail)?.[1] : undefined;
      return `${String(table)}.${column ?? ''}`;
    }
  }
  return undefined;
}

/**
 * Boolean literals for raw SQL: SQLite stores flags as 0/1 (and its partial indexes are written with
 * them, so a query must say `= 0` to use one), PostgreSQL has booleans. Raw rows bring flags back as
 * 0/1 from SQLite and true/false from PostgreSQL: read them with Boolean().
 */
export const TRUE = sqlFor({ sqlite: '1', postgres: 'true' });
export const FALSE = sqlFor({ sqlite: '0', postgres: 'false' });

/**
 * Answers shared by many screens (services/shared-answers.ts) are kept per version of the data, read as
 * its newest change. On PostgreSQL transactions run side by side, and one that began earlier may commit
 * later with an older `updated_at`: a version read while it runs would not move when it commits. So every
 * transaction that changes what those answers show holds this lock, shared (writers never wait for each
 * other), and a version read while any holds it is not kept (WRITERS_QUIET is false). The answer a node
 * keeps is checked against the database's change mark too (db/change-mark.ts), which sees every commit of
 * every node. SQLite's one writer commits in the order transactions began: nothing to mark.
 */
/**
 * Marks a transaction already running as one that changes what shared answers show (PostgreSQL): for a
 * change nested in another transaction; an outermost one says so when it begins (tx's `shownWriter`).
 */
export async function markShownWriter(): Promise<void> {
  if (isPostgres) await sendAhead(SHOWN_WRITER_SQL);
}

/** True (1) when no shown writer (see above) is running: a version read now may be kept. */
export const WRITERS_QUIET = sqlFor({
  sqlite: '1',
  postgres: `pg_try_advisory_xact_lock(${SHOWN_WRITERS_LOCK})`,
});
