import type { TaskRow } from '../../db/tables';
import type { Actor } from '../../services/activity';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { decide } from '../transitions';

/**
 * Holds a pool task (CONTRACT §15), or changes the reason of a held one; holding a held task with nothing
 * new changes nothing. A task elsewhere → 409.
 */
export async function holdTask(
  row: TaskRow,
  actor: Actor,
  fx: ChangeSet,
  reason: string | null | undefined,
): Promise<TaskRow> {
  const t = decide(row.status, 'hold', 'staff');
  if (row.onHold && (reason === undefined || reason === row.holdReason)) return row;
  return applyTransition(row, t, { at: fx.at, actor, reason }, fx);
}
