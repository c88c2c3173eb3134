import { and, inArray, notInArray } from 'drizzle-orm';
import { tasks } from '../../db/tables';
import type { ChangeSet } from '../../changes/change-set';
import { writeTasksWhere } from '../apply';
import { openTaskSql } from '../visibility';

/**
 * Trailers' records changed (CONTRACT §19: every task shows its trailer's marks): their open tasks change
 * what they show, so each gets version + 1 and is pushed. Tasks this transaction already changed are left
 * alone (they are pushed anyway, read as they end). Finished ones keep their version: the board's version
 * follows the trailers too (services/board.ts), and the searcher reads the marks afresh.
 */
export async function showTrailerMarks(keys: readonly string[], fx: ChangeSet): Promise<void> {
  if (!keys.length) return;
  const changed = [...fx.tasks.keys()];
  await writeTasksWhere(
    and(
      inArray(tasks.trailerKey, keys),
      openTaskSql,
      ...(changed.length ? [notInArray(tasks.id, changed)] : []),
    )!,
    {},
    fx,
  );
}
