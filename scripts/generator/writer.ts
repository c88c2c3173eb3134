// Writing the generated yard. Volume needs prepared multi-row inserts built from the drizzle schema
// (column names and value mapping come from the table definitions), run inside the caller's
// transaction: drizzle's own prepared inserts cannot take a null timestamp placeholder, and its
// multi-row inserts spend their time building SQL (100 000 tasks: 11 s that way, under 2 s this way).
import { getTableColumns, getTableName, type InferInsertModel } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Statement } from 'better-sqlite3';
import type { ClockType, LogType, NotificationType, TaskEventType, TaskStatus } from '@shared/enums';
import { ACCOUNT_LOG, SYSTEM_ACTOR } from '@shared/labels';
import { formatTime } from '@shared/time';
import { sqlite } from '../../server/db';
import {
  activityLog,
  notifications,
  presenceIntervals,
  punches,
  taskEvents,
  tasks,
  users,
} from '../../server/db/schema';
import type { Rng } from './random';

type Row<T extends SQLiteTable> = InferInsertModel<T>;

/** Rows per INSERT: one statement per hundred rows costs half the CPU of one per row. */
const BATCH_ROWS = 100;

/** Buffered inserts of the named columns (an absent value is stored as NULL). */
class Batch<T extends SQLiteTable> {
  private readonly columns: [string, ReturnType<typeof getTableColumns<T>>[string]][];
  private readonly head: string;
  private readonly tuple: string;
  private readonly full: Statement;
  private readonly statements = new Map<number, Statement>();
  private values: unknown[] = [];
  private rows = 0;

  /** `parents` are flushed first: the rows they hold are referenced by this table's rows. */
  constructor(
    table: T,
    keys: Extract<keyof T['$inferSelect'], string>[],
    private readonly parents: { flush(): void }[] = [],
  ) {
    const columns = getTableColumns(table);
    this.columns = keys.map((key) => [key, columns[key]]);
    this.head = `INSERT INTO "${getTableName(table)}" (${this.columns.map(([, c]) => `"${c.name}"`).join(', ')}) VALUES `;
    this.tuple = `(${keys.map(() => '?').join(', ')})`;
    this.full = this.statement(BATCH_ROWS);
  }

  add(row: Row<T>): void {
    const record = row as Record<string, unknown>;
    for (const [key, column] of this.columns) {
      const value = record[key];
      this.values.push(value === null || value === undefined ? null : column.mapToDriverValue(value));
    }
    if (++this.rows === BATCH_ROWS) this.flush();
  }

  flush(): void {
    for (const parent of this.parents) parent.flush();
    if (!this.rows) return;
    (this.rows === BATCH_ROWS ? this.full : this.statement(this.rows)).run(this.values);
    this.values = [];
    this.rows = 0;
  }

  private statement(rows: number): Statement {
    let stmt = this.statements.get(rows);
    if (!stmt)
      this.statements.set(rows, (stmt = sqlite.prepare(this.head + Array(rows).fill(this.tuple).join(', '))));
    return stmt;
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
 * Call both inside one transaction.
 */
export function dropIndexes(tables: SQLiteTable[]): () => void {
  const names = tables.map((t) => getTableName(t));
  const indexes = sqlite
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
        AND tbl_name IN (${names.map(() => '?').join(', ')})`,
    )
    .all(...names) as { name: string; sql: string }[];
  for (const index of indexes) sqlite.exec(`DROP INDEX "${index.name}"`);
  return () => {
    for (const index of indexes) sqlite.exec(index.sql);
  };
}

type Millis<R, K extends keyof R> = Omit<R, K> & { [P in K]-?: null extends R[P] ? number | null : number };
type TaskTimes =
  'createdAt' | 'updatedAt' | 'statusSince' | 'assignedAt' | 'completedAt' | 'returnedAt' | 'deletedAt';

/** Every write of the generator, with times as epoch milliseconds. Call flush() before reading back. */
export function openWriter(ids: Rng) {
  const user = new Batch(users, [
    'id', 'email', 'name', 'passwordHash', 'role', 'isApproved', 'isOnline', 'taskTypes',
    'movementsCount', 'tokenVersion', 'createdAt', 'approvedAt',
  ]); // prettier-ignore
  const task = new Batch(tasks, [
    'id', 'title', 'description', 'origin', 'destination', 'trailerId', 'priority', 'status',
    'vehicleType', 'assignedTo', 'createdBy', 'creditedTo', 'createdAt', 'updatedAt', 'assignedAt',
    'completedAt', 'statusSince', 'returnReason', 'returnedBy', 'returnedAt', 'noDriversAvailable',
    'version', 'deletedAt',
  ], [user]); // prettier-ignore
  const event = new Batch(
    taskEvents,
    ['taskId', 'type', 'actorId', 'driverId', 'fromStatus', 'toStatus', 'reason', 'at'],
    [task],
  );
  const notification = new Batch(notifications, [
    'id', 'userId', 'type', 'title', 'message', 'taskId', 'isRead', 'playSound', 'createdAt',
  ], [user]); // prettier-ignore
  const punch = new Batch(punches, ['id', 'userId', 'clockType', 'timestamp'], [user]);
  const presence = new Batch(presenceIntervals, ['userId', 'startedAt', 'endedAt'], [user]);
  const activity = new Batch(activityLog, ['type', 'userId', 'userName', 'action', 'details', 'timestamp']);
  const all = [user, task, event, notification, punch, presence, activity];
  const afterwards = sqlite.prepare(
    `UPDATE users SET movements_count = ?, is_online = ?, idle_since = ?, last_activity_at = ? WHERE id = ?`,
  );
  /** A task's history waits for the task row it references. */
  const pendingEvents: Row<typeof taskEvents>[] = [];
  const ms = (t: number | null) => (t === null ? null : Math.round(t));
  const date = (t: number | null) => (t === null ? null : new Date(Math.round(t)));

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
    presence(userId: string, start: number, end: number | null) {
      presence.add({ userId, startedAt: date(start)!, endedAt: date(end) });
    },
    /** The user fields that only the whole history decides. */
    finishUser(
      id: string,
      f: { movements: number; online: boolean; idleSince: number | null; lastActivityAt: number | null },
    ) {
      user.flush();
      afterwards.run(f.movements, f.online ? 1 : 0, ms(f.idleSince), ms(f.lastActivityAt), id);
    },
    flush() {
      for (const batch of all) batch.flush();
    },
  };
}

export type Writer = ReturnType<typeof openWriter>;
