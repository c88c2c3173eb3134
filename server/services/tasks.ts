// Tasks: the rules of the yard and their transactions (CONTRACT §5). Every change writes the row with
// version+1, a task_events row and an activity-log row in ONE tx() (services/task-writes.ts); only after
// the commit come the pushes (realtime/emit.ts) and the coalesced figures. When a task entered the pool
// or a driver was freed, the assignment engine's round runs inside that same transaction: one commit
// per change.
// Creations arriving together share one transaction (createTask). The partial unique indexes
// tasks_open_trailer and tasks_active_driver are the checks for "one open task per trailer" and "one
// active task per driver": a write they refuse becomes the 409 of the operation that attempted it.
import crypto from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { isAutoAssigned, type ReturnReason, type TaskStatus } from '@shared/enums';
import type { CreateTaskData, EligibleDriver, Task, UpdateTaskData } from '@shared/schemas';
import { BOARD_FINISHED_WINDOW_MS } from '@shared/constants';
import {
  ASSIGNEE_NEEDS_EN_PROCESO,
  ERR,
  TASK_FIELD_LABELS,
  TASK_LOG,
  TASK_NOTIFICATION,
} from '@shared/labels';
import { db } from '../db';
import { tasks, users, type TaskRow, type UserRow } from '../db/schema';
import { nowMs } from '../clock';
import { badRequest, conflict, notFound } from '../http/errors';
import { loadTask, loadTaskById, presentJoined, selectTasks } from '../presenters/tasks';
import { logActivity, type Actor } from './activity';
import { notify } from './notifications';
import { driverStates } from './availability';
import { findUserById } from './users';
import { assignmentRound, runAssignmentAfterCooldown } from './assignment';
import {
  assignDriver,
  asConflict,
  commit,
  Effects,
  liveTask,
  markIdle,
  nameOf,
  placeholders,
  recordEvent,
  savepoint,
  writeTask,
} from './task-writes';
import { actionTime, currentKey, placeKey, withoutKey, type IdempotencyContext } from './idempotency';

const prepareTaskInsert = () =>
  db
    .insert(tasks)
    .values(
      placeholders(
        'id', 'title', 'description', 'origin', 'destination', 'trailerId', 'priority', 'vehicleType',
        'status', 'createdBy', 'createdAt', 'updatedAt', 'statusSince',
      ), // prettier-ignore
    )
    .prepare();
let taskInsert: { db: typeof db; stmt: ReturnType<typeof prepareTaskInsert> } | undefined;

// ---- the write path (services/task-writes.ts) with the engine's round ---------------------------

/** One change in one transaction; when it put a task in the pool or freed a driver, the engine's round. */
const change = <T>(work: (fx: Effects) => T): T => commit(work, assignmentRound);

/**
 * The one completion: finalizada, completed_at, +1 movement for the assignee and their congratulations —
 * or, when staff finished the driver's task for them (`byStaff`), a `task_closed_by_staff` notice instead:
 * nobody is congratulated for a move they did not report. A completed task is held no more and forgets
 * its returns.
 */
function completeTask(
  row: TaskRow,
  actor: Actor,
  fx: Effects,
  byStaff: boolean,
  completedAt: Date = fx.at,
): TaskRow {
  const driverId = row.status === 'en_proceso' ? row.assignedTo : null;
  const next = writeTask(
    row,
    {
      status: 'finalizada',
      completedAt,
      creditedTo: driverId,
      returnReason: null,
      lastReturnReason: null,
      onHold: false,
      holdReason: null,
    },
    fx,
  );
  recordEvent(fx, row.id, 'completed', {
    actor,
    driverId,
    from: row.status,
    to: 'finalizada',
    at: completedAt,
  });
  let driverName: string | null = null;
  if (driverId) {
    const driver = db
      .update(users)
      .set({ movementsCount: sql`${users.movementsCount} + 1`, idleSince: fx.at })
      .where(eq(users.id, driverId))
      .returning({ name: users.name, movements: users.movementsCount })
      .get()!;
    driverName = driver.name;
    if (byStaff) {
      const n = TASK_NOTIFICATION.closedByStaff;
      notify(driverId, 'task_closed_by_staff', n.title, n.message(row), { taskId: row.id });
    } else {
      const n = TASK_NOTIFICATION.congratulations;
      notify(driverId, 'congratulations', n.title, n.message(row, driver.movements), { taskId: row.id });
    }
    fx.engine = true;
  }
  logActivity('task', actor, TASK_LOG.completed.action, TASK_LOG.completed.details(row, driverName));
  return next;
}

