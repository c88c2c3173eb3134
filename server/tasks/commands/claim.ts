import { ERR } from '@shared/labels';
import type { TaskRow, UserRow } from '../../db/tables';
import { conflict } from '../../http/errors';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { change } from '../change';
import { liveTask } from '../queries';
import { decide } from '../transitions';

/**
 * POST /tasks/{id}/self-assign: a driver claims a pool task. The task is read locked inside the claim's
 * transaction: of many drivers racing, the first transaction wins and the others see what it did.
 */
export async function selfAssign(id: string, driver: UserRow): Promise<void> {
  await change(async (fx) => claim(await liveTask(id), driver, fx));
}

/** A claim on the task as read: not held, of a type the driver has. */
export async function claim(row: TaskRow, driver: UserRow, fx: ChangeSet): Promise<void> {
  const t = decide(row.status, 'claim', 'driver');
  if (row.onHold) throw conflict(ERR.taskOnHold);
  if (!driver.taskTypes.includes(row.vehicleType)) throw conflict(ERR.typeNotEnabled);
  await applyTransition(row, t, { at: fx.at, actor: driver, driver }, fx);
}
