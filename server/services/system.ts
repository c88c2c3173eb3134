// Sistema's database status and maintenance actions (CONTRACT §10): counts, run-migrations with its
// integrity repair, clear-all-tokens.
import { and, count, eq, getTableName, isNull, ne, sql } from 'drizzle-orm';
import { ROLES, TASK_STATUSES } from '@shared/enums';
import { DEFAULT_TASK_TYPES } from '@shared/constants';
import { SYSTEM_LOG, SYSTEM_MSG } from '@shared/labels';
import type { DbStatus } from '@shared/schemas';
import { db, isPostgres, query, runMigrations, tx, withWriteConnection } from '../db';
import { sqlFor } from '../db/dialect';
import { migratePostgres } from '../db/migrate-pg';
import { postgresPool } from '../db/postgres';
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
  gateVisits,
  apiClients,
  webhooks,
  webhookDeliveries,
} from '../db/tables';
import { now } from '../clock';
import { record } from '../changes/commit';
import { presentAdminUser } from '../presenters/users';
import { logActivity, type UserActor } from './activity';
import { presence } from './presence';

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
  gateVisits,
  apiClients,
  webhooks,
  webhookDeliveries,
];

/** The integrity issue run-migrations repairs: live approved conductors with no task type at all, who
 * could never be given a task. */
const withoutTaskTypes = and(
  eq(users.role, 'conductor'),
  eq(users.isApproved, true),
  isNull(users.deletedAt),
  // task_types is JSON text on both engines: PostgreSQL's json_array_length takes json, not text.
  sqlFor({
    sqlite: sql`json_array_length(${users.taskTypes}) = 0`,
    postgres: sql`json_array_length(${users.taskTypes}::json) = 0`,
  }),
);

export async function dbStatus(): Promise<DbStatus> {
  const collections: Record<string, number> = {};
  for (const table of TABLES) {
    const name = getTableName(table);
    const [row] = await query<{ n: number }>(`SELECT count(*) AS n FROM "${name}"`);
    collections[name] = Number(row.n); // a number on both engines (PostgreSQL's int8 parser)
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

/**
 * Applies the pending migrations of the engine; resolves with how many. SQLite: between transactions, on
 * the write connection (drizzle's migrator opens its own transaction there). PostgreSQL: the migrator of
 * the start (CONTRACT §18), under its advisory lock, so a node migrating at the same moment applies them
 * once; what this call applied is what the journal gained.
 */
async function applyMigrations(): Promise<number> {
  if (!isPostgres) return withWriteConnection(() => runMigrations());
  const journal = async () =>
    (await query<{ n: number }>('SELECT count(*) AS n FROM drizzle.__drizzle_migrations'))[0].n;
  const before = await journal();
  await migratePostgres(postgresPool());
  return (await journal()) - before;
}

/** Applies pending migrations (idempotent), then gives drivers without task types the default. */
export async function runMigrationsAndRepair(actor: UserActor): Promise<{ message: string }> {
  const applied = await applyMigrations();
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
    if (rows.length) {
      record((changes) => {
        for (const row of rows) {
          changes.person({ kind: 'task-types', userId: row.id, taskTypes: row.taskTypes });
          changes.person({ kind: 'user', user: presentAdminUser(row) });
        }
        changes.figuresChanged();
        changes.roundAfter = true;
      });
    }
    return rows;
  });
  return { message: SYSTEM_MSG.migrations(applied, repaired.length) };
}

/** Revokes every session but the caller's: their tokens stop working and their sockets drop (pending
 * accounts hold no token, so they are left alone). */
export async function clearAllTokens(actor: UserActor): Promise<{ message: string }> {
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
    record((changes) => {
      changes.sessionsRevoked({ scope: 'all-but', userId: actor.id, reason: 'tokens_cleared' });
      changes.figuresChanged();
    });
    return ids;
  });
  // Offline at once, not after the polling window: nobody but the caller holds a valid session now. The
  // answer waits for it, so whoever reads the users next sees them offline.
  await Promise.all(revoked.map((id) => presence.forget(id)));
  return { message: SYSTEM_MSG.tokensCleared(revoked.length) };
}
