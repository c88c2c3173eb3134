// Reading users. findUserById is on every authenticated request: one read by primary key.
import { eq, sql } from 'drizzle-orm';
import { prepared } from '../db';
import { users, type UserRow } from '../db/tables';

const userById = prepared('user_by_id', (db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1),
);

export async function findUserById(id: string): Promise<UserRow | undefined> {
  const [row] = await userById({ id });
  return row;
}
