// Writing the generated yard. Volume needs multi-row inserts built from the drizzle schema (column
// names and value mapping come from the table definitions of the engine this process runs on), run
// through execute() inside the caller's transaction: drizzle's multi-row inserts spend their time
// building SQL (100 000 tasks: 11 s that way, under 2 s this way). The simulation writes synchronously
// into buffers; full batches wait in a queue, in the order they must run (a row's parents first), until
// the caller awaits drain() — the generator's loops drain as they go, so the queue stays short.
import { getTableColumns, getTableName, type Column, type InferInsertModel, type Table } from 'drizzle-orm';
import type { ClockType, LogType, NotificationType, TaskEventType, TaskStatus } from '@shared/enums';
import { ACCOUNT_LOG, SYSTEM_ACTOR } from '@shared/labels';
import { formatTime } from '@shared/time';
import { placeKey } from '@shared/text';
import { execute, isPostgres, query } from '../../server/db';
import {
  activityLog,
  gateVisits,
  locations,
  notifications,
  presenceIntervals,
  punches,
  taskEvents,
  tasks,
  trailerEvents,
  trailers,
  users,
} from '../../server/db/tables';
import type { Rng } from './random';

type Row<T extends Table> = InferInsertModel<T>;

/**
 * Rows per INSERT: a few hundred rows per statement cost a fraction of the CPU of one per row on
 * SQLite, and one round trip instead of hundreds on PostgreSQL.
 */
const BATCH_ROWS = 256;
/** Bound parameters per statement: SQLite's limit (PostgreSQL's is 65 535). */
const MAX_PARAMS = 32_766;

/** A statement waiting in the writer's queue. */
interface Queued {
  text: string;
  params: unknown[];
}

/** Buffered inserts of the named columns (an absent value is stored as NULL). */
class Batch<T extends Table> {
  private readonly columns: [string, ReturnType<typeof getTableColumns<T>>[string]][];
  private readonly head: string;
  private readonly tuple: string;
  /** Rows of a full batch: one INSERT. */
  private readonly size: number;
  /** INSERT texts by row count: a full batch and the powers of two a partial one is split into. */
  private readonly texts = new Map<number, string>();
  private values: unknown[] = [];
  private rows = 0;

  /** `parents` are flushed first: the rows they hold are referenced by this table's rows. */
  constructor(
    private readonly queue: Queued[],
    table: T,
    keys: Extract<keyof T['$inferSelect'], string>[],
    private readonly parents: { flush(): void }[] = [],
  ) {
    const columns = getTableColumns(table);
    this.columns = keys.map((key) => [key, columns[key]]);
    this.head = `INSERT INTO "${getTableName(table)}" (${this.columns.map(([, c]) => `"${c.name}"`).join(', ')}) VALUES `;
    this.tuple = `(${keys.map(() => '?').join(', ')})`;
    this.size = Math.min(BATCH_ROWS, Math.floor(MAX_PARAMS / keys.length));
  }

  add(row: Row<T>): void {
    const record = row as Record<string, unknown>;
    for (const [key, column] of this.columns) {
      const value = record[key];
      this.values.push(value === null || value === undefined ? null : column.mapToDriverValue(value));
    }
    if (++this.rows === this.size) this.flush();
  }

  /**
   * Queues the buffered rows, after the parents' own: a full batch as one INSERT, a partial one as a
   * few INSERTs of power-of-two sizes (so each engine prepares and caches a handful of texts per table,
   * not one per row count).
   */
  flush(): void {
    for (const parent of this.parents) parent.flush();
    if (!this.rows) return;
    if (this.rows === this.size) this.queue.push({ text: this.text(this.size), params: this.values });
    else {
      const width = this.columns.length;
      let offset = 0;
      for (let left = this.rows; left > 0;) {
        const rows = 2 ** Math.floor(Math.log2(left));
        const end = offset + rows * width;
        this.queue.push({ text: this.text(rows), params: this.values.slice(offset, end) });
        offset = end;
        left -= rows;
      }
    }
    this.values = [];
    this.rows = 0;
  }

  private text(rows: number): string {
    let text = this.texts.get(rows);
    if (!text) this.texts.set(rows, (text = this.head + Array(rows).fill(this.tuple).join(', ')));
    return text;
  }
}

export interface Named {
  id: string;
  name: string;
}

/**
 * Drops the tables' indexes and returns the function that builds them again from their own stored
 * SQL, so the schema ends exactly as it was. Building an index over rows already there costs a
 * fraction of keeping it up to date row by row; the unique ones check every row when rebuilt.
 * Call both inside one transaction. On PostgreSQL the indexes behind a constraint (primary keys) stay.
 */
