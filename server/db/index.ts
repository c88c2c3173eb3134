// SQLite connection (CONTRACT §1): WAL, synchronous=NORMAL, foreign keys, busy_timeout; migrations
// from migrations/ applied at start-up.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

/** The open database; set by openDb() before the app serves anything. */
export let db: Db;
export let sqlite: Database.Database;

export function openDb(dbPath: string): Db {
  if (dbPath !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
  sqlite = new Database(dbPath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // 64 MiB of page cache (SQLite's default is 2 MiB): a year of a yard's history stays in memory.
  sqlite.pragma('cache_size = -65536');
  db = drizzle(sqlite, { schema }) as Db;
  return db;
}

/** Applies pending migrations; returns how many were applied. Idempotent. */
export function runMigrations(): number {
  const count = () =>
    (
      sqlite
        .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type='table' AND name='__drizzle_migrations'")
        .get() as { n: number }
    ).n
      ? (sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n
      : 0;
  const before = count();
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return count() - before;
}

export function closeDb(): void {
  sqlite?.close();
}

/** Runs fn in one IMMEDIATE transaction (takes the write lock up front, so no upgrade deadlocks). */
export function tx<T>(fn: () => T): T {
  return sqlite.transaction(fn).immediate();
}
