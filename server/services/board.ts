// GET /api/tasks for the staff's boards (issue 17): many identical screens — a control room's wall, every
// screen of a node that died resyncing on the survivors — share one query and one serialisation per
// board version (./shared-answers.ts), and a browser that already holds that version gets 304. Drivers'
// lists are each their own (their types, their tasks) and are not shared.
//
// The version is read from the database, so it is the same on every node: the newest change of any task
// (tasks_updated: creations, moves, holds, deletions all set updated_at), the newest presence transition
// of any driver (assignee_online and its time are derived from users, not from the task; staff coming and
// going change nothing on a board), the newest change of any trailer (every task shows its trailer's marks,
// CONTRACT §19: a finished task of the last 24 h is not bumped when they change), and the minute (the finished tasks of the last 24 h slide out of the
// board as time passes). A version read while a task writer runs is not kept (db/dialect.ts).
import { boardClass } from '@shared/visibility';
import { query } from '../db';
import { WRITERS_QUIET } from '../db/dialect';
import { nowMs } from '../clock';
import type { Principal } from '../principal';
import { listTasks } from '../tasks';
import { sharedAnswer, type SharedAnswer } from './shared-answers';

/** How long the sliding 24-hour window may lag: a finished task leaves the board within a minute. */
export const BOARD_WINDOW_STEP_MS = 60_000;

// The newest change, and the versions of the tasks changed in its millisecond (a change landing in the
// same millisecond as the one read moves the sum); whether a writer runs (db/dialect.ts WRITERS_QUIET).
const VERSION_SQL = `SELECT (SELECT max(updated_at) FROM tasks) AS tasks_at,
  (SELECT sum(version) FROM tasks WHERE updated_at = (SELECT max(updated_at) FROM tasks)) AS tie,
  (SELECT max(last_activity_at) FROM users WHERE role = 'conductor') AS people_at,
  (SELECT max(updated_at) FROM trailers) AS trailers_at, ${WRITERS_QUIET} AS quiet`;

/** The shared board of the user's class at the database's current version; undefined for a driver. */
export async function sharedBoard(user: Principal): Promise<SharedAnswer | undefined> {
  const cls = boardClass(user.role);
  if (!cls) return undefined;
  const [v] = await query<Record<string, unknown>>(VERSION_SQL);
  const version = v?.quiet
    ? `${v?.tasks_at}:${v?.tie}:${v?.people_at}:${v?.trailers_at}:${Math.floor(nowMs() / BOARD_WINDOW_STEP_MS)}`
    : null;
  return sharedAnswer(`board:${cls}`, version, () => listTasks(user));
}
