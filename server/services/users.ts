// Reading users. findUserById is on every authenticated request, so it is a prepared statement
// (re-prepared if the database is reopened, as tests do).
import { eq, sql } from 'drizzle-orm';
import { db } from '../db';
import { users, type UserRow } from '../db/schema';

const prepareById = () =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare();

let byId: { db: typeof db; stmt: ReturnType<typeof prepareById> } | undefined;

export function findUserById(id: string): UserRow | undefined {
  if (byId?.db !== db) byId = { db, stmt: prepareById() };
  return byId.stmt.get({ id });
}
