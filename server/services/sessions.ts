// Login sessions (CONTRACT §14). Every login opens one; its tokens carry its id (`sid`) and refresh
// keeps it. A session is open while it was refreshed within 12 h and nobody ended it: logout, an
// admin (a lost phone), a password reset. Ending one drops its sockets through the session's room.
import crypto from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { SESSION_IDLE_MS } from '@shared/constants';
import type { RevokeReason } from '@shared/enums';
import type { SessionInfo } from '@shared/schemas';
import { afterCommit, db } from '../db';
import { sessions, type SessionRow } from '../db/schema';
import { now, nowMs } from '../clock';
import * as emit from '../realtime/emit';
import { signToken } from './tokens';

export interface SessionMeta {
  ip?: string | null;
  userAgent?: string | null;
}

/** Opens a session for the user and returns its first token. Runs inside the caller's transaction. */
export function openSession(
  user: { id: string; tokenVersion: number },
  meta: SessionMeta = {},
): { sid: string; token: string } {
  const sid = crypto.randomUUID();
  const at = now();
  db.insert(sessions)
    .values({
      id: sid,
      userId: user.id,
      createdAt: at,
      refreshedAt: at,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    })
    .run();
  return { sid, token: signToken(user, sid) };
}

const openSince = () => new Date(nowMs() - SESSION_IDLE_MS);

const prepareOpen = () =>
  db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sql.placeholder('sid')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.endedAt),
        gt(sessions.refreshedAt, sql.placeholder('since')),
      ),
    )
    .prepare();
let openStmt: { db: typeof db; stmt: ReturnType<typeof prepareOpen> } | undefined;

/** On every authenticated request and socket handshake, so a prepared statement. */
export function isSessionOpen(sid: string, userId: string): boolean {
  if (openStmt?.db !== db) openStmt = { db, stmt: prepareOpen() };
  return !!openStmt.stmt.get({ sid, userId, since: openSince().getTime() });
}

/** Refresh: the session lives 12 h more; the new token keeps its id. */
export function refreshSession(user: { id: string; tokenVersion: number }, sid: string): string {
  db.update(sessions).set({ refreshedAt: now() }).where(eq(sessions.id, sid)).run();
  return signToken(user, sid);
}

/** Ends one session (inside the caller's transaction); its sockets are dropped after the commit. */
export function endSession(sid: string, reason: RevokeReason): void {
  db.update(sessions)
    .set({ endedAt: now() })
    .where(and(eq(sessions.id, sid), isNull(sessions.endedAt)))
    .run();
  afterCommit(() => emit.revokeSession(sid, reason));
}

/** Ends every open session of a user; after the commit their sockets are told why. */
export function endUserSessions(userId: string, reason: RevokeReason): void {
  db.update(sessions)
    .set({ endedAt: now() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)))
    .run();
  afterCommit(() => emit.revokeUser(userId, reason));
}

export const findOpenSession = (userId: string, sid: string): SessionRow | undefined =>
  db
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
    .get();

export const presentSession = (s: SessionRow, currentSid: string | undefined): SessionInfo => ({
  id: s.id,
  created_at: s.createdAt.toISOString(),
  last_refreshed_at: s.refreshedAt.toISOString(),
  ip: s.ip,
  user_agent: s.userAgent,
  current: s.id === currentSid,
});

/** A user's open sessions, the most recently refreshed first. */
export const listOpenSessions = (userId: string, currentSid: string | undefined): SessionInfo[] =>
  db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.refreshedAt, openSince())))
    .orderBy(desc(sessions.refreshedAt))
    .all()
    .map((s) => presentSession(s, currentSid));
