// Register, login, refresh, logout and change-password (CONTRACT §4, §14).
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { DEFAULT_TASK_TYPES } from '@shared/constants';
import { ACCOUNT_LOG, ERR, PENDING_NOTIFICATION } from '@shared/labels';
import type { AuthResponse, ChangePasswordInput, LoginInput, RegisterInput } from '@shared/schemas';
import { db, tx } from '../db';
import { forUpdate, uniqueViolation } from '../db/dialect';
import { users, type UserRow } from '../db/tables';
import { now } from '../clock';
import { config } from '../config';
import { badRequest, conflict, forbidden, unauthorized } from '../http/errors';
import { loginFailures, loginFailuresByIp, passwordWork, registrations } from '../http/rate-limit';
import { presentAdminUser, presentSessionUser } from '../presenters/users';
import { record } from '../changes/commit';
import { logActivity } from './activity';
import { approvedUserIds } from './audience';
import { notifyEach } from './notifications';
import { checkPassword, hashPassword } from './passwords';
import { presence } from './presence';
import { endSession, endUserSessions, openSession, refreshSession } from './sessions';
import { pendingCount } from './accounts';

async function liveUserByEmail(email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

/** The client's address and device, kept with the session it opens (the admin's session list). */
export interface ClientMeta {
  ip: string;
  userAgent: string | null;
}

export async function register(input: RegisterInput, client: ClientMeta): Promise<AuthResponse> {
  await registrations.take(client.ip);
  let passwordHash: string;
  try {
    passwordHash = await passwordWork.run(client.ip, () => hashPassword(input.password));
  } catch (err) {
    await registrations.refund(client.ip);
    throw err;
  }
  let user: UserRow;
  try {
    user = await tx(async () => {
      if (await liveUserByEmail(input.email)) throw conflict(ERR.emailTaken);
      const [row] = await db
        .insert(users)
        .values({
          id: crypto.randomUUID(),
          email: input.email,
          name: input.name,
          passwordHash,
          role: input.role,
          isApproved: false,
          taskTypes: input.role === 'conductor' ? [...DEFAULT_TASK_TYPES] : [],
          createdAt: now(),
        })
        .returning();
      await logActivity(
        'auth',
        row,
        ACCOUNT_LOG.register.action,
        ACCOUNT_LOG.register.details(row.name, row.email, row.role),
      );
      await notifyEach(
        await approvedUserIds(['admin']),
        'user_pending',
        PENDING_NOTIFICATION.title,
        PENDING_NOTIFICATION.message(row.name, row.email, row.role),
        { subjectUserId: row.id },
      );
      const pending = await pendingCount();
      record((changes) => {
        changes.person({ kind: 'users-pending', count: pending });
        changes.person({ kind: 'user', user: presentAdminUser(row) });
        changes.figuresChanged();
      });
      return row;
    });
  } catch (err) {
    // Two registrations of one email racing: the live-email unique index refuses the second.
    if (uniqueViolation(err) === 'users.email') throw conflict(ERR.emailTaken);
    throw err;
  }
  return { status: 'pending_approval', access_token: null, user: presentSessionUser(user) };
}

/** A hash to compare against when the email is unknown, so both failures take as long. */
let dummy: { cost: number; hash: Promise<string> } | undefined;
const dummyHash = () => {
  if (dummy?.cost !== config.bcryptCost)
    dummy = { cost: config.bcryptCost, hash: hashPassword(crypto.randomBytes(16).toString('hex')) };
  return dummy.hash;
};

/**
 * Counts the attempt against both failure windows before any hashing (CONTRACT §4, §14), then
 * compares under the IP's hashing gate. Only a wrong password keeps its counts.
 */
export async function login(input: LoginInput, client: ClientMeta): Promise<AuthResponse> {
  const key = `${client.ip}|${input.email}`;
  await loginFailures.take(key);
  try {
    await loginFailuresByIp.take(client.ip);
  } catch (err) {
    await loginFailures.refund(key);
    throw err;
  }
  const giveBack = () => Promise.all([loginFailures.refund(key), loginFailuresByIp.refund(client.ip)]);
  let user: UserRow | undefined;
  let ok: boolean;
  try {
    user = await liveUserByEmail(input.email);
    const hash = user?.passwordHash ?? (await dummyHash());
    ok = await passwordWork.run(client.ip, () => checkPassword(input.password, hash));
  } catch (err) {
    await giveBack();
    throw err;
  }
  if (!user || !ok) throw unauthorized(ERR.invalidCredentials);
  await Promise.all([loginFailures.clear(key), loginFailuresByIp.refund(client.ip)]);
  if (!user.isApproved) throw forbidden(ERR.pendingApproval);
  const approved = user;
  const { token } = await tx(async () => {
    // The account as it is now (PostgreSQL: locked): a reset, a role change or a deletion committed while
    // the password was being compared wins, as if it had come first.
    const [current] = await forUpdate(
      db
        .select({
          passwordHash: users.passwordHash,
          tokenVersion: users.tokenVersion,
          deletedAt: users.deletedAt,
        })
        .from(users)
        .where(eq(users.id, approved.id))
        .limit(1),
    );
    if (
      !current ||
      current.deletedAt ||
      current.passwordHash !== approved.passwordHash ||
      current.tokenVersion !== approved.tokenVersion
    )
      throw unauthorized(ERR.invalidCredentials);
    await logActivity('auth', approved, ACCOUNT_LOG.login.action, ACCOUNT_LOG.login.details(approved.name));
    return openSession(approved, client);
  });
  await presence.touch(user.id);
  return {
    status: user.mustChangePassword ? 'password_change_required' : 'approved',
    access_token: token,
    user: presentSessionUser(user),
  };
}

/** A fresh 12 h token for the same session; the old one stays valid until it expires or is revoked. */
export const refresh = async (user: UserRow, sid: string): Promise<{ access_token: string }> => ({
  access_token: await tx(() => refreshSession(user, sid)),
});

/** Ends this session: its sockets drop, and the user is offline unless another session has a socket. */
export async function logout(user: UserRow, sid: string): Promise<void> {
  await tx(async () => {
    await logActivity('auth', user, ACCOUNT_LOG.logout.action, ACCOUNT_LOG.logout.details(user.name));
    await endSession(sid, 'logged_out');
  });
  await presence.loggedOut(user.id);
}

/**
 * Any user changes their own password; after an admin's reset it is the only thing their token
 * allows. Answers like a login, on the same session.
 */
export async function changePassword(
  user: UserRow,
  sid: string,
  input: ChangePasswordInput,
  client: ClientMeta,
): Promise<AuthResponse> {
  const { ok, hash } = await passwordWork.run(client.ip, async () => {
    const ok = await checkPassword(input.current_password, user.passwordHash);
    return { ok, hash: ok ? await hashPassword(input.new_password) : '' };
  });
  if (!ok) throw badRequest(ERR.wrongCurrentPassword);
  if (input.new_password === input.current_password) throw badRequest(ERR.samePassword);
  const token = await tx(async () => {
    await db
      .update(users)
      .set({ passwordHash: hash, mustChangePassword: false })
      .where(eq(users.id, user.id));
    await logActivity(
      'auth',
      user,
      ACCOUNT_LOG.changePassword.action,
      ACCOUNT_LOG.changePassword.details(user.name),
    );
    // Whoever knew the old password (a lost phone, a shared one) is out; this device goes on (§23).
    await endUserSessions(user.id, 'password_changed', sid);
    return refreshSession(user, sid);
  });
  return { status: 'approved', access_token: token, user: presentSessionUser(user) };
}
