import { z } from 'zod';
import {
  DRIVER_PROOF_KINDS,
  HOLD_SOURCES,
  LOAD_STATES,
  PRIORITIES,
  PROOF_KINDS,
  RETURN_REASONS,
  TASK_STATUSES,
  TASK_TITLES,
  TRAILER_KINDS,
  VEHICLE_TYPES,
} from '../enums';
import { DESCRIPTION_MAX, EXTERNAL_REF_MAX, TEXT_MAX } from '../constants';
import { cleanMultiline, cleanText, identityKey } from '../text';
import { DEADLINE_TEXT, HOLD_INPUT, PROOF_TEXT } from '../labels/tasks';
import { idSchema } from './common';
import { clientTimeSchema } from './offline';

// Free text is cleaned first (CONTRACT §14: NFC, no control or format characters, trimmed), so the
// non-empty and length rules judge what is stored: an origin of zero-width spaces alone is empty.
export const requiredText = (label: string, clean: (s: string) => string = cleanText) =>
  z
    .string({ error: `${label} es obligatorio` })
    .overwrite(clean)
    .min(1, `${label} es obligatorio`)
    .max(TEXT_MAX, `${label} admite como máximo ${TEXT_MAX} caracteres`);

/** An identifier: stored as its identity key (NFKC, upper-cased), so the unique index compares keys. */
const trailerId = requiredText('El remolque', identityKey);

/** CONTRACT §19: the trailer's load state once the move is completed (null: the move changes none). */
const loadStateAfter = z.enum(LOAD_STATES, { error: 'Estado de carga no válido' }).nullish();

/**
 * CONTRACT §20: when the move must be done (ISO with its offset; null: none). Past and too far are judged
 * by the server against its clock (an unchanged past one is accepted on PUT), not here.
 */
const dueAt = z.iso.datetime({ offset: true, error: DEADLINE_TEXT.invalid }).nullish();

/** A catalogue place picked for origin or destination (null: none picked, the server maps the text). */
const placeId = idSchema.nullish();

const description = z
  .string()
  .overwrite(cleanMultiline)
  .max(DESCRIPTION_MAX, `La descripción admite como máximo ${DESCRIPTION_MAX} caracteres`)
  .nullish()
  .transform((v) => (v ? v : null));

/**
 * CONTRACT §21: the caller's own reference (a WMS order, a TMS departure): NFC-trimmed, empty is none. A
 * create repeating it for an open task of the same caller answers that task.
 */
export const externalRefSchema = z
  .string({ error: 'La referencia externa no es válida' })
  .overwrite(cleanText)
  .max(EXTERNAL_REF_MAX, `La referencia externa admite como máximo ${EXTERNAL_REF_MAX} caracteres`)
  .nullish()
  .transform((v) => (v ? v : null));

export const createTaskSchema = z.object({
  title: z.enum(TASK_TITLES, { error: 'El tipo de movimiento es obligatorio' }),
  description,
  origin: requiredText('El origen'),
  destination: requiredText('El destino'),
  trailer_id: trailerId,
  priority: z.enum(PRIORITIES, { error: 'Prioridad no válida' }).default('normal'),
  vehicle_type: z.enum(VEHICLE_TYPES, { error: 'Tipo de vehículo no válido' }).default('semiremolque'),
  /**
   * CONTRACT §17: the catalogue's place the text stands for, when the client picked one; otherwise the
   * server maps a text equal to a catalogue name or code, and leaves free text unmapped.
   */
  origin_location_id: placeId,
  destination_location_id: placeId,
  load_state_after: loadStateAfter,
  due_at: dueAt,
  external_ref: externalRefSchema,
});
export type CreateTaskInput = z.input<typeof createTaskSchema>;

/** GET /tasks: the board, or with `external_ref` the caller's tasks carrying it (CONTRACT §21). */
export const listTasksQuerySchema = z.object({ external_ref: externalRefSchema });
/** What the server works with once the input is validated (cleaned, trailer keyed, defaults applied). */
export type CreateTaskData = z.output<typeof createTaskSchema>;

