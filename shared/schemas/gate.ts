// The gate's inspection and photos (CONTRACT §19 "Inspection" and "Photos", §24): the checklist, the
// inspection an entry carries, the damage it marks, and the photo limits both sides apply.
import { z } from 'zod';
import { DESCRIPTION_MAX, REEFER_SETPOINT_C, TEXT_MAX } from '../constants';
import { LOAD_STATES, TRAILER_KINDS } from '../enums';
import { cleanText, identityKey } from '../text';
import { GATE_INPUT, GATE_PHOTO_ERR, INSPECTION_INPUT, INSPECTION_ITEM_LABELS } from '../labels/gate';
import { TRAILER_INPUT } from '../labels/trailers';
import { daySchema, idSchema, queryBool } from './common';
import { ERR } from '../labels/errors';
import { requiredText } from './tasks';
import { trailerSchema } from './trailers';
import { gateVisitSchema, type GateVisit } from './visits';
import { locationRefSchema } from './yard';

/** The checklist, in its order (CONTRACT §19). Names: INSPECTION_ITEM_LABELS. */
export const INSPECTION_CODES = [
  'neumaticos',
  'luces',
  'puertas',
  'lona_techo',
  'precinto',
  'chasis',
  'limpieza',
] as const;
export type InspectionCode = (typeof INSPECTION_CODES)[number];

/** An item's note, like every long text (CONTRACT §24: notes ≤ 1000). */
export const INSPECTION_NOTE_MAX = DESCRIPTION_MAX;
/** The damage note (`damage_note`, CONTRACT §24) is at most this long: a longer one is cut with `…`. */
export const DAMAGE_NOTE_MAX = DESCRIPTION_MAX;
/** Photos one inspection may carry. */
export const INSPECTION_PHOTOS_MAX = 20;

// ---- Photos (CONTRACT §19) ------------------------------------------------------------------------
/** The largest upload: 15 MB (MiB) of file. */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
/** The largest image, counted from its header before it is decoded. */
export const PHOTO_MAX_PIXELS = 50_000_000;
/** What is kept: a JPEG whose longest side is at most this, at this quality. */
export const PHOTO_LONG_SIDE = 1600;
export const PHOTO_JPEG_QUALITY = 80;
/** Decodes at a time per node, and how many may wait; more → 503. */
export const PHOTO_DECODES = { active: 2, waiting: 10 } as const;
/** An unattached photo goes after this long, an attached one after PHOTO_ATTACHED_TTL_MS. */
export const PHOTO_UNATTACHED_TTL_MS = 24 * 60 * 60 * 1000;
export const PHOTO_ATTACHED_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/** `POST /gate/photos` → 201. */
export const gatePhotoCreatedSchema = z.object({ id: idSchema }).meta({ id: 'GatePhotoCreated' });
export type GatePhotoCreated = z.output<typeof gatePhotoCreatedSchema>;

const inspectionItemSchema = z.object({
  code: z.enum(INSPECTION_CODES, { error: (issue) => INSPECTION_INPUT.codeInvalid(issue.input) }),
  ok: z.boolean({ error: INSPECTION_INPUT.okInvalid }),
  /** Optional, one line; blank → null. */
  note: z
    .string()
    .overwrite(cleanText)
    .max(INSPECTION_NOTE_MAX, INSPECTION_INPUT.noteTooLong(INSPECTION_NOTE_MAX))
    .nullish()
    .transform((note) => note || null),
});

/**
 * An entry's inspection `{items: [{code, ok, note}], photo_ids}`: each code at most once (an unknown one
 * is a 400), a missing item is not checked; `photo_ids` name the caller's unattached photos (checked
 * by the server when the entry claims them).
 */
