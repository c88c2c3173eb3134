import { ERR } from '@shared/labels';
import type { TaskRow, UserRow } from '../../db/tables';
import { conflict } from '../../http/errors';
import type { Actor } from '../../services/activity';
import { actionTime } from '../../services/idempotency';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { change } from '../change';
import { liveTask } from '../queries';
import { decide, HOLDING_RETURN } from '../transitions';
import { damageTrailerTasks, holdIfDamaged } from './damage';

/**
 * POST /tasks/{id}/return: the assignee gives the task back; from the offline queue `clientTime` is the
 * return's time when plausible. When the 30 minutes pass the task may go back to this driver: the
 * periodic round sees to it (startAssignmentSweep), whichever node runs it.
 */
export async function returnByDriver(
  id: string,
  driver: UserRow,
  reason: string | null,
  clientTime?: string,
): Promise<void> {
  await change(async (fx) => giveBack(await liveTask(id), driver, fx, reason, clientTime));
}

export async function giveBack(
  row: TaskRow,
  driver: UserRow,
  fx: ChangeSet,
  reason: string | null,
  clientTime?: string,
): Promise<void> {
  const t = decide(row.status, 'return', 'driver');
  if (row.assignedTo !== driver.id) throw conflict(ERR.notYourTask);
  const when = actionTime(clientTime, fx.at, row.assignedAt);
  await applyTransition(row, t, { at: fx.at, actor: driver, reason, when }, fx);
  // CONTRACT §19: a `Remolque dañado` return marks the trailer damaged (its other pool tasks held); any
  // other return of a damaged trailer's task puts it under the damage's hold.
  if (reason === HOLDING_RETURN) await damageTrailerTasks(row.trailerKey, reason, driver, fx, row.trailerId);
  else await holdIfDamaged([row.trailerKey], driver, fx);
}

/** Staff move an in-process task back to the pool: its driver is told, no return reason is kept. */
export async function toPool(row: TaskRow, actor: Actor, fx: ChangeSet): Promise<TaskRow> {
  const next = await applyTransition(row, decide(row.status, 'to-pool', 'staff'), { at: fx.at, actor }, fx);
  // CONTRACT §19: back in the pool of a damaged trailer, it is held for the damage.
  return (await holdIfDamaged([row.trailerKey], actor, fx)).get(row.id) ?? next;
}
