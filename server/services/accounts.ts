// The admin's account management (CONTRACT §4): pending users, approval, roles, task types, deletion.
// Every check-and-set reads inside the transaction that writes, so two admins racing get one success and
// one 409 (PostgreSQL: the user's row locked, the last-admin decision serialised).
import crypto from 'node:crypto';
import { and, asc, count, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Role, VehicleType } from '@shared/enums';
import { DEFAULT_TASK_TYPES } from '@shared/constants';
import { ACCOUNT_LOG, ACCOUNT_MSG, ERR, TASK_TYPE_LABELS } from '@shared/labels';
import type {
  AdminUser,
  MessageResponse,
  PendingUser,
  ResetPasswordResponse,
  SessionInfo,
  UpdateUserInput,
} from '@shared/schemas';
import { db, tx } from '../db';
import { DECISION_LOCK, forUpdate, lockDecision, uniqueViolation } from '../db/dialect';
import { sessions, tasks, users, type UserRow } from '../db/tables';
import { now } from '../clock';
import { badRequest, conflict, notFound } from '../http/errors';
import { presentAdminUser, presentPendingUser } from '../presenters/users';
import { presentJoined, selectTasks } from '../presenters/tasks';
import { logActivity, type Actor } from './activity';
import { presence } from './presence';
import { findUserById } from './users';
import { releaseDriverTask } from '../tasks';
import { runAssignment } from '../tasks/assignment';
import { commit, record } from '../changes/commit';
import { showRenamed } from '../tasks/commands/rename';
import { settlePendingNotices } from './notifications';
import { hashPassword } from './passwords';
import { forgetSubscriptions } from './push';
import { endSession, endUserSessions, findOpenSession, listOpenSessions } from './sessions';

const isPending = and(eq(users.isApproved, false), isNull(users.deletedAt));

export async function pendingCount(): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(isPending);
  return row?.n ?? 0;
}

export async function listPending(): Promise<PendingUser[]> {
  const rows = await db.select().from(users).where(isPending).orderBy(asc(users.createdAt));
  return rows.map(presentPendingUser);
}

const collator = new Intl.Collator('es', { sensitivity: 'base' });

/** Every live account (pending ones too: the Usuarios view shows them as Pendiente), by name. */
export async function listUsers(): Promise<AdminUser[]> {
  const rows = await db.select().from(users).where(isNull(users.deletedAt));
  return rows.sort((a, b) => collator.compare(a.name, b.name)).map(presentAdminUser);
}

/** The live user, or 404. Call inside the transaction that changes them (PostgreSQL: the row is locked). */
async function liveUser(id: string): Promise<UserRow> {
  const [user] = await forUpdate(db.select().from(users).where(eq(users.id, id)).limit(1));
  if (!user || user.deletedAt) throw notFound(ERR.userNotFound);
  return user;
}

/** 400 when taking `target` out of the admins would leave no approved admin. Inside the writing transaction. */
async function assertAdminRemains(target: UserRow): Promise<void> {
  if (target.role !== 'admin' || !target.isApproved) return;
  // Two admins demoting or deleting each other at once: one decision at a time (PostgreSQL).
  await lockDecision(DECISION_LOCK.admins);
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(
      and(
        eq(users.role, 'admin'),
        eq(users.isApproved, true),
        isNull(users.deletedAt),
        ne(users.id, target.id),
      ),
    );
  if ((row?.n ?? 0) === 0) throw badRequest(ERR.lastAdmin);
}

/** Approves (`approved`) or rejects a pending account; rejecting deletes the row (it has no history). */
export async function decidePending(
  actor: Actor,
  userId: string,
  approved: boolean,
): Promise<MessageResponse> {
  return tx(async () => {
    const user = await liveUser(userId);
    if (user.isApproved) throw conflict(ERR.userNotPending);
    await settlePendingNotices(user.id);
    if (approved) {
      const [row] = await db
        .update(users)
        .set({ isApproved: true, approvedAt: now() })
        .where(eq(users.id, user.id))
        .returning();
      await logActivity(
        'user',
        actor,
        ACCOUNT_LOG.approve.action,
        ACCOUNT_LOG.approve.details(user.name, user.email, user.role),
      );
      const pending = await pendingCount();
      record((changes) => {
        changes.person({ kind: 'users-pending', count: pending });
        changes.person({ kind: 'user', user: presentAdminUser(row!) });
        changes.figuresChanged();
      });
      return { message: ACCOUNT_MSG.approved(user.name) };
    }
    await db.delete(sessions).where(eq(sessions.userId, user.id));
    await db.delete(users).where(eq(users.id, user.id));
    await logActivity(
      'user',
      actor,
      ACCOUNT_LOG.reject.action,
      ACCOUNT_LOG.reject.details(user.name, user.email),
    );
    const pending = await pendingCount();
    record((changes) => {
      changes.person({ kind: 'users-pending', count: pending });
      changes.person({ kind: 'user-removed', userId });
      changes.figuresChanged();
    });
    return { message: ACCOUNT_MSG.rejected(user.name) };
  });
}

