import type { TaskRow } from '../../db/tables';
import type { Actor } from '../../services/activity';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { decide } from '../transitions';

/** Releases a held task: it enters matching like a new pool task. One that is not held: nothing. */
export async function releaseTask(row: TaskRow, actor: Actor, fx: ChangeSet): Promise<TaskRow> {
  if (!row.onHold) return row;
  return applyTransition(row, decide(row.status, 'release', 'staff'), { at: fx.at, actor }, fx);
}
