import type { Principal } from '../../principal';
import { applyTransition } from '../apply';
import { change } from '../change';
import { liveTask } from '../queries';
import { decide } from '../transitions';

/** DELETE /tasks/{id}: a soft delete; a driver who had it is told and is idle from now. */
export async function deleteTask(id: string, actor: Principal): Promise<void> {
  await change(async (fx) => {
    const row = await liveTask(id);
    await applyTransition(row, decide(row.status, 'delete', 'staff'), { at: fx.at, actor }, fx);
  });
}
