// After the commit: a change that touched tasks (created, moved, held, re-dated, deleted) asks for an
// escalation evaluation (CONTRACT §20). Coalesced: a burst of commits costs one evaluation shortly after
// (services/escalation.ts), outside the writes' own time.
import { scheduleEvaluation } from '../../services/escalation';
import type { ChangeSet } from '../change-set';

export function evaluateAfter(changes: ChangeSet): void {
  if (changes.tasks.size > 0) scheduleEvaluation();
}
