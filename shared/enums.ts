// Every enumerated value of the product, in one place (SPEC §3, CONTRACT §4–§10).
export const ROLES = ['conductor', 'gestor', 'manager', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const STAFF_ROLES = ['admin', 'manager', 'gestor'] as const satisfies readonly Role[];

export const TASK_TITLES = ['Mover', 'Recolocar'] as const;
export type TaskTitle = (typeof TASK_TITLES)[number];

export const TASK_STATUSES = ['bolsa_trabajo', 'en_proceso', 'finalizada'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const PRIORITIES = ['low', 'normal', 'high'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const VEHICLE_TYPES = ['semiremolque', 'semiremolque_out_km0', 'swap'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];
/** Types the engine assigns by itself; swap is always claimed by hand. */
export const AUTO_ASSIGNED_TYPES = [
  'semiremolque',
  'semiremolque_out_km0',
] as const satisfies readonly VehicleType[];
export const isAutoAssigned = (t: VehicleType): boolean => t !== 'swap';

export const RETURN_REASONS = [
  'Remolque no encontrado',
  'Remolque dañado',
  'Ubicación ocupada',
  'Otro',
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const TASK_EVENT_TYPES = [
  'created',
  'updated',
  'assigned',
  'returned',
  'status_changed',
  'completed',
  'reopened',
  'deleted',
  'held',
  'released',
] as const;
export type TaskEventType = (typeof TASK_EVENT_TYPES)[number];

export const CLOCK_TYPES = ['entrada', 'salida'] as const;
export type ClockType = (typeof CLOCK_TYPES)[number];

export const TIMECLOCK_STATUSES = ['not_clocked_in', 'clocked_in', 'clocked_out'] as const;
export type TimeclockStatusValue = (typeof TIMECLOCK_STATUSES)[number];

export const DAILY_SUMMARY_STATUSES = ['working', 'clocked_out', 'not_started', 'incomplete'] as const;
export type DailySummaryStatus = (typeof DAILY_SUMMARY_STATUSES)[number];

export const NOTIFICATION_TYPES = [
  'task_assigned',
  'congratulations',
  'user_pending',
  'task_returned',
  'task_closed_by_staff',
  /** CONTRACT §20: a task met an escalation rule (to every approved staff user). */
  'task_escalated',
  /** CONTRACT §21: a webhook failing for 24 h was deactivated (to every admin). */
  'webhook_disabled',
  'info',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const SEARCH_TYPES = ['all', 'id', 'trailer', 'origin', 'destination'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const REPORT_TYPES = ['deficiencies', 'delayed-assignments'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const REPORT_PERIODS = ['24h', 'day', 'hour'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];
export const DEFICIENCY_REASONS = ['no_drivers_available', 'other'] as const;
export type DeficiencyReason = (typeof DEFICIENCY_REASONS)[number];

export const HEALTH_STATUSES = ['healthy', 'warning', 'error'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export const LOG_TYPES = ['auth', 'task', 'user', 'timeclock', 'system', 'gate', 'integration'] as const;
export type LogType = (typeof LOG_TYPES)[number];

export const REVOKE_REASONS = [
  'role_changed',
  'deleted',
  'tokens_cleared',
  'expired',
  'logged_out',
  'password_reset',
  'password_changed',
] as const;
export type RevokeReason = (typeof REVOKE_REASONS)[number];

export const ALERT_STATUSES = ['normal', 'warning', 'critical'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** CONTRACT §17: what a place of the yard is. A `puerta` (gate) holds no trailer. */
export const LOCATION_KINDS = [
  'muelle',
  'campa',
  'zona_swap',
  'aparcamiento',
  'taller',
  'lavadero',
  'bascula',
  'puerta',
  'otro',
] as const;
export type LocationKind = (typeof LOCATION_KINDS)[number];

/** CONTRACT §19: what a trailer is (default `otro`). */
export const TRAILER_KINDS = [
  'lona',
  'frigorifico',
  'caja',
  'cisterna',
  'plataforma',
  'portacontenedores',
  'caja_movil',
  'otro',
] as const;
export type TrailerKind = (typeof TRAILER_KINDS)[number];

/** CONTRACT §19: whether a trailer carries a load (default `desconocido`). */
export const LOAD_STATES = ['cargado', 'vacio', 'desconocido'] as const;
export type LoadState = (typeof LOAD_STATES)[number];

/**
 * What placed or took out a trailer besides its moves (the `trailer_events` history): a staff correction
 * puts it at a place, `leave` takes it out; the gate's entry and exit come with the gate.
 */
export const TRAILER_EVENT_KINDS = ['entry', 'exit', 'correction', 'leave'] as const;
export type TrailerEventKind = (typeof TRAILER_EVENT_KINDS)[number];

/** CONTRACT §19 "Damage": who put a task on hold (clearing a trailer's damage releases only `damage`). */
export const HOLD_SOURCES = ['staff', 'damage'] as const;
export type HoldSource = (typeof HOLD_SOURCES)[number];

/** CONTRACT §20 "Proof of the move": how a completion was proven (`scan` only from a camera decode). */
export const PROOF_KINDS = ['scan', 'manual', 'staff'] as const;
export type ProofKind = (typeof PROOF_KINDS)[number];
/** What a driver's completion may say of itself (`staff` is the server's, for staff's completions). */
export const DRIVER_PROOF_KINDS = ['scan', 'manual'] as const;

/** CONTRACT §20 "Escalation": the rules a task can meet, each at most once. */
export const ESCALATION_RULES = ['espera', 'plazo', 'retraso'] as const;
export type EscalationRule = (typeof ESCALATION_RULES)[number];

/** CONTRACT §20 "Shift handover": the shifts of SHIFT_STARTS, in the day's order. */
export const SHIFTS = ['manana', 'tarde', 'noche'] as const;
export type Shift = (typeof SHIFTS)[number];

export const VIEWS = [
  'dashboard',
  'yard',
  'gate',
  'handover',
  'searcher',
  'timecontrol',
  'reports',
  'indicators',
  'analytics',
  'users',
  'locations',
  'admin-panel',
] as const;
export type View = (typeof VIEWS)[number];

/** CONTRACT §21 "Scopes": what an API key may do (it acts as a manager within them). */
export const API_SCOPES = ['tasks:read', 'tasks:write', 'yard:read', 'gate:write'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** CONTRACT §21 "Events": what a webhook may subscribe to (`ping` is only sent by the test button). */
export const WEBHOOK_EVENTS = [
  'task.created',
  'task.updated',
  'task.assigned',
  'task.completed',
  'task.returned',
  'task.reopened',
  'task.held',
  'task.released',
  'task.deleted',
  'trailer.arrived',
  'trailer.departed',
  'trailer.moved',
  'trailer.damaged',
  'trailer.damage_cleared',
  'visit.opened',
  'visit.closed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** CONTRACT §21 "Delivery": a delivery's state in the outbox. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
