import type { TaskRow } from '../../db/tables';
import type { Actor } from '../../services/activity';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { decide } from '../transitions';

/** Staff move a finished task back to the pool (the credit taken back, never below 0). */
export function reopenTask(row: TaskRow, actor: Actor, fx: ChangeSet): Promise<TaskRow> {
  return applyTransition(row, decide(row.status, 'reopen', 'staff'), { at: fx.at, actor }, fx);
}
