// The only code that writes tasks (LAYOUT.md, revision 3; a lint rule in eslint.config.js): new rows and
// changes with version+1 — only over the version they were decided on —, their task_events history, their
// activity-log rows and the engine's bookkeeping. applyTransition() writes a move of transitions.ts's
// table, all five steps of it. Every write records its change in the transaction's ChangeSet
// (changes/change-set.ts); the pushes, caches and the yard's settling are the processors'
// (changes/processors/), run before and after the commit (changes/commit.ts).
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { AUTO_ASSIGNED_TYPES, type TaskEventType, type TaskStatus } from '@shared/enums';
import { ERR, TASK_NOTIFICATION } from '@shared/labels';
import { appendRows, db, insertRows, sendAhead } from '../db';
import { FALSE, TRUE, uniqueViolation } from '../db/dialect';
import { taskEvents, tasks, users, type TaskRow } from '../db/tables';
import { conflict } from '../http/errors';
import { logActivities, type Actor } from '../services/activity';
import { notify } from '../services/notifications';
import type { ChangeSet } from '../changes/change-set';
import { decide, roundFollows, type Facts, type Notice, type Subject, type Transition } from './transitions';
import { OPEN_STATUSES, onBoard } from './visibility';
import { claimTrailers, setLoadState } from '../services/trailers';
import { plateKey } from '@shared/text';

/**
 * Writes one move of the table (transitions.ts) on a task read and locked by the caller: the row, the
 * driver's bookkeeping (idle, credit), the history rows, the activity-log lines, the notifications, and
 * whether the engine's round follows. Returns the row as written.
 */
export async function applyTransition(
  row: TaskRow,
  t: Transition,
  facts: Facts,
  fx: ChangeSet,
): Promise<TaskRow> {
  let next = row;
  if (t.to === 'deleted') await writeDeletion(row, fx);
  else
    next = await writeTask(
      row,
      { ...(t.to === 'same' ? {} : { status: t.to }), ...t.patch(row, facts) },
      fx,
      t.busy,
    );
  const driverId = row.status === 'en_proceso' ? row.assignedTo : null;
  if (t.idle && driverId) await markIdle(driverId, fx);
  let f = facts;
  if (t.credit === 1 && driverId) {
    const [driver] = await db
      .update(users)
      .set({ movementsCount: sql`${users.movementsCount} + 1`, idleSince: fx.at })
      .where(eq(users.id, driverId))
      .returning({ name: users.name, movements: users.movementsCount });
    f = { ...facts, driverName: driver!.name, movements: driver!.movements };
  }
  if (t.credit === -1 && row.creditedTo)
    await db
      .update(users)
      .set({
        movementsCount: sql`CASE WHEN ${users.movementsCount} > 0 THEN ${users.movementsCount} - 1 ELSE 0 END`,
      })
      .where(eq(users.id, row.creditedTo));
  await recordEvents(
    fx,
    t.events(row, f).map((e) => ({ ...e, taskId: row.id, actor: f.actor })),
  );
  await logActivities(t.logs(row, f).map((l) => ({ type: 'task' as const, actor: f.actor, ...l })));
  for (const notice of t.notices) await send(notice, row, f);
  if (roundFollows(t, row, f)) fx.engine = true;
  return next;
}

/** A notification of the table, to whom it is meant (none when that is nobody). */
async function send(notice: Notice, row: Subject, f: Facts): Promise<void> {
  const taskId = row.id;
  const driverId = row.assignedTo;
  switch (notice) {
    case 'assigned': {
      const n = TASK_NOTIFICATION.assigned;
      return notify(f.driver!.id, 'task_assigned', n.title, n.message(row), { taskId, playSound: true });
    }
    case 'withdrawn': {
      const n = TASK_NOTIFICATION.withdrawn;
      if (driverId) await notify(driverId, 'info', n.title, n.message(row), { taskId });
      return;
    }
    case 'closedByStaff': {
      const n = TASK_NOTIFICATION.closedByStaff;
      if (driverId) await notify(driverId, 'task_closed_by_staff', n.title, n.message(row), { taskId });
      return;
    }
    case 'congratulations': {
      const n = TASK_NOTIFICATION.congratulations;
      if (driverId)
        await notify(driverId, 'congratulations', n.title, n.message(row, f.movements ?? 0), { taskId });
      return;
    }
    case 'returned': {
      const n = TASK_NOTIFICATION.returned;
      const by = f.actor!;
      if (row.createdBy && row.createdBy !== by.id)
        await notify(row.createdBy, 'task_returned', n.title, n.message(row, by.name, f.reason ?? null), {
          taskId,
        });
      return;
    }
  }
}

/** A new pool task as its creation gives it (the rest are the columns' defaults). */
export type NewTask = Pick<
  TaskRow,
  | 'id'
  | 'title'
  | 'description'
  | 'origin'
  | 'destination'
  | 'originLocationId'
  | 'destinationLocationId'
  | 'trailerId'
  | 'loadStateAfter'
  | 'priority'
  | 'vehicleType'
  | 'createdBy'
