import { z } from 'zod';
import { PRIORITIES, RETURN_REASONS, TASK_STATUSES, TASK_TITLES, VEHICLE_TYPES } from '../enums';
import type { Priority, TaskStatus, TaskTitle, VehicleType } from '../enums';
import { DESCRIPTION_MAX, TEXT_MAX } from '../constants';
import { idSchema } from './common';

const requiredText = (label: string) =>
  z
    .string({ error: `${label} es obligatorio` })
    .trim()
    .min(1, `${label} es obligatorio`)
    .max(TEXT_MAX, `${label} admite como máximo ${TEXT_MAX} caracteres`);

const description = z
  .string()
  .trim()
  .max(DESCRIPTION_MAX, `La descripción admite como máximo ${DESCRIPTION_MAX} caracteres`)
  .nullish()
  .transform((v) => (v ? v : null));

export const createTaskSchema = z.object({
  title: z.enum(TASK_TITLES, { error: 'El tipo de movimiento es obligatorio' }),
  description,
  origin: requiredText('El origen'),
  destination: requiredText('El destino'),
  trailer_id: requiredText('El remolque').transform((v) => v.toUpperCase()),
  priority: z.enum(PRIORITIES, { error: 'Prioridad no válida' }).default('normal'),
  vehicle_type: z.enum(VEHICLE_TYPES, { error: 'Tipo de vehículo no válido' }).default('semiremolque'),
});
export type CreateTaskInput = z.input<typeof createTaskSchema>;
/** What the server works with once the input is validated (trimmed, upper-cased, defaults applied). */
export type CreateTaskData = z.output<typeof createTaskSchema>;

/** PUT /tasks/{id}: any subset of the editable fields, the status, and the driver for en_proceso. */
export const updateTaskSchema = z
  .object({
    title: z.enum(TASK_TITLES, { error: 'Tipo de movimiento no válido' }),
    description,
    origin: requiredText('El origen'),
    destination: requiredText('El destino'),
    trailer_id: requiredText('El remolque').transform((v) => v.toUpperCase()),
    priority: z.enum(PRIORITIES, { error: 'Prioridad no válida' }),
    vehicle_type: z.enum(VEHICLE_TYPES, { error: 'Tipo de vehículo no válido' }),
    status: z.enum(TASK_STATUSES, { error: 'Estado no válido' }),
    assigned_to: idSchema.nullable(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, 'No hay cambios que aplicar');
export type UpdateTaskInput = z.input<typeof updateTaskSchema>;
export type UpdateTaskData = z.output<typeof updateTaskSchema>;

export const returnTaskSchema = z
  .object({ reason: z.enum(RETURN_REASONS, { error: 'Motivo no válido' }).nullish() })
  .default({});

export interface Task {
  id: string;
  title: TaskTitle;
  description: string | null;
  origin: string;
  destination: string;
  trailer_id: string;
  priority: Priority;
  status: TaskStatus;
  vehicle_type: VehicleType;
  assigned_to: string | null;
  assigned_to_name: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: string;
  updated_at: string;
  assigned_at: string | null;
  completed_at: string | null;
  status_since: string;
  return_reason: string | null;
  version: number;
}

/** A searcher result: a task plus where its trailer is now. */
export interface SearchTask extends Task {
  trailer_last_location: string | null;
  trailer_last_location_at: string | null;
  timeline: TaskTimelineEntry[];
}

export interface TaskTimelineEntry {
  type: string;
  at: string;
  actor_name: string | null;
  driver_name: string | null;
}

export interface EligibleDriver {
  id: string;
  name: string;
  is_online: boolean;
  clocked_in: boolean;
  busy: boolean;
  available: boolean;
  movements_count: number;
}

export interface MessageResponse {
  message: string;
}
