// Which database engine this process runs on (CONTRACT §1, §18): PostgreSQL when DATABASE_URL is set,
// else the embedded SQLite file. Decided once, when the process starts: the tables, the transaction
// machinery and every seam (search, health facts, backups…) follow it.
export type EngineKind = 'sqlite' | 'postgres';

export const ENGINE: EngineKind = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
export const isPostgres = ENGINE === 'postgres';
