// The activity log (CONTRACT §10): one row per state change, written inside the change's transaction.
import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { LogType } from '@shared/enums';
import type { LogEntry, LogsQuery } from '@shared/schemas';
import { madridDayRange } from '@shared/time';
import { SYSTEM_ACTOR } from '@shared/labels';
import { db, appendRows } from '../db';
import { activityLog } from '../db/tables';
import { now } from '../clock';

export interface Actor {
  /** The user's id; null for an API client, which has no user row (CONTRACT §21). */
  id: string | null;
  name: string;
}

/** An actor that is a user: what only a signed-in person does (administration, a driver's own moves). */
export interface UserActor extends Actor {
  id: string;
}

/**
 * One row of the log, written on the current transaction (callers are inside the change's tx(), so the
 * row commits or rolls back with it): every state change of the app writes one.
 */
export async function logActivity(
  type: LogType,
  actor: Actor | null,
  action: string,
  details: string,
): Promise<void> {
  await appendRows(activityLog, [logRow({ type, actor, action, details })]);
}

/** What one row of the log says. */
export interface LogFacts {
  type: LogType;
  actor: Actor | null;
  action: string;
  details: string;
}

const logRow = ({ type, actor, action, details }: LogFacts) => ({
  type,
  userId: actor?.id ?? null,
  userName: actor?.name ?? SYSTEM_ACTOR,
  action,
  details,
  timestamp: now(),
});

/** Several rows in one statement (a batch of creations), on the current transaction. */
export async function logActivities(entries: readonly LogFacts[]): Promise<void> {
  await appendRows(activityLog, entries.map(logRow));
}

/**
 * The activity log, newest first (by id: rows are written in time order), filtered by type, actor and
 * Madrid days (both inclusive), `before` an id for the next page (CONTRACT §13, §15).
 */
export async function recentActivity(q: LogsQuery): Promise<LogEntry[]> {
  const where: SQL[] = [];
  if (q.type) where.push(eq(activityLog.type, q.type));
  if (q.user_id) where.push(eq(activityLog.userId, q.user_id));
  if (q.date_from) where.push(gte(activityLog.timestamp, new Date(madridDayRange(q.date_from).start)));
  if (q.date_to) where.push(lt(activityLog.timestamp, new Date(madridDayRange(q.date_to).end)));
  if (q.before) where.push(lt(activityLog.id, q.before));
  const rows = await db
    .select()
    .from(activityLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(activityLog.id))
    .limit(q.limit);
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    user: r.userName,
    action: r.action,
    details: r.details,
    timestamp: r.timestamp.toISOString(),
  }));
}