/** Out of finalizada back to the pool: completed_at cleared, the credit taken back (never below 0). */
function reopenTask(row: TaskRow, actor: Actor, fx: Effects): TaskRow {
  const next = writeTask(
    row,
    {
      status: 'bolsa_trabajo',
      assignedTo: null,
      assignedAt: null,
      completedAt: null,
      creditedTo: null,
      returnReason: null,
    },
    fx,
  );
  if (row.creditedTo)
    db.update(users)
      .set({ movementsCount: sql`max(${users.movementsCount} - 1, 0)` })
      .where(eq(users.id, row.creditedTo))
      .run();
  recordEvent(fx, row.id, 'reopened', {
    actor,
    driverId: row.creditedTo,
    from: row.status,
    to: 'bolsa_trabajo',
  });
  logActivity('task', actor, TASK_LOG.reopened.action, TASK_LOG.reopened.details(row, 'bolsa_trabajo'));
  fx.engine = true;
  return next;
}

/** A driver's return with this reason puts the task on hold until staff review it (CONTRACT §15). */
const HOLDING_RETURN: ReturnReason = 'Remolque dañado';

/**
 * An en_proceso task back to the pool. A driver's own return keeps its reason (return_reason, and
 * last_return_reason until completion) and who returned it (the 30-minute rule); with `Remolque dañado`
 * it holds the task. A staff move or a release keeps neither (last_return_reason stays as it was). The
 * driver is idle from now.
 */
function backToPool(
  row: TaskRow,
  actor: Actor | null,
  fx: Effects,
  driverReturn?: { reason: string | null; at?: Date },
): TaskRow {
  const driverId = row.assignedTo!;
  const holds = driverReturn?.reason === HOLDING_RETURN;
  const next = writeTask(
    row,
    {
      status: 'bolsa_trabajo',
      assignedTo: null,
      assignedAt: null,
      returnReason: driverReturn?.reason ?? null,
      ...(driverReturn
        ? {
            returnedBy: driverId,
            returnedAt: driverReturn.at ?? fx.at,
            lastReturnReason: driverReturn.reason,
          }
        : {}),
      ...(holds ? { onHold: true, holdReason: driverReturn!.reason } : {}),
    },
    fx,
  );
  markIdle(driverId, fx);
  recordEvent(fx, row.id, driverReturn ? 'returned' : 'status_changed', {
    actor,
    driverId,
    from: row.status,
    to: 'bolsa_trabajo',
    reason: driverReturn?.reason,
    at: driverReturn?.at,
  });
  if (holds) {
    recordEvent(fx, row.id, 'held', {
      actor,
      from: 'bolsa_trabajo',
      to: 'bolsa_trabajo',
      reason: next.holdReason,
    });
    logActivity('task', actor, TASK_LOG.held.action, TASK_LOG.held.details(row, next.holdReason));
  }
  fx.engine = true;
  return next;
}

/**
 * Holds a pool task (CONTRACT §15), or changes the reason of a held one. A task elsewhere → 409. Holding
 * restarts its clock (status_since): the board and the Attention list count how long it has been held.
 */
function holdTask(row: TaskRow, actor: Actor, fx: Effects, reason: string | null | undefined): TaskRow {
  if (row.status !== 'bolsa_trabajo') throw conflict(ERR.holdOnlyPool);
  if (row.onHold && (reason === undefined || reason === row.holdReason)) return row;
  const holdReason = reason === undefined ? null : reason;
  const next = writeTask(
    row,
    { onHold: true, holdReason, ...(row.onHold ? {} : { statusSince: fx.at }) },
    fx,
  );
  recordEvent(fx, row.id, 'held', { actor, from: row.status, to: row.status, reason: holdReason });
  logActivity('task', actor, TASK_LOG.held.action, TASK_LOG.held.details(row, holdReason));
  return next;
}