export const inspectionSchema = z.object({
  items: z.array(inspectionItemSchema, { error: INSPECTION_INPUT.itemsInvalid }).superRefine((items, ctx) => {
    const seen = new Set<InspectionCode>();
    items.forEach((item, i) => {
      if (seen.has(item.code)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'code'],
          message: INSPECTION_INPUT.codeRepeated(INSPECTION_ITEM_LABELS[item.code]),
        });
      }
      seen.add(item.code);
    });
  }),
  photo_ids: z
    .array(z.string().uuid(GATE_PHOTO_ERR.invalid), { error: INSPECTION_INPUT.photoIdsInvalid })
    .max(INSPECTION_PHOTOS_MAX, INSPECTION_INPUT.tooManyPhotos(INSPECTION_PHOTOS_MAX))
    .refine((ids) => new Set(ids).size === ids.length, INSPECTION_INPUT.photoRepeated)
    .default([]),
});
export type InspectionInput = z.input<typeof inspectionSchema>;
export type Inspection = z.output<typeof inspectionSchema>;

/** What an inspection says of the trailer: damaged when any item is not ok, and the note of it. */
export interface InspectionDamage {
  damaged: boolean;
  /** The failed items in the checklist's order, each with its note: `Luces (Piloto trasero roto), Puertas`. */
  note: string | null;
}

/** The damage an inspection marks (CONTRACT §19 "Damage"), the same words on both sides. */
export function inspectionDamage(inspection: Pick<Inspection, 'items'>): InspectionDamage {
  const failed = INSPECTION_CODES.flatMap((code) => {
    const item = inspection.items.find((i) => i.code === code && !i.ok);
    if (!item) return [];
    const name = INSPECTION_ITEM_LABELS[code];
    return [item.note ? `${name} (${item.note})` : name];
  });
  if (failed.length === 0) return { damaged: false, note: null };
  const note = failed.join(', ');
  return {
    damaged: true,
    note: note.length > DAMAGE_NOTE_MAX ? `${note.slice(0, DAMAGE_NOTE_MAX - 1)}…` : note,
  };
}

// ---- Gate visits (CONTRACT §19 "Gate visits", §24) ----------------------------------------------------

/** An optional one-line text of a visit (§24: at most 120 characters): cleaned, empty or absent → null. */
const optionalText = (label: string, clean: (s: string) => string = cleanText) =>
  z
    .string({ error: GATE_INPUT.notText(label) })
    .overwrite(clean)
    .max(TEXT_MAX, TRAILER_INPUT.tooLong(label, TEXT_MAX))
    .nullish()
    .transform((v) => v || null);

/** A plate (truck or trailer): kept as its identity key (NFKC, upper-cased), as tasks keep theirs (§5). */
const plate = (label: string) => requiredText(label, identityKey);

/** The trailer a truck drops at the gate, placed at `location_id` from the moment it enters. */
const entryTrailerSchema = z.object({
  trailer_id: plate('El remolque'),
  kind: z.enum(TRAILER_KINDS, { error: TRAILER_INPUT.kindInvalid }).optional(),
  load_state: z.enum(LOAD_STATES, { error: TRAILER_INPUT.loadStateInvalid }),
  seal: optionalText('El precinto'),
  reference: optionalText('La referencia'),
  adr: z.boolean({ error: GATE_INPUT.adrInvalid }).optional(),
  reefer_setpoint_c: z
    .number({ error: TRAILER_INPUT.setpointInvalid(REEFER_SETPOINT_C.min, REEFER_SETPOINT_C.max) })
    .min(REEFER_SETPOINT_C.min, TRAILER_INPUT.setpointInvalid(REEFER_SETPOINT_C.min, REEFER_SETPOINT_C.max))
    .max(REEFER_SETPOINT_C.max, TRAILER_INPUT.setpointInvalid(REEFER_SETPOINT_C.min, REEFER_SETPOINT_C.max))
    .nullish(),
  location_id: idSchema,
  inspection: inspectionSchema.optional(),
});

/** POST /gate/entries: a truck enters; with a trailer, the trailer is put at its place at once. */
export const gateEntrySchema = z.object({
  truck_plate: plate('El camión'),
  carrier: requiredText('El transportista'),
  driver_name: optionalText('El nombre del conductor'),
  /** The agreed time (ISO): the wait counts from it when it is later than the arrival (§19). */
  appointment_at: z.iso
    .datetime({ offset: true, error: GATE_INPUT.appointmentInvalid })
    .nullish()
    .transform((v) => v ?? null),
  trailer: entryTrailerSchema.optional(),
});
export type GateEntryInput = z.input<typeof gateEntrySchema>;
export type GateEntryData = z.output<typeof gateEntrySchema>;

