// Opening and closing the database of the engine this process runs on (./engine.ts).
import { isPostgres } from './engine';
import { closeDb, openDb, runMigrations } from './sqlite';
import { closePostgres, openPostgres } from './postgres';

/**
 * Opens the database and applies pending migrations: PostgreSQL at `databaseUrl` (under an advisory
 * lock, once however many nodes start together), else the SQLite file at `dbPath`.
 */
export async function openDatabase(where: { dbPath: string; databaseUrl?: string }): Promise<void> {
  if (isPostgres) {
    if (!where.databaseUrl) throw new Error('DATABASE_URL missing');
    await openPostgres(where.databaseUrl);
    return;
  }
  openDb(where.dbPath);
  runMigrations();
}

export async function closeDatabase(): Promise<void> {
  if (isPostgres) await closePostgres();
  else closeDb();
}
