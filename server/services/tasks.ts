// Tasks: the rules of the yard and their transactions (CONTRACT §5). Every change writes the row with
// version+1, a task_events row and an activity-log row in ONE tx() (tasks/apply.ts, changes/commit.ts);
// only after the commit come the pushes (changes/processors/) and the coalesced figures. When a task entered the pool
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
import { db, insertRows, isRetryable } from '../db';
import { forUpdate } from '../db/dialect';
import { tasks, users, type TaskRow, type UserRow } from '../db/tables';
import { nowMs } from '../clock';
import { badRequest, conflict, notFound } from '../http/errors';
import { loadTask, loadTaskById, presentJoined, selectTasks } from '../presenters/tasks';
import { logActivities, logActivity, type Actor } from './activity';
import { notify } from './notifications';
import { driverStates } from './availability';
import { findUserById } from './users';
import { assignmentRound } from './assignment';
import { ensureRoom, placeTasks } from './yard';
import type { ChangeSet } from '../changes/change-set';
import { commit, savepoint } from '../changes/commit';
import { asConflict, markIdle, recordEvent, recordEvents, writeDeletion, writeTask } from '../tasks/apply';
import { liveTask, nameOf } from '../tasks/queries';
import { assignDriver } from '../tasks/commands/assign';
import { actionTime, currentKey, placeKey, withoutKey, type IdempotencyContext } from './idempotency';

// ---- the write path (changes/commit.ts, tasks/apply.ts) with the engine's round ---------------------------

/** One change in one transaction; when it put a task in the pool or freed a driver, the engine's round. */
const change = <T>(work: (fx: ChangeSet) => Promise<T>): Promise<T> => commit(work, assignmentRound);

/**
 * The one completion: finalizada, completed_at, +1 movement for the assignee and their congratulations —
 * or, when staff finished the driver's task for them (`byStaff`), a `task_closed_by_staff` notice instead:
 * nobody is congratulated for a move they did not report. A completed task is held no more and forgets
 * its returns.
 */
