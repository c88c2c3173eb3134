// Giving a task to a driver: staff from the board (assign, reassign) and the engine's round.
import { ERR } from '@shared/labels';
import type { TaskRow, UserRow } from '../../db/tables';
import { badRequest, conflict } from '../../http/errors';
import type { Actor, UserActor } from '../../services/activity';
import { findUserById } from '../../services/users';
import type { ChangeSet } from '../../changes/change-set';
import { applyTransition } from '../apply';
import { decide } from '../transitions';
import { reopenTask } from './reopen';

/**
 * Gives a pool or in-process task to a driver (transitions.ts: `assign` by staff or the engine). A driver
 * who already holds an active task is refused by tasks_active_driver.
 */
export function assignDriver(
  row: TaskRow,
  driver: UserActor,
  actor: Actor | null,
  fx: ChangeSet,
  role: 'staff' | 'engine',
): Promise<TaskRow> {
  return applyTransition(row, decide(row.status, 'assign', role), { at: fx.at, actor, driver }, fx);
}

/** Staff name a driver for a task (a finished one is reopened first): an approved conductor having its type. */
export async function assignByStaff(
  row: TaskRow,
  driverId: string,
  actor: Actor,
  fx: ChangeSet,
): Promise<TaskRow> {
  const driver = await driverFor(driverId, row);
  if (row.status === 'finalizada') row = await reopenTask(row, actor, fx);
  return assignDriver(row, driver, actor, fx, 'staff');
}

async function driverFor(driverId: string, row: TaskRow): Promise<UserRow> {
  const driver = await findUserById(driverId);
  if (!driver || driver.deletedAt || !driver.isApproved || driver.role !== 'conductor')
    throw badRequest(ERR.selectDriver);
  if (!driver.taskTypes.includes(row.vehicleType)) throw conflict(ERR.driverLacksType);
  return driver;
}