/**
 * Changes a role. The user's tokens are revoked (they log in again with the new role); a conductor
 * who stops being one loses their active task to the pool in the same transaction; one who becomes a
 * conductor with no task types gets the default. An admin may demote themself while another admin
 * remains.
 */
export async function changeRole(actor: Actor, userId: string, newRole: Role): Promise<MessageResponse> {
  const { message, changed } = await tx(async () => {
    const before = await liveUser(userId);
    if (before.role === newRole)
      return { message: ACCOUNT_MSG.roleUnchanged(before.name, newRole), changed: false };
    if (newRole !== 'admin') await assertAdminRemains(before);
    const [after] = await db
      .update(users)
      .set({
        role: newRole,
        tokenVersion: before.tokenVersion + 1,
        ...(newRole === 'conductor' && before.taskTypes.length === 0
          ? { taskTypes: [...DEFAULT_TASK_TYPES] }
          : {}),
      })
      .where(eq(users.id, before.id))
      .returning();
    await logActivity(
      'user',
      actor,
      ACCOUNT_LOG.role.action,
      ACCOUNT_LOG.role.details(before.name, before.role, newRole),
    );
    await endUserSessions(before.id, 'role_changed');
    // After the role is written: the engine's round that follows never gives the task back to them.
    if (before.role === 'conductor') await releaseDriverTask(after!.id, actor);
    const row = after!;
    record((changes) => {
      // Shown offline: presence.forget below takes them out of presence.
      changes.person({ kind: 'user', user: presentAdminUser({ ...row, isOnline: false }) });
      changes.figuresChanged();
    });
    return { message: ACCOUNT_MSG.roleChanged(row.name, newRole), changed: true };
  });
  // After the commit (a rollback must leave presence as it was), awaited so the answer finds it stored.
  if (changed) await presence.forget(userId);
  return { message };
}

/** A conductor's task types. Their current task stays with them; new types may bring work at once. */
export async function changeTaskTypes(
  actor: Actor,
  userId: string,
  taskTypes: VehicleType[],
): Promise<MessageResponse> {
  const user = await tx(async () => {
    const before = await liveUser(userId);
    if (before.role !== 'conductor') throw conflict(ERR.notADriver);
    const [user] = await db.update(users).set({ taskTypes }).where(eq(users.id, before.id)).returning();
    await logActivity(
      'user',
      actor,
      ACCOUNT_LOG.taskTypes.action,
      ACCOUNT_LOG.taskTypes.details(user!.name, taskTypes.map((t) => TASK_TYPE_LABELS[t]).join(', ')),
    );
    record((changes) => changes.person({ kind: 'task-types', userId: user!.id, taskTypes: user!.taskTypes }));
    await recordPoolSeen(user!.id, before.taskTypes, user!.taskTypes);
    return user!;
  });
  await runAssignment();
  // After the round, which may have given them a task: the list shows them as they are now.
  const shown = (await findUserById(user.id)) ?? user;
  record((changes) => changes.person({ kind: 'user', user: presentAdminUser(shown) }));
  return { message: ACCOUNT_MSG.taskTypesUpdated(user.name) };
}

/**
 * The driver's open pages gain the pool tasks of added types and drop those of removed ones (read in the
 * changing transaction, pushed once it committed).
 */
async function recordPoolSeen(userId: string, before: VehicleType[], after: VehicleType[]): Promise<void> {
  const added = after.filter((t) => !before.includes(t));
  const removed = before.filter((t) => !after.includes(t));
  const pool = async (types: VehicleType[]) =>
    types.length
      ? (
          await selectTasks().where(
            and(
              eq(tasks.status, 'bolsa_trabajo'),
              isNull(tasks.deletedAt),
              inArray(tasks.vehicleType, types),
            ),
          )
        ).map(presentJoined)
      : [];
  const gained = await pool(added);
  const lostIds = (await pool(removed)).map((t) => t.id);
  record((changes) => changes.person({ kind: 'pool-seen', userId, gained, lostIds }));
}

/**
 * Soft-deletes an account: the row stays (history, reports) with `deleted_at`, its email is free
 * again, its sessions end and its active task returns to the pool — all in one transaction.
 */
