// The only place that emits socket events (CONTRACT §9). Services call these after their transaction
// commits (synchronously, from afterCommit: nothing here reads the database but the coalesced figures,
// computed on their own timer); with no Socket.IO attached (API tests) every call is a no-op.
import type { Server } from 'socket.io';
import {
  EV,
  REVOKE_MESSAGES,
  ROOMS,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@shared/events';
import type { RevokeReason } from '@shared/enums';
import type {
  AdminUser,
  DashboardStats,
  Notification,
  OnlineDriver,
  RankingEntry,
  Task,
  TimeclockStatus,
} from '@shared/schemas';
import { STATS_COALESCE_MS } from '@shared/constants';
import { logger } from '../logger';

export interface SocketData {
  userId: string;
  role: string;
  sid: string;
  exp: number;
  taskTypes: string[];
  /** revocationCount() when the handshake began (realtime/io.ts). */
  revocations: number;
}

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

let io: IoServer | undefined;

export function setIo(server: IoServer | undefined): void {
  io = server;
}
export const getIo = (): IoServer | undefined => io;

// ---- tasks ---------------------------------------------------------------------------------

/**
 * The rooms that may see a task (CONTRACT §9): staff always; a pool task also every driver having its
 * type; an assigned task also its driver (gestor never sees finalizada, so they are left out of those).
 */
export function taskRooms(task: Pick<Task, 'status' | 'vehicle_type' | 'assigned_to'>): string[] {
  const rooms = task.status === 'finalizada' ? [ROOMS.role('admin'), ROOMS.role('manager')] : [ROOMS.staff];
  if (task.status === 'bolsa_trabajo') rooms.push(ROOMS.type(task.vehicle_type));
  if (task.assigned_to) rooms.push(ROOMS.user(task.assigned_to));
  return rooms;
}

export function taskCreated(task: Task): void {
  io?.to(taskRooms(task)).emit(EV.taskCreated, { task });
}

/**
 * A task changed. `before` is what it looked like, so the rooms that could see it and no longer can
 * (a pool task claimed by another driver, a reassigned driver) are told it left, with its id only.
 */
export function taskUpdated(
  task: Task,
  before?: Pick<Task, 'status' | 'vehicle_type' | 'assigned_to'>,
): void {
  if (!io) return;
  const now = taskRooms(task);
  io.to(now).emit(EV.taskUpdated, { task });
  if (!before) return;
  const gone = taskRooms(before).filter((r) => !now.includes(r));
  if (gone.length) io.to(gone).except(now).emit(EV.taskRemoved, { id: task.id });
}

export function taskDeleted(task: Pick<Task, 'id' | 'status' | 'vehicle_type' | 'assigned_to'>): void {
  io?.to(taskRooms(task)).emit(EV.taskDeleted, { id: task.id });
}

// ---- figures --------------------------------------------------------------------------------

type StatsFor = (role: 'admin' | 'other') => Promise<DashboardStats>;
type DriversFor = () => Promise<{ online_drivers: OnlineDriver[]; rankings: RankingEntry[] }>;
let statsTimer: NodeJS.Timeout | undefined;
let statsSource: StatsFor | undefined;
let driversSource: DriversFor | undefined;

/** Registered once by the dashboard service (avoids an import cycle). */
export function setFigureSources(stats: StatsFor, drivers: DriversFor | undefined): void {
  statsSource = stats;
  driversSource = drivers;
}

/** Stats and driver lists changed: pushed to staff at most every 250 ms, coalesced. */
export function figuresChanged(): void {
  if (!io || statsTimer) return;
  statsTimer = setTimeout(() => {
    flushFigures().catch((err: unknown) => {
      // A server closing meanwhile (its database with it) has nobody left to tell.
      if (io) logger.error({ err }, 'no se pudieron enviar las cifras del panel');
    });
  }, STATS_COALESCE_MS);
  statsTimer.unref();
}

/**
 * Computes the figures (reads outside any transaction: committed data only) and pushes them. A change
 * that commits while they are read schedules the next push.
 */
export async function flushFigures(): Promise<void> {
  clearTimeout(statsTimer);
  statsTimer = undefined;
  if (!io || !statsSource) return;
  // The stats are computed even with nobody on a board (one memoized query): the workload alert's
  // `since` must see every status change as it happens (CONTRACT §15).
  const others = await statsSource('other');
  // Nobody on a board: nothing more to compute (the driver lists read every driver of the yard).
  if (!io?.sockets.adapter.rooms.get(ROOMS.staff)?.size) return;
  const admin = await statsSource('admin');
  const drivers = await driversSource?.();
  if (!io) return;
  io.to(ROOMS.role('admin')).emit(EV.statsUpdated, { stats: admin });
  io.to(ROOMS.staff).except(ROOMS.role('admin')).emit(EV.statsUpdated, { stats: others });
  if (drivers) io.to(ROOMS.staff).emit(EV.driversUpdated, drivers);
}

// ---- people ---------------------------------------------------------------------------------

export function notificationNew(userId: string, notification: Notification): void {
  io?.to(ROOMS.user(userId)).emit(EV.notificationNew, { notification });
}

export function notificationsRead(userId: string, ids: string[]): void {
  io?.to(ROOMS.user(userId)).emit(EV.notificationsRead, { ids });
}

export function timeclockChanged(userId: string, status: TimeclockStatus): void {
  io?.to(ROOMS.user(userId)).emit(EV.timeclockUpdated, { status });
  io?.to([ROOMS.role('admin'), ROOMS.role('manager')]).emit(EV.timeclockChanged, { user_id: userId, status });
}

export function usersPending(count: number): void {
  io?.to(ROOMS.role('admin')).emit(EV.usersPending, { count });
}

/** A driver's task types changed: pool tasks they can now see arrive, those they lost leave. */
export function driverTypesChanged(userId: string, gained: Task[], lostIds: string[]): void {
  if (!io) return;
  for (const task of gained) io.to(ROOMS.user(userId)).emit(EV.taskCreated, { task });
  for (const id of lostIds) io.to(ROOMS.user(userId)).emit(EV.taskRemoved, { id });
}

/** An account left the lists (deleted, or a rejected registration). */
export function userRemoved(id: string): void {
  io?.to(ROOMS.role('admin')).emit(EV.usersRemoved, { id });
}

export function userChanged(user: AdminUser): void {
  io?.to(ROOMS.role('admin')).emit(EV.usersChanged, { user });
}

/** Keeps a driver's sockets in the type rooms of their current task types. */
export async function syncTypeRooms(userId: string, types: readonly string[]): Promise<void> {
  if (!io) return;
  for (const socket of await io.in(ROOMS.user(userId)).fetchSockets()) {
    for (const room of socket.rooms) if (room.startsWith('type:')) socket.leave(room);
    socket.join(types.map(ROOMS.type));
  }
}

let revocations = 0;

/**
 * How many revocations have been pushed: a socket whose handshake awaited across one was not yet in the
 * rooms that heard it, and is looked at again (realtime/io.ts).
 */
export const revocationCount = (): number => revocations;

/** Tells the user's sockets why their session ended, then drops them. */
export function revokeUser(userId: string, reason: RevokeReason): void {
  revocations++;
  if (!io) return;
  io.to(ROOMS.user(userId)).emit(EV.sessionRevoked, { reason, detail: REVOKE_MESSAGES[reason] });
  io.in(ROOMS.user(userId)).disconnectSockets(true);
}

/** One session ended (logout, an admin, CONTRACT §14): only its sockets hear why and drop. */
export function revokeSession(sid: string, reason: RevokeReason): void {
  revocations++;
  if (!io) return;
  io.to(ROOMS.session(sid)).emit(EV.sessionRevoked, { reason, detail: REVOKE_MESSAGES[reason] });
  io.in(ROOMS.session(sid)).disconnectSockets(true);
}

/** clear-all-tokens: every session but the caller's. */
export function revokeAllExcept(userId: string, reason: RevokeReason): void {
  revocations++;
  if (!io) return;
  io.except(ROOMS.user(userId)).emit(EV.sessionRevoked, { reason, detail: REVOKE_MESSAGES[reason] });
  io.except(ROOMS.user(userId)).disconnectSockets(true);
}

export const connectedSockets = (): number => io?.engine.clientsCount ?? 0;
