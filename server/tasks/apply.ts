// The only code that writes tasks (LAYOUT.md, revision 3): a row with version+1 — only over the version
// it was decided on —, its task_events history rows and the engine's bookkeeping. Every write records
// its change in the transaction's ChangeSet (changes/change-set.ts); the pushes, caches and the yard's
// settling are the processors' (changes/processors/), run before and after the commit (changes/commit.ts).
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { AUTO_ASSIGNED_TYPES, type TaskEventType, type TaskStatus } from '@shared/enums';
import { ERR } from '@shared/labels';
import { db, execute, insertRows } from '../db';
import { FALSE, TRUE, uniqueViolation } from '../db/dialect';
import { taskEvents, tasks, users, type TaskRow } from '../db/tables';
import { conflict } from '../http/errors';
import type { Actor } from '../services/activity';
import type { ChangeSet } from '../changes/change-set';
import { onBoard } from './visibility';

/** A refusal of the partial unique indexes, as the 409 the user understands. */
export function asConflict(err: unknown, trailerId: string, busyDetail: string): unknown {
  const column = uniqueViolation(err);
  if (column === 'tasks.trailer_id') return conflict(ERR.trailerBusy(trailerId));
  if (column === 'tasks.assigned_to') return conflict(busyDetail);
  return err;
}

/**
 * Writes a change: version+1, updated_at, status_since when the status moves (or when the patch sets it:
 * holding and releasing restart the clock of a pool task). Returns the new row.
 */
export async function writeTask(
  row: TaskRow,
  patch: Partial<TaskRow>,
  fx: ChangeSet,
  busyDetail: string = ERR.driverBusy,
): Promise<TaskRow> {
  fx.updated(row);
  const at = fx.at;
  const moved = patch.status !== undefined && patch.status !== row.status;
  if (touchesYard(row, patch)) fx.yard(row, { ...row, ...patch });
  // Editing a card's text changes no figure: only moves, (re)assignments and holds (the alert's pending
  // tasks leave out held ones) are worth a stats push.
  if (
    moved ||
    (patch.assignedTo !== undefined && patch.assignedTo !== row.assignedTo) ||
    (patch.onHold !== undefined && patch.onHold !== row.onHold)
  )
    fx.figuresChanged();
  const statusSince = moved ? at : (patch.statusSince ?? row.statusSince);
  let written: TaskRow | undefined;
  try {
    // Only over the version this change was decided on: a write that lost a race changes nothing (an
    // engine whose transactions can interleave, such as PostgreSQL, must not apply both).
    [written] = await db
      .update(tasks)
      .set({ ...patch, statusSince, version: row.version + 1, updatedAt: at })
      .where(and(eq(tasks.id, row.id), eq(tasks.version, row.version)))
      .returning();
  } catch (err) {
    throw asConflict(err, patch.trailerId ?? row.trailerId, busyDetail);
  }
  if (!written) throw conflict(ERR.taskChangedMeanwhile);
  return written;
}

/** A change the yard sees: a move in status, place or trailer, a hold (the map marks held tasks). */
const touchesYard = (row: TaskRow, patch: Partial<TaskRow>): boolean =>
  (
    ['status', 'trailerId', 'originLocationId', 'destinationLocationId', 'onHold', 'completedAt'] as const
  ).some((k) => patch[k] !== undefined && patch[k] !== row[k]);

/**
 * A change to many tasks at once that decides nothing on their state (the catalogue re-pointing their
 * places, a person they show renamed): one statement, version+1 and updated_at on every row `where`
 * selects, so the board's version moves too (services/board.ts); those on a board are pushed. What it
 * means for the yard is the caller's (remapTasks settles every trailer itself).
 */
export async function writeTasksWhere(where: SQL, patch: Partial<TaskRow>, fx: ChangeSet): Promise<void> {
  const written = await db
    .update(tasks)
    .set({ ...patch, version: sql`${tasks.version} + 1`, updatedAt: fx.at })
    .where(where)
    .returning();
  // Nothing these writes change moves a task between rooms: the row as written serves as the "before".
  for (const row of written) if (onBoard(row, fx.at)) fx.updated(row);
}

/** A soft delete (CONTRACT §5): deleted_at, version+1, over the version it was decided on. */
export async function writeDeletion(row: TaskRow, fx: ChangeSet): Promise<void> {
  fx.deleted(row);
  const [written] = await db
    .update(tasks)
    .set({ deletedAt: fx.at, updatedAt: fx.at, version: row.version + 1 })
    .where(and(eq(tasks.id, row.id), eq(tasks.version, row.version)))
    .returning({ id: tasks.id });
  if (!written) throw conflict(ERR.taskChangedMeanwhile);
}

/** What a history row says besides its task and type. */
export interface EventFacts {
  actor?: Actor | null;
  driverId?: string | null;
  from?: TaskStatus | null;
  to?: TaskStatus | null;
  reason?: string | null;
  /** When it happened, if not the transaction's instant (an offline action's client_time, §16). */
  at?: Date;
}

const eventRow = (fx: ChangeSet, taskId: string, type: TaskEventType, e: EventFacts) => ({
  taskId,
  type,
  actorId: e.actor?.id ?? null,
  driverId: e.driverId ?? null,
  fromStatus: e.from ?? null,
  toStatus: e.to ?? null,
  reason: e.reason ?? null,
  at: e.at ?? fx.at,
});

export async function recordEvent(
  fx: ChangeSet,
  taskId: string,
  type: TaskEventType,
  e: EventFacts = {},
): Promise<void> {
  await insertRows(taskEvents, [eventRow(fx, taskId, type, e)]);
}

/** Several history rows in one statement (a batch of creations). */
export async function recordEvents(
  fx: ChangeSet,
  events: readonly (EventFacts & { taskId: string; type: TaskEventType })[],
): Promise<void> {
  await insertRows(
    taskEvents,
    events.map((e) => eventRow(fx, e.taskId, e.type, e)),
  );
}

/** A driver who just lost or finished a task is idle from now on (the engine's "idle longest"). */
export async function markIdle(driverId: string, fx: ChangeSet): Promise<void> {
  await db.update(users).set({ idleSince: fx.at }).where(eq(users.id, driverId));
}

// ---- the engine's bookkeeping (no change of what a task shows: no version) ---------------------------

/** The first matching attempt of a task found a driver having its type, or none (the deficiency report). */
export async function markTried(taskId: string, noDriversAvailable: boolean): Promise<void> {
  await db.update(tasks).set({ noDriversAvailable }).where(eq(tasks.id, taskId));
}

// Along tasks_untried (SQLite would otherwise walk the whole pool by tasks_status): only untried rows.
// A held task is not tried: its first attempt comes once it is released.
const UNTRIED_SQL = `UPDATE tasks INDEXED BY tasks_untried SET no_drivers_available = ${TRUE}
  WHERE status = 'bolsa_trabajo' AND deleted_at IS NULL AND no_drivers_available IS NULL AND on_hold = ${FALSE}
    AND vehicle_type IN (${AUTO_ASSIGNED_TYPES.map((t) => `'${t}'`).join(', ')})`;

/** The tasks still untried found no driver left: their first attempt. */
export async function markUntried(): Promise<void> {
  await execute(UNTRIED_SQL);
}
