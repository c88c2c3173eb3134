// Register, login, refresh and logout (CONTRACT §4).
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { DEFAULT_TASK_TYPES } from '@shared/constants';
import { ACCOUNT_LOG, ERR, PENDING_NOTIFICATION } from '@shared/labels';
import type { AuthResponse, LoginInput, RegisterInput } from '@shared/schemas';
import { db, tx } from '../db';
import { users, type UserRow } from '../db/schema';
import { now } from '../clock';
import { config } from '../config';
import { conflict, forbidden, unauthorized } from '../http/errors';
import { loginFailures, registrations } from '../http/rate-limit';
import { presentAdminUser, presentSessionUser } from '../presenters/users';
import * as emit from '../realtime/emit';
import { logActivity } from './activity';
import { notify } from './notifications';
import { checkPassword, hashPassword } from './passwords';
import { presence } from './presence';
import { signToken } from './tokens';
import { pendingCount } from './accounts';

const liveUserByEmail = (email: string): UserRow | undefined =>
  db
    .select()
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .get();

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === 'SQLITE_CONSTRAINT_UNIQUE';

export async function register(input: RegisterInput, ip: string): Promise<AuthResponse> {
  registrations.check(ip);
  const passwordHash = await hashPassword(input.password);
  const pushes: (() => void)[] = [];
  let user: UserRow;
  try {
    user = tx(() => {
      if (liveUserByEmail(input.email)) throw conflict(ERR.emailTaken);
      const row = db
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
        .returning()
        .get();
      logActivity(
        'auth',
        row,
        ACCOUNT_LOG.register.action,
        ACCOUNT_LOG.register.details(row.name, row.email, row.role),
      );
      const admins = db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'admin'), eq(users.isApproved, true), isNull(users.deletedAt)))
        .all();
      for (const admin of admins)
        pushes.push(
          notify(
            admin.id,
            'user_pending',
            PENDING_NOTIFICATION.title,
            PENDING_NOTIFICATION.message(row.name, row.email, row.role),
            { subjectUserId: row.id },
          ),
        );
      return row;
    });
  } catch (err) {
    // Two registrations of one email racing: the live-email unique index refuses the second.
    if (isUniqueViolation(err)) throw conflict(ERR.emailTaken);
    throw err;
  }
  registrations.hit(ip);
  pushes.forEach((push) => push());
  emit.usersPending(pendingCount());
  emit.userChanged(presentAdminUser(user));
  emit.figuresChanged();
  return { status: 'pending_approval', access_token: null, user: presentSessionUser(user) };
}

/** A hash to compare against when the email is unknown, so both failures take as long. */
let dummy: { cost: number; hash: Promise<string> } | undefined;
const dummyHash = () => {
  if (dummy?.cost !== config.bcryptCost)
    dummy = { cost: config.bcryptCost, hash: hashPassword(crypto.randomBytes(16).toString('hex')) };
  return dummy.hash;
};

export async function login(input: LoginInput, ip: string): Promise<AuthResponse> {
  const key = `${ip}|${input.email}`;
  loginFailures.check(key);
  const user = liveUserByEmail(input.email);
  const ok = await checkPassword(input.password, user?.passwordHash ?? (await dummyHash()));
  if (!user || !ok) {
    loginFailures.hit(key);
    throw unauthorized(ERR.invalidCredentials);
  }
  loginFailures.clear(key);
  if (!user.isApproved) throw forbidden(ERR.pendingApproval);
  tx(() => logActivity('auth', user, ACCOUNT_LOG.login.action, ACCOUNT_LOG.login.details(user.name)));
  presence.touch(user.id);
  return { status: 'approved', access_token: signToken(user), user: presentSessionUser(user) };
}

/** A fresh 12 h token; the old one stays valid until it expires or is revoked. */
export const refresh = (user: UserRow): { access_token: string } => ({ access_token: signToken(user) });

/** Ends this session: its sockets drop, and the user is offline unless another session has a socket. */
export async function logout(user: UserRow, token: string): Promise<void> {
  tx(() => logActivity('auth', user, ACCOUNT_LOG.logout.action, ACCOUNT_LOG.logout.details(user.name)));
  await emit.disconnectToken(user.id, token);
  presence.loggedOut(user.id);
}
