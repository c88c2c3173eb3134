import { z } from 'zod';
import { LOG_TYPES, ROLES, VEHICLE_TYPES } from '../enums';
import type { HealthStatus, LogType, Role, VehicleType } from '../enums';
import { LOGS_DEFAULT_LIMIT, LOGS_MAX_LIMIT } from '../constants';
import { ERR } from '../labels/errors';
import { daySchema, idSchema } from './common';
import { email, personName } from './auth';

export const approveUserSchema = z.object({
  user_id: idSchema,
  approved: z.boolean({ error: 'Indica si se aprueba (true) o se rechaza (false)' }),
});

export const updateRoleSchema = z.object({
  user_id: idSchema,
  new_role: z.enum(ROLES, { error: 'Rol no válido' }),
});

export const updateTaskTypesSchema = z.object({
  user_id: idSchema,
  task_types: z
    .array(z.enum(VEHICLE_TYPES, { error: 'Tipo de tarea no válido' }), { error: 'Lista de tipos no válida' })
    .min(1, 'Debes seleccionar al menos un tipo de tarea')
    .transform((types) => [...new Set(types)]),
});

/** `PUT /admin/users/{id}`: the admin corrects a user's name or email (CONTRACT §14). */
export const updateUserSchema = z
  .object({ name: personName.optional(), email: email.optional() })
  .refine((b) => b.name !== undefined || b.email !== undefined, 'Indica el nombre o el email');
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

export const sessionParams = z.object({ id: idSchema, sid: idSchema });

/** An empty query-string value (a cleared filter) counts as absent. */
const blankAsAbsent = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * `GET /admin/system/logs` (CONTRACT §13, §15): newest first, filtered by type, actor and Madrid days
 * (both inclusive), paged with `limit` and `before` (the last row's id: the rows older than it).
 */
export const logsQuerySchema = z
  .object({
    limit: z.coerce
      .number({ error: 'El límite debe ser un número' })
      .int('El límite debe ser un número entero')
      .min(1, 'El límite debe ser al menos 1')
      .default(LOGS_DEFAULT_LIMIT)
      .transform((n) => Math.min(n, LOGS_MAX_LIMIT)),
    type: z.preprocess(blankAsAbsent, z.enum(LOG_TYPES, { error: 'Tipo de registro no válido' }).optional()),
    user_id: z.preprocess(blankAsAbsent, idSchema.optional()),
    date_from: z.preprocess(blankAsAbsent, daySchema.optional()),
    date_to: z.preprocess(blankAsAbsent, daySchema.optional()),
    before: z.preprocess(
      blankAsAbsent,
      z.coerce
        .number({ error: 'El cursor debe ser un número' })
        .int('El cursor debe ser un número entero')
        .min(1, 'El cursor debe ser al menos 1')
        .optional(),
    ),
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, ERR.dateOrder);
export type LogsQuery = z.output<typeof logsQuerySchema>;

export interface PendingUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  created_at: string;
  request_text: string;
}

/** `POST /admin/users/{id}/reset-password`: shown once to the admin. */
export interface ResetPasswordResponse {
  temporary_password: string;
}

export interface AdminUser {
  id: string;
  name: string;
  email: string;
  role: Role;
  is_approved: boolean;
  is_online: boolean;
  movements_count: number;
  task_types: VehicleType[];
  created_at: string;
}

export interface DbStatus {
  collections: Record<string, number>;
  users_by_role: Record<string, number>;
  tasks_by_status: Record<string, number>;
  data_integrity: { has_issues: boolean; users_without_task_types: number };
}

export interface HealthCheck {
  overall_status: HealthStatus;
  checks: Record<string, { status: HealthStatus; message: string }>;
}

export interface LogEntry {
  /** The row's id: the `before` of the next page. */
  id: number;
  type: LogType;
  user: string;
  action: string;
  details: string;
  timestamp: string;
}

/** The health check's checks, in the order the Sistema view shows them (CONTRACT §10). */
export const HEALTH_CHECK_NAMES = [
  'database',
  'disk',
  'memory',
  'event_loop',
  'websocket',
  'auto_assignment',
  'backup',
] as const;
export type HealthCheckName = (typeof HEALTH_CHECK_NAMES)[number];

/** POST /admin/system/backup: the file is the backup's name inside data/backups/. */
export interface BackupResult {
  message: string;
  file: string;
}
