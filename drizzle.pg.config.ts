// PostgreSQL migrations (CONTRACT §18): `npm run db:generate:pg` writes them from server/db/schema-pg.ts into
// migrations-pg/. drizzle.config.ts is SQLite's.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema-pg.ts',
  out: './migrations-pg',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://localhost/torre' },
});
