import type { Actor } from '../../services/activity';
import { applyTransition } from '../apply';
import { change } from '../change';
import { activeTaskRow, nameOf } from '../queries';
import { decide } from '../transitions';

/**
 * A driver deleted or no longer a conductor: their active task goes back to the pool (CONTRACT §4),
 * inside the caller's transaction, after the account change is written (so the engine's round that
 * follows never picks them).
 */
export async function releaseDriverTask(driverId: string, actor: Actor): Promise<void> {
  await change(async (fx) => {
    const row = await activeTaskRow(driverId);
    if (!row) return;
    const t = decide(row.status, 'release-driver', 'staff');
    await applyTransition(row, t, { at: fx.at, actor, driverName: await nameOf(driverId) }, fx);
  });
}