/** GET /tasks?external_ref=: the caller's tasks with that reference (CONTRACT §21); absent, the board. */
export const taskListQuerySchema = z.object({ external_ref: externalRefSchema.optional() });
export type TaskListQuery = z.output<typeof taskListQuerySchema>;

/** PUT /tasks/{id}: any subset of the editable fields, the status, and the driver for en_proceso. */
export const updateTaskSchema = z
  .object({
    title: z.enum(TASK_TITLES, { error: 'Tipo de movimiento no válido' }),
    description,
    origin: requiredText('El origen'),
    destination: requiredText('El destino'),
    trailer_id: trailerId,
    priority: z.enum(PRIORITIES, { error: 'Prioridad no válida' }),
    vehicle_type: z.enum(VEHICLE_TYPES, { error: 'Tipo de vehículo no válido' }),
    origin_location_id: placeId,
    destination_location_id: placeId,
    load_state_after: loadStateAfter,
    due_at: dueAt,
    status: z.enum(TASK_STATUSES, { error: 'Estado no válido' }),
    assigned_to: idSchema.nullable(),
    /** CONTRACT §15: staff hold a pool task (true) or release it (false). */
    on_hold: z.boolean({ error: HOLD_INPUT.onHoldInvalid }),
    /** Why it is held; alone it holds the task too (or changes the reason of a held one). */
    hold_reason: z
      .string({ error: HOLD_INPUT.reasonInvalid })
      .overwrite(cleanText)
      .max(TEXT_MAX, HOLD_INPUT.reasonTooLong(TEXT_MAX))
      .nullish()
      .transform((v) => (v ? v : null)),
    /** The version the editor started from: another one means someone changed the task meanwhile (409). */
    version: z
      .number({ error: 'Versión no válida' })
      .int('Versión no válida')
      .nonnegative('Versión no válida'),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).some((k) => k !== 'version'), 'No hay cambios que aplicar')
  .refine((v) => !(v.on_hold === false && v.hold_reason), {
    message: HOLD_INPUT.reasonWithoutHold,
    path: ['hold_reason'],
  });
export type UpdateTaskInput = z.input<typeof updateTaskSchema>;
export type UpdateTaskData = z.output<typeof updateTaskSchema>;

export const returnTaskSchema = z
  .object({
    reason: z.enum(RETURN_REASONS, { error: 'Motivo no válido' }).nullish(),
    /** CONTRACT §16: when the driver returned it, from the phone's offline queue. */
    client_time: clientTimeSchema.optional(),
  })
  .default({});

/**
 * `POST /tasks/{id}/complete`'s optional body: when the driver completed it, offline (CONTRACT §16), and
 * the proof of the move (§20): `scan` only for a camera decode, `manual` (the default) otherwise; the
 * place it was really left at when that is not the destination.
 */
export const completeTaskSchema = z
  .object({
    client_time: clientTimeSchema.optional(),
    proof: z.enum(DRIVER_PROOF_KINDS, { error: PROOF_TEXT.proofInvalid }).optional(),
    location_id: z
      .string({ error: PROOF_TEXT.unknownPlace })
      .min(1, PROOF_TEXT.unknownPlace)
      .max(64, PROOF_TEXT.unknownPlace)
      .optional(),
  })
  .default({});
export type CompleteTaskInput = NonNullable<z.input<typeof completeTaskSchema>>;
/** What the phone says of a completion's proof (CONTRACT §20). */
export type CompletionProof = Pick<CompleteTaskInput, 'proof' | 'location_id'>;

// ---- Answers (CONTRACT §5, §21): zod schemas, so the TS types and the OpenAPI document are one definition.

/** An ISO date-time as the server writes it (UTC `Z`; a deadline may keep its offset). */
export const isoDateTime = z.iso.datetime({ offset: true });
const nullableText = z.string().nullable();

/** CONTRACT §19: what a task shows of its trailer. */
export const taskTrailerMarksSchema = z
  .object({
    kind: z.enum(TRAILER_KINDS),
    load_state: z.enum(LOAD_STATES),
    adr: z.boolean(),
    reefer_setpoint_c: z.number().nullable(),
    damaged: z.boolean(),
  })
  .meta({ id: 'TaskTrailerMarks' });
