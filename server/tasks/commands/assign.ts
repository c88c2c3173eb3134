// The shared move that gives a task to a driver: the staff board, the driver's claim and the engine use it.
import type { TaskRow } from '../../db/tables';
import { ERR, TASK_LOG, TASK_NOTIFICATION } from '@shared/labels';
import { logActivity, type Actor } from '../../services/activity';
import { notify } from '../../services/notifications';
import type { ChangeSet } from '../../changes/change-set';
import { recordEvent, writeTask } from '../apply';

export type AssignMode = 'manual' | 'auto' | 'self';

/**
 * Gives a pool or in-process task to a driver: en_proceso, assigned_to, assigned_at, a history row and,
 * unless they took it themselves, a `task_assigned` notification with sound. A driver who already holds
 * an active task is refused by tasks_active_driver.
 */
export async function assignDriver(
  row: TaskRow,
  driver: Actor,
  actor: Actor | null,
  fx: ChangeSet,
  mode: AssignMode,
): Promise<TaskRow> {
  const next = await writeTask(
    row,
    {
      status: 'en_proceso',
      assignedTo: driver.id,
      assignedAt: fx.at,
      returnReason: null,
      // Only staff reach a held task (the engine and a claim never do): assigning it by hand releases it.
      ...(row.onHold ? { onHold: false, holdReason: null } : {}),
    },
    fx,
    mode === 'self' ? ERR.alreadyActive : ERR.driverBusy,
  );
  if (row.onHold) {
    await recordEvent(fx, row.id, 'released', { actor, from: row.status, to: row.status });
    await logActivity('task', actor, TASK_LOG.unheld.action, TASK_LOG.unheld.details(row));
  }
  await recordEvent(fx, row.id, 'assigned', {
    actor,
    driverId: driver.id,
    from: row.status,
    to: 'en_proceso',
  });
  const log =
    mode === 'auto' ? TASK_LOG.autoAssigned : mode === 'self' ? TASK_LOG.selfAssigned : TASK_LOG.assigned;
  await logActivity('task', actor, log.action, log.details(row, driver.name));
  if (mode !== 'self') {
    const n = TASK_NOTIFICATION.assigned;
    await notify(driver.id, 'task_assigned', n.title, n.message(row), { taskId: row.id, playSound: true });
  }
  return next;
}
