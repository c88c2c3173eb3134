// Reading users by id, for changes and pushes (authentication reads the account together with its
// session: services/sessions.ts).
import { query, rowReader } from '../db';
import { users, type UserRow } from '../db/tables';

const USER_BY_ID = 'SELECT * FROM users WHERE id = ? LIMIT 1';
export const userRow = rowReader(users);

export async function findUserById(id: string): Promise<UserRow | undefined> {
  const [row] = await query<Record<string, unknown>>(USER_BY_ID, [id]);
  return row && userRow(row);
}
