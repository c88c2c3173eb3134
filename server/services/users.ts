// Reading users. findUserById is on every authenticated request: one read by primary key.
import { eq } from 'drizzle-orm';
import { db } from '../db';
import { users, type UserRow } from '../db/tables';

export async function findUserById(id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}
