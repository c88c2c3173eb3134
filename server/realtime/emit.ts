// The only place that emits socket events (CONTRACT §9). The change log's socket processor
// (changes/processors/sockets.ts) calls these once a transaction has committed (synchronously: nothing
// here reads the database but the coalesced figures, computed on their own timer); services record
// changes and never call this module (a lint rule). With no Socket.IO attached (API tests) every call is
// a no-op.
import type { Server } from 'socket.io';
import {
  EV,
  REVOKE_MESSAGES,
  ROOMS,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@shared/events';
import type { RevokeReason, Shift } from '@shared/enums';
import type {
  AdminUser,
  DashboardStats,
  GateVisit,
  Notification,
  OnlineDriver,
  RankingEntry,
  Task,
  TimeclockStatus,
  Trailer,
} from '@shared/schemas';
import { STATS_COALESCE_MS } from '@shared/constants';
import { VEHICLE_TYPES, type Role, type VehicleType } from '@shared/enums';
import { logger } from '../logger';
import { clustered } from './cluster';
import { taskRooms, type TaskPlace } from '../tasks/visibility';

export interface SocketData {
  userId: string;
  role: Role;
  sid: string;
  exp: number;
  taskTypes: VehicleType[];
  /** revocationCount() when the handshake began (realtime/io.ts). */
  revocations: number;
}

/** What nodes tell each other (realtime/cluster.ts): what would otherwise stay in one process. */
export interface InterServerEvents {
  /** POST /test/clock, first on every node: the clock's offset and the node's heartbeat. */
  clockShifted: (ms: number, done: (ok: true) => void) => void;
  /** …then what depends on time, on every node; the answer waits for both. */
  clockListeners: (done: (ok: true) => void) => void;
  /** A revocation (emit.ts revoke()): each node counts it and drops the target's sockets of its own. */
  revoke: (target: RevokeTarget, reason: RevokeReason) => void;
  /** A user left presence on every node (deleted, revoked): what the others hold in memory goes. */
  presenceForgotten: (userId: string) => void;
}

export type IoServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

let io: IoServer | undefined;

export function setIo(server: IoServer | undefined): void {
  io = server;
}
export const getIo = (): IoServer | undefined => io;

// ---- tasks ---------------------------------------------------------------------------------

export function taskCreated(task: Task): void {
  io?.to(taskRooms(task)).emit(EV.taskCreated, { task });
}

/**
 * A task changed. `before` is what it looked like, so the rooms that could see it and no longer can
 * (a pool task claimed by another driver, a reassigned driver) are told it left, with its id only.
 */
export function taskUpdated(task: Task, before?: TaskPlace): void {
  if (!io) return;
  const now = taskRooms(task);
  io.to(now).emit(EV.taskUpdated, { task });
  if (!before) return;
  const gone = taskRooms(before).filter((r) => !now.includes(r));
  if (gone.length) io.to(gone).except(now).emit(EV.taskRemoved, { id: task.id });
}

export function taskDeleted(task: TaskPlace & Pick<Task, 'id'>): void {
  io?.to(taskRooms(task)).emit(EV.taskDeleted, { id: task.id });
}

// ---- the yard -------------------------------------------------------------------------------

/** CONTRACT §17: the occupancy of these locations changed; staff screens refetch GET /yard. */
export function yardChanged(locationIds: readonly string[]): void {
  if (locationIds.length) io?.to(ROOMS.staff).emit(EV.yardChanged, { location_ids: [...locationIds] });
}

/** CONTRACT §19/§24: a trailer's record as it stands now, to staff. */
export function trailerChanged(trailer: Trailer): void {
  io?.to(ROOMS.staff).emit(EV.trailerChanged, { trailer });
}

/** CONTRACT §19/§24: a gate visit as it stands now (opened or closed), to staff. */
export function gateChanged(visit: GateVisit): void {
  io?.to(ROOMS.staff).emit(EV.gateChanged, { visit });
}

/** CONTRACT §20: a shift's handover notes changed, to staff (their Relevo pages read it again). */
export function handoverChanged(shift: Shift, date: string): void {
  io?.to(ROOMS.staff).emit(EV.handoverChanged, { shift, date });
}

// ---- figures --------------------------------------------------------------------------------

type StatsSource = () => Promise<{ admin: DashboardStats; others: DashboardStats }>;
type DriversSource = () => Promise<{ online_drivers: OnlineDriver[]; rankings: RankingEntry[] }>;
let statsTimer: NodeJS.Timeout | undefined;
let statsSource: StatsSource | undefined;
let driversSource: DriversSource | undefined;

/** Registered once by changes/processors/sockets.ts, from the dashboard service (avoids an import cycle). */
export function setFigureSources(stats: StatsSource, drivers: DriversSource | undefined): void {
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
  // The stats are computed even with nobody on a board (one memoized reading): the workload alert's
  // `since` must see every status change as it happens (CONTRACT §15).
  const { admin, others } = await statsSource();
  if (!(await boardsMayListen())) return;
  const drivers = await driversSource?.();
  if (!io) return;
  io.to(ROOMS.role('admin')).emit(EV.statsUpdated, { stats: admin });
  io.to(ROOMS.staff).except(ROOMS.role('admin')).emit(EV.statsUpdated, { stats: others });
  if (drivers) io.to(ROOMS.staff).emit(EV.driversUpdated, drivers);
}

/**
 * Whether a board may be listening: a staff socket on this node, or another node alive (its boards are not
 * known here: the adapter takes the figures to them). Nobody: the driver lists, which read every driver
 * of the yard, are not read, and nothing is sent (on PostgreSQL, no NOTIFY).
 */
async function boardsMayListen(): Promise<boolean> {
  if (!io) return false;
  const adapter = io.sockets.adapter;
  return !!adapter.rooms.get(ROOMS.staff)?.size || (await adapter.serverCount()) > 1;
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

/**
 * Keeps a driver's sockets, on every node, in the type rooms of their current task types (room changes
 * travel as messages, in order: no lookup of remote sockets).
 */
export function syncTypeRooms(userId: string, types: readonly string[]): void {
  if (!io) return;
  const sockets = io.in(ROOMS.user(userId));
  sockets.socketsLeave(VEHICLE_TYPES.filter((t) => !types.includes(t)).map(ROOMS.type));
  sockets.socketsJoin(types.map(ROOMS.type));
}

let revocations = 0;

/**
 * How many revocations have been pushed: a socket whose handshake awaited across one was not yet in the
 * rooms that heard it, and is looked at again (realtime/io.ts).
 */
export const revocationCount = (): number => revocations;

/** The sockets a revocation drops: a room's, or (clear-all-tokens) all but a room's. */
/** The sockets a revocation reaches: a room (less another room's), or every socket but a room's. */
export type RevokeTarget = { in: string; except?: string } | { except: string };

/**
 * A revocation, on every node: each counts it, then tells the target's sockets why and drops them, in
 * that order. (A broadcast through the adapter reaches even this node's sockets only once its NOTIFY
 * is sent, while a disconnect is at once: the reason would arrive after the socket had gone. So each node
 * does both locally.) The count: a handshake that read the session before the revocation committed, and
 * joined its rooms after the push passed, sees it move and looks again (realtime/io.ts).
 */
function revoke(target: RevokeTarget, reason: RevokeReason): void {
  revokeHere(target, reason);
  if (io && clustered()) io.serverSideEmit('revoke', target, reason);
}

/** A revocation on this node's sockets (its own, or another node's: InterServerEvents). */
export function revokeHere(target: RevokeTarget, reason: RevokeReason): void {
  revocations++;
  if (!io) return;
  const local = io.local;
  const sockets =
    'in' in target
      ? target.except
        ? local.in(target.in).except(target.except)
        : local.in(target.in)
      : local.except(target.except);
  sockets.emit(EV.sessionRevoked, { reason, detail: REVOKE_MESSAGES[reason] });
  sockets.disconnectSockets(true);
}

/** A user left presence everywhere (services/presence.ts forget()): the other nodes drop what they hold. */
export function presenceForgotten(userId: string): void {
  if (io && clustered()) io.serverSideEmit('presenceForgotten', userId);
}

/** Tells the user's sockets why their session ended, then drops them. */
export function revokeUser(userId: string, reason: RevokeReason): void {
  revoke({ in: ROOMS.user(userId) }, reason);
}

/** The user's other sessions ended (their own password change, CONTRACT §23): all their sockets but this session's. */
export function revokeUserExcept(userId: string, keptSid: string, reason: RevokeReason): void {
  revoke({ in: ROOMS.user(userId), except: ROOMS.session(keptSid) }, reason);
}

/** One session ended (logout, an admin, CONTRACT §14): only its sockets hear why and drop. */
export function revokeSession(sid: string, reason: RevokeReason): void {
  revoke({ in: ROOMS.session(sid) }, reason);
}

/** clear-all-tokens: every session but the caller's. */
export function revokeAllExcept(userId: string, reason: RevokeReason): void {
  revoke({ except: ROOMS.user(userId) }, reason);
}
