// Who sees a task (SPEC §6, CONTRACT §5, §9): one rule for the server's socket rooms, its board lists and
// shared board classes, and the client's columns. Drivers see the pool tasks of their types and their own
// tasks; staff see every open task; every role but gestor also sees the finished ones.
import { STAFF_ROLES, type Role, type TaskStatus, type VehicleType } from './enums';
import { ROOMS } from './events';

/** SPEC §6 «See finalizada column»: everyone but gestor. */
export const FINISHED_VIEWERS: readonly Role[] = ['conductor', 'manager', 'admin'];
export const seesFinished = (role: Role): boolean => FINISHED_VIEWERS.includes(role);
export const isStaff = (role: Role): boolean => (STAFF_ROLES as readonly Role[]).includes(role);

/** What decides who sees a task. */
export interface TaskPlace {
  status: TaskStatus;
  vehicle_type: VehicleType;
  assigned_to: string | null;
}

/** Who is looking. */
export interface Viewer {
  id: string;
  role: Role;
  /** A driver's task types (ignored for staff). */
  taskTypes: readonly VehicleType[];
}

/** The rule itself: whether `viewer` sees `task` (on a board within its window: services and SQL add that). */
export function canSee(viewer: Viewer, task: TaskPlace): boolean {
  if (task.status === 'finalizada' && !seesFinished(viewer.role)) return false;
  if (isStaff(viewer.role)) return true;
  if (task.assigned_to === viewer.id) return true;
  return task.status === 'bolsa_trabajo' && viewer.taskTypes.includes(task.vehicle_type);
}

/** The Socket.IO rooms a viewer's socket joins (server/realtime/io.ts), its session's among them. */
export function viewerRooms(viewer: Viewer, sid: string): string[] {
  const rooms = [
    ROOMS.user(viewer.id),
    ROOMS.session(sid),
    ROOMS.role(viewer.role),
    isStaff(viewer.role) ? ROOMS.staff : ROOMS.drivers,
  ];
  if (viewer.role === 'conductor') rooms.push(...viewer.taskTypes.map(ROOMS.type));
  return rooms;
}

/** The rooms a task is pushed to: exactly the sockets of the viewers canSee() lets see it. */
export function taskRooms(task: TaskPlace): string[] {
  const rooms =
    task.status === 'finalizada' ? FINISHED_VIEWERS.filter(isStaff).map(ROOMS.role) : [ROOMS.staff];
  if (task.status === 'bolsa_trabajo') rooms.push(ROOMS.type(task.vehicle_type));
  if (task.assigned_to) rooms.push(ROOMS.user(task.assigned_to));
  return rooms;
}

/**
 * Staff boards are computed once per class and shared (server/services/board.ts): every user of a class sees
 * the same tasks. A driver's board is their own (undefined).
 */
export type BoardClass = 'supervisors' | 'gestor';
export const boardClass = (role: Role): BoardClass | undefined =>
  !isStaff(role) ? undefined : seesFinished(role) ? 'supervisors' : 'gestor';
