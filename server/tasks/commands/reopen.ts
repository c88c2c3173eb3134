import type { TaskRow } from '../../db/tables';
import type { Actor } from '../../services/activity';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { decide } from '../transitions';
import { holdIfDamaged } from './damage';

/** Staff move a finished task back to the pool (the credit taken back, never below 0). */
export async function reopenTask(row: TaskRow, actor: Actor, fx: ChangeSet): Promise<TaskRow> {
  const next = await applyTransition(row, decide(row.status, 'reopen', 'staff'), { at: fx.at, actor }, fx);
  // CONTRACT §19: back in the pool of a damaged trailer, it is held for the damage.
  return (await holdIfDamaged([row.trailerKey], actor, fx)).get(row.id) ?? next;
}
