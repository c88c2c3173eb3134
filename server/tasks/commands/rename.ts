import { and, eq, or } from 'drizzle-orm';
import { tasks } from '../../db/tables';
import type { ChangeSet } from '../../changes/change-set';
import { writeTasksWhere } from '../apply';
import { onBoardSql } from '../visibility';

/**
 * A person's name changed (an admin's correction, CONTRACT §14): the tasks on a board that show it, as
 * assignee or creator, change what they show (§19). Those off every board keep their version: no screen
 * holds them, and the searcher reads the name afresh.
 */
export async function showRenamed(userId: string, fx: ChangeSet): Promise<void> {
  await writeTasksWhere(
    and(or(eq(tasks.assignedTo, userId), eq(tasks.createdBy, userId)), onBoardSql(fx.at))!,
    {},
    fx,
  );
}