async function completeTask(
  row: TaskRow,
  actor: Actor,
  fx: ChangeSet,
  byStaff: boolean,
  completedAt: Date = fx.at,
): Promise<TaskRow> {
  const driverId = row.status === 'en_proceso' ? row.assignedTo : null;
  const next = await writeTask(
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
  await recordEvent(fx, row.id, 'completed', {
    actor,
    driverId,
    from: row.status,
    to: 'finalizada',
    at: completedAt,
  });
  let driverName: string | null = null;
  if (driverId) {
    const [driver] = await db
      .update(users)
      .set({ movementsCount: sql`${users.movementsCount} + 1`, idleSince: fx.at })
      .where(eq(users.id, driverId))
      .returning({ name: users.name, movements: users.movementsCount });
    driverName = driver.name;
    if (byStaff) {
      const n = TASK_NOTIFICATION.closedByStaff;
      await notify(driverId, 'task_closed_by_staff', n.title, n.message(row), { taskId: row.id });
    } else {
      const n = TASK_NOTIFICATION.congratulations;
      await notify(driverId, 'congratulations', n.title, n.message(row, driver.movements), {
        taskId: row.id,
      });
    }
    fx.engine = true;
  }
  await logActivity('task', actor, TASK_LOG.completed.action, TASK_LOG.completed.details(row, driverName));
  return next;
}

/** Out of finalizada back to the pool: completed_at cleared, the credit taken back (never below 0). */
async function reopenTask(row: TaskRow, actor: Actor, fx: ChangeSet): Promise<TaskRow> {
  const next = await writeTask(
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
    await db
      .update(users)
      .set({
        movementsCount: sql`CASE WHEN ${users.movementsCount} > 0 THEN ${users.movementsCount} - 1 ELSE 0 END`,
      })
      .where(eq(users.id, row.creditedTo));
  await recordEvent(fx, row.id, 'reopened', {
    actor,
    driverId: row.creditedTo,
    from: row.status,
    to: 'bolsa_trabajo',
  });
  await logActivity('task', actor, TASK_LOG.reopened.action, TASK_LOG.reopened.details(row, 'bolsa_trabajo'));
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
async function backToPool(
  row: TaskRow,
  actor: Actor | null,
  fx: ChangeSet,
  driverReturn?: { reason: string | null; at?: Date },
): Promise<TaskRow> {
  const driverId = row.assignedTo!;
  const holds = driverReturn?.reason === HOLDING_RETURN;
  const next = await writeTask(
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
  await markIdle(driverId, fx);
  await recordEvent(fx, row.id, driverReturn ? 'returned' : 'status_changed', {
    actor,
    driverId,
    from: row.status,
    to: 'bolsa_trabajo',
    reason: driverReturn?.reason,
    at: driverReturn?.at,
  });
  if (holds) {
    await recordEvent(fx, row.id, 'held', {
      actor,
      from: 'bolsa_trabajo',
      to: 'bolsa_trabajo',
      reason: next.holdReason,
    });
    await logActivity('task', actor, TASK_LOG.held.action, TASK_LOG.held.details(row, next.holdReason));
  }
  fx.engine = true;
  return next;
}

/**
 * Holds a pool task (CONTRACT §15), or changes the reason of a held one. A task elsewhere → 409. Holding
 * restarts its clock (status_since): the board and the Attention list count how long it has been held.
 */
async function holdTask(
  row: TaskRow,
  actor: Actor,
  fx: ChangeSet,
  reason: string | null | undefined,
): Promise<TaskRow> {
  if (row.status !== 'bolsa_trabajo') throw conflict(ERR.holdOnlyPool);
  if (row.onHold && (reason === undefined || reason === row.holdReason)) return row;
  const holdReason = reason === undefined ? null : reason;
  const next = await writeTask(
    row,
    { onHold: true, holdReason, ...(row.onHold ? {} : { statusSince: fx.at }) },
    fx,
  );
  await recordEvent(fx, row.id, 'held', { actor, from: row.status, to: row.status, reason: holdReason });
  await logActivity('task', actor, TASK_LOG.held.action, TASK_LOG.held.details(row, holdReason));
  return next;
}

/** Releases a held task: it enters matching like a new pool task (its wait starts now). */
async function releaseTask(row: TaskRow, actor: Actor, fx: ChangeSet): Promise<TaskRow> {
  const next = await writeTask(row, { onHold: false, holdReason: null, statusSince: fx.at }, fx);
  await recordEvent(fx, row.id, 'released', {
    actor,
    from: row.status,
    to: row.status,
    reason: row.holdReason,
  });
  await logActivity('task', actor, TASK_LOG.unheld.action, TASK_LOG.unheld.details(row));
  fx.engine = true;
  return next;
}

/** Tells a driver that staff took their task away (reassigned, moved to the pool, deleted). */
async function notifyWithdrawn(driverId: string, row: TaskRow): Promise<void> {
  const n = TASK_NOTIFICATION.withdrawn;
  await notify(driverId, 'info', n.title, n.message(row), { taskId: row.id });
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
/** The batches scheduled or being written (creationsWritten()). */
const batches = new Set<Promise<void>>();
/** The batch written last (or being written): the next one starts after it. */
let lastBatch: Promise<void> = Promise.resolve();
let nextBatchScheduled = false;

/**
 * POST /tasks. Creations are written in batches, one batch at a time: one transaction, each creation
 * under its own savepoint (a refused trailer refuses only its own request), with one engine round for
 * all of them. Creations arriving while a batch is being written gather into the next one, so under a
 * burst the commit, the round and their round trips (PostgreSQL) are paid once per batch, not per task.
 */
export function createTask(input: CreateTaskData, actor: UserRow): Promise<Task> {
  return new Promise((resolve, reject) => {
    creations.push({ input, actor, key: currentKey(), resolve, reject });
    if (nextBatchScheduled) return;
    nextBatchScheduled = true;
    const batch = lastBatch
      // The rest of this turn of the event loop joins the batch too.
      .then(() => new Promise<void>((turn) => setImmediate(turn)))
      .then(() => {
        nextBatchScheduled = false;
        return writeCreations();
      });
    lastBatch = batch;
    batches.add(batch);
    void batch.then(() => batches.delete(batch));
  });
}

/** Resolves once every creation received so far is written (or refused): before the database closes. */
export async function creationsWritten(): Promise<void> {
  while (batches.size) await Promise.all(batches);
}

/** Writes the creations gathered so far; never rejects (each request gets its own outcome). */
async function writeCreations(): Promise<void> {
  const batch = creations;
  creations = [];
  const outcomes = new Map<Creation, { id: string } | { err: unknown }>();
  let done: ChangeSet;
  try {
    // The batch runs in the first request's async context: no key is placed for the whole batch, each
    // creation places its own under its savepoint (refused with it, kept with it).
    done = await withoutKey(() =>
      change(async (fx) => {
        // Outcomes of an attempt that is run again (PostgreSQL) are replaced by the next attempt's.
        outcomes.clear();
        if (batch.length > 1) {
          // The whole batch in three statements; a refusal among them (a busy trailer) undoes the
          // attempt, and each creation is then written on its own below to find whose it is.
          try {
            const ids = await savepoint(fx, (step) => insertTasks(batch, step));
            batch.forEach((creation, i) => outcomes.set(creation, { id: ids[i]! }));
            return fx;
          } catch (err) {
            if (isRetryable(err)) throw err;
          }
        }
        for (const creation of batch) {
          try {
            outcomes.set(creation, { id: await savepoint(fx, (step) => insertTask(creation, step)) });
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

async function insertTask(creation: Creation, fx: ChangeSet): Promise<string> {
  await placeKey(creation.key);
  const [id] = await insertTasks([creation], fx).catch((err: unknown) => {
    throw asConflict(err, creation.input.trailer_id, ERR.driverBusy);
  });
  return id!;
}

/**
 * The rows of new pool tasks, their `created` history and activity-log rows: three statements whatever
 * their number. Keys are placed by the caller (one creation) or here (a batch: each with its own key).
 */
async function insertTasks(batch: readonly Creation[], fx: ChangeSet): Promise<string[]> {
  if (batch.length > 1) for (const { key } of batch) await placeKey(key);
  const at = fx.at;
  const ids = batch.map(() => crypto.randomUUID());
  const places = await placeTasks(batch.map((c) => c.input));
  const wanted = new Map<string, number>();
  // A gate holds no trailer: never full, nothing to check.
  for (const { destination } of places)
    if (destination && destination.kind !== 'puerta')
      wanted.set(destination.id, (wanted.get(destination.id) ?? 0) + 1);
  await ensureRoom(wanted);
  await insertRows(
    tasks,
    batch.map(({ input, actor }, i) => ({
      id: ids[i]!,
      title: input.title,
      description: input.description,
      origin: input.origin,
      destination: input.destination,
      originLocationId: places[i]!.originLocationId,
      destinationLocationId: places[i]!.destinationLocationId,
      trailerId: input.trailer_id,
      priority: input.priority,
      vehicleType: input.vehicle_type,
      status: 'bolsa_trabajo' as const,
      createdBy: actor.id,
      createdAt: at,
      updatedAt: at,
      statusSince: at,
    })),
  );
  await recordEvents(
    fx,
    batch.map(({ actor }, i) => ({
      taskId: ids[i]!,
      type: 'created' as const,
      actor,
      to: 'bolsa_trabajo' as const,
    })),
  );
  await logActivities(
    batch.map(({ input, actor }) => ({
      type: 'task' as const,
      actor,
      action: TASK_LOG.created.action,
      details: TASK_LOG.created.details({ ...input, trailerId: input.trailer_id }),
    })),
  );
  for (const [i, { input }] of batch.entries()) {
    fx.created(ids[i]!);
    fx.yard(undefined, { trailerId: input.trailer_id, status: 'bolsa_trabajo', ...places[i]! });
    if (isAutoAssigned(input.vehicle_type)) fx.engine = true;
  }
  return ids;
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

/**
 * PUT /tasks/{id}: a conductor only under SPEC §4; staff edit fields and move the status freely. The
 * answer is the task as the change pushed it (as it stood at its commit).
 */
export async function updateTask(id: string, input: UpdateTaskData, user: UserRow): Promise<Task> {
  const fx =
    user.role === 'conductor' ? await driverMove(id, input, user) : await staffUpdate(id, input, user);
  return fx.presented.get(id) ?? (await loadTaskById(id))!;
}

function staffUpdate(id: string, input: UpdateTaskData, actor: UserRow): Promise<ChangeSet> {
  return change(async (fx) => {
    let row = await liveTask(id);
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
    const placed = await placePatch(row, input);
    Object.assign(patch, placed);
    for (const side of ['origin', 'destination'] as const)
      if ((side in placed || `${side}LocationId` in placed) && !fields.includes(TASK_FIELD_LABELS[side]))
        fields.push(TASK_FIELD_LABELS[side]);
    if (fields.length) {
      row = await writeTask(row, patch, fx);
      await recordEvent(fx, id, 'updated', { actor, from: row.status, to: row.status });
      await logActivity('task', actor, TASK_LOG.updated.action, TASK_LOG.updated.details(row, fields));
      // A pool task that became an automatic type is now the engine's.
      if (row.status === 'bolsa_trabajo' && patch.vehicleType) fx.engine = true;
    }

    if (target === 'en_proceso') {
      // Only an in-process task keeps its driver when none is named.
      const wanted =
        input.assigned_to === undefined && row.status === 'en_proceso' ? row.assignedTo : input.assigned_to;
      if (!wanted) throw badRequest(ERR.selectDriver);
      if (row.status !== 'en_proceso' || wanted !== row.assignedTo) {
        const driver = await driverFor(wanted, row);
        if (row.status === 'finalizada') row = await reopenTask(row, actor, fx);
        const previous = row.status === 'en_proceso' ? row.assignedTo : null;
        row = await assignDriver(row, driver, actor, fx, 'manual');
        if (previous) {
          await markIdle(previous, fx);
          await notifyWithdrawn(previous, row);
          fx.engine = true;
        }
      }
    } else if (target !== row.status) {
      const from = row.status;
      if (target === 'finalizada') row = await completeTask(row, actor, fx, true);
      else if (from === 'finalizada') row = await reopenTask(row, actor, fx);
      else {
        const driverId = row.assignedTo!;
        row = await backToPool(row, actor, fx);
        await notifyWithdrawn(driverId, row);
        await logActivity(
          'task',
          actor,
          TASK_LOG.statusChanged.action,
          TASK_LOG.statusChanged.details(row, from, target),
        );
      }
    }

    // Hold or release (CONTRACT §15), judged on where the task ended up: {hold_reason} alone holds too.
    const hold = input.on_hold ?? (input.hold_reason !== undefined ? true : undefined);
    if (hold === true) await holdTask(row, actor, fx, input.hold_reason);
    else if (hold === false && row.onHold) await releaseTask(row, actor, fx);
    return fx;
  });
}

/**
 * The catalogue places of an edited task (CONTRACT §17): a side whose text or picked place changed is
 * placed again (a place picked without a text names the text too); a new destination of an open task
 * must have room for it.
 */
async function placePatch(row: TaskRow, input: UpdateTaskData): Promise<Partial<TaskRow>> {
  const originChanged = input.origin !== undefined || input.origin_location_id !== undefined;
  const destinationChanged = input.destination !== undefined || input.destination_location_id !== undefined;
  if (!originChanged && !destinationChanged) return {};
  // Only the sides that changed are placed again: a side left alone keeps its place, even one
  // deactivated since.
  const [placed] = await placeTasks([
    {
      origin: input.origin ?? row.origin,
      destination: input.destination ?? row.destination,
      origin_location_id: input.origin_location_id,
      destination_location_id: input.destination_location_id,
    },
  ]);
  const patch: Partial<TaskRow> = {};
  // `null` picked: free text, whatever the catalogue says.
  const side = (
    changed: boolean,
    picked: string | null | undefined,
    found: string | null,
    kept: string | null,
  ) => (!changed ? kept : picked === null ? null : found);
  const originId = side(
    originChanged,
    input.origin_location_id,
    placed!.originLocationId,
    row.originLocationId,
  );
  const destinationId = side(
    destinationChanged,
    input.destination_location_id,
    placed!.destinationLocationId,
    row.destinationLocationId,
  );
  if (originId !== row.originLocationId) patch.originLocationId = originId;
  if (destinationId !== row.destinationLocationId) patch.destinationLocationId = destinationId;
  // A place picked without a text names the text too.
  if (input.destination_location_id && input.destination === undefined)
    patch.destination = placed!.destination!.name;
  if (input.origin_location_id && input.origin === undefined) patch.origin = placed!.origin!.name;
  if (patch.destinationLocationId && row.status !== 'finalizada')
    await ensureRoom(new Map([[patch.destinationLocationId, 1]]), row.id);
  return patch;
}

/** An editor that names the version it started from must still be looking at the current one. */
function checkVersion(row: TaskRow, input: UpdateTaskData): void {
  if (input.version !== undefined && input.version !== row.version) throw conflict(ERR.versionConflict);
}

/** The driver staff named for en_proceso: an approved conductor having the task's type. */
async function driverFor(driverId: string, row: TaskRow): Promise<UserRow> {
  const driver = await findUserById(driverId);
  if (!driver || driver.deletedAt || !driver.isApproved || driver.role !== 'conductor')
    throw badRequest(ERR.selectDriver);
  if (!driver.taskTypes.includes(row.vehicleType)) throw conflict(ERR.driverLacksType);
  return driver;
}

export async function deleteTask(id: string, actor: UserRow): Promise<void> {
  await change(async (fx) => {
    const row = await liveTask(id);
    await writeDeletion(row, fx);
    await recordEvent(fx, id, 'deleted', { actor, driverId: row.assignedTo, from: row.status });
    await logActivity('task', actor, TASK_LOG.deleted.action, TASK_LOG.deleted.details(row));
    if (row.status === 'en_proceso' && row.assignedTo) {
      await markIdle(row.assignedTo, fx);
      await notifyWithdrawn(row.assignedTo, row);
      fx.engine = true;
    }
  });
}

/**
 * A driver deleted or no longer a conductor: their active task goes back to the pool (CONTRACT §4),
 * inside the caller's transaction, after the account change is written (so the engine's round that
 * follows never picks them).
 */
export async function releaseDriverTask(driverId: string, actor: Actor): Promise<void> {
  await change(async (fx) => {
    const row = await activeTaskRow(driverId);
    if (!row) return;
    await backToPool(row, actor, fx);
    await logActivity(
      'task',
      actor,
      TASK_LOG.released.action,
      TASK_LOG.released.details(row, await nameOf(driverId)),
    );
  });
}

/** Drivers having the task's type, for the board's picker: available first, then by name. */
export async function eligibleDrivers(taskId: string): Promise<EligibleDriver[]> {
  const [task] = await db
    .select({ vehicleType: tasks.vehicleType })
    .from(tasks)
    .where(and(eq(tasks.id, taskId), isNull(tasks.deletedAt)))
    .limit(1);
  if (!task) throw notFound(ERR.taskNotFound);
  return (await driverStates())
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
export async function resetRankings(actor: UserRow): Promise<void> {
  await change(async (fx) => {
    const reset = await db
      .update(users)
      .set({ movementsCount: 0 })
      .where(ne(users.movementsCount, 0))
      .returning({ id: users.id });
    await logActivity(
      'system',
      actor,
      TASK_LOG.rankingsReset.action,
      TASK_LOG.rankingsReset.details(reset.length),
    );
    fx.figuresChanged();
  });
}

// ---- drivers --------------------------------------------------------------------------------
// Each move reads the task inside its own transaction, locked (liveTask), and decides there: of many
// racing, the first transaction wins and the others see what it did.

/** Claims a pool task atomically: of many drivers racing, the first transaction wins. */
export async function selfAssign(id: string, driver: UserRow): Promise<void> {
  await change(async (fx) => claim(await liveTask(id), driver, fx));
}

async function claim(row: TaskRow, driver: UserRow, fx: ChangeSet): Promise<void> {
  if (row.status === 'finalizada') throw conflict(ERR.taskFinished);
  if (row.status !== 'bolsa_trabajo') throw conflict(ERR.alreadyAssigned);
  if (row.onHold) throw conflict(ERR.taskOnHold);
  if (!driver.taskTypes.includes(row.vehicleType)) throw conflict(ERR.typeNotEnabled);
  await assignDriver(row, driver, driver, fx, 'self');
}

/**
 * The assignee completes; repeating it on a task they completed changes nothing (safe retry). From the
 * offline queue, `clientTime` is the completion time when plausible (completed_at, history event).
 */
export async function completeByDriver(id: string, driver: UserRow, clientTime?: string): Promise<void> {
  await change(async (fx) => finish(await liveTask(id), driver, fx, clientTime));
}

async function finish(row: TaskRow, driver: UserRow, fx: ChangeSet, clientTime?: string): Promise<void> {
  if (row.status === 'finalizada' && row.assignedTo === driver.id) return;
  if (row.status !== 'en_proceso' || row.assignedTo !== driver.id) throw conflict(ERR.notYourTask);
  await completeTask(row, driver, fx, false, actionTime(clientTime, fx.at, row.assignedAt));
}

/** The assignee returns the task; from the offline queue `clientTime` is the return's time when plausible. */
export async function returnByDriver(
  id: string,
  driver: UserRow,
  reason: string | null,
  clientTime?: string,
): Promise<void> {
  // When the 30 minutes pass the task may go back to this driver: the periodic round sees to it
  // (startAssignmentSweep), whichever node runs it.
  await change(async (fx) => giveBack(await liveTask(id), driver, fx, reason, clientTime));
}

async function giveBack(
  row: TaskRow,
  driver: UserRow,
  fx: ChangeSet,
  reason: string | null,
  clientTime?: string,
): Promise<void> {
  if (row.status !== 'en_proceso' || row.assignedTo !== driver.id) throw conflict(ERR.notYourTask);
  await backToPool(row, driver, fx, { reason, at: actionTime(clientTime, fx.at, row.assignedAt) });
  await logActivity(
    'task',
    driver,
    TASK_LOG.returned.action,
    TASK_LOG.returned.details(row, driver.name, reason),
  );
  if (row.createdBy && row.createdBy !== driver.id) {
    const n = TASK_NOTIFICATION.returned;
    await notify(row.createdBy, 'task_returned', n.title, n.message(row, driver.name, reason), {
      taskId: row.id,
    });
  }
}

/**
 * A conductor's PUT: claim a pool task of their types, or return/complete their own task — decided on
 * the task as read inside the move's transaction.
 */
async function driverMove(id: string, input: UpdateTaskData, driver: UserRow): Promise<ChangeSet> {
  const { status, assigned_to, version: _version, ...fields } = input;
  return change(async (fx) => {
    const row = await liveTask(id);
    checkVersion(row, input);
    const others = Object.keys(fields).length > 0 || (assigned_to != null && assigned_to !== driver.id);
    const target =
      status ?? (assigned_to === driver.id && row.status === 'bolsa_trabajo' ? 'en_proceso' : row.status);
    if (!others) {
      if (row.status === 'bolsa_trabajo' && target === 'en_proceso') {
        await claim(row, driver, fx);
        return fx;
      }
      if (row.status === 'en_proceso' && row.assignedTo === driver.id) {
        if (target === 'bolsa_trabajo') await giveBack(row, driver, fx, null);
        else if (target === 'finalizada') await finish(row, driver, fx);
        return fx;
      }
    }
    throw conflict(ERR.driverMoveRule);
  });
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
export async function listTasks(user: UserRow): Promise<Task[]> {
  const driver = user.role === 'conductor';
  const open: SQL[] = [inArray(tasks.status, OPEN), isNull(tasks.deletedAt)];
  if (driver)
    open.push(
      or(
        and(eq(tasks.status, 'bolsa_trabajo'), inArray(tasks.vehicleType, user.taskTypes)),
        eq(tasks.assignedTo, user.id),
      )!,
    );
  const list = (await selectTasks().where(and(...open))).map(presentJoined);
  if (user.role !== 'gestor') {
    // completed_at is set only while a task is finalizada; a status term here would lead SQLite to
    // walk the whole finalizada history through tasks_status instead of the completed_at range.
    const done: SQL[] = [
      gt(tasks.completedAt, new Date(nowMs() - BOARD_FINISHED_WINDOW_MS)),
      isNull(tasks.deletedAt),
    ];
    if (driver) done.push(eq(tasks.assignedTo, user.id));
    list.push(...(await selectTasks().where(and(...done))).map(presentJoined));
  }
  return list.sort(newestFirst);
}

/** The driver's active task, locked by the caller's transaction (PostgreSQL) like liveTask(). */
async function activeTaskRow(driverId: string): Promise<TaskRow | undefined> {
  const [row] = await forUpdate(
    db
      .select()
      .from(tasks)
      .where(and(eq(tasks.assignedTo, driverId), eq(tasks.status, 'en_proceso'), isNull(tasks.deletedAt)))
      .limit(1),
  );
  return row;
}

export async function myActiveTask(driverId: string): Promise<Task> {
  const task = await loadTask(
    and(eq(tasks.assignedTo, driverId), eq(tasks.status, 'en_proceso'), isNull(tasks.deletedAt))!,
  );
  if (!task) throw notFound(ERR.noActiveTask);
  return task;
}

/** Pool swap tasks a driver may claim (none on hold), newest first; empty without the swap type. */
export async function swapAvailable(driver: UserRow): Promise<Task[]> {
  if (!driver.taskTypes.includes('swap')) return [];
  const rows = await selectTasks()
    .where(
      and(
        eq(tasks.status, 'bolsa_trabajo'),
        eq(tasks.vehicleType, 'swap'),
        eq(tasks.onHold, false),
        isNull(tasks.deletedAt),
      ),
    )
    .orderBy(desc(tasks.createdAt));
  return rows.map(presentJoined);
}
