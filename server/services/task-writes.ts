// The write path of tasks (CONTRACT §5): one change is one transaction that writes the row with
// version+1 — only over the version it was decided on —, a task_events row and an activity-log row; its
// pushes (realtime/emit.ts) and figures follow the commit. The tasks service (services/tasks.ts) and the
// assignment engine (services/assignment.ts) build their moves from these, so neither imports the other.
import { and, eq, gt, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { BOARD_FINISHED_WINDOW_MS } from '@shared/constants';
import type { TaskEventType, TaskStatus } from '@shared/enums';
import type { Task } from '@shared/schemas';
import { ERR, TASK_LOG, TASK_NOTIFICATION } from '@shared/labels';
import { placeKey } from '@shared/text';
import { afterCommit, db, inTransaction, insertRows, isRetryable, prepared, tx } from '../db';
import { forUpdate, markShownWriter, uniqueViolation } from '../db/dialect';
import { taskEvents, tasks, users, type TaskRow } from '../db/tables';
import { now } from '../clock';
import { conflict, notFound } from '../http/errors';
import * as emit from '../realtime/emit';
import { loadTasksByIds } from '../presenters/tasks';
import { logActivity, type Actor } from './activity';
import { notify } from './notifications';
import { findUserById } from './users';
import { logger } from '../logger';
import { placesNamed, placesOfTrailers, settleAllTrailers, settleTrailers } from './yard';
import { forgetSharedAnswers } from './shared-answers';

type Place = Pick<Task, 'status' | 'vehicle_type' | 'assigned_to'>;
const placeOf = (r: TaskRow): Place => ({
  status: r.status,
  vehicle_type: r.vehicleType,
  assigned_to: r.assignedTo,
});

/**
 * The task changes of a transaction, pushed once it has committed (one task:* event per task, whatever
 * the number of writes) with the figures when they moved. The changed tasks are read at the end of the
 * transaction (load(), on its connection); the push itself (flush(), an afterCommit effect) is
 * synchronous. Notifications register their own pushes (afterCommit), after these.
 */
export class Effects {
  private changed = new Map<string, { kind: 'created' | 'updated' | 'deleted'; before?: Place }>();
  private figures = false;
  /** The created and updated tasks as load() read them, for flush(). */
  private loaded = new Map<string, Task>();
  /** One instant for the whole transaction: its rows, events and timestamps agree. */
  constructor(readonly at: Date = now()) {}
  /** Set when a task entered the pool or a driver was freed: the engine runs before the commit. */
  engine = false;
  /** CONTRACT §17: places whose occupancy may have moved, trailers whose position may have. */
  private yardPlaces = new Set<string>();
  private yardTrailers = new Set<string>();
  private settle = new Set<string>();
  /** The created and updated tasks as flush() pushed them (answers reuse them). */
  readonly presented = new Map<string, Task>();

  created(id: string): void {
    this.changed.set(id, { kind: 'created' });
    this.figures = true;
  }
  /** Call with the row as it was before the change (the first call of a transaction wins). */
  updated(before: TaskRow): void {
    if (!this.changed.has(before.id))
      this.changed.set(before.id, { kind: 'updated', before: placeOf(before) });
  }
  deleted(before: TaskRow): void {
    this.changed.set(before.id, { kind: 'deleted', before: placeOf(before) });
    this.figures = true;
    this.yard(before, undefined);
  }
  /**
   * A task of the yard changed from `before` to `after` (either missing for a creation or a deletion):
   * the places it names and its trailer's place may show something else now; when a finished move
   * changed (completed, reopened, deleted, re-aimed), its trailer's position is settled before the commit.
   */
  yard(before: YardFacts | undefined, after: YardFacts | undefined): void {
    for (const t of [before, after]) {
      if (!t) continue;
      if (t.originLocationId) this.yardPlaces.add(t.originLocationId);
      if (t.destinationLocationId) this.yardPlaces.add(t.destinationLocationId);
      this.yardTrailers.add(t.trailerId);
      if (t.status === 'finalizada') this.settle.add(t.trailerId);
    }
  }

  /** Places whose occupancy or catalogue entry changed besides the tasks' own (a catalogue change). */
  yardPlacesChanged(ids: readonly string[]): void {
    for (const id of ids) this.yardPlaces.add(id);
  }

  /** The dashboard figures changed (counts per status, busy drivers, movements). */
  figuresChanged(): void {
    this.figures = true;
  }

  /** Takes over what a nested step (a savepoint) left to do, once that step has succeeded. */
  absorb(step: Effects): void {
    for (const [id, change] of step.changed) if (!this.changed.has(id)) this.changed.set(id, change);
    this.figures ||= step.figures;
    this.engine ||= step.engine;
    for (const id of step.yardPlaces) this.yardPlaces.add(id);
    for (const id of step.yardTrailers) this.yardTrailers.add(id);
    for (const id of step.settle) this.settle.add(id);
  }

  /** Reads the created and updated tasks as they stand: the last step of the transaction. */
  async load(): Promise<void> {
    if (this.yardTrailers.size) {
      for (const id of await settleTrailers([...this.settle])) this.yardPlaces.add(id);
      // A trailer with a task opened or closed is booked to leave its place, or not any more.
      for (const id of await placesOfTrailers([...this.yardTrailers])) this.yardPlaces.add(id);
    }
    const ids = [...this.changed].filter(([, change]) => change.kind !== 'deleted').map(([id]) => id);
    this.loaded = await loadTasksByIds(ids);
  }

  /** The pushes, once the transaction has committed: what load() read, nothing from the database. */
  flush(): void {
    for (const [id, change] of this.changed) {
      if (change.kind === 'deleted') {
        emit.taskDeleted({ id, ...change.before! });
        continue;
      }
      const task = this.loaded.get(id);
      if (!task) continue;
      this.presented.set(id, task);
      if (change.kind === 'created') emit.taskCreated(task);
      else emit.taskUpdated(task, change.before);
    }
    if (this.figures) emit.figuresChanged();
    emit.yardChanged([...this.yardPlaces]);
  }
}

/** What the yard sees of a task (CONTRACT §17). */
export type YardFacts = Pick<TaskRow, 'trailerId' | 'status' | 'originLocationId' | 'destinationLocationId'>;

/**
 * Runs `work` in one transaction; its pushes follow the commit. Inside another transaction it is a
 * savepoint of it, pushed when that one commits (with the tasks as they stood at the end of `work`).
 * `round`: what runs before the commit when `work` asks for it (fx.engine) — the assignment engine's
 * round, given by services/tasks.ts, so that the engine (which uses these writes) and the tasks service
 * do not import each other.
 */
export function commit<T>(
  work: (fx: Effects) => Promise<T>,
  round?: (fx: Effects) => Promise<void>,
): Promise<T> {
  const nested = inTransaction();
  return tx(
    async () => {
      // What the staff's shared board and yard answers show is changing (db/dialect.ts).
      if (nested) await markShownWriter();
      afterCommit(forgetSharedAnswers);
      // Per attempt: a transaction run again (PostgreSQL) starts from nothing.
      const fx = new Effects();
      // Registered first: the task pushes leave before those the work registers (notifications).
      afterCommit(() => fx.flush());
      const done = await work(fx);
      if (fx.engine && round) await roundWithin(fx, round);
      await fx.load();
      return done;
    },
    { shownWriter: true },
  );
}

/**
 * The engine's round under a savepoint of the caller's transaction. Should it fail, only the round is
 * undone: the change that called it still commits, and the next round (any later change) tries again.
 * A deadlock or a serialization failure (PostgreSQL: the round waits for the rows and the round lock
 * other transactions hold) is not the round's failure: the whole change runs again (tx()), round
 * included, so no task is left waiting for want of a round.
 */
async function roundWithin(fx: Effects, round: (fx: Effects) => Promise<void>): Promise<void> {
  try {
    await savepoint(fx, round);
  } catch (err) {
    if (isRetryable(err)) throw err;
    logger.error({ err }, 'la ronda de asignación automática falló');
  }
}

/**
 * `work` under a savepoint of the open transaction: if it throws, its writes and effects are dropped.
 * `at`: the step's instant, when it must be the transaction's (a step of the same change).
 */
export async function savepoint<T>(fx: Effects, work: (step: Effects) => Promise<T>, at?: Date): Promise<T> {
  const step = new Effects(at);
  const result = await tx(() => work(step));
  fx.absorb(step);
  return result;
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
  fx: Effects,
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

/**
 * Whether a task is on some board (GET /tasks, CONTRACT §5): live, and open or finished within the
 * window. Only those are pushed: a screen holds no other.
 */
const onBoard = (row: TaskRow, at: Date): boolean =>
  !row.deletedAt &&
  (row.status !== 'finalizada' ||
    (!!row.completedAt && row.completedAt.getTime() > at.getTime() - BOARD_FINISHED_WINDOW_MS));

/**
 * A change to many tasks at once that decides nothing on their state (the catalogue re-pointing their
 * places, a person they show renamed): one statement, version+1 and updated_at on every row `where`
 * selects, so the board's version moves too (services/board.ts); those on a board are pushed. What it
 * means for the yard is the caller's (remapTasks settles every trailer itself).
 */
async function writeTasksWhere(where: SQL, patch: Partial<TaskRow>, fx: Effects): Promise<void> {
  const written = await db
    .update(tasks)
    .set({ ...patch, version: sql`${tasks.version} + 1`, updatedAt: fx.at })
    .where(where)
    .returning();
  // Nothing these writes change moves a task between rooms: the row as written serves as the "before".
  for (const row of written) if (onBoard(row, fx.at)) fx.updated(row);
}

/**
 * After the catalogue changed (CONTRACT §17): every task whose origin or destination text now equals an
 * active place's name or code points at it (texts matching none keep what they had) — a change of what
 * it shows (§19) —, then every trailer's position is settled again and its places told.
 */
export async function remapTasks(fx: Effects): Promise<void> {
  const columns = [
    { text: tasks.origin, id: tasks.originLocationId, key: 'originLocationId' },
    { text: tasks.destination, id: tasks.destinationLocationId, key: 'destinationLocationId' },
  ] as const;
  for (const column of columns) {
    const texts = (await db.selectDistinct({ text: column.text }).from(tasks)).map((r) => r.text);
    const places = await placesNamed(texts);
    const textsByPlace = new Map<string, string[]>();
    for (const text of texts) {
      const place = places.get(placeKey(text));
      if (place) textsByPlace.set(place.id, [...(textsByPlace.get(place.id) ?? []), text]);
    }
    for (const [placeId, matching] of textsByPlace)
      await writeTasksWhere(
        and(inArray(column.text, matching), or(isNull(column.id), ne(column.id, placeId)))!,
        { [column.key]: placeId },
        fx,
      );
  }
  fx.yardPlacesChanged(await settleAllTrailers());
}

/**
 * A person's name changed (an admin's correction, CONTRACT §14): the tasks on a board that show it, as
 * assignee or creator, change what they show (§19). Those off every board keep their version: no screen
 * holds them, and the searcher reads the name afresh.
 */
export async function showRenamed(userId: string, fx: Effects): Promise<void> {
  const cutoff = new Date(fx.at.getTime() - BOARD_FINISHED_WINDOW_MS);
  await writeTasksWhere(
    and(
      or(eq(tasks.assignedTo, userId), eq(tasks.createdBy, userId)),
      isNull(tasks.deletedAt),
      or(inArray(tasks.status, ['bolsa_trabajo', 'en_proceso']), gt(tasks.completedAt, cutoff)),
    )!,
    {},
    fx,
  );
}

/** A change the yard sees: a move in status, place or trailer, a hold (the map marks held tasks). */
const touchesYard = (row: TaskRow, patch: Partial<TaskRow>): boolean =>
  (
    ['status', 'trailerId', 'originLocationId', 'destinationLocationId', 'onHold', 'completedAt'] as const
  ).some((k) => patch[k] !== undefined && patch[k] !== row[k]);

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

const eventRow = (fx: Effects, taskId: string, type: TaskEventType, e: EventFacts) => ({
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
  fx: Effects,
  taskId: string,
  type: TaskEventType,
  e: EventFacts = {},
): Promise<void> {
  await insertRows(taskEvents, [eventRow(fx, taskId, type, e)]);
}

/** Several history rows in one statement (a batch of creations). */
export async function recordEvents(
  fx: Effects,
  events: readonly (EventFacts & { taskId: string; type: TaskEventType })[],
): Promise<void> {
  await insertRows(
    taskEvents,
    events.map((e) => eventRow(fx, e.taskId, e.type, e)),
  );
}

/**
 * A live (not deleted) task, read inside the caller's transaction to decide a change on it; 404
 * otherwise. Locked until the commit (PostgreSQL, whose transactions run side by side): a concurrent
 * change waits, then decides on the row as this one left it — the answers SQLite's one writer gives.
 */
export async function liveTask(id: string): Promise<TaskRow> {
  const [row] = await liveTaskById({ id });
  if (!row) throw notFound(ERR.taskNotFound);
  return row;
}

// The read every change starts from, built once (db/index.ts prepared()).
const liveTaskById = prepared('live_task', (handle) =>
  forUpdate(
    handle
      .select()
      .from(tasks)
      .where(and(eq(tasks.id, sql.placeholder('id')), isNull(tasks.deletedAt)))
      .limit(1),
  ),
);

/** A driver who just lost or finished a task is idle from now on (the engine's "idle longest"). */
export async function markIdle(driverId: string, fx: Effects): Promise<void> {
  await db.update(users).set({ idleSince: fx.at }).where(eq(users.id, driverId));
}

export const nameOf = async (userId: string): Promise<string> => (await findUserById(userId))?.name ?? '';

// ---- the shared moves (staff board, driver endpoints and the engine use the same ones) ---------

export type AssignMode = 'manual' | 'auto' | 'self';

/**
 * Gives a pool or in-process task to a driver: en_proceso, assigned_to, assigned_at, a history row and,
 * unless they took it themselves, a `task_assigned` notification with sound. A driver who already holds
 * an active task is refused by tasks_active_driver.
 */
export async function assignDriver(
  row: TaskRow,
  driver: Actor,
  actor: Actor | null,
  fx: Effects,
  mode: AssignMode,
): Promise<TaskRow> {
  const next = await writeTask(
    row,
    {
      status: 'en_proceso',
      assignedTo: driver.id,
      assignedAt: fx.at,
      returnReason: null,
      // Only staff reach a held task (the engine and a claim never do): assigning it by hand releases it.
      ...(row.onHold ? { onHold: false, holdReason: null } : {}),
    },
    fx,
    mode === 'self' ? ERR.alreadyActive : ERR.driverBusy,
  );
  if (row.onHold) {
    await recordEvent(fx, row.id, 'released', { actor, from: row.status, to: row.status });
    await logActivity('task', actor, TASK_LOG.unheld.action, TASK_LOG.unheld.details(row));
  }
  await recordEvent(fx, row.id, 'assigned', {
    actor,
    driverId: driver.id,
    from: row.status,
    to: 'en_proceso',
  });
  const log =
    mode === 'auto' ? TASK_LOG.autoAssigned : mode === 'self' ? TASK_LOG.selfAssigned : TASK_LOG.assigned;
  await logActivity('task', actor, log.action, log.details(row, driver.name));
  if (mode !== 'self') {
    const n = TASK_NOTIFICATION.assigned;
    await notify(driver.id, 'task_assigned', n.title, n.message(row), { taskId: row.id, playSound: true });
  }
  return next;
}