> &
  Partial<Pick<TaskRow, 'dueAt' | 'createdByClientId' | 'externalRef'>>;

/**
 * New pool tasks (the table's `create`), their `created` history and activity-log rows: three statements
 * whatever their number. Returns their damaged trailers' notes (by plate key), as their claim read them.
 */
export async function insertTasks(
  news: readonly { task: NewTask; actor: Actor }[],
  fx: ChangeSet,
): Promise<Map<string, string>> {
  const t = decide('new', 'create', 'staff');
  const at = fx.at;
  // One open task per trailer (CONTRACT §19), by plate key, under the records' locks.
  const { created, damaged } = await claimTrailers(news.map(({ task }) => ({ trailerId: task.trailerId })));
  for (const key of created) fx.trailerChanged(key);
  const subjects = news.map(({ task }) => ({
    ...task,
    trailerKey: plateKey(task.trailerId),
    dueAt: task.dueAt ?? null,
    createdByClientId: task.createdByClientId ?? null,
    externalRef: task.externalRef ?? null,
    status: 'bolsa_trabajo' as const,
    assignedTo: null,
    creditedTo: null,
    onHold: false,
    holdReason: null,
  }));
  // The tasks' insert is awaited (its refusal, a busy trailer, is the caller's 409); their history and log
  // rows leave right behind it, in this order, before its answer (PostgreSQL runs them after it, and the
  // step's end then has their answers at once). A refused insert fails the two with it.
  await Promise.all([
    insertRows(
      tasks,
      subjects.map(({ assignedTo: _a, creditedTo: _c, onHold: _o, holdReason: _h, ...task }) => ({
        ...task,
        status: 'bolsa_trabajo' as const,
        createdAt: at,
        updatedAt: at,
        statusSince: at,
      })),
    ),
    recordEvents(
      fx,
      news.flatMap(({ actor }, i) =>
        t.events(subjects[i]!, { at, actor }).map((e) => ({ ...e, taskId: subjects[i]!.id, actor })),
      ),
    ),
    logActivities(
      news.flatMap(({ actor }, i) =>
        t.logs(subjects[i]!, { at, actor }).map((l) => ({ type: 'task' as const, actor, ...l })),
      ),
    ),
  ]);
  for (const [i, subject] of subjects.entries()) {
    fx.created(subject.id);
    fx.yard(undefined, subject);
    if (roundFollows(t, subject, { at, actor: news[i]!.actor })) fx.engine = true;
  }
  return damaged;
}

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
  if (patch.trailerId !== undefined) patch = { ...patch, trailerKey: plateKey(patch.trailerId) };
  await claimIfOpened(row, patch, fx);
  // CONTRACT §19: a completed move leaves its trailer in the load state it names.
  const loadState = patch.loadStateAfter !== undefined ? patch.loadStateAfter : row.loadStateAfter;
  if (patch.status === 'finalizada' && row.status !== 'finalizada' && loadState)
    if (await setLoadState(row.trailerKey, loadState)) fx.trailerChanged(row.trailerKey);
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

/**
 * A task that becomes open (reopened) or, open, names another trailer: its trailer must have no other
 * open task (CONTRACT §19, by plate key, under the record's lock: services/trailers.ts).
 */
async function claimIfOpened(row: TaskRow, patch: Partial<TaskRow>, fx: ChangeSet): Promise<void> {
  const after = { ...row, ...patch };
  if (!OPEN_STATUSES.includes(after.status) || after.deletedAt) return;
  const wasOpen = OPEN_STATUSES.includes(row.status) && !row.deletedAt;
  if (wasOpen && after.trailerKey === row.trailerKey) return;
  const { created } = await claimTrailers([{ trailerId: after.trailerId, taskId: row.id }]);
  for (const key of created) fx.trailerChanged(key);
}

/** A change the yard sees: a move in status, place or trailer, a hold (the map marks held tasks). */
const touchesYard = (row: TaskRow, patch: Partial<TaskRow>): boolean =>
  (
    [
      'status',
      'trailerKey',
      'originLocationId',
      'destinationLocationId',
      'droppedAtLocationId',
      'onHold',
      'completedAt',
    ] as const
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
interface EventFacts {
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

/** History rows in one statement; each is also what other systems hear of (CONTRACT §21). */
async function recordEvents(
  fx: ChangeSet,
  events: readonly (EventFacts & { taskId: string; type: TaskEventType })[],
): Promise<void> {
  for (const e of events) fx.happen({ on: 'task', taskId: e.taskId, type: e.type });
  await appendRows(
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

/**
 * The tasks still untried found no driver left: their first attempt. Nothing reads how many: on
 * PostgreSQL it leaves with the transaction's next statement (sendAhead).
 */
export async function markUntried(): Promise<void> {
  await sendAhead(UNTRIED_SQL);
}
