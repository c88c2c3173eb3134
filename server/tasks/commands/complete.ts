import { ERR } from '@shared/labels';
import type { TaskRow, UserRow } from '../../db/tables';
import { conflict } from '../../http/errors';
import type { Actor } from '../../services/activity';
import { actionTime } from '../../services/idempotency';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { change } from '../change';
import { liveTask } from '../queries';
import { decide } from '../transitions';

/**
 * POST /tasks/{id}/complete: the assignee completes; repeating it on a task they completed changes
 * nothing (a safe retry). From the offline queue, `clientTime` is the completion time when plausible.
 */
export async function completeByDriver(id: string, driver: UserRow, clientTime?: string): Promise<void> {
  await change(async (fx) => finish(await liveTask(id), driver, fx, clientTime));
}

export async function finish(
  row: TaskRow,
  driver: UserRow,
  fx: ChangeSet,
  clientTime?: string,
): Promise<void> {
  if (row.status === 'finalizada' && row.assignedTo === driver.id) return;
  const t = decide(row.status, 'complete', 'driver');
  if (row.assignedTo !== driver.id) throw conflict(ERR.notYourTask);
  const when = actionTime(clientTime, fx.at, row.assignedAt);
  await applyTransition(row, t, { at: fx.at, actor: driver, when }, fx);
}

/** Staff finish a task (a driver's in-process one: that driver is credited and told, not congratulated). */
export function completeByStaff(row: TaskRow, actor: Actor, fx: ChangeSet): Promise<TaskRow> {
  return applyTransition(row, decide(row.status, 'complete', 'staff'), { at: fx.at, actor }, fx);
}
