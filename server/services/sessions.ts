// Login sessions (CONTRACT §14). Every login opens one; its tokens carry its id (`sid`) and refresh
// keeps it. A session is open while it was refreshed within 12 h and nobody ended it: logout, an
// admin (a lost phone), a password reset. Ending one drops its sockets through the session's room.
import crypto from 'node:crypto';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import { SESSION_IDLE_MS } from '@shared/constants';
import type { RevokeReason } from '@shared/enums';
import { ERR } from '@shared/labels';
import type { SessionInfo } from '@shared/schemas';
import { commitCount, db, query, tx } from '../db';
import { batchedRead } from '../db/batched-read';
import { SNAPSHOT_COLUMN, type RequestMark } from '../db/change-mark';
import { sessions, type SessionRow, type UserRow } from '../db/tables';
import { now, nowMs } from '../clock';
import { unauthorized } from '../http/errors';
import { record } from '../changes/commit';
import { signToken } from './tokens';
import { userRow } from './users';

export interface SessionMeta {
  ip?: string | null;
  userAgent?: string | null;
}

/**
 * Opens a session for the user and returns its first token. Inside the caller's transaction (a login)
 * it is part of it; alone (the tests' tokenFor) it is its own.
 */
export async function openSession(
  user: { id: string; tokenVersion: number },
  meta: SessionMeta = {},
): Promise<{ sid: string; token: string }> {
  const sid = crypto.randomUUID();
  const at = now();
  await tx(() =>
    db.insert(sessions).values({
      id: sid,
      userId: user.id,
      createdAt: at,
      refreshedAt: at,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    }),
  );
  return { sid, token: signToken(user, sid) };
}

const openSince = () => new Date(nowMs() - SESSION_IDLE_MS);

// Raw SQL, on every request: drizzle's result mapping would cost more than the read. The account and
// its session in one statement: one await fewer on the hottest path.
const ACCOUNT_OF_SESSION = `SELECT u.*, EXISTS (
    SELECT 1 FROM sessions s
    WHERE s.id = ? AND s.user_id = u.id AND s.ended_at IS NULL AND s.refreshed_at > ?
  ) AS session_open
  FROM users u WHERE u.id = ? LIMIT 1`;

/** The same for the tokens of a burst of requests (PostgreSQL: db/batched-read.ts). */
const ACCOUNTS_OF_SESSIONS = `SELECT q.sid AS asked_sid, ${SNAPSHOT_COLUMN}, u.*, EXISTS (
    SELECT 1 FROM sessions s
    WHERE s.id = q.sid AND s.user_id = u.id AND s.ended_at IS NULL AND s.refreshed_at > ?
  ) AS session_open
  FROM unnest(?::text[], ?::text[]) AS q(user_id, sid) JOIN users u ON u.id = q.user_id`;

interface TokenSession {
  userId: string;
  sid: string;
}
/** `mark`: PostgreSQL's snapshot, when the read took one along (db/change-mark.ts withRequestMark). */
type AccountOfSession = { user: UserRow; sessionOpen: boolean; mark?: RequestMark };

const accountOf = (row: Record<string, unknown>, mark?: RequestMark): AccountOfSession => ({
  user: userRow(row),
  sessionOpen: Boolean(row.session_open),
  mark,
});

const readAccount = batchedRead<TokenSession, AccountOfSession>(
  async ({ userId, sid }) => {
    const [row] = await query<Record<string, unknown>>(ACCOUNT_OF_SESSION, [
      sid,
      openSince().getTime(),
      userId,
    ]);
    return row && accountOf(row);
  },
  async (asked) => {
    // Counted before the snapshot is taken: a commit of this process after it makes the snapshot unused.
    const commits = commitCount();
    const rows = await query<Record<string, unknown>>(ACCOUNTS_OF_SESSIONS, [
      openSince().getTime(),
      asked.map((a) => a.userId),
      asked.map((a) => a.sid),
    ]);
    const found = new Map(rows.map((row) => [`${String(row.id)} ${String(row.asked_sid)}`, row]));
    return asked.map(({ userId, sid }) => {
      const row = found.get(`${userId} ${sid}`);
      return row && accountOf(row, { snapshot: String(row.snapshot), commits });
    });
  },
);

/**
 * On every authenticated request and socket handshake, one read by primary keys: the token's account
 * (absent when there is none) and whether the token's session is open.
 */
export function accountOfSession(userId: string, sid: string): Promise<AccountOfSession | undefined> {
  return readAccount({ userId, sid });
}

/**
 * Refresh: the session lives 12 h more; the new token keeps its id. Inside the caller's transaction.
 * Only an open session is refreshed: one ended since the request was authenticated (a logout, a reset,
 * a role change racing it) answers 401 and rolls the caller's transaction back.
 */
export async function refreshSession(
  user: { id: string; tokenVersion: number },
  sid: string,
): Promise<string> {
  const refreshed = await db
    .update(sessions)
    .set({ refreshedAt: now() })
    .where(
      and(
        eq(sessions.id, sid),
        eq(sessions.userId, user.id),
        isNull(sessions.endedAt),
        gt(sessions.refreshedAt, openSince()),
      ),
    )
    .returning({ id: sessions.id });
  if (refreshed.length === 0) throw unauthorized(ERR.sessionRevoked);
  return signToken(user, sid);
}

/** Ends one session (inside the caller's transaction); its sockets are dropped after the commit. */
export async function endSession(sid: string, reason: RevokeReason): Promise<void> {
  await db
    .update(sessions)
    .set({ endedAt: now() })
    .where(and(eq(sessions.id, sid), isNull(sessions.endedAt)));
  record((changes) => changes.sessionsRevoked({ scope: 'session', sid, reason }));
}

/**
 * Ends every open session of a user but `keptSid` if given (inside the caller's transaction); after the
 * commit their sockets are told why.
 */
export async function endUserSessions(userId: string, reason: RevokeReason, keptSid?: string): Promise<void> {
  await db
    .update(sessions)
    .set({ endedAt: now() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.endedAt),
        keptSid === undefined ? undefined : ne(sessions.id, keptSid),
      ),
    );
  record((changes) =>
    changes.sessionsRevoked(
      keptSid === undefined
        ? { scope: 'user', userId, reason }
        : { scope: 'user-but', userId, keptSid, reason },
    ),
  );
}

export async function findOpenSession(userId: string, sid: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sid),
        eq(sessions.userId, userId),
        isNull(sessions.endedAt),
        gt(sessions.refreshedAt, openSince()),
      ),
    )
    .limit(1);
  return row;
}

export const presentSession = (s: SessionRow, currentSid: string | undefined): SessionInfo => ({
  id: s.id,
  created_at: s.createdAt.toISOString(),
  last_refreshed_at: s.refreshedAt.toISOString(),
  ip: s.ip,
  user_agent: s.userAgent,
  current: s.id === currentSid,
});

/** A user's open sessions, the most recently refreshed first. */
export async function listOpenSessions(
  userId: string,
  currentSid: string | undefined,
): Promise<SessionInfo[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.refreshedAt, openSince())))
    .orderBy(desc(sessions.refreshedAt));
  return rows.map((s) => presentSession(s, currentSid));
}
