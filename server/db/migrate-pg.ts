// PostgreSQL migrations (CONTRACT §18, SCALE-OUT #16): drizzle's node-postgres migrator over migrations-pg/,
// run under a session advisory lock so that several nodes starting together migrate once: the first
// applies what is pending, the others wait for the lock and then find nothing left to apply.
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';

export const MIGRATIONS_PG_DIR = fileURLToPath(new URL('../../migrations-pg', import.meta.url));

/** The advisory lock every migrator takes (a fixed bigint: "torremig" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x746f_7272_656d_6967n;

/** Applies the pending PostgreSQL migrations, once even when several processes call it together. */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  // One dedicated connection holds the lock and runs the migrations: a session lock belongs to its
  // connection, and the migrator's transaction must not wait for a second connection from the pool.
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_PG_DIR });
    } finally {
      await client
        .query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY.toString()])
        .catch((err) => {
          // Not unlocked: the connection is destroyed below, which releases the lock with it.
          broken = err as Error;
        });
    }
  } catch (err) {
    broken ??= err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}