/** Releases a held task: it enters matching like a new pool task (its wait starts now). */
function releaseTask(row: TaskRow, actor: Actor, fx: Effects): TaskRow {
  const next = writeTask(row, { onHold: false, holdReason: null, statusSince: fx.at }, fx);
  recordEvent(fx, row.id, 'released', { actor, from: row.status, to: row.status, reason: row.holdReason });
  logActivity('task', actor, TASK_LOG.unheld.action, TASK_LOG.unheld.details(row));
  fx.engine = true;
  return next;
}

/** Tells a driver that staff took their task away (reassigned, moved to the pool, deleted). */
function notifyWithdrawn(driverId: string, row: TaskRow): void {
  const n = TASK_NOTIFICATION.withdrawn;
  notify(driverId, 'info', n.title, n.message(row), { taskId: row.id });
}

// ---- staff ----------------------------------------------------------------------------------

interface Creation {
  input: CreateTaskData;
  actor: UserRow;
  /** The request's Idempotency-Key: written under the creation's own savepoint (CONTRACT §16). */
  key: IdempotencyContext | undefined;
  resolve: (task: Task) => void;
  reject: (err: unknown) => void;
}
let creations: Creation[] = [];

/**
 * POST /tasks. Creations that arrive in the same turn of the event loop are written in one transaction,
 * each under its own savepoint (a refused trailer refuses only its own request), with one engine round
 * for all of them: under a burst the commit and the round are paid once per batch, not once per task.
 */
export function createTask(input: CreateTaskData, actor: UserRow): Promise<Task> {
  return new Promise((resolve, reject) => {
    const key = currentKey();
    if (creations.push({ input, actor, key, resolve, reject }) === 1) setImmediate(writeCreations);
  });
}

function writeCreations(): void {
  const batch = creations;
  creations = [];
  const outcomes = new Map<Creation, { id: string } | { err: unknown }>();
  let done: Effects;
  try {
    // The batch runs in the first request's async context: no key is placed for the whole batch, each
    // creation places its own under its savepoint (refused with it, kept with it).
    done = withoutKey(() =>
      change((fx) => {
        for (const creation of batch) {
          try {
            outcomes.set(creation, { id: savepoint(fx, (step) => insertTask(creation, step)) });
          } catch (err) {
            outcomes.set(creation, { err });
          }
        }
        return fx;
      }),
    );
  } catch (err) {
    for (const creation of batch) creation.reject(err);
    return;
  }
  for (const creation of batch) {
    const outcome = outcomes.get(creation)!;
    // The engine may already have given it to a driver: answer with the task as it was pushed.
    if ('id' in outcome) creation.resolve(done.presented.get(outcome.id)!);
    else creation.reject(outcome.err);
  }
}

function insertTask({ input, actor, key }: Creation, fx: Effects): string {
  placeKey(key);
  const id = crypto.randomUUID();
  const at = fx.at;
  if (taskInsert?.db !== db) taskInsert = { db, stmt: prepareTaskInsert() };
  try {
    taskInsert.stmt.run({
      id,
      title: input.title,
      description: input.description,
      origin: input.origin,
      destination: input.destination,
      trailerId: input.trailer_id,
      priority: input.priority,
      vehicleType: input.vehicle_type,
      status: 'bolsa_trabajo',
      createdBy: actor.id,
      createdAt: at,
      updatedAt: at,
      statusSince: at,
    });
  } catch (err) {
    throw asConflict(err, input.trailer_id, ERR.driverBusy);
  }
  const row = { ...input, trailerId: input.trailer_id };
  recordEvent(fx, id, 'created', { actor, to: 'bolsa_trabajo' });
  logActivity('task', actor, TASK_LOG.created.action, TASK_LOG.created.details(row));
  fx.created(id);
  fx.engine = isAutoAssigned(input.vehicle_type);
  return id;
}

const FIELD_COLUMNS = {
  title: 'title',
  description: 'description',
  origin: 'origin',
  destination: 'destination',
  trailer_id: 'trailerId',
  priority: 'priority',
  vehicle_type: 'vehicleType',
} as const satisfies Record<keyof typeof TASK_FIELD_LABELS, keyof TaskRow>;

