// One change, one transaction (CONTRACT §5): the work records what it changed in a ChangeSet; the
// processors (./processors/) run on it before the commit and after it. Every transaction has its set
// (db/index.ts keeps one per transaction level, made on first use): commit() hands it to its work,
// record() reaches it from anywhere, and outside a transaction record() processes a set at once.
import { inTransaction, isRetryable, transactionChanges, tx, useChangeLog } from '../db';
import { markShownWriter } from '../db/dialect';
import { logger } from '../logger';
import { ChangeSet } from './change-set';
import { beforeCommit, beforeRound, published } from './processors';

useChangeLog<ChangeSet>({
  absorb: (into, step) => into.absorb(step),
  beforeCommit: (changes) => beforeCommit(changes),
  afterCommit: (changes) => published(changes),
});

/** The running transaction level's set (`at`: its instant, when this call makes it). */
function running(at?: Date): ChangeSet {
  return transactionChanges(() => new ChangeSet(at))!;
}

/**
 * Records changes in the running transaction's set: processed around its commit, dropped with it (or with
 * the savepoint that made them) when it fails. Outside a transaction (presence, timers: nothing to
 * commit) the changes are processed at once: pushed (processors/index.ts published()).
 */
export function record(changes: (set: ChangeSet) => void): void {
  if (inTransaction()) return changes(running());
  const set = new ChangeSet();
  changes(set);
  published(set);
}

/**
 * Runs `work` in one transaction; its processors follow. Inside another transaction it is a savepoint of
 * it, whose changes join that transaction's and are processed when it commits.
 * `round`: what runs before the commit when `work` asks for it (changes.engine) — the assignment engine's
 * round, given by server/tasks/change.ts, so that the engine (which uses the tasks' writes) and the tasks
 * service do not import each other.
 */
export function commit<T>(work: (changes: ChangeSet) => Promise<T>, round?: Round): Promise<T> {
  const nested = inTransaction();
  return tx(
    async () => {
      // What the staff's shared board and yard answers show is changing (db/dialect.ts).
      if (nested) await markShownWriter();
      // Per attempt: a transaction run again (PostgreSQL) starts from nothing.
      const changes = running();
      const done = await work(changes);
      if (changes.engine && round) {
        await beforeRound(changes);
        await roundWithin(changes, round);
      }
      return done;
    },
    { shownWriter: true },
  );
}

/** The engine's round as a change runs it: its matching, then what follows a matching that succeeded. */
export interface Round {
  match(changes: ChangeSet): Promise<void>;
  finish(): Promise<void>;
}

/**
 * The engine's round: its matching under a savepoint of the caller's transaction. Should it fail, only the
 * matching is undone (and not finished): the change that called it still commits, and the next round (any
 * later change) tries again. A deadlock or a serialization failure (PostgreSQL: the round waits for the
 * rows and the round lock other transactions hold) is not the round's failure: the whole change runs
 * again (tx()), round included, so no task is left waiting for want of a round.
 */
async function roundWithin(changes: ChangeSet, round: Round): Promise<void> {
  try {
    await savepoint(changes, round.match);
  } catch (err) {
    if (isRetryable(err)) throw err;
    logger.error({ err }, 'la ronda de asignación automática falló');
    return;
  }
  await round.finish();
}

/**
 * `work` under a savepoint of the open transaction, with the step's own set: if it throws, its writes and
 * changes are dropped; if it succeeds, they join `_changes` (the transaction's set: db/index.ts joins them).
 * `at`: the step's instant, when it must be the transaction's (a step of the same change).
 */
export function savepoint<T>(
  _changes: ChangeSet,
  work: (step: ChangeSet) => Promise<T>,
  at?: Date,
): Promise<T> {
  return tx(() => work(running(at)));
}
