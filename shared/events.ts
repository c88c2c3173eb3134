// Socket.IO event names and payloads (CONTRACT §9). Payloads reuse the REST shapes.
import type { RevokeReason, Shift } from './enums';
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
} from './schemas';

export const EV = {
  taskCreated: 'task:created',
  taskUpdated: 'task:updated',
  taskDeleted: 'task:deleted',
  taskRemoved: 'task:removed',
  statsUpdated: 'stats:updated',
  driversUpdated: 'drivers:updated',
  notificationNew: 'notification:new',
  notificationsRead: 'notifications:read',
  timeclockUpdated: 'timeclock:updated',
  timeclockChanged: 'timeclock:changed',
  usersPending: 'users:pending',
  usersChanged: 'users:changed',
  usersRemoved: 'users:removed',
  sessionRevoked: 'session:revoked',
  yardChanged: 'yard:changed',
  trailerChanged: 'trailer:changed',
  gateChanged: 'gate:changed',
  handoverChanged: 'handover:changed',
} as const;

export interface ServerToClientEvents {
  'task:created': (p: { task: Task }) => void;
  'task:updated': (p: { task: Task }) => void;
  'task:deleted': (p: { id: string }) => void;
  'task:removed': (p: { id: string }) => void;
  'stats:updated': (p: { stats: DashboardStats }) => void;
  'drivers:updated': (p: { online_drivers: OnlineDriver[]; rankings: RankingEntry[] }) => void;
  'notification:new': (p: { notification: Notification }) => void;
  /** Notifications of this user read elsewhere (a pending account another admin decided on). */
  'notifications:read': (p: { ids: string[] }) => void;
  'timeclock:updated': (p: { status: TimeclockStatus }) => void;
  'timeclock:changed': (p: { user_id: string; status: TimeclockStatus }) => void;
  'users:pending': (p: { count: number }) => void;
  'users:changed': (p: { user: AdminUser }) => void;
  'users:removed': (p: { id: string }) => void;
  'session:revoked': (p: { reason: RevokeReason; detail: string }) => void;
  /** CONTRACT §17: the occupancy of these locations changed (staff refetch GET /yard). */
  'yard:changed': (p: { location_ids: string[] }) => void;
  /** CONTRACT §19/§24: a trailer's record as it stands now (to staff). */
  'trailer:changed': (p: { trailer: Trailer }) => void;
  /** CONTRACT §19/§24: a gate visit opened or closed, as it stands now (to staff). */
  'gate:changed': (p: { visit: GateVisit }) => void;
  /** CONTRACT §20: a handover note written or deleted in this shift (to staff: open Relevo pages read again). */
  'handover:changed': (p: { shift: Shift; date: string }) => void;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClientToServerEvents {}

export const ROOMS = {
  user: (id: string) => `user:${id}`,
  role: (role: string) => `role:${role}`,
  staff: 'staff',
  drivers: 'drivers',
  type: (vehicleType: string) => `type:${vehicleType}`,
  /** The sockets of one login session (CONTRACT §14): logout and an admin ending it reach only these. */
  session: (sid: string) => `session:${sid}`,
} as const;

export const REVOKE_MESSAGES: Record<RevokeReason, string> = {
  role_changed: 'Tu rol ha cambiado. Inicia sesión de nuevo',
  deleted: 'Tu cuenta ha sido eliminada',
  tokens_cleared: 'El administrador ha cerrado todas las sesiones',
  expired: 'Tu sesión ha caducado',
  logged_out: 'Se ha cerrado esta sesión',
  password_reset: 'El administrador ha restablecido tu contraseña. Inicia sesión de nuevo',
  password_changed: 'Tu contraseña ha cambiado en otro dispositivo. Inicia sesión de nuevo',
};
