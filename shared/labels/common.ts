// Spanish labels of enumerated values and shared texts (CONTRACT §11).
import { SHORT_ID_LENGTH } from '../constants';
import type {
  DailySummaryStatus,
  HealthStatus,
  Priority,
  Role,
  TaskStatus,
  TimeclockStatusValue,
  VehicleType,
  View,
} from '../enums';

/** `1 tarea pendiente`, `2 tareas pendientes`: the count with the word that agrees with it. */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const APP_TITLE = 'Torre de Control de Movimientos';
/** The header's title on a phone, where the whole one would break over two lines. */
export const APP_TITLE_SHORT = 'Torre de Control';
export const APP_SUBTITLE = 'Line-Haul';

export const ROLE_LABELS: Record<Role, string> = {
  conductor: 'Conductor',
  gestor: 'Gestor',
  manager: 'Manager',
  admin: 'Administrador',
};

export const STATUS_LABELS: Record<TaskStatus, string> = {
  bolsa_trabajo: 'Bolsa de Trabajo',
  en_proceso: 'En Proceso',
  finalizada: 'Finalizada',
};
/** The searcher's status badge (SPEC §2 Searcher). */
export const STATUS_BADGES: Record<TaskStatus, string> = {
  bolsa_trabajo: 'Pendiente',
  en_proceso: 'En Proceso',
  finalizada: 'Finalizada',
};
export const COLUMN_EMPTY: Record<TaskStatus, string> = {
  bolsa_trabajo: 'No hay tareas pendientes',
  en_proceso: 'No hay tareas en proceso',
  finalizada: 'No hay tareas completadas',
};

export const PRIORITY_LABELS: Record<Priority, string> = { high: 'Alta', normal: 'Normal', low: 'Baja' };

export const VEHICLE_BADGES: Record<VehicleType, string> = {
  semiremolque: 'SEMIREMOLQUE',
  semiremolque_out_km0: 'SEMI OUT KM0',
  swap: 'SWAP',
};
/** Short labels of a driver's task types (SPEC §6). */
export const TASK_TYPE_LABELS: Record<VehicleType, string> = {
  semiremolque: 'Semi',
  semiremolque_out_km0: 'Semi Out',
  swap: 'Swap',
};
export const VEHICLE_TYPE_OPTIONS: Record<VehicleType, string> = {
  semiremolque: 'Semiremolque (asignación automática)',
  semiremolque_out_km0: 'Semiremolque Out KM0 (asignación automática)',
  swap: 'Swap (asignación manual)',
};

export const TIMECLOCK_STATUS_LABELS: Record<TimeclockStatusValue, string> = {
  not_clocked_in: 'Sin fichar',
  clocked_in: 'Trabajando',
  clocked_out: 'Fuera de turno',
};
export const DAILY_STATUS_LABELS: Record<DailySummaryStatus, string> = {
  working: 'Trabajando',
  clocked_out: 'Finalizado',
  not_started: 'Sin fichar',
  incomplete: 'Incompleto',
};
export const UNKNOWN_LABEL = 'Desconocido';

export const HEALTH_LABELS: Record<HealthStatus, string> = {
  healthy: 'Saludable',
  warning: 'Advertencia',
  error: 'Error',
};

export const USER_STATUS = { pending: 'Pendiente', online: 'En línea', offline: 'Desconectado' } as const;

export const VIEW_LABELS: Record<View, string> = {
  dashboard: 'Dashboard',
  yard: 'Patio',
  gate: 'Portería',
  handover: 'Relevo de turno',
  searcher: 'Buscador',
  timecontrol: 'Control Conductores',
  reports: 'Informes',
  indicators: 'Indicadores',
  analytics: 'Analytics',
  users: 'Usuarios',
  locations: 'Ubicaciones',
  'admin-panel': 'Sistema',
};

/** The short id screens show (SPEC §9: `#` and the last 8 characters), e.g. `#1e04136b`. */
export const shortId = (id: string): string => `#${id.slice(-SHORT_ID_LENGTH)}`;

export const SYSTEM_ACTOR = 'Sistema';
export const NOT_AVAILABLE = 'N/A';
export const UNASSIGNED = 'Sin asignar';

export const NOTIFICATION_MARKED_READ = 'Notificación marcada como leída';
