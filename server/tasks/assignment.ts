// The auto-assignment engine (CONTRACT §5), over the one availability rule (services/availability.ts).
// Pool tasks of the automatic types, high priority first then oldest, each go to the available driver
// having the type who has been idle longest (ties: fewer movements); never back to the driver who
// returned it less than 30 minutes ago; a task on hold never (CONTRACT §15). A round is one
// transaction (or part of one), then the pushes.
// PostgreSQL, whose transactions run side by side: one round at a time (an advisory lock held until the
// round's transaction ends), each reading after the previous one committed — two rounds that each read
// before the other's commit would miss one another's new task and freed driver, and both leave the task
// waiting; the pool tasks a round reads are locked (FOR UPDATE) so it writes over the version it
// decided on. SQLite's one writer gives the same by itself.
// Callers: task creation, return, completion and staff moves run the round inside their own
// transaction (tasks/change.ts); clock-in, coming online and task-type changes (accounts)
// and a moved test clock (below) start runAssignment() after their own commit (startAssignment():
// not awaited, failures logged).
import { and, asc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import { AUTO_ASSIGNED_TYPES } from '@shared/enums';
import { RETURN_COOLDOWN_MS } from '@shared/constants';
import { ERR } from '@shared/labels';
import { db, isDatabaseOpen } from '../db';
import { DECISION_LOCK, forUpdate, lockDecision } from '../db/dialect';
import { tasks, type TaskRow } from '../db/tables';
import { nowMs, onClockAdvance } from '../clock';
import { logger } from '../logger';
import { HttpError } from '../http/errors';
import { driverStates, type DriverState } from '../services/availability';
import type { ChangeSet } from '../changes/change-set';
import { commit, savepoint, type Round } from '../changes/commit';
import { markTried, markUntried } from './apply';
import { assignDriver } from './commands/assign';

const POOL_PAGE = 20;
/** Pool tasks of the automatic types, except those on hold (CONTRACT §15: never auto-assigned). */
const waitingAuto = () =>
  and(
    eq(tasks.status, 'bolsa_trabajo'),
    isNull(tasks.deletedAt),
    eq(tasks.onHold, false),
    inArray(tasks.vehicleType, [...AUTO_ASSIGNED_TYPES]),
  );

/** Longest idle first (never marked idle counts as idle forever), then fewer movements. */
const longestIdle = (a: DriverState, b: DriverState) =>
  (a.idleSince ?? 0) - (b.idleSince ?? 0) || a.movementsCount - b.movementsCount || a.id.localeCompare(b.id);

/**
 * The waiting pool in the engine's order (high priority first, then oldest), read lazily a priority at a
 * time along tasks_status (status, priority, created_at): a round that runs out of drivers stops reading,
 * so a long pool costs no more than the tasks actually matched. Read on the caller's transaction, and
 * locked by it (PostgreSQL): a task another transaction is changing is read once that one committed.
 */
async function* poolInOrder() {
  for (const priority of ['high', 'normal', 'low'] as const) {
    let after: { at: Date; id: string } | undefined;
    for (;;) {
      const page = await forUpdate(
        db
          .select()
          .from(tasks)
          .where(
            and(
              waitingAuto(),
              eq(tasks.priority, priority),
              after &&
                or(gt(tasks.createdAt, after.at), and(eq(tasks.createdAt, after.at), gt(tasks.id, after.id))),
            ),
          )
          .orderBy(asc(tasks.createdAt), asc(tasks.id))
          .limit(POOL_PAGE),
      );
      yield* page;
      if (page.length < POOL_PAGE) break;
      const last = page[page.length - 1];
      after = { at: last.createdAt, id: last.id };
    }
  }
}

/**
 * One matching round in its own transaction. Safe to call any time; does nothing when no task waits or
 * no database is open. Callers after their own commit start it without awaiting (startAssignment()).
 */
export async function runAssignment(): Promise<void> {
  if (!isDatabaseOpen()) return;
  await commit(async (fx) => {
    await assignmentRound.match(fx);
    await assignmentRound.finish();
  });
}

/** Rounds started and not yet finished (assignmentsSettled()). */
const running = new Set<Promise<void>>();

/** Starts a round without waiting for it (timers, the clock, effects after a commit); failures are logged. */
export function startAssignment(): void {
  const round = runAssignment().catch((err: unknown) => {
    logger.error({ err }, 'la ronda de asignación automática falló');
  });
  running.add(round);
  void round.then(() => running.delete(round));
}

/** Resolves once the rounds started with startAssignment() have finished: before the database closes. */
export async function assignmentsSettled(): Promise<void> {
  while (running.size) await Promise.all(running);
}

/**
 * One matching round inside the caller's transaction; its pushes go to `fx`. Which drivers are free and
 * which tasks wait is read here, on that transaction: what the round decides is what it writes over.
 */
async function matchPool(fx: ChangeSet): Promise<void> {
  // Before anything is read: a round running elsewhere is waited for, then seen (PostgreSQL).
  await lockDecision(DECISION_LOCK.assignmentRound);
  const drivers = (await driverStates('free')).filter((d) => d.available).sort(longestIdle);
  const at = nowMs();
  if (drivers.length)
    for await (const task of poolInOrder()) {
      const having = drivers.filter((d) => d.taskTypes.includes(task.vehicleType));
      if (task.noDriversAvailable === null) await markTried(task.id, having.length === 0);
      const cooling = task.returnedAt && at - task.returnedAt.getTime() < RETURN_COOLDOWN_MS;
      for (const driver of having) {
        if (cooling && driver.id === task.returnedBy) continue;
        // Given the task, or busy meanwhile: either way not free any more for this round.
        drivers.splice(drivers.indexOf(driver), 1);
        if (await assignFree(task, driver, fx)) break;
      }
      if (!drivers.length) break;
    }
}

/**
 * The engine's round (changes/commit.ts `Round`): the matching, then the tasks still untried, which found
 * no driver left, marked as their first attempt (the deficiency report) — under the round's lock, still
 * held until the commit. In a change the matching runs under a savepoint, and a savepoint kept waits for
 * the answers of what its step sent (db/postgres.ts): marked after it, the update leaves with the change's
 * next statement instead of making the round's end wait for its answer (PostgreSQL).
 */
export const assignmentRound: Round = { match: matchPool, finish: markUntried };

/**
 * Gives the task to the driver, unless they took a task since the round read them free (PostgreSQL: a
 * claim or a staff assignment committed meanwhile; tasks_active_driver refuses the second). Under a
 * savepoint of the round, so that refusal undoes only this assignment and the round goes on.
 */
async function assignFree(task: TaskRow, driver: DriverState, fx: ChangeSet): Promise<boolean> {
  try {
    await savepoint(fx, (step) => assignDriver(task, driver, null, step, 'engine'), fx.at);
    return true;
  } catch (err) {
    if (err instanceof HttpError && err.detail === ERR.driverBusy) return false;
    throw err;
  }
}

/**
 * How often every node runs a round whatever happens: a returned task goes back to its driver once the
 * cooldown ends (RETURN_COOLDOWN_MS), with no timer lost when a node stops (startAssignmentSweep). Rounds of
 * several nodes take turns (the advisory lock) and find nothing left to do after the first.
 */
export const ASSIGNMENT_SWEEP_MS = 30_000;

/** Starts the periodic round (none while another runs: it would find nothing more); returns its stop. */
export function startAssignmentSweep(): () => void {
  const timer = setInterval(() => {
    if (running.size === 0) startAssignment();
  }, ASSIGNMENT_SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}

// A moved test clock runs one round (CONTRACT §2): the 30-minute rule is reachable from tests.
onClockAdvance(() => {
  startAssignment();
  return assignmentsSettled();
});
