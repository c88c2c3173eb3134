// User rows → the API's user shapes (SPEC §3, CONTRACT §4). No shape here carries the password hash.
import type { AdminUser, PendingUser, SessionUser } from '@shared/schemas';
import { requestText } from '@shared/labels';
import type { UserRow } from '../db/tables';

export const presentSessionUser = (u: UserRow): SessionUser => ({
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role,
});

export const presentPendingUser = (u: UserRow): PendingUser => ({
  ...presentSessionUser(u),
  created_at: u.createdAt.toISOString(),
  request_text: requestText(u.role),
});

export const presentAdminUser = (u: UserRow): AdminUser => ({
  ...presentSessionUser(u),
  is_approved: u.isApproved,
  is_online: u.isOnline,
  movements_count: u.movementsCount,
  task_types: u.taskTypes,
  created_at: u.createdAt.toISOString(),
});
