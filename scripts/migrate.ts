// `npm run db:migrate`: applies pending migrations to DB_PATH (start-up does the same).
import { config } from '../server/config';
import { closeDb, openDb, runMigrations } from '../server/db';

openDb(config.dbPath);
const applied = runMigrations();
closeDb();
console.log(applied ? `Migraciones aplicadas: ${applied}` : 'La base de datos ya estaba al día');
