// The processors of a change set (LAYOUT.md, revision 3), in their order. Code that changes something
// records it and never pushes, forgets a cache or settles the yard itself: these do, for every change
// alike (docs/TASKS.md › The change log).
import { forgetSharedAnswers } from '../../services/shared-answers';
import type { ChangeSet } from '../change-set';
import { pushToPhones } from './push';
import { pushSockets, readForSockets } from './sockets';
import { settleYard } from './yard';

/**
 * Inside the transaction, once its work (and the engine's round) is done: the last writes and reads.
 * The hook where whatever must commit with the change itself is written (the webhooks' outbox rows).
 */
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
  published(changes);
}

/**
 * What follows every change set, committed or recorded outside a transaction (presence, timers: nothing
 * of what the shared answers show was written): the socket pushes, then Web Push.
 */
export function published(changes: ChangeSet): void {
  pushSockets(changes);
  pushToPhones(changes);
}