/** POST /gate/exits: the truck leaves, with the trailer it picks (taken out from wherever it stands). */
export const gateExitSchema = z.object({
  visit_id: idSchema,
  trailer: z
    .object({
      trailer_id: plate('El remolque'),
      seal: optionalText('El precinto'),
    })
    .optional(),
});
export type GateExitInput = z.input<typeof gateExitSchema>;
export type GateExitData = z.output<typeof gateExitSchema>;

/** GET /gate/visits: the open ones (`open=true`) or those of a Madrid day (`date=YYYY-MM-DD`). */
export const gateVisitsQuerySchema = z
  .object({ open: queryBool.optional(), date: daySchema.optional() })
  .refine((q) => (q.open === true) !== (q.date !== undefined), GATE_INPUT.visitsQuery);
export type GateVisitsQuery = z.output<typeof gateVisitsQuerySchema>;

/** GET /gate/suggestions: where a trailer of this load state and kind should go (absent → unknown, other). */
export const gateSuggestionsQuerySchema = z.object({
  load_state: z.enum(LOAD_STATES, { error: TRAILER_INPUT.loadStateInvalid }).default('desconocido'),
  kind: z.enum(TRAILER_KINDS, { error: TRAILER_INPUT.kindInvalid }).default('otro'),
});
export type GateSuggestionsQuery = z.output<typeof gateSuggestionsQuerySchema>;

/** POST /gate/entries → 201. `trailer` is the dropped trailer's record, null when none was dropped. */
export const gateEntryResultSchema = z
  .object({ visit: gateVisitSchema, trailer: trailerSchema.nullable() })
  .meta({ id: 'GateEntryResult' });
export type GateEntryResult = z.output<typeof gateEntryResultSchema>;

/** POST /gate/exits → 200. */
export const gateExitResultSchema = z.object({ visit: gateVisitSchema }).meta({ id: 'GateExitResult' });
export type GateExitResult = z.output<typeof gateExitResultSchema>;

/** GET /gate/visits. */
export const gateVisitListSchema = z
  .object({ visits: z.array(gateVisitSchema) })
  .meta({ id: 'GateVisitList' });
export type GateVisitList = z.output<typeof gateVisitListSchema>;

/** GET /gate/suggestions → up to GATE_SUGGESTIONS_MAX of these, best first. */
export const gateSuggestionSchema = z
  .object({
    location: locationRefSchema,
    /** Room left at the place now. */
    free: z.number().int(),
  })
  .meta({ id: 'GateSuggestion' });
export type GateSuggestion = z.output<typeof gateSuggestionSchema>;

// ---- Waiting times (CONTRACT §19 "Waiting times") ------------------------------------------------------

/** GET /admin/reports/truck-stays (and its Excel): two Madrid days of `exited_at`, both required, in order. */
export const truckStaysQuerySchema = z
  .object({ from: daySchema.optional(), to: daySchema.optional() })
  .refine((q) => q.from && q.to, ERR.bothDates)
  .refine((q) => !q.from || !q.to || q.from <= q.to, ERR.dateOrder)
  .transform((q) => ({ from: q.from as string, to: q.to as string }));
export type TruckStaysQuery = z.output<typeof truckStaysQuerySchema>;

/** One carrier's closed visits of the period (grouped by carrierKey(); named as first spelled). */
export interface CarrierWaits {
  carrier: string;
  visits: number;
  p50_s: number;
  p90_s: number;
  max_s: number;
  /** Visits whose wait passed 1 h. */
  over_1h: number;
}

/** GET /admin/reports/truck-stays. */
export interface TruckStaysReport {
  period: { from: string; to: string };
  carriers: CarrierWaits[];
  /** The visits whose wait passed 1 h, longest wait first. */
  visits: GateVisit[];
}
