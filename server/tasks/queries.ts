// Reads of tasks that decide a change (the lists and the searcher are still in services/tasks.ts).
import { and, eq, isNull, sql } from 'drizzle-orm';
import { ERR } from '@shared/labels';
import { prepared } from '../db';
import { forUpdate } from '../db/dialect';
import { tasks, type TaskRow } from '../db/tables';
import { notFound } from '../http/errors';
import { findUserById } from '../services/users';

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
