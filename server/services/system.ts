// Sistema's database status and maintenance actions (CONTRACT §10): counts, run-migrations with its
// integrity repair, clear-all-tokens.
import { and, count, eq, getTableName, isNull, ne, sql } from 'drizzle-orm';
import { ROLES, TASK_STATUSES } from '@shared/enums';
import { DEFAULT_TASK_TYPES } from '@shared/constants';
import { SYSTEM_LOG, SYSTEM_MSG } from '@shared/labels';
import type { DbStatus } from '@shared/schemas';
import { afterCommit, db, query, runMigrations, tx, withWriteConnection } from '../db';
import {
  activityLog,
  notifications,
  presenceIntervals,
  idempotencyKeys,
  punchCorrections,
  punches,
  pushSubscriptions,
  sessions,
  taskEvents,
  tasks,
  users,
} from '../db/tables';
import { now } from '../clock';
import * as emit from '../realtime/emit';
import { presentAdminUser } from '../presenters/users';
import { logActivity, type Actor } from './activity';
import { presence } from './presence';
import { startAssignment } from './assignment';

const TABLES = [
  users,
  sessions,
  tasks,
  taskEvents,
  notifications,
  punches,
  punchCorrections,
  presenceIntervals,
  activityLog,
  idempotencyKeys,
  pushSubscriptions,
];

/** The integrity issue run-migrations repairs: live approved conductors with no task type at all, who
 * could never be given a task. */
const withoutTaskTypes = and(
  eq(users.role, 'conductor'),
  eq(users.isApproved, true),
  isNull(users.deletedAt),
  sql`json_array_length(${users.taskTypes}) = 0`,
);

export async function dbStatus(): Promise<DbStatus> {
  const collections: Record<string, number> = {};
  for (const table of TABLES) {
    const name = getTableName(table);
    const [row] = await query<{ n: number }>(`SELECT count(*) AS n FROM "${name}"`);
    collections[name] = Number(row.n); // a bigint on PostgreSQL: a string from node-postgres
  }
  const byRole = Object.fromEntries(ROLES.map((r) => [r, 0]));
  for (const r of await db
    .select({ role: users.role, n: count() })
    .from(users)
    .where(isNull(users.deletedAt))
    .groupBy(users.role))
    byRole[r.role] = r.n;
  const byStatus = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0]));
  for (const r of await db
    .select({ status: tasks.status, n: count() })
    .from(tasks)
    .where(isNull(tasks.deletedAt))
    .groupBy(tasks.status))
    byStatus[r.status] = r.n;
  const [{ n: withoutTypes }] = await db.select({ n: count() }).from(users).where(withoutTaskTypes);
  return {
    collections,
    users_by_role: byRole,
    tasks_by_status: byStatus,
    data_integrity: { has_issues: withoutTypes > 0, users_without_task_types: withoutTypes },
  };
}

/** Applies pending migrations (idempotent), then gives drivers without task types the default. */
export async function runMigrationsAndRepair(actor: Actor): Promise<{ message: string }> {
  // Between transactions, on the write connection: drizzle's migrator opens its own transaction there.
  const applied = await withWriteConnection(() => runMigrations());
  const repaired = await tx(async () => {
    const rows = await db
      .update(users)
      .set({ taskTypes: [...DEFAULT_TASK_TYPES] })
      .where(withoutTaskTypes)
      .returning();
    await logActivity(
      'system',
      actor,
      SYSTEM_LOG.migrations.action,
      SYSTEM_MSG.migrations(applied, rows.length),
    );
    // Repaired drivers now see (and may be given) semiremolque tasks; the Usuarios table shows them.
    if (rows.length)
      afterCommit(() => {
        for (const row of rows) {
          void emit.syncTypeRooms(row.id, row.taskTypes);
          emit.userChanged(presentAdminUser(row));
        }
        startAssignment();
        emit.figuresChanged();
      });
    return rows;
  });
  return { message: SYSTEM_MSG.migrations(applied, repaired.length) };
}

/** Revokes every session but the caller's: their tokens stop working and their sockets drop (pending
 * accounts hold no token, so they are left alone). */
export async function clearAllTokens(actor: Actor): Promise<{ message: string }> {
  const revoked = await tx(async () => {
    const ids = (
      await db
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(and(ne(users.id, actor.id), eq(users.isApproved, true), isNull(users.deletedAt)))
        .returning({ id: users.id })
    ).map((r) => r.id);
    await db
      .update(sessions)
      .set({ endedAt: now() })
      .where(and(ne(sessions.userId, actor.id), isNull(sessions.endedAt)));
    await logActivity(
      'system',
      actor,
      SYSTEM_LOG.tokensCleared.action,
      SYSTEM_LOG.tokensCleared.details(ids.length),
    );
    afterCommit(() => {
      emit.revokeAllExcept(actor.id, 'tokens_cleared');
      // Offline at once, not after the polling window: nobody but the caller holds a valid session now.
      for (const id of ids) void presence.forget(id);
      emit.figuresChanged();
    });
    return ids;
  });
  return { message: SYSTEM_MSG.tokensCleared(revoked.length) };
}