/** PUT /tasks/{id}: a conductor only under SPEC §4; staff edit fields and move the status freely. */
export function updateTask(id: string, input: UpdateTaskData, user: UserRow): Task {
  if (user.role === 'conductor') driverMove(id, input, user);
  else staffUpdate(id, input, user);
  return loadTaskById(id)!;
}

function staffUpdate(id: string, input: UpdateTaskData, actor: UserRow): void {
  change((fx) => {
    let row = liveTask(id);
    checkVersion(row, input);
    // {assigned_to} alone assigns a pool task and reassigns an in-process one.
    const target: TaskStatus =
      input.status ?? (input.assigned_to && row.status === 'bolsa_trabajo' ? 'en_proceso' : row.status);
    if (input.assigned_to && target !== 'en_proceso') {
      // Alone, it lost a race: the task was finished meanwhile (CONTRACT §5, a 409). With another
      // status the request can never succeed (a 400).
      if (input.status === undefined) throw conflict(ERR.taskFinished);
      throw badRequest(ASSIGNEE_NEEDS_EN_PROCESO);
    }

    const patch: Partial<TaskRow> = {};
    const fields: string[] = [];
    for (const [key, column] of Object.entries(FIELD_COLUMNS) as [
      keyof typeof FIELD_COLUMNS,
      keyof TaskRow,
    ][]) {
      const value = input[key];
      if (value === undefined || value === row[column]) continue;
      Object.assign(patch, { [column]: value });
      fields.push(TASK_FIELD_LABELS[key]);
    }
    if (fields.length) {
      row = writeTask(row, patch, fx);
      recordEvent(fx, id, 'updated', { actor, from: row.status, to: row.status });
      logActivity('task', actor, TASK_LOG.updated.action, TASK_LOG.updated.details(row, fields));
      // A pool task that became an automatic type is now the engine's.
      if (row.status === 'bolsa_trabajo' && patch.vehicleType) fx.engine = true;
    }

    if (target === 'en_proceso') {
      // Only an in-process task keeps its driver when none is named.
      const wanted =
        input.assigned_to === undefined && row.status === 'en_proceso' ? row.assignedTo : input.assigned_to;
      if (!wanted) throw badRequest(ERR.selectDriver);
      if (row.status !== 'en_proceso' || wanted !== row.assignedTo) {
        const driver = driverFor(wanted, row);
        if (row.status === 'finalizada') row = reopenTask(row, actor, fx);
        const previous = row.status === 'en_proceso' ? row.assignedTo : null;
        row = assignDriver(row, driver, actor, fx, 'manual');
        if (previous) {
          markIdle(previous, fx);
          notifyWithdrawn(previous, row);
          fx.engine = true;
        }
      }
    } else if (target !== row.status) {
      const from = row.status;
      if (target === 'finalizada') row = completeTask(row, actor, fx, true);
      else if (from === 'finalizada') row = reopenTask(row, actor, fx);
      else {
        const driverId = row.assignedTo!;
        row = backToPool(row, actor, fx);
        notifyWithdrawn(driverId, row);
        logActivity(
          'task',
          actor,
          TASK_LOG.statusChanged.action,
          TASK_LOG.statusChanged.details(row, from, target),
        );
      }
    }

    // Hold or release (CONTRACT §15), judged on where the task ended up: {hold_reason} alone holds too.
    const hold = input.on_hold ?? (input.hold_reason !== undefined ? true : undefined);
    if (hold === true) holdTask(row, actor, fx, input.hold_reason);
    else if (hold === false && row.onHold) releaseTask(row, actor, fx);
  });
}

/** An editor that names the version it started from must still be looking at the current one. */
function checkVersion(row: TaskRow, input: UpdateTaskData): void {
  if (input.version !== undefined && input.version !== row.version) throw conflict(ERR.versionConflict);
}

/** The driver staff named for en_proceso: an approved conductor having the task's type. */
function driverFor(driverId: string, row: TaskRow): UserRow {
  const driver = findUserById(driverId);
  if (!driver || driver.deletedAt || !driver.isApproved || driver.role !== 'conductor')
    throw badRequest(ERR.selectDriver);
  if (!driver.taskTypes.includes(row.vehicleType)) throw conflict(ERR.driverLacksType);
  return driver;
}

