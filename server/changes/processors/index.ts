// The processors of a change set (LAYOUT.md, revision 3), in their order. Code that changes something
// records it and never pushes or settles the yard itself: these do, for every change alike (docs/TASKS.md
// › The change log). No cache is forgotten here: what a node keeps (figures, driver lists, shared answers)
// checks the database's change mark before it serves (db/change-mark.ts), on every node alike (§23).
import type { ChangeSet } from '../change-set';
import { startRoundAfter } from './assignment';
import { evaluateAfter } from './escalation';
import { pushToPhones } from './push';
import { pushSockets, readForSockets } from './sockets';
import { bumpTrailerTasks } from './trailers';
import { refuseOverfullPlaces, settleMoves, settleYard } from './yard';
import { wakeWebhookSender, writeWebhookOutbox } from './webhooks';

/**
 * Inside the transaction, once its work is done and before the engine's round: what the round never
 * changes, written before its lock is taken (PostgreSQL: the rounds take turns, and hold it to the commit).
 */
export async function beforeRound(changes: ChangeSet): Promise<void> {
  await settleMoves(changes);
}

/**
 * Inside the transaction, once its work (and the engine's round) is done: the last writes and reads.
 * The hook where whatever must commit with the change itself is written (the webhooks' outbox rows).
 */
export async function beforeCommit(changes: ChangeSet): Promise<void> {
  await bumpTrailerTasks(changes);
  await settleMoves(changes);
  // The last reads, side by side (PostgreSQL: they leave together, one wait for all their answers). The
  // sockets' read brings the active webhooks on PostgreSQL: the outbox, after it, needs no read of its own.
  await Promise.all([settleYard(changes), readForSockets(changes)]);
  await writeWebhookOutbox(changes);
  // Last: the places' locks (PostgreSQL) are then held only until the commit.
  await refuseOverfullPlaces(changes);
}

/**
 * What follows every change set, once its transaction has committed or as it is recorded outside one
 * (presence, timers): the socket pushes, Web Push, then the assignment round it asks for, then the
 * escalation evaluation a task change asks for, the webhooks' sender.
 */
export function published(changes: ChangeSet): void {
  pushSockets(changes);
  pushToPhones(changes);
  startRoundAfter(changes);
  evaluateAfter(changes);
  wakeWebhookSender(changes);
}
