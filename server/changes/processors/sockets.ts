// The socket processor: the one place that turns a transaction's task and yard changes into pushes
// (realtime/emit.ts). What it pushes is read before the commit (on the transaction's connection), the push
// itself is synchronous after it: a transaction that throws pushes nothing.
import { loadTasksByIds } from '../../presenters/tasks';
import * as emit from '../../realtime/emit';
import type { ChangeSet } from '../change-set';

/** Before the commit: the created and updated tasks as they stand (the last read of the transaction). */
export async function readForSockets(changes: ChangeSet): Promise<void> {
  const ids = [...changes.tasks].filter(([, change]) => change.kind !== 'deleted').map(([id]) => id);
  for (const [id, task] of await loadTasksByIds(ids)) changes.loaded.set(id, task);
}

/** After the commit: one task:* event per task changed, the figures when they moved, the yard's places. */
export function pushSockets(changes: ChangeSet): void {
  for (const [id, change] of changes.tasks) {
    if (change.kind === 'deleted') {
      emit.taskDeleted({ id, ...change.before! });
      continue;
    }
    const task = changes.loaded.get(id);
    if (!task) continue;
    changes.presented.set(id, task);
    if (change.kind === 'created') emit.taskCreated(task);
    else emit.taskUpdated(task, change.before);
  }
  if (changes.figures) emit.figuresChanged();
  emit.yardChanged([...changes.yardPlaces]);
}