export function deleteTask(id: string, actor: UserRow): void {
  change((fx) => {
    const row = liveTask(id);
    fx.deleted(row);
    const at = fx.at;
    db.update(tasks)
      .set({ deletedAt: at, updatedAt: at, version: row.version + 1 })
      .where(eq(tasks.id, id))
      .run();
    recordEvent(fx, id, 'deleted', { actor, driverId: row.assignedTo, from: row.status });
    logActivity('task', actor, TASK_LOG.deleted.action, TASK_LOG.deleted.details(row));
    if (row.status === 'en_proceso' && row.assignedTo) {
      markIdle(row.assignedTo, fx);
      notifyWithdrawn(row.assignedTo, row);
      fx.engine = true;
    }
  });
}

/**
 * A driver deleted or no longer a conductor: their active task goes back to the pool (CONTRACT §4),
 * inside the caller's transaction, after the account change is written (so the engine's round that
 * follows never picks them).
 */
export function releaseDriverTask(driverId: string, actor: Actor): void {
  change((fx) => {
    const row = activeTaskRow(driverId);
    if (!row) return;
    backToPool(row, actor, fx);
    logActivity('task', actor, TASK_LOG.released.action, TASK_LOG.released.details(row, nameOf(driverId)));
  });
}

/** Drivers having the task's type, for the board's picker: available first, then by name. */
export function eligibleDrivers(taskId: string): EligibleDriver[] {
  const task = db
    .select({ vehicleType: tasks.vehicleType })
    .from(tasks)
    .where(and(eq(tasks.id, taskId), isNull(tasks.deletedAt)))
    .get();
  if (!task) throw notFound(ERR.taskNotFound);
  return driverStates()
    .filter((d) => d.taskTypes.includes(task.vehicleType))
    .sort((a, b) => Number(b.available) - Number(a.available) || a.name.localeCompare(b.name, 'es'))
    .map((d) => ({
      id: d.id,
      name: d.name,
      is_online: d.isOnline,
      clocked_in: d.clockedIn,
      busy: d.busy,
      available: d.available,
      movements_count: d.movementsCount,
    }));
}

/** Every movements_count to 0; the task history (and so analytics) is untouched. */
export function resetRankings(actor: UserRow): void {
  change((fx) => {
    const res = db.update(users).set({ movementsCount: 0 }).where(ne(users.movementsCount, 0)).run();
    logActivity('system', actor, TASK_LOG.rankingsReset.action, TASK_LOG.rankingsReset.details(res.changes));
    fx.figuresChanged();
  });
}

// ---- drivers --------------------------------------------------------------------------------

/** Claims a pool task atomically: of many drivers racing, the first transaction wins. */
export function selfAssign(id: string, driver: UserRow): void {
  change((fx) => {
    const row = liveTask(id);
    if (row.status === 'finalizada') throw conflict(ERR.taskFinished);
    if (row.status !== 'bolsa_trabajo') throw conflict(ERR.alreadyAssigned);
    if (row.onHold) throw conflict(ERR.taskOnHold);
    if (!driver.taskTypes.includes(row.vehicleType)) throw conflict(ERR.typeNotEnabled);
    assignDriver(row, driver, driver, fx, 'self');
  });
}

/**
 * The assignee completes; repeating it on a task they completed changes nothing (safe retry). From the
 * offline queue, `clientTime` is the completion time when plausible (completed_at, history event).
 */
export function completeByDriver(id: string, driver: UserRow, clientTime?: string): void {
  change((fx) => {
    const row = liveTask(id);
    if (row.status === 'finalizada' && row.assignedTo === driver.id) return;
    if (row.status !== 'en_proceso' || row.assignedTo !== driver.id) throw conflict(ERR.notYourTask);
    completeTask(row, driver, fx, false, actionTime(clientTime, fx.at, row.assignedAt));
  });
}

