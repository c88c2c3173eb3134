// The trailers' processor (CONTRACT §19), before the commit: every task shows its trailer's marks, so the
// open tasks of the trailers whose records this transaction changed get a new version and are pushed, and
// the places they stand at are told (the Patio shows the marks too): it runs before the yard's processor.
import { showTrailerMarks } from '../../tasks/commands/trailer-marks';
import type { ChangeSet } from '../change-set';

export async function bumpTrailerTasks(changes: ChangeSet): Promise<void> {
  if (!changes.trailers.size) return;
  // A trailer claimed by this transaction has no open task but its own (a new task's fresh record).
  await showTrailerMarks(
    [...changes.trailers].filter((key) => !changes.claimed.has(key)),
    changes,
  );
  for (const key of changes.trailers) changes.yardTrailers.add(key);
}
