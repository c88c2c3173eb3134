// One change, one transaction (CONTRACT §5): the work records what it changed in a ChangeSet; the
// processors (./processors/) run on it before the commit and after it.
import { afterCommit, inTransaction, isRetryable, tx } from '../db';
import { markShownWriter } from '../db/dialect';
import { logger } from '../logger';
import { ChangeSet } from './change-set';
import { afterCommitted, beforeCommit } from './processors';

/**
 * Runs `work` in one transaction; its processors follow. Inside another transaction it is a savepoint of
 * it, processed when that one commits (with the tasks as they stood at the end of `work`).
 * `round`: what runs before the commit when `work` asks for it (changes.engine) — the assignment engine's
 * round, given by services/tasks.ts, so that the engine (which uses the tasks' writes) and the tasks
 * service do not import each other.
 */
export function commit<T>(
  work: (changes: ChangeSet) => Promise<T>,
  round?: (changes: ChangeSet) => Promise<void>,
): Promise<T> {
  const nested = inTransaction();
  return tx(
    async () => {
      // What the staff's shared board and yard answers show is changing (db/dialect.ts).
      if (nested) await markShownWriter();
      // Per attempt: a transaction run again (PostgreSQL) starts from nothing.
      const changes = new ChangeSet();
      // Registered first: the task pushes leave before those the work registers (notifications).
      afterCommit(() => afterCommitted(changes));
      const done = await work(changes);
      if (changes.engine && round) await roundWithin(changes, round);
      await beforeCommit(changes);
      return done;
    },
    { shownWriter: true },
  );
}

/**
 * The engine's round under a savepoint of the caller's transaction. Should it fail, only the round is
 * undone: the change that called it still commits, and the next round (any later change) tries again.
 * A deadlock or a serialization failure (PostgreSQL: the round waits for the rows and the round lock
 * other transactions hold) is not the round's failure: the whole change runs again (tx()), round
 * included, so no task is left waiting for want of a round.
 */
async function roundWithin(changes: ChangeSet, round: (changes: ChangeSet) => Promise<void>): Promise<void> {
  try {
    await savepoint(changes, round);
  } catch (err) {
    if (isRetryable(err)) throw err;
    logger.error({ err }, 'la ronda de asignación automática falló');
  }
}

/**
 * `work` under a savepoint of the open transaction: if it throws, its writes and changes are dropped.
 * `at`: the step's instant, when it must be the transaction's (a step of the same change).
 */
export async function savepoint<T>(
  changes: ChangeSet,
  work: (step: ChangeSet) => Promise<T>,
  at?: Date,
): Promise<T> {
  const step = new ChangeSet(at);
  const result = await tx(() => work(step));
  changes.absorb(step);
  return result;
}
