// Reads of tasks: those that decide a change (locked by the change's transaction), the board's lists, a
// driver's active task and swaps, and the board's driver picker. (The searcher is services/search.ts.)
import { and, desc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { EligibleDriver, Task } from '@shared/schemas';
import { BOARD_FINISHED_WINDOW_MS } from '@shared/constants';
import { ERR } from '@shared/labels';
import { db, prepared } from '../db';
import { forUpdate } from '../db/dialect';
import { tasks, type TaskRow, type UserRow } from '../db/tables';
import { nowMs } from '../clock';
import { notFound } from '../http/errors';
import { loadTask, presentJoined, selectTasks } from '../presenters/tasks';
import { driverStates } from '../services/availability';
import { findUserById } from '../services/users';
import { canSee, seesFinished } from '@shared/visibility';
import { openTaskSql } from './visibility';
import type { Principal } from '../principal';

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

export const nameOf = async (userId: string): Promise<string> => (await findUserById(userId))?.name ?? '';

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

const newestFirst = (a: Task, b: Task) =>
  b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/**
 * The board (CONTRACT §5): every pool and in-process task plus those finished in the last 24 h, newest
 * first; gestor without finalizada; a conductor the pool of their types plus their own. Two queries, each
 * on its own index (status; completed_at), so 100k finished tasks in history cost nothing.
 */
export async function listTasks(user: Principal): Promise<Task[]> {
  const driver = user.role === 'conductor';
  const open: SQL[] = [openTaskSql];
  if (driver)
    open.push(
      or(
        and(eq(tasks.status, 'bolsa_trabajo'), inArray(tasks.vehicleType, user.taskTypes)),
        eq(tasks.assignedTo, user.id!),
      )!,
    );
  const list = (await selectTasks().where(and(...open))).map(presentJoined);
  if (seesFinished(user.role)) {
    // completed_at is set only while a task is finalizada; a status term here would lead SQLite to
    // walk the whole finalizada history through tasks_status instead of the completed_at range.
    const done: SQL[] = [
      gt(tasks.completedAt, new Date(nowMs() - BOARD_FINISHED_WINDOW_MS)),
      isNull(tasks.deletedAt),
    ];
    if (driver) done.push(eq(tasks.assignedTo, user.id!));
    list.push(...(await selectTasks().where(and(...done))).map(presentJoined));
  }
  return list.sort(newestFirst);
}

/**
 * GET /tasks/{id} (CONTRACT §21): a live task as GET /tasks shows it, if the caller's role sees it (the
 * board's rule, shared/visibility.ts); 404 otherwise, the same answer as for a task that never existed. A
 * finished task stays readable past the board's 24 h: another system asks for the tasks it made.
 */
export async function visibleTask(id: string, caller: Principal): Promise<Task> {
  const task = await loadTask(and(eq(tasks.id, id), isNull(tasks.deletedAt))!);
  const viewer = { id: caller.id ?? '', role: caller.role, taskTypes: caller.taskTypes };
  if (!task || !canSee(viewer, task)) throw notFound(ERR.taskNotFound);
  return task;
}

/** The driver's active task, locked by the caller's transaction (PostgreSQL) like liveTask(). */
export async function activeTaskRow(driverId: string): Promise<TaskRow | undefined> {
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
