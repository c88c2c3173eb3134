// The auto-assignment engine (CONTRACT §5), over the one availability rule (services/availability.ts).
// Pool tasks of the automatic types, high priority first then oldest, each go to the available driver
// having the type who has been idle longest (ties: fewer movements); never back to the driver who
// returned it less than 30 minutes ago. One transaction for the whole round, then the pushes.
// Callers: task creation, return, completion, staff moves (services/tasks.ts); clock-in, coming online
// and task-type changes (accounts); a moved test clock (below). Call it after your own commit.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { AUTO_ASSIGNED_TYPES } from '@shared/enums';
import { RETURN_COOLDOWN_MS } from '@shared/constants';
import { db, sqlite } from '../db';
import { tasks } from '../db/schema';
import { nowMs, onClockAdvance } from '../clock';
import { driverStates, type DriverState } from './availability';
import { assignDriver, commit } from './tasks';

const byPriority = sql`CASE ${tasks.priority} WHEN 'high' THEN 0 WHEN 'normal' THEN 1 ELSE 2 END`;
const waitingAuto = () =>
  and(
    eq(tasks.status, 'bolsa_trabajo'),
    isNull(tasks.deletedAt),
    inArray(tasks.vehicleType, [...AUTO_ASSIGNED_TYPES]),
  );

/** Longest idle first (never marked idle counts as idle forever), then fewer movements. */
const longestIdle = (a: DriverState, b: DriverState) =>
  (a.idleSince ?? 0) - (b.idleSince ?? 0) || a.movementsCount - b.movementsCount || a.id.localeCompare(b.id);

/** One matching round. Safe to call any time; does nothing when no task waits. */
export function runAssignment(): void {
  if (!sqlite?.open) return;
  commit((fx) => {
    const drivers = driverStates()
      .filter((d) => d.available)
      .sort(longestIdle);
    if (!drivers.length) {
      // Nobody to match: only record the first attempt of tasks never tried (deficiency report).
      db.update(tasks)
        .set({ noDriversAvailable: true })
        .where(and(waitingAuto(), isNull(tasks.noDriversAvailable)))
        .run();
      return;
    }
    const pool = db.select().from(tasks).where(waitingAuto()).orderBy(byPriority, asc(tasks.createdAt)).all();
    const at = nowMs();
    for (const task of pool) {
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
    }
  });
}

/** A returned task may go back to its driver once the cooldown ends, even if nothing else happens. */
export function runAssignmentAfterCooldown(): void {
  setTimeout(runAssignment, RETURN_COOLDOWN_MS + 1_000).unref();
}

// A moved test clock runs one round (CONTRACT §2): the 30-minute rule is reachable from tests.
onClockAdvance(runAssignment);