/** The assignee returns the task; from the offline queue `clientTime` is the return's time when plausible. */
export function returnByDriver(
  id: string,
  driver: UserRow,
  reason: string | null,
  clientTime?: string,
): void {
  change((fx) => {
    const row = liveTask(id);
    if (row.status !== 'en_proceso' || row.assignedTo !== driver.id) throw conflict(ERR.notYourTask);
    backToPool(row, driver, fx, { reason, at: actionTime(clientTime, fx.at, row.assignedAt) });
    logActivity(
      'task',
      driver,
      TASK_LOG.returned.action,
      TASK_LOG.returned.details(row, driver.name, reason),
    );
    if (row.createdBy && row.createdBy !== driver.id) {
      const n = TASK_NOTIFICATION.returned;
      notify(row.createdBy, 'task_returned', n.title, n.message(row, driver.name, reason), { taskId: id });
    }
  });
  // When the 30 minutes pass the task may go back to this driver, even if nothing else happens.
  runAssignmentAfterCooldown();
}

/** A conductor's PUT: claim a pool task of their types, or return/complete their own task. */
function driverMove(id: string, input: UpdateTaskData, driver: UserRow): void {
  const { status, assigned_to, version: _version, ...fields } = input;
  const row = liveTask(id);
  checkVersion(row, input);
  const others = Object.keys(fields).length > 0 || (assigned_to != null && assigned_to !== driver.id);
  const target =
    status ?? (assigned_to === driver.id && row.status === 'bolsa_trabajo' ? 'en_proceso' : row.status);
  if (!others) {
    if (row.status === 'bolsa_trabajo' && target === 'en_proceso') return selfAssign(id, driver);
    if (row.status === 'en_proceso' && row.assignedTo === driver.id) {
      if (target === 'bolsa_trabajo') return returnByDriver(id, driver, null);
      if (target === 'finalizada') return completeByDriver(id, driver);
      return;
    }
  }
  throw conflict(ERR.driverMoveRule);
}

// ---- reading --------------------------------------------------------------------------------

const OPEN: TaskStatus[] = ['bolsa_trabajo', 'en_proceso'];
const newestFirst = (a: Task, b: Task) =>
  b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/**
 * The board (CONTRACT §5): every pool and in-process task plus those finished in the last 24 h, newest
 * first; gestor without finalizada; a conductor the pool of their types plus their own. Two queries, each
 * on its own index (status; completed_at), so 100k finished tasks in history cost nothing.
 */
export function listTasks(user: UserRow): Task[] {
  const driver = user.role === 'conductor';
  const open: SQL[] = [inArray(tasks.status, OPEN), isNull(tasks.deletedAt)];
  if (driver)
    open.push(
      or(
        and(eq(tasks.status, 'bolsa_trabajo'), inArray(tasks.vehicleType, user.taskTypes)),
        eq(tasks.assignedTo, user.id),
      )!,
    );
  const list = selectTasks()
    .where(and(...open))
    .all()
    .map(presentJoined);
  if (user.role !== 'gestor') {
    // completed_at is set only while a task is finalizada; a status term here would lead SQLite to
    // walk the whole finalizada history through tasks_status instead of the completed_at range.
    const done: SQL[] = [
      gt(tasks.completedAt, new Date(nowMs() - BOARD_FINISHED_WINDOW_MS)),
      isNull(tasks.deletedAt),
    ];
    if (driver) done.push(eq(tasks.assignedTo, user.id));
    list.push(
      ...selectTasks()
        .where(and(...done))
        .all()
        .map(presentJoined),
    );
  }
  return list.sort(newestFirst);
}

function activeTaskRow(driverId: string): TaskRow | undefined {
  return db
    .select()
    .from(tasks)
    .where(and(eq(tasks.assignedTo, driverId), eq(tasks.status, 'en_proceso'), isNull(tasks.deletedAt)))
    .get();
}

export function myActiveTask(driverId: string): Task {
  const task = loadTask(
    and(eq(tasks.assignedTo, driverId), eq(tasks.status, 'en_proceso'), isNull(tasks.deletedAt))!,
  );
  if (!task) throw notFound(ERR.noActiveTask);
  return task;
}

/** Pool swap tasks a driver may claim (none on hold), newest first; empty without the swap type. */
export function swapAvailable(driver: UserRow): Task[] {
  if (!driver.taskTypes.includes('swap')) return [];
  return selectTasks()
    .where(
      and(
        eq(tasks.status, 'bolsa_trabajo'),
        eq(tasks.vehicleType, 'swap'),
        eq(tasks.onHold, false),
        isNull(tasks.deletedAt),
      ),
    )
    .orderBy(desc(tasks.createdAt))
    .all()
    .map(presentJoined);
}
