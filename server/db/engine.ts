// Which database engine this process runs on (CONTRACT §1, §18): PostgreSQL when DATABASE_URL is set,
// else the embedded SQLite file. Decided once, when the process starts: the tables, the transaction
// machinery and every seam (search, health facts, backups…) follow it.
export type EngineKind = 'sqlite' | 'postgres';

export const ENGINE: EngineKind = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
export const isPostgres = ENGINE === 'postgres';

/**
 * PostgreSQL: the advisory lock every transaction that changes what shared answers show holds, shared
 * (db/dialect.ts WRITERS_QUIET). Taken with BEGIN, in the same round trip (tx(fn, { shownWriter: true })).
 */
export const SHOWN_WRITERS_LOCK = 1603;
export const SHOWN_WRITER_SQL = `SELECT pg_advisory_xact_lock_shared(${SHOWN_WRITERS_LOCK})`;