export async function dropIndexes(tables: Table[]): Promise<() => Promise<void>> {
  const names = tables.map((t) => getTableName(t));
  const list = names.map(() => '?').join(', ');
  const indexes = await query<{ name: string; sql: string }>(
    isPostgres
      ? `SELECT i.indexname AS name, i.indexdef AS sql FROM pg_indexes i
          WHERE i.schemaname = current_schema() AND i.tablename IN (${list})
            AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                             WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`
      : `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
          AND tbl_name IN (${list})`,
    names,
  );
  for (const index of indexes) await execute(`DROP INDEX "${index.name}"`);
  return async () => {
    for (const index of indexes) await execute(index.sql);
  };
}

type Millis<R, K extends keyof R> = Omit<R, K> & { [P in K]-?: null extends R[P] ? number | null : number };
type TaskTimes =
  'createdAt' | 'updatedAt' | 'statusSince' | 'assignedAt' | 'completedAt' | 'returnedAt' | 'deletedAt';

/**
 * Every write of the generator, with times as epoch milliseconds. The writes are queued: await drain()
 * to run what is queued so far, flush() to run everything (before reading back).
 */
export function openWriter(ids: Rng) {
  const queue: Queued[] = [];
  const user = new Batch(queue, users, [
    'id', 'email', 'name', 'passwordHash', 'role', 'isApproved', 'isOnline', 'taskTypes',
    'movementsCount', 'tokenVersion', 'createdAt', 'approvedAt',
  ]); // prettier-ignore
  const location = new Batch(queue, locations, [
    'id', 'code', 'name', 'nameKey', 'kind', 'zone', 'capacity', 'x', 'y', 'createdAt', 'updatedAt',
  ]); // prettier-ignore
  const task = new Batch(queue, tasks, [
    'id', 'title', 'description', 'origin', 'destination', 'originLocationId', 'destinationLocationId',
    'trailerId', 'trailerKey', 'priority', 'status', 'vehicleType', 'assignedTo', 'createdBy', 'creditedTo', 'createdAt',
    'updatedAt', 'assignedAt', 'completedAt', 'statusSince', 'returnReason', 'returnedBy', 'returnedAt',
    'noDriversAvailable', 'version', 'deletedAt',
  ], [user, location]); // prettier-ignore
  const event = new Batch(
    queue,
    taskEvents,
    ['taskId', 'type', 'actorId', 'driverId', 'fromStatus', 'toStatus', 'reason', 'at'],
    [task],
  );
  const notification = new Batch(queue, notifications, [
    'id', 'userId', 'type', 'title', 'message', 'taskId', 'isRead', 'playSound', 'createdAt',
  ], [user]); // prettier-ignore
  const punch = new Batch(queue, punches, ['id', 'userId', 'clockType', 'timestamp'], [user]);
  const presence = new Batch(queue, presenceIntervals, ['userId', 'startedAt', 'endedAt'], [user]);
  const activity = new Batch(queue, activityLog, [
    'type', 'userId', 'userName', 'action', 'details', 'timestamp',
  ]); // prettier-ignore
  // The gate's history (scripts/generator/gate.ts): visits and the records of the trailers they dropped.
  const trailer = new Batch(queue, trailers, [
    'trailerKey', 'trailerId', 'kind', 'loadState', 'carrier', 'seal', 'locationId', 'since', 'taskId',
    'placedAt', 'version', 'createdAt', 'updatedAt',
  ], [location]); // prettier-ignore
  const trailerEvent = new Batch(queue, trailerEvents, [
    'trailerKey', 'kind', 'locationId', 'note', 'actorId', 'at',
  ], [user, location]); // prettier-ignore
  const visit = new Batch(queue, gateVisits, [
    'id', 'truckPlate', 'carrier', 'carrierKey', 'driverName', 'appointmentAt', 'enteredAt', 'exitedAt',
    'droppedTrailerId', 'droppedTrailerKey', 'pickedTrailerId', 'pickedTrailerKey', 'entrySeal', 'exitSeal',
    'sealMismatch', 'enteredBy', 'exitedBy',
  ], [user]); // prettier-ignore
  const all = [
    user,
    location,
    task,
    event,
    notification,
    punch,
    presence,
    activity,
    trailer,
    trailerEvent,
    visit,
  ];
  const afterwards = `UPDATE users SET movements_count = ?, is_online = ?, idle_since = ?, last_activity_at = ?
    WHERE id = ?`;
  /** A task's history waits for the task row it references. */
  const pendingEvents: Row<typeof taskEvents>[] = [];
  const date = (t: number | null) => (t === null ? null : new Date(Math.round(t)));

  /** Runs the queued statements, in order, in the caller's transaction. */
  const drain = async () => {
    for (const statement of queue.splice(0)) await execute(statement.text, statement.params);
  };
  /** A value as the engine stores it in that column (a time: epoch milliseconds on SQLite). */
  const stored = (column: Column, value: unknown) => (value === null ? null : column.mapToDriverValue(value));

  const log = (type: LogType, actor: Named | null, action: string, details: string, time: number) =>
    activity.add({
      type,
      userId: actor?.id ?? null,
      userName: actor?.name ?? SYSTEM_ACTOR,
      action,
      details,
      timestamp: date(time)!,
    });

  return {
    user: (row: Row<typeof users>) => user.add(row),
    /** A place of the yard's catalogue (CONTRACT §17); returns its id. */
    location(place: Omit<Row<typeof locations>, 'id' | 'nameKey' | 'createdAt' | 'updatedAt'>, time: number) {
      const id = ids.uuid();
      location.add({
        ...place,
        id,
        nameKey: placeKey(place.name),
        createdAt: date(time)!,
        updatedAt: date(time)!,
      });
      return id;
    },
    log,
    task(row: Millis<Row<typeof tasks>, TaskTimes>) {
      task.add({
        ...row,
        createdAt: date(row.createdAt)!,
        updatedAt: date(row.updatedAt)!,
        statusSince: date(row.statusSince)!,
        assignedAt: date(row.assignedAt),
        completedAt: date(row.completedAt),
        returnedAt: date(row.returnedAt),
        deletedAt: date(row.deletedAt),
      });
      for (const e of pendingEvents.splice(0)) event.add(e);
    },
    /** One row of a task's history; written with the task. */
    event(
      taskId: string,
      type: TaskEventType,
      time: number,
      e: {
        actorId?: string | null;
        driverId?: string | null;
        from?: TaskStatus | null;
        to?: TaskStatus | null;
        reason?: string | null;
      },
    ) {
      pendingEvents.push({
        taskId,
        type,
        actorId: e.actorId ?? null,
        driverId: e.driverId ?? null,
        fromStatus: e.from ?? null,
        toStatus: e.to ?? null,
        reason: e.reason ?? null,
        at: date(time)!,
      });
    },
    notify(
      userId: string,
      type: NotificationType,
      text: { title: string; message: string },
      time: number,
      opts: { taskId?: string; isRead: boolean; playSound?: boolean },
    ) {
      notification.add({
        id: ids.uuid(),
        userId,
        type,
        title: text.title,
        message: text.message,
        taskId: opts.taskId ?? null,
        isRead: opts.isRead,
        playSound: opts.playSound ?? false,
        createdAt: date(time)!,
      });
    },
    /** A punch and its activity-log row, as the time clock writes them. */
    punch(driver: Named, clockType: ClockType, time: number) {
      punch.add({ id: ids.uuid(), userId: driver.id, clockType, timestamp: date(time)! });
      log(
        'timeclock',
        driver,
        ACCOUNT_LOG.punch.action[clockType],
        ACCOUNT_LOG.punch.details(driver.name, clockType, formatTime(time)),
        time,
      );
    },
    /** A trailer's record (CONTRACT §19), as the gate's history leaves it. */
    trailer: (row: Row<typeof trailers>) => trailer.add(row),
    /** A positional event of a trailer (the gate's `entry` and `exit`). */
    trailerEvent: (row: Row<typeof trailerEvents>) => trailerEvent.add(row),
    /** One truck's stay (CONTRACT §19 "Gate visits"). */
    visit: (row: Row<typeof gateVisits>) => visit.add(row),
    presence(userId: string, start: number, end: number | null) {
      presence.add({ userId, startedAt: date(start)!, endedAt: date(end) });
    },
    /** The user fields that only the whole history decides. */
    finishUser(
      id: string,
      f: { movements: number; online: boolean; idleSince: number | null; lastActivityAt: number | null },
    ) {
      user.flush();
      queue.push({
        text: afterwards,
        params: [
          f.movements,
          stored(users.isOnline, f.online),
          stored(users.idleSince, date(f.idleSince)),
          stored(users.lastActivityAt, date(f.lastActivityAt)),
          id,
        ],
      });
    },
    drain,
    async flush() {
      for (const batch of all) batch.flush();
      await drain();
    },
  };
}

export type Writer = ReturnType<typeof openWriter>;
