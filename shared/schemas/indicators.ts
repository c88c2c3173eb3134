// The yard's indicators (CONTRACT §22): GET /admin/indicators?from&to and its Excel. One shape for the
// days, the hours of the day, the shifts, the totals and the previous period, so the view and the Excel
// read every figure the same way.
import { z } from 'zod';
import { SHIFTS } from '../enums';
import { ERR } from '../labels/errors';
import { daySchema } from './common';

/** At most this many Madrid days, `from` and `to` included (CONTRACT §22). */
export const INDICATORS_MAX_DAYS = 92;

/** Two Madrid days, both required, in order. "Not after today" and the 92 days are the service's (its clock). */
export const indicatorsQuerySchema = z
  .object({ from: daySchema.optional(), to: daySchema.optional() })
  .refine((q) => q.from && q.to, ERR.bothDates)
  .refine((q) => !q.from || !q.to || q.from <= q.to, ERR.periodInvalid)
  .transform((q) => ({ from: q.from as string, to: q.to as string }));
export type IndicatorsQuery = z.output<typeof indicatorsQuerySchema>;

const seconds = z.number().int().nullable();
/** A fraction 0–1 with 4 decimals; null when nothing counts. */
const rate = z.number().min(0).max(1).nullable();

/** The figures of one bucket (a day, an hour of the day, a shift, the whole period). */
export const indicatorFiguresSchema = z.object({
  /** Completions, by `completed_at`. */
  moves_completed: z.number().int(),
  /** Completions ÷ the drivers' clocked hours in the bucket; null with no clocked time. */
  moves_per_driver_hour: z.number().nullable(),
  /** Entering the pool → assignment (by `assigned_at`). */
  pool_wait_p50_s: seconds,
  pool_wait_p90_s: seconds,
  /** Assignment → completion (by `completed_at`). */
  move_p50_s: seconds,
  move_p90_s: seconds,
  /** Completions with a deadline met ÷ completions with a deadline. */
  on_time_rate: rate,
  /** Completions past their deadline. */
  late: z.number().int(),
  /** Returns to the pool and holds: events of the bucket. */
  returns: z.number().int(),
  holds: z.number().int(),
  gate_entries: z.number().int(),
  gate_exits: z.number().int(),
  /** Closed visits by `exited_at`, on `wait_s`. */
  truck_stay_p50_s: seconds,
  truck_stay_p90_s: seconds,
  trucks_over_1h: z.number().int(),
  /** Completions proven by a scan ÷ completions. */
  scan_rate: rate,
});
export type IndicatorFigures = z.output<typeof indicatorFiguresSchema>;
export type IndicatorFigure = keyof IndicatorFigures;

export const indicatorsSchema = z
  .object({
    period: z.object({ from: daySchema, to: daySchema }),
    /** One row per Madrid day of the period, in order, empty days included. */
    days: z.array(indicatorFiguresSchema.extend({ date: daySchema })),
    /** 24 rows, Madrid hour of the day 0–23 (CONTRACT §8: 02:00 twice on the October change). */
    by_hour: z.array(indicatorFiguresSchema.extend({ hour: z.number().int().min(0).max(23) })),
    /** One row per shift, in SHIFTS order (CONTRACT §20's shifts; a shift counts by its start's date). */
    by_shift: z.array(indicatorFiguresSchema.extend({ shift: z.enum(SHIFTS) })),
    totals: indicatorFiguresSchema,
    /** The totals of the same number of days just before `from`. */
    previous: indicatorFiguresSchema.extend({ from: daySchema, to: daySchema }),
  })
  .meta({ id: 'Indicators' });
export type Indicators = z.output<typeof indicatorsSchema>;
