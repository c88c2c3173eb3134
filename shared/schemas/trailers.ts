// The trailer's record (CONTRACT §19): what GET /trailers… answer and what PUT and …/position take.
import { z } from 'zod';
import { LOAD_STATES, TRAILER_KINDS } from '../enums';
import { REEFER_SETPOINT_C, TEXT_MAX, TRAILER_NOTES_MAX } from '../constants';
import { cleanMultiline, cleanText } from '../text';
import { TRAILER_INPUT } from '../labels/trailers';
import { idSchema } from './common';
import { locationSchema } from './yard';
import { isoDateTime, taskSchema } from './tasks';
import { gateVisitSchema } from './visits';

/** A trailer named in a path: as typed (its plate key finds it). */
export const trailerIdParams = z.object({
  trailer_id: z
    .string()
    .overwrite(cleanText)
    .min(1, 'El remolque es obligatorio')
    .max(TEXT_MAX, `El remolque admite como máximo ${TEXT_MAX} caracteres`),
});

/** GET /trailers?q=: the text whose key the records' keys start with or contain. */
export const trailerSearchSchema = z.object({
  q: z.string().overwrite(cleanText).max(TEXT_MAX, TRAILER_INPUT.tooLong('La búsqueda', TEXT_MAX)).optional(),
});

/** An optional one-line text of the record: cleaned, empty → null. */
const shortText = (label: string) =>
  z
    .string()
    .overwrite(cleanText)
    .max(TEXT_MAX, TRAILER_INPUT.tooLong(label, TEXT_MAX))
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null));

const notes = z
  .string()
  .overwrite(cleanMultiline)
  .max(TRAILER_NOTES_MAX, TRAILER_INPUT.tooLong('Las notas', TRAILER_NOTES_MAX))
  .nullish()
  .transform((v) => (v === undefined ? undefined : v || null));

/** PUT /trailers/{trailer_id}: the editable fields, over the `version` the editor started from. */
export const updateTrailerSchema = z.object({
  version: z.number({ error: TRAILER_INPUT.versionRequired }).int(TRAILER_INPUT.versionRequired).min(1),
  kind: z.enum(TRAILER_KINDS, { error: TRAILER_INPUT.kindInvalid }).optional(),
  load_state: z.enum(LOAD_STATES, { error: TRAILER_INPUT.loadStateInvalid }).optional(),
  carrier: shortText('El transportista'),
  seal: shortText('El precinto'),
  reference: shortText('La referencia'),
  adr: z.boolean().optional(),
  reefer_setpoint_c: z
    .number()
    .min(REEFER_SETPOINT_C.min, TRAILER_INPUT.setpointInvalid(REEFER_SETPOINT_C.min, REEFER_SETPOINT_C.max))
    .max(REEFER_SETPOINT_C.max, TRAILER_INPUT.setpointInvalid(REEFER_SETPOINT_C.min, REEFER_SETPOINT_C.max))
    .nullish(),
  notes,
});
export type UpdateTrailerInput = z.input<typeof updateTrailerSchema>;
export type UpdateTrailerData = z.output<typeof updateTrailerSchema>;

/** POST /trailers/{trailer_id}/position: staff put the trailer at a place (a yard check). */
export const trailerPositionSchema = z.object({
  location_id: idSchema,
  note: z
    .string()
    .overwrite(cleanMultiline)
    .max(TRAILER_NOTES_MAX, TRAILER_INPUT.tooLong('La nota', TRAILER_NOTES_MAX))
    .nullish()
    .transform((v) => v || null),
});
export type TrailerPositionInput = z.input<typeof trailerPositionSchema>;

/** POST /trailers/{trailer_id}/damage and …/clear-damage: `{note}`, required (CONTRACT §19, §24 ≤ 1000). */
export const trailerDamageSchema = z.object({
  note: z
    .string({ error: TRAILER_INPUT.noteRequired })
    .overwrite(cleanMultiline)
    .min(1, TRAILER_INPUT.noteRequired)
    .max(TRAILER_NOTES_MAX, TRAILER_INPUT.tooLong('La nota', TRAILER_NOTES_MAX)),
});
export type TrailerDamageInput = z.input<typeof trailerDamageSchema>;

// ---- Answers: zod schemas, so the TS types and the OpenAPI document are one definition (CONTRACT §21).

/** A trailer's record (CONTRACT §19). `location` is where it stands now, null when not in the yard. */
export const trailerSchema = z
  .object({
    trailer_id: z.string(),
    kind: z.enum(TRAILER_KINDS),
    load_state: z.enum(LOAD_STATES),
    carrier: z.string().nullable(),
    seal: z.string().nullable(),
    reference: z.string().nullable(),
    adr: z.boolean(),
    reefer_setpoint_c: z.number().nullable(),
    damaged: z.boolean(),
    damage_note: z.string().nullable(),
    notes: z.string().nullable(),
    in_yard: z.boolean(),
    location: locationSchema.pick({ id: true, code: true, name: true }).nullable(),
    /** Since when it stands where it is, null when not in the yard. */
    since: isoDateTime.nullable(),
    version: z.number().int(),
    updated_at: isoDateTime,
  })
  .meta({ id: 'Trailer' });
export type Trailer = z.output<typeof trailerSchema>;

/** GET /trailers/{trailer_id}: the record, its open task, its last completed moves, its gate visits. */
export const trailerDetailSchema = z
  .object({
    trailer: trailerSchema,
    open_task: taskSchema.nullable(),
    moves: z.array(taskSchema),
    /** Its last gate visits (CONTRACT §19: it entered or left with them), newest first. */
    visits: z.array(gateVisitSchema),
  })
  .meta({ id: 'TrailerDetail' });
export type TrailerDetail = z.output<typeof trailerDetailSchema>;

export const trailerListSchema = z.object({ trailers: z.array(trailerSchema) }).meta({ id: 'TrailerList' });
export type TrailerList = z.output<typeof trailerListSchema>;
