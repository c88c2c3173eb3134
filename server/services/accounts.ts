// The admin's account management (CONTRACT §4): pending users, approval, roles, task types, deletion.
// Every check-and-set runs inside one transaction, so two admins racing get one success and one 409.
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
import { afterCommit, db, tx } from '../db';
import { sessions, tasks, users, type UserRow } from '../db/schema';
import { now } from '../clock';
import { badRequest, conflict, notFound } from '../http/errors';
import { presentAdminUser, presentPendingUser } from '../presenters/users';
import { presentJoined, selectTasks } from '../presenters/tasks';
import * as emit from '../realtime/emit';
import { logActivity, type Actor } from './activity';
import { presence } from './presence';
import { findUserById } from './users';
import { releaseDriverTask } from './tasks';
import { runAssignment } from './assignment';
import { settlePendingNotices } from './notifications';
import { hashPassword } from './passwords';
import { forgetSubscriptions } from './push';
import { endSession, endUserSessions, findOpenSession, listOpenSessions } from './sessions';

const isPending = and(eq(users.isApproved, false), isNull(users.deletedAt));

export const pendingCount = (): number =>
  db.select({ n: count() }).from(users).where(isPending).get()?.n ?? 0;

export const listPending = (): PendingUser[] =>
  db.select().from(users).where(isPending).orderBy(asc(users.createdAt)).all().map(presentPendingUser);

const collator = new Intl.Collator('es', { sensitivity: 'base' });

/** Every live account (pending ones too: the Usuarios view shows them as Pendiente), by name. */
export const listUsers = (): AdminUser[] =>
  db
    .select()
    .from(users)
    .where(isNull(users.deletedAt))
    .all()
    .sort((a, b) => collator.compare(a.name, b.name))
    .map(presentAdminUser);

/** The live user, or 404. Call inside the transaction that changes them. */
function liveUser(id: string): UserRow {
  const user = findUserById(id);
  if (!user || user.deletedAt) throw notFound(ERR.userNotFound);
  return user;
}

/** 400 when taking `target` out of the admins would leave no approved admin. */
function assertAdminRemains(target: UserRow): void {
  if (target.role !== 'admin' || !target.isApproved) return;
  const others =
    db
      .select({ n: count() })
      .from(users)
      .where(
        and(
          eq(users.role, 'admin'),
          eq(users.isApproved, true),
          isNull(users.deletedAt),
          ne(users.id, target.id),
        ),
      )
      .get()?.n ?? 0;
  if (others === 0) throw badRequest(ERR.lastAdmin);
}

