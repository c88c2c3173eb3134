// The processors of a change set (LAYOUT.md, revision 3), in their order. A command records changes and
// never pushes or settles the yard itself: these do, for every command alike. No cache is forgotten here:
// what a node keeps (figures, driver lists, shared answers) checks the database's change mark before it
// serves (db/change-mark.ts), on every node alike (CONTRACT §23).
import type { ChangeSet } from '../change-set';
import { pushSockets, readForSockets } from './sockets';
import { settleYard } from './yard';

/** Inside the transaction, once its work (and the engine's round) is done: the last writes and reads. */
export async function beforeCommit(changes: ChangeSet): Promise<void> {
  await settleYard(changes);
  await readForSockets(changes);
}

/** Once the transaction has committed. */
export function afterCommitted(changes: ChangeSet): void {
  pushSockets(changes);
}
