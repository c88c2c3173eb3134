// Fast hashes in tests; the production default stays 12 (CONTRACT §2).
process.env.BCRYPT_COST ??= '4';
process.env.LOG_LEVEL ??= 'silent';
// The engine is chosen by DATABASE_URL when the server modules load: the SQLite projects run on SQLite
// even in a worker that ran a PostgreSQL file before (tests/helpers/setup-postgres.ts sets it after this).
delete process.env.DATABASE_URL;
