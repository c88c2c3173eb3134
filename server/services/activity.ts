// The activity log (CONTRACT §10): one row per state change, written inside the change's transaction.
import { desc, sql } from 'drizzle-orm';
import type { LogType } from '@shared/enums';
import type { LogEntry } from '@shared/schemas';
import { SYSTEM_ACTOR } from '@shared/labels';
import { db } from '../db';
import { activityLog } from '../db/schema';
import { now } from '../clock';

export interface Actor {
  id: string;
  name: string;
}

const prepareInsert = () =>
  db
    .insert(activityLog)
    .values({
      type: sql.placeholder('type'),
      userId: sql.placeholder('userId'),
      userName: sql.placeholder('userName'),
      action: sql.placeholder('action'),
      details: sql.placeholder('details'),
      timestamp: sql.placeholder('timestamp'),
    })
    .prepare();
let insert: { db: typeof db; stmt: ReturnType<typeof prepareInsert> } | undefined;

/** Prepared once per connection: every state change of the app writes one of these rows. */
export function logActivity(type: LogType, actor: Actor | null, action: string, details: string): void {
  if (insert?.db !== db) insert = { db, stmt: prepareInsert() };
  insert.stmt.run({
    type,
    userId: actor?.id ?? null,
    userName: actor?.name ?? SYSTEM_ACTOR,
    action,
    details,
    timestamp: now(),
  });
}

export function recentActivity(limit: number): LogEntry[] {
  return db
    .select()
    .from(activityLog)
    .orderBy(desc(activityLog.timestamp), desc(activityLog.id))
    .limit(limit)
    .all()
    .map((r) => ({
      type: r.type,
      user: r.userName,
      action: r.action,
      details: r.details,
      timestamp: r.timestamp.toISOString(),
    }));
}
