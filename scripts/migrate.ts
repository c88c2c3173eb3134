// `npm run db:migrate`: applies pending migrations to the database of DATABASE_URL (PostgreSQL, under
// the migrations' advisory lock) or of DB_PATH (SQLite), as start-up does.
import { config } from '../server/config';
import { closeDb, isPostgres, openDb, runMigrations } from '../server/db';
import { closePostgres, openPostgres } from '../server/db/postgres';

if (isPostgres) {
  await openPostgres(config.databaseUrl!);
  await closePostgres();
  console.log('La base de datos PostgreSQL está al día');
} else {
  openDb(config.dbPath);
  const applied = runMigrations();
  closeDb();
  console.log(applied ? `Migraciones aplicadas: ${applied}` : 'La base de datos ya estaba al día');
}
