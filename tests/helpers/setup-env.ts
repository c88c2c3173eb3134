// Fast hashes in tests; the production default stays 12 (CONTRACT §2).
process.env.BCRYPT_COST ??= '4';
process.env.LOG_LEVEL ??= 'silent';
// The engine is chosen by DATABASE_URL when the server modules load: the SQLite projects run on SQLite
// even in a worker that ran a PostgreSQL file before (tests/helpers/setup-postgres.ts sets it after this).
delete process.env.DATABASE_URL;
// The local push services of the tests (tests/fixtures/push-service.crt) listen on 127.0.0.1: trusted as
// listed, like a push service an operator names (CONTRACT §23).
process.env.PUSH_ALLOWED_HOSTS ??= '127.0.0.1';
