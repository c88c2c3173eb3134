// After the commit: the assignment engine's round when a change made a driver ready for work without a
// task moving (a clock-in, a correction, repaired task types). Started, not awaited: the round runs its
// own transactions (server/tasks/assignment.ts).
import { startAssignment } from '../../tasks/assignment';
import type { ChangeSet } from '../change-set';

export function startRoundAfter(changes: ChangeSet): void {
  if (changes.roundAfter) startAssignment();
}
