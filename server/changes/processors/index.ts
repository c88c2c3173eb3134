// The processors of a change set (LAYOUT.md, revision 3), in their order. A command records changes and
// never pushes, forgets a cache or settles the yard itself: these do, for every command alike.
import { forgetSharedAnswers } from '../../services/shared-answers';
import type { ChangeSet } from '../change-set';
import { pushSockets, readForSockets } from './sockets';
import { settleYard } from './yard';

/** Inside the transaction, once its work (and the engine's round) is done: the last writes and reads. */
export async function beforeCommit(changes: ChangeSet): Promise<void> {
  await settleYard(changes);
  await readForSockets(changes);
}

/**
 * Once the transaction has committed. The shared answers (the staff's board, the yard) are dropped before
 * the pushes make screens read again.
 */
export function afterCommitted(changes: ChangeSet): void {
  forgetSharedAnswers();
  pushSockets(changes);
}
