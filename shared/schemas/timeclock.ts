import { z } from 'zod';
import { CLOCK_TYPES } from '../enums';
import type { ClockType, DailySummaryStatus, TimeclockStatusValue } from '../enums';
import { daySchema, queryBool } from './common';

export const punchQuerySchema = z.object({
  clock_type: z.enum(CLOCK_TYPES, { error: 'Tipo de fichaje no válido (entrada o salida)' }),
});

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

export interface Punch {
  clock_type: ClockType;
  timestamp: string;
}

export interface DailySummary {
  user_id: string;
  user_name: string;
  status: DailySummaryStatus;
  clock_in: string | null;
  clock_out: string | null;
  total_hours: number;
  punches: Punch[];
}
