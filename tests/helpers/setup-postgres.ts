// setupFiles of the `server-pg` project: the server modules choose PostgreSQL when they are imported
// (server/db/engine.ts), so DATABASE_URL is set before any test file loads them; each test's own
// database comes from tests/helpers/postgres-db.ts.
import { inject } from 'vitest';

const startError = inject('postgresStartError');
if (startError) throw new Error(startError);
process.env.DATABASE_URL = inject('postgresAdminUrl');
// The services' tests sign tokens before any server start could read the secret kept in the database
// (that path has its own test): they get one from the environment, as an operator may give it.
process.env.JWT_SECRET ??= 'a-test-secret-of-more-than-thirty-two-characters';
