// Who sees a task (CONTRACT §5, §9), the server's side: the rule and a task's rooms are shared/visibility.ts's
// (one rule with the client); here, a row's place and whether a task is on a board at all, read by the
// socket pushes (changes/processors/sockets.ts through realtime/emit.ts) and by the writes that must know
// whether any screen holds a task (apply.ts).
import { and, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { BOARD_FINISHED_WINDOW_MS } from '@shared/constants';
import type { TaskStatus } from '@shared/enums';
import type { TaskPlace } from '@shared/visibility';
import { tasks, type TaskRow } from '../db/tables';

export { taskRooms, type TaskPlace } from '@shared/visibility';

export const placeOfRow = (r: TaskRow): TaskPlace => ({
  status: r.status,
  vehicle_type: r.vehicleType,
  assigned_to: r.assignedTo,
});

export const OPEN_STATUSES: readonly TaskStatus[] = ['bolsa_trabajo', 'en_proceso'];

/**
 * A live open task, as SQL over `tasks`, its statuses written as literals like the partial indexes' own
 * predicate (db/schema.ts: tasks_incoming, tasks_open_trailer_key, tasks_open_trailer). SQLite uses a
 * partial index only when the query's WHERE implies it, which a bound `status IN (?, ?)` never does: it
 * then walks every open task by tasks_status (the gate's room check cost 4 ms an entry that way).
 */
export const openTaskSql: SQL = sql`${tasks.status} IN (${sql.raw(
  OPEN_STATUSES.map((s) => `'${s}'`).join(', '),
)}) AND ${tasks.deletedAt} IS NULL`;

/** The same filter as raw SQL over `tasks` unqualified (the services' query()/execute()). */
export const OPEN_TASK_SQL = `status IN (${OPEN_STATUSES.map((s) => `'${s}'`).join(', ')}) AND deleted_at IS NULL`;

/**
 * Whether a task is on some board (GET /tasks, CONTRACT §5): live, and open or finished within the
 * window. A screen holds no other.
 */
export const onBoard = (row: TaskRow, at: Date): boolean =>
  !row.deletedAt &&
  (row.status !== 'finalizada' ||
    (!!row.completedAt && row.completedAt.getTime() > at.getTime() - BOARD_FINISHED_WINDOW_MS));

/** onBoard() as SQL over `tasks`. */
export const onBoardSql = (at: Date): SQL =>
  and(
    isNull(tasks.deletedAt),
    or(
      inArray(tasks.status, [...OPEN_STATUSES]),
      gt(tasks.completedAt, new Date(at.getTime() - BOARD_FINISHED_WINDOW_MS)),
    ),
  )!;