export async function deleteUser(actor: Actor, userId: string): Promise<MessageResponse> {
  if (userId === actor.id) throw badRequest(ERR.cannotDeleteSelf);
  const answer = await tx(async () => {
    const user = await liveUser(userId);
    await assertAdminRemains(user);
    await db
      .update(users)
      .set({ deletedAt: now(), tokenVersion: user.tokenVersion + 1 })
      .where(eq(users.id, user.id));
    await logActivity(
      'user',
      actor,
      ACCOUNT_LOG.delete.action,
      ACCOUNT_LOG.delete.details(user.name, user.email),
    );
    await forgetSubscriptions(user.id);
    await settlePendingNotices(user.id);
    await endUserSessions(user.id, 'deleted');
    // After deleted_at is written: the engine's round that follows never gives the task back to them.
    if (user.role === 'conductor') await releaseDriverTask(user.id, actor);
    const pending = user.isApproved ? undefined : await pendingCount();
    record((changes) => {
      changes.person({ kind: 'user-removed', userId: user.id });
      if (pending !== undefined) changes.person({ kind: 'users-pending', count: pending });
      changes.figuresChanged();
    });
    return { message: ACCOUNT_MSG.deleted(user.name) };
  });
  await presence.forget(userId);
  return answer;
}

/** The admin corrects a user's name or email (CONTRACT §14); the email stays unique among live accounts. */
export async function updateUser(actor: Actor, userId: string, input: UpdateUserInput): Promise<AdminUser> {
  let user: UserRow;
  try {
    user = await commit(async (fx) => {
      const before = await liveUser(userId);
      const email = input.email ?? before.email;
      if (email !== before.email) {
        const [taken] = await db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, email), isNull(users.deletedAt), ne(users.id, before.id)))
          .limit(1);
        if (taken) throw conflict(ERR.emailTaken);
      }
      const [after] = await db
        .update(users)
        .set({ name: input.name ?? before.name, email })
        .where(eq(users.id, before.id))
        .returning();
      if (after!.name !== before.name) await showRenamed(before.id, fx);
      await logActivity(
        'user',
        actor,
        ACCOUNT_LOG.editUser.action,
        ACCOUNT_LOG.editUser.details(before.name, after!.name, after!.email),
      );
      const pending = after!.isApproved ? undefined : await pendingCount();
      fx.person({ kind: 'user', user: presentAdminUser(after!) });
      if (pending !== undefined) fx.person({ kind: 'users-pending', count: pending });
      fx.figuresChanged();
      return after!;
    });
  } catch (err) {
    // Two edits (or an edit and a registration) taking one email at once: the live-email index refuses one.
    if (uniqueViolation(err) === 'users.email') throw conflict(ERR.emailTaken);
    throw err;
  }
  return presentAdminUser(user);
}

/** Letters and digits nobody confuses when reading them aloud or off a screen (no 0/O, 1/l/I). */
const TEMP_ALPHABET = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789';
const temporaryPassword = (length = 12): string =>
  Array.from({ length }, () => TEMP_ALPHABET[crypto.randomInt(TEMP_ALPHABET.length)]).join('');

/**
 * An admin resets a user's password (CONTRACT §14): a temporary one shown once, every session of
 * the user ended, and at their next login only change-password is allowed. The hash is computed
 * before the transaction (bcrypt would hold the writer); the user is checked again inside it.
 */
export async function resetPassword(actor: Actor, userId: string): Promise<ResetPasswordResponse> {
  const target = await findUserById(userId);
  if (!target || target.deletedAt) throw notFound(ERR.userNotFound);
  const temporary = temporaryPassword();
  const hash = await hashPassword(temporary);
  await tx(async () => {
    const user = await liveUser(userId);
    await db.update(users).set({ passwordHash: hash, mustChangePassword: true }).where(eq(users.id, user.id));
    await logActivity(
      'user',
      actor,
      ACCOUNT_LOG.resetPassword.action,
      ACCOUNT_LOG.resetPassword.details(user.name),
    );
    await endUserSessions(user.id, 'password_reset');
    record((changes) => changes.figuresChanged());
  });
  await presence.forget(userId);
  return { temporary_password: temporary };
}

export async function userSessions(userId: string, currentSid: string | undefined): Promise<SessionInfo[]> {
  const user = await findUserById(userId);
  if (!user || user.deletedAt) throw notFound(ERR.userNotFound);
  return listOpenSessions(userId, currentSid);
}

/** An admin ends one of a user's sessions (a lost phone): only that device is logged out. */
export async function endUserSession(actor: Actor, userId: string, sid: string): Promise<MessageResponse> {
  await tx(async () => {
    const user = await liveUser(userId);
    const session = await findOpenSession(userId, sid);
    if (!session) throw notFound(ERR.sessionNotFound);
    await logActivity(
      'user',
      actor,
      ACCOUNT_LOG.endSession.action,
      ACCOUNT_LOG.endSession.details(user.name, session.userAgent ?? session.ip ?? session.id.slice(-8)),
    );
    await endSession(sid, 'logged_out');
  });
  await presence.loggedOut(userId);
  return { message: ACCOUNT_MSG.sessionEnded };
}
