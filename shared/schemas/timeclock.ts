import { z } from 'zod';
import { CLOCK_TYPES } from '../enums';
import type { ClockType, DailySummaryStatus, TimeclockStatusValue } from '../enums';
import { TEXT_MAX } from '../constants';
import { cleanText } from '../text';
import { daySchema, idSchema, queryBool } from './common';
import { clientTimeSchema } from './offline';

export const punchQuerySchema = z.object({
  clock_type: z.enum(CLOCK_TYPES, { error: 'Tipo de fichaje no válido (entrada o salida)' }),
});

/** The punch's optional JSON body (CONTRACT §16): the phone's time of an offline punch. */
export const punchBodySchema = z.object({ client_time: clientTimeSchema.optional() }).default({});

export interface TimeclockStatus {
  status: TimeclockStatusValue;
  can_clock_in: boolean;
  can_clock_out: boolean;
  last_entrada: string | null;
  last_salida: string | null;
  punches_today: number;
}

export interface PunchResponse {
  message: string;
  timestamp: string;
}

export interface ServerTime {
  madrid_time: string;
  epoch_ms: number;
}

export const dailySummaryQuerySchema = z
  .object({ last_24h: queryBool.optional(), date: daySchema.optional() })
  .strict();

/** A punch of the daily summary (CONTRACT §15): added by a correction (`corrected`) or sent from the phone's offline queue (`offline`). */
export interface Punch {
  id: string;
  clock_type: ClockType;
  timestamp: string;
  corrected: boolean;
  offline: boolean;
}

export const PUNCH_CORRECTION_ACTIONS = ['added', 'removed'] as const;
export type PunchCorrectionAction = (typeof PUNCH_CORRECTION_ACTIONS)[number];

/** Who added or removed which punch, when and why (CONTRACT §15). */
export interface PunchCorrection {
  punch_id: string;
  action: PunchCorrectionAction;
  clock_type: ClockType;
  /** The time the punch says (a removed punch keeps its original time here). */
  punch_timestamp: string;
  reason: string;
  actor_name: string;
  at: string;
}

/** The reason of a correction: cleaned like every stored text (CONTRACT §14), required. */
const correctionReason = z
  .string({ error: 'El motivo es obligatorio' })
  .overwrite(cleanText)
  .min(1, 'El motivo es obligatorio')
  .max(TEXT_MAX, `El motivo admite como máximo ${TEXT_MAX} caracteres`);

/** `POST /admin/timeclock/punches`: a punch the driver forgot. The server checks the time is past. */
export const addPunchSchema = z
  .object({
    user_id: idSchema,
    clock_type: z.enum(CLOCK_TYPES, { error: 'Tipo de fichaje no válido (entrada o salida)' }),
    timestamp: z.iso.datetime({ offset: true, error: 'Fecha y hora no válidas' }),
    reason: correctionReason,
  })
  .strict();
export type AddPunchInput = z.input<typeof addPunchSchema>;
export type AddPunchData = z.output<typeof addPunchSchema>;

/** `DELETE /admin/timeclock/punches/{id}`: why the punch is wrong. */
export const removePunchSchema = z.object({ reason: correctionReason }).strict();
export type RemovePunchInput = z.input<typeof removePunchSchema>;
export type RemovePunchData = z.output<typeof removePunchSchema>;

export interface PunchCorrectionResponse {
  message: string;
  punch: Punch;
}

export interface DailySummary {
  user_id: string;
  user_name: string;
  status: DailySummaryStatus;
  clock_in: string | null;
  clock_out: string | null;
  total_hours: number;
  punches: Punch[];
  /** Corrections of this row's punches, oldest first: the row shows `Corregido` with who, when and why. */
  corrections: PunchCorrection[];
}