export type TaskTrailerMarks = z.output<typeof taskTrailerMarksSchema>;

export const taskSchema = z
  .object({
    id: idSchema,
    title: z.enum(TASK_TITLES),
    description: nullableText,
    origin: z.string(),
    destination: z.string(),
    /** CONTRACT §17: the catalogue places origin and destination stand for; null for free text. */
    origin_location_id: idSchema.nullable(),
    destination_location_id: idSchema.nullable(),
    trailer_id: z.string(),
    /** CONTRACT §19: the trailer's load state once this move is completed (null: unchanged). */
    load_state_after: z.enum(LOAD_STATES).nullable(),
    /** CONTRACT §20: when the move must be done, and how late it was completed (s; null: no deadline or open). */
    due_at: isoDateTime.nullable(),
    late_s: z.number().int().nullable(),
    /** CONTRACT §20: how its completion was proven (null while open), and where the trailer was really left
     * when that is not the destination (null: at the destination), with that place's name. */
    proof: z.enum(PROOF_KINDS).nullable(),
    dropped_at_location_id: idSchema.nullable(),
    dropped_at_location_name: nullableText,
    priority: z.enum(PRIORITIES),
    status: z.enum(TASK_STATUSES),
    vehicle_type: z.enum(VEHICLE_TYPES),
    assigned_to: idSchema.nullable(),
    assigned_to_name: nullableText,
    created_by: idSchema.nullable(),
    created_by_name: nullableText,
    /** CONTRACT §21: the API client that created it (then `created_by` is null and the name `API · {name}`). */
    created_by_client_id: idSchema.nullable(),
    /** CONTRACT §21: the creator's own reference for it; null without one. */
    external_ref: nullableText,
    created_at: isoDateTime,
    updated_at: isoDateTime,
    assigned_at: isoDateTime.nullable(),
    completed_at: isoDateTime.nullable(),
    status_since: isoDateTime,
    return_reason: nullableText,
    /** CONTRACT §15: a held task is never auto-assigned nor claimable until staff release it. */
    on_hold: z.boolean(),
    hold_reason: nullableText,
    /** CONTRACT §19: who held it (staff, or the trailer's damage); null when not held. */
    hold_source: z.enum(HOLD_SOURCES).nullable(),
    /** The latest driver return's reason, kept until the task is completed. */
    last_return_reason: nullableText,
    /** Derived when read, never a new `version`: null without an assignee. */
    assignee_online: z.boolean().nullable(),
    /** When the assignee went offline; null while online or without an assignee. */
    assignee_offline_since: isoDateTime.nullable(),
    /** CONTRACT §19: the trailer's marks as its record has them now (a change bumps the open task's version). */
    trailer: taskTrailerMarksSchema,
    version: z.number().int(),
  })
  .meta({ id: 'Task' });
export type Task = z.output<typeof taskSchema>;

/** The marks of a trailer with no record yet, and a new record's (CONTRACT §19 defaults). */
export const DEFAULT_TRAILER_MARKS: TaskTrailerMarks = {
  kind: 'otro',
  load_state: 'desconocido',
  adr: false,
  reefer_setpoint_c: null,
  damaged: false,
};

export const taskTimelineEntrySchema = z
  .object({
    type: z.string(),
    at: isoDateTime,
    actor_name: nullableText,
    driver_name: nullableText,
  })
  .meta({ id: 'TaskTimelineEntry' });
export type TaskTimelineEntry = z.output<typeof taskTimelineEntrySchema>;

/** A searcher result: a task plus where its trailer is now. */
export const searchTaskSchema = taskSchema
  .extend({
    trailer_last_location: nullableText,
    trailer_last_location_at: isoDateTime.nullable(),
    timeline: z.array(taskTimelineEntrySchema),
  })
  .meta({ id: 'SearchTask' });
export type SearchTask = z.output<typeof searchTaskSchema>;

export interface EligibleDriver {
  id: string;
  name: string;
  is_online: boolean;
  clocked_in: boolean;
  busy: boolean;
  available: boolean;
  movements_count: number;
}

export const messageResponseSchema = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });
export type MessageResponse = z.output<typeof messageResponseSchema>;
