// The yard (CONTRACT §17): the location catalogue, its CSV import, and what GET /yard and
// GET /yard/trailers answer.
import { z } from 'zod';
import { LOCATION_KINDS, TASK_STATUSES } from '../enums';
import { TEXT_MAX } from '../constants';
import { cleanText, identityKey } from '../text';
import { LOCATION_INPUT } from '../labels/yard';
import { idSchema } from './common';
import { isoDateTime, taskTrailerMarksSchema } from './tasks';

export const LOCATION_CODE_MAX = 40;
export const LOCATION_ZONE_MAX = 60;
export const LOCATION_CAPACITY_MAX = 500;
/** The map's grid: cells 0…GRID_MAX on each axis. */
export const LOCATION_GRID_MAX = 199;
/** One import at most this many lines (header included): a yard's catalogue, not a data dump. */
export const LOCATION_CSV_MAX_LINES = 5001;

const text = (required: string, tooLong: string, max: number) =>
  z.string({ error: required }).overwrite(cleanText).min(1, required).max(max, tooLong);

const cell = (axis: 'x' | 'y') =>
  z
    .number({ error: LOCATION_INPUT.cellInvalid(axis, LOCATION_GRID_MAX) })
    .int(LOCATION_INPUT.cellInvalid(axis, LOCATION_GRID_MAX))
    .min(0, LOCATION_INPUT.cellInvalid(axis, LOCATION_GRID_MAX))
    .max(LOCATION_GRID_MAX, LOCATION_INPUT.cellInvalid(axis, LOCATION_GRID_MAX));

const locationFields = {
  /** Stored upper-case (`muelle-12` → `MUELLE-12`), unique. */
  code: z
    .string({ error: LOCATION_INPUT.codeRequired })
    .overwrite(identityKey)
    .min(1, LOCATION_INPUT.codeRequired)
    .max(LOCATION_CODE_MAX, LOCATION_INPUT.codeTooLong(LOCATION_CODE_MAX))
    .regex(/^[A-Z0-9][A-Z0-9._-]*$/, LOCATION_INPUT.codeFormat),
  name: text(LOCATION_INPUT.nameRequired, LOCATION_INPUT.nameTooLong(TEXT_MAX), TEXT_MAX),
  kind: z.enum(LOCATION_KINDS, { error: LOCATION_INPUT.kindInvalid }),
  zone: text(LOCATION_INPUT.zoneRequired, LOCATION_INPUT.zoneTooLong(LOCATION_ZONE_MAX), LOCATION_ZONE_MAX),
  capacity: z
    .number({ error: LOCATION_INPUT.capacityInvalid(LOCATION_CAPACITY_MAX) })
    .int(LOCATION_INPUT.capacityInvalid(LOCATION_CAPACITY_MAX))
    .min(1, LOCATION_INPUT.capacityInvalid(LOCATION_CAPACITY_MAX))
    .max(LOCATION_CAPACITY_MAX, LOCATION_INPUT.capacityInvalid(LOCATION_CAPACITY_MAX)),
  x: cell('x'),
  y: cell('y'),
};

/** POST /admin/locations (and one line of the CSV import). */
export const createLocationSchema = z.object({
  ...locationFields,
  capacity: locationFields.capacity.default(1),
});
export type CreateLocationInput = z.input<typeof createLocationSchema>;
export type CreateLocationData = z.output<typeof createLocationSchema>;

/** PUT /admin/locations/{id}: any subset of the fields; `active: true` brings a deactivated one back. */
export const updateLocationSchema = z
  .object({ ...locationFields, active: z.boolean({ error: LOCATION_INPUT.activeInvalid }) })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, LOCATION_INPUT.noChanges);
export type UpdateLocationInput = z.input<typeof updateLocationSchema>;
export type UpdateLocationData = z.output<typeof updateLocationSchema>;

/** POST /admin/locations/import: the CSV's text, header row `code,name,kind,zone,capacity,x,y`. */
export const importLocationsSchema = z.object({
  csv: z.string({ error: LOCATION_INPUT.csvRequired }).min(1, LOCATION_INPUT.csvRequired),
});

/** POST /yard/trailers/{trailer_id}/leave: a trailer as tasks store it (its identity key). */
export const trailerParams = z.object({
  trailer_id: z
    .string()
    .overwrite(identityKey)
    .min(1, 'El remolque es obligatorio')
    .max(TEXT_MAX, `El remolque admite como máximo ${TEXT_MAX} caracteres`),
});

// ---- Answers: zod schemas, so the TS types and the OpenAPI document are one definition (CONTRACT §21).

export const locationSchema = z
  .object({
    id: idSchema,
    code: z.string(),
    name: z.string(),
    kind: z.enum(LOCATION_KINDS),
    zone: z.string(),
    capacity: z.number().int(),
    x: z.number().int(),
    y: z.number().int(),
    active: z.boolean(),
  })
  .meta({ id: 'Location' });
export type Location = z.output<typeof locationSchema>;

/** What an answer shows of the place a trailer stands at. */
export const locationRefSchema = locationSchema
  .pick({ id: true, code: true, name: true, zone: true, kind: true })
  .meta({ id: 'LocationRef' });

/** The open task of a trailer standing in the yard: it is booked to leave (its slot does not block). */
export const yardOpenTaskSchema = z
  .object({
    id: idSchema,
    title: z.string(),
    status: z.enum(TASK_STATUSES),
    destination: z.string(),
    on_hold: z.boolean(),
    /** Why staff held it (SPEC: Retener), when on hold and given. */
    hold_reason: z.string().nullable(),
  })
  .meta({ id: 'YardOpenTask' });
export type YardOpenTask = z.output<typeof yardOpenTaskSchema>;

export const yardSlotTrailerSchema = z
  .object({
    trailer_id: z.string(),
    /** Since when it stands here: the completion of the move that brought it. */
    since: isoDateTime,
    open_task: yardOpenTaskSchema.nullable(),
    /** CONTRACT §19: its load state, ADR, reefer and damage marks. */
    marks: taskTrailerMarksSchema,
  })
  .meta({ id: 'YardSlotTrailer' });
export type YardSlotTrailer = z.output<typeof yardSlotTrailerSchema>;

export const yardIncomingSchema = z
  .object({
    task_id: idSchema,
    trailer_id: z.string(),
    status: z.enum(TASK_STATUSES),
    on_hold: z.boolean(),
  })
  .meta({ id: 'YardIncoming' });
export type YardIncoming = z.output<typeof yardIncomingSchema>;

/** GET /yard: an active location with its trailers, the open tasks heading to it, and its free room. */
export const yardLocationSchema = locationSchema
  .extend({
    trailers: z.array(yardSlotTrailerSchema),
    incoming: z.array(yardIncomingSchema),
    /** Capacity minus the trailers not booked to leave and the incoming; null for a gate (holds none). */
    free: z.number().int().nullable(),
  })
  .meta({ id: 'YardLocation' });
export type YardLocation = z.output<typeof yardLocationSchema>;

/** GET /yard/trailers: a trailer in the yard, where and since when, and its open task if any. */
export const yardTrailerSchema = z
  .object({
    trailer_id: z.string(),
    location: locationRefSchema,
    since: isoDateTime,
    open_task: yardOpenTaskSchema.nullable(),
    /** CONTRACT §19: its load state, ADR, reefer and damage marks. */
    marks: taskTrailerMarksSchema,
  })
  .meta({ id: 'YardTrailer' });
export type YardTrailer = z.output<typeof yardTrailerSchema>;

export interface ImportLocationsResult {
  message: string;
  created: number;
  updated: number;
}
