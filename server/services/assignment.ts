// The auto-assignment engine (CONTRACT §5), over the one availability rule (services/availability.ts).
// Pool tasks of the automatic types, high priority first then oldest, each go to the available driver
// having the type who has been idle longest (ties: fewer movements); never back to the driver who
// returned it less than 30 minutes ago; a task on hold never (CONTRACT §15). A round is one
// transaction (or part of one), then the pushes.
// Callers: task creation, return, completion and staff moves run the round inside their own
// transaction (change() in services/tasks.ts); clock-in, coming online and task-type changes (accounts)
// and a moved test clock (below) call runAssignment() after their own commit.
import { and, asc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type Database from 'better-sqlite3';
import { AUTO_ASSIGNED_TYPES } from '@shared/enums';
import { RETURN_COOLDOWN_MS } from '@shared/constants';
import { db, sqlite } from '../db';
import { tasks } from '../db/schema';
import { nowMs, onClockAdvance } from '../clock';
import { driverStates, type DriverState } from './availability';
import { assignDriver, commit, type Effects } from './task-writes';

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
 * so a long pool costs no more than the tasks actually matched.
 */
function* poolInOrder() {
  for (const priority of ['high', 'normal', 'low'] as const) {
    let after: { at: Date; id: string } | undefined;
    for (;;) {
      const page = db
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
        .limit(POOL_PAGE)
        .all();
      yield* page;
      if (page.length < POOL_PAGE) break;
      const last = page[page.length - 1];
      after = { at: last.createdAt, id: last.id };
    }
  }
}

// Along tasks_untried (SQLite would otherwise walk the whole pool by tasks_status): only untried rows.
// A held task is not tried: its first attempt comes once it is released.
const UNTRIED_SQL = `UPDATE tasks INDEXED BY tasks_untried SET no_drivers_available = 1
  WHERE status = 'bolsa_trabajo' AND deleted_at IS NULL AND no_drivers_available IS NULL AND on_hold = 0
    AND vehicle_type IN (${AUTO_ASSIGNED_TYPES.map((t) => `'${t}'`).join(', ')})`;
let untried: { db: typeof sqlite; stmt: Database.Statement<[]> } | undefined;
function markUntried(): void {
  if (untried?.db !== sqlite) untried = { db: sqlite, stmt: sqlite.prepare<[]>(UNTRIED_SQL) };
  untried.stmt.run();
}

/** One matching round in its own transaction. Safe to call any time; does nothing when no task waits. */
export function runAssignment(): void {
  if (!sqlite?.open) return;
  commit(assignmentRound);
}

/** One matching round inside the caller's transaction; its pushes go to `fx`. */
export function assignmentRound(fx: Effects): void {
  const drivers = driverStates('free')
    .filter((d) => d.available)
    .sort(longestIdle);
  const at = nowMs();
  if (drivers.length)
    for (const task of poolInOrder()) {
      const having = drivers.filter((d) => d.taskTypes.includes(task.vehicleType));
      if (task.noDriversAvailable === null)
        db.update(tasks)
          .set({ noDriversAvailable: having.length === 0 })
          .where(eq(tasks.id, task.id))
          .run();
      const cooling = task.returnedAt && at - task.returnedAt.getTime() < RETURN_COOLDOWN_MS;
      const driver = having.find((d) => !(cooling && d.id === task.returnedBy));
      if (!driver) continue;
      drivers.splice(drivers.indexOf(driver), 1);
      assignDriver(task, driver, null, fx, 'auto');
      if (!drivers.length) break;
    }
  // The tasks still untried found no driver left: their first attempt (the deficiency report).
  markUntried();
}

/** A returned task may go back to its driver once the cooldown ends, even if nothing else happens. */
export function runAssignmentAfterCooldown(): void {
  setTimeout(runAssignment, RETURN_COOLDOWN_MS + 1_000).unref();
}

// A moved test clock runs one round (CONTRACT §2): the 30-minute rule is reachable from tests.
onClockAdvance(runAssignment);
