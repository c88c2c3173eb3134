// The trailer's record (CONTRACT §19): what GET /trailers… answer and what PUT and …/position take.
import { z } from 'zod';
import { LOAD_STATES, TRAILER_KINDS, type LoadState, type TrailerKind } from '../enums';
import { REEFER_SETPOINT_C, TEXT_MAX, TRAILER_NOTES_MAX } from '../constants';
import { cleanMultiline, cleanText } from '../text';
import { TRAILER_INPUT } from '../labels/trailers';
import { idSchema } from './common';
import type { Location } from './yard';
import type { Task } from './tasks';
import type { GateVisit } from './gate';

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

/** A trailer's record (CONTRACT §19). `location` is where it stands now, null when not in the yard. */
export interface Trailer {
  trailer_id: string;
  kind: TrailerKind;
  load_state: LoadState;
  carrier: string | null;
  seal: string | null;
  reference: string | null;
  adr: boolean;
  reefer_setpoint_c: number | null;
  damaged: boolean;
  damage_note: string | null;
  notes: string | null;
  in_yard: boolean;
  location: Pick<Location, 'id' | 'code' | 'name'> | null;
  /** Since when it stands where it is (ISO), null when not in the yard. */
  since: string | null;
  version: number;
  updated_at: string;
}

/** GET /trailers/{trailer_id}: the record, its open task, its last completed moves, its gate visits. */
export interface TrailerDetail {
  trailer: Trailer;
  open_task: Task | null;
  moves: Task[];
  /** Its last gate visits (CONTRACT §19: it entered or left with them), newest first. */
  visits: GateVisit[];
}

export interface TrailerList {
  trailers: Trailer[];
}