/** Approves (`approved`) or rejects a pending account; rejecting deletes the row (it has no history). */
export function decidePending(actor: Actor, userId: string, approved: boolean): MessageResponse {
  return tx(() => {
    const user = liveUser(userId);
    if (user.isApproved) throw conflict(ERR.userNotPending);
    settlePendingNotices(user.id);
    afterCommit(() => emit.usersPending(pendingCount()));
    if (approved) {
      const row = db
        .update(users)
        .set({ isApproved: true, approvedAt: now() })
        .where(eq(users.id, user.id))
        .returning()
        .get();
      logActivity(
        'user',
        actor,
        ACCOUNT_LOG.approve.action,
        ACCOUNT_LOG.approve.details(user.name, user.email, user.role),
      );
      afterCommit(() => {
        emit.userChanged(presentAdminUser(row));
        emit.figuresChanged();
      });
      return { message: ACCOUNT_MSG.approved(user.name) };
    }
    db.delete(sessions).where(eq(sessions.userId, user.id)).run();
    db.delete(users).where(eq(users.id, user.id)).run();
    logActivity('user', actor, ACCOUNT_LOG.reject.action, ACCOUNT_LOG.reject.details(user.name, user.email));
    afterCommit(() => {
      emit.userRemoved(userId);
      emit.figuresChanged();
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
export function changeRole(actor: Actor, userId: string, newRole: Role): MessageResponse {
  return tx(() => {
    const before = liveUser(userId);
    if (before.role === newRole) return { message: ACCOUNT_MSG.roleUnchanged(before.name, newRole) };
    if (newRole !== 'admin') assertAdminRemains(before);
    const after = db
      .update(users)
      .set({
        role: newRole,
        tokenVersion: before.tokenVersion + 1,
        ...(newRole === 'conductor' && before.taskTypes.length === 0
          ? { taskTypes: [...DEFAULT_TASK_TYPES] }
          : {}),
      })
      .where(eq(users.id, before.id))
      .returning()
      .get();
    logActivity(
      'user',
      actor,
      ACCOUNT_LOG.role.action,
      ACCOUNT_LOG.role.details(before.name, before.role, newRole),
    );
    endUserSessions(before.id, 'role_changed');
    // After the role is written: the engine's round that follows never gives the task back to them.
    if (before.role === 'conductor') releaseDriverTask(after.id, actor);
    afterCommit(() => {
      presence.forget(after.id);
      emit.userChanged(presentAdminUser(findUserById(after.id) ?? after));
      emit.figuresChanged();
    });
    return { message: ACCOUNT_MSG.roleChanged(after.name, newRole) };
  });
}

/** A conductor's task types. Their current task stays with them; new types may bring work at once. */
export async function changeTaskTypes(
  actor: Actor,
  userId: string,
  taskTypes: VehicleType[],
): Promise<MessageResponse> {
  const { user, before } = tx(() => {
    const before = liveUser(userId);
    if (before.role !== 'conductor') throw conflict(ERR.notADriver);
    const user = db.update(users).set({ taskTypes }).where(eq(users.id, before.id)).returning().get();
    logActivity(
      'user',
      actor,
      ACCOUNT_LOG.taskTypes.action,
      ACCOUNT_LOG.taskTypes.details(user.name, taskTypes.map((t) => TASK_TYPE_LABELS[t]).join(', ')),
    );
    return { user, before };
  });
  await emit.syncTypeRooms(user.id, user.taskTypes);
  pushPoolVisibility(user.id, before.taskTypes, user.taskTypes);
  runAssignment();
  emit.userChanged(presentAdminUser(findUserById(user.id) ?? user));
  return { message: ACCOUNT_MSG.taskTypesUpdated(user.name) };
}

/** The driver's open pages gain the pool tasks of added types and drop those of removed ones. */
function pushPoolVisibility(userId: string, before: VehicleType[], after: VehicleType[]): void {
  const added = after.filter((t) => !before.includes(t));
  const removed = before.filter((t) => !after.includes(t));
  const pool = (types: VehicleType[]) =>
    types.length
      ? selectTasks()
          .where(
            and(
              eq(tasks.status, 'bolsa_trabajo'),
              isNull(tasks.deletedAt),
              inArray(tasks.vehicleType, types),
            ),
          )
          .all()
          .map(presentJoined)
      : [];
  emit.driverTypesChanged(
    userId,
    pool(added),
    pool(removed).map((t) => t.id),
  );
}

/**
 * Soft-deletes an account: the row stays (history, reports) with `deleted_at`, its email is free
 * again, its sessions end and its active task returns to the pool — all in one transaction.
 */
export function deleteUser(actor: Actor, userId: string): MessageResponse {
  if (userId === actor.id) throw badRequest(ERR.cannotDeleteSelf);
  return tx(() => {
    const user = liveUser(userId);
    assertAdminRemains(user);
    db.update(users)
      .set({ deletedAt: now(), tokenVersion: user.tokenVersion + 1 })
      .where(eq(users.id, user.id))
      .run();
    logActivity('user', actor, ACCOUNT_LOG.delete.action, ACCOUNT_LOG.delete.details(user.name, user.email));
    forgetSubscriptions(user.id);
    settlePendingNotices(user.id);
    endUserSessions(user.id, 'deleted');
    // After deleted_at is written: the engine's round that follows never gives the task back to them.
    if (user.role === 'conductor') releaseDriverTask(user.id, actor);
    afterCommit(() => {
      emit.userRemoved(user.id);
      presence.forget(user.id);
      if (!user.isApproved) emit.usersPending(pendingCount());
      emit.figuresChanged();
    });
    return { message: ACCOUNT_MSG.deleted(user.name) };
  });
}

/** The admin corrects a user's name or email (CONTRACT §14); the email stays unique among live accounts. */
export function updateUser(actor: Actor, userId: string, input: UpdateUserInput): AdminUser {
  let user: UserRow;
  try {
    user = tx(() => {
      const before = liveUser(userId);
      const email = input.email ?? before.email;
      if (email !== before.email) {
        const taken = db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, email), isNull(users.deletedAt), ne(users.id, before.id)))
          .get();
        if (taken) throw conflict(ERR.emailTaken);
      }
      const after = db
        .update(users)
        .set({ name: input.name ?? before.name, email })
        .where(eq(users.id, before.id))
        .returning()
        .get();
      logActivity(
        'user',
        actor,
        ACCOUNT_LOG.editUser.action,
        ACCOUNT_LOG.editUser.details(before.name, after.name, after.email),
      );
      afterCommit(() => {
        emit.userChanged(presentAdminUser(after));
        if (!after.isApproved) emit.usersPending(pendingCount());
        emit.figuresChanged();
      });
      return after;
    });
  } catch (err) {
    if ((err as { code?: string })?.code === 'SQLITE_CONSTRAINT_UNIQUE') throw conflict(ERR.emailTaken);
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
 * the user ended, and at their next login only change-password is allowed.
 */
export async function resetPassword(actor: Actor, userId: string): Promise<ResetPasswordResponse> {
  const target = findUserById(userId);
  if (!target || target.deletedAt) throw notFound(ERR.userNotFound);
  const temporary = temporaryPassword();
  const hash = await hashPassword(temporary);
  tx(() => {
    const user = liveUser(userId);
    db.update(users).set({ passwordHash: hash, mustChangePassword: true }).where(eq(users.id, user.id)).run();
    logActivity(
      'user',
      actor,
      ACCOUNT_LOG.resetPassword.action,
      ACCOUNT_LOG.resetPassword.details(user.name),
    );
    endUserSessions(user.id, 'password_reset');
    afterCommit(() => {
      presence.forget(userId);
      emit.figuresChanged();
    });
  });
  return { temporary_password: temporary };
}

export const userSessions = (userId: string, currentSid: string | undefined): SessionInfo[] => {
  const user = findUserById(userId);
  if (!user || user.deletedAt) throw notFound(ERR.userNotFound);
  return listOpenSessions(userId, currentSid);
};

/** An admin ends one of a user's sessions (a lost phone): only that device is logged out. */
export function endUserSession(actor: Actor, userId: string, sid: string): MessageResponse {
  tx(() => {
    const user = liveUser(userId);
    const session = findOpenSession(userId, sid);
    if (!session) throw notFound(ERR.sessionNotFound);
    logActivity(
      'user',
      actor,
      ACCOUNT_LOG.endSession.action,
      ACCOUNT_LOG.endSession.details(user.name, session.userAgent ?? session.ip ?? session.id.slice(-8)),
    );
    endSession(sid, 'logged_out');
    afterCommit(() => presence.loggedOut(user.id));
  });
  return { message: ACCOUNT_MSG.sessionEnded };
}
