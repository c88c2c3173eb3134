// Who sees a task (CONTRACT §5, §9): its rooms, and whether it is on a board at all. One rule, read by the
// socket pushes (changes/processors/sockets.ts through realtime/emit.ts) and by the writes that must know
// whether any screen holds a task (apply.ts).
import { and, gt, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { ROOMS } from '@shared/events';
import { BOARD_FINISHED_WINDOW_MS } from '@shared/constants';
import type { TaskStatus } from '@shared/enums';
import type { Task } from '@shared/schemas';
import { tasks, type TaskRow } from '../db/tables';

/** What decides a task's rooms. */
export type TaskPlace = Pick<Task, 'status' | 'vehicle_type' | 'assigned_to'>;

export const placeOfRow = (r: TaskRow): TaskPlace => ({
  status: r.status,
  vehicle_type: r.vehicleType,
  assigned_to: r.assignedTo,
});

/**
 * The rooms that may see a task (CONTRACT §9): staff always; a pool task also every driver having its
 * type; an assigned task also its driver (gestor never sees finalizada, so they are left out of those).
 */
export function taskRooms(task: TaskPlace): string[] {
  const rooms = task.status === 'finalizada' ? [ROOMS.role('admin'), ROOMS.role('manager')] : [ROOMS.staff];
  if (task.status === 'bolsa_trabajo') rooms.push(ROOMS.type(task.vehicle_type));
  if (task.assigned_to) rooms.push(ROOMS.user(task.assigned_to));
  return rooms;
}

export const OPEN_STATUSES: TaskStatus[] = ['bolsa_trabajo', 'en_proceso'];

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
      inArray(tasks.status, OPEN_STATUSES),
      gt(tasks.completedAt, new Date(at.getTime() - BOARD_FINISHED_WINDOW_MS)),
    ),
  )!;
