// The gate's inspection and photos (CONTRACT §19 "Inspection" and "Photos", §24): the checklist, the
// inspection an entry carries, the damage it marks, and the photo limits both sides apply.
import { z } from 'zod';
import { DESCRIPTION_MAX } from '../constants';
import { cleanText } from '../text';
import { GATE_PHOTO_ERR, INSPECTION_INPUT, INSPECTION_ITEM_LABELS } from '../labels/gate';

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
export interface GatePhotoCreated {
  id: string;
}

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
