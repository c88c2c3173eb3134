// Who is told of something (escalations, pending accounts, a webhook switched off): the approved, live
// accounts of some roles. One predicate, so a notice and its Web Push reach the same people.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Role } from '@shared/enums';
import { db } from '../db';
import { users } from '../db/tables';

/** The approved accounts of `roles` that are not deleted (a condition on `users`). */
export const approvedIn = (roles: readonly Role[]) =>
  and(inArray(users.role, [...roles]), eq(users.isApproved, true), isNull(users.deletedAt));

/** Their ids. */
export async function approvedUserIds(roles: readonly Role[]): Promise<string[]> {
  const rows = await db.select({ id: users.id }).from(users).where(approvedIn(roles));
  return rows.map((r) => r.id);
}
