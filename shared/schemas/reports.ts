import { z } from 'zod';
import { REPORT_PERIODS, SEARCH_TYPES } from '../enums';
import type { DeficiencyReason, Priority, TaskStatus } from '../enums';
import { TEXT_MAX } from '../constants';
import { ERR } from '../labels/errors';
import { cleanText } from '../text';
import { daySchema } from './common';

/** An empty query-string value (`?date=`) counts as absent, as the client's cleared inputs send it. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalDay = z.preprocess(blankToUndefined, daySchema.optional());
/** 'YYYY-MM-DD' strings compare like the days they name. */
const inOrder = (from?: string, to?: string) => !from || !to || from <= to;

export const searchQuerySchema = z
  .object({
    search_type: z.enum(SEARCH_TYPES, { error: 'Tipo de búsqueda no válido' }).default('all'),
    // Cleaned as stored text is (CONTRACT §14): a pasted zero-width space neither hides a match nor counts.
    query: z.preprocess(blankToUndefined, z.string().overwrite(cleanText).max(TEXT_MAX).optional()),
    date_from: optionalDay,
    date_to: optionalDay,
  })
  .strict()
  // Refinements without a path: the detail is the bare sentence the searcher shows (SPEC §5).
  .refine((q) => q.query || q.date_from || q.date_to, ERR.searchCriteria)
  .refine((q) => inOrder(q.date_from, q.date_to), ERR.dateOrder);
export type SearchQuery = z.output<typeof searchQuerySchema>;

export const reportQuerySchema = z
  .object({
    period: z.enum(REPORT_PERIODS, { error: 'Periodo no válido (24h, day u hour)' }).default('24h'),
    date: optionalDay,
    // CONTRACT §13: an integer 0–23; '09' is accepted.
    hour: z.preprocess(
      blankToUndefined,
      z
        .string()
        .regex(/^\d{1,2}$/, 'Hora no válida')
        .transform(Number)
        .pipe(z.number().max(23, 'La hora va de 0 a 23'))
        .optional(),
    ),
  })
  .strict()
  .refine((q) => q.period === '24h' || q.date !== undefined, ERR.dateRequired)
  .refine((q) => q.period !== 'hour' || q.hour !== undefined, ERR.hourRequired);
export type ReportQuery = z.output<typeof reportQuerySchema>;

/** Both Excel exports: two Madrid days, both required, in order. */
export const dateRangeQuerySchema = z
  .object({ date_from: optionalDay, date_to: optionalDay })
  .strict()
  .refine((q) => q.date_from && q.date_to, ERR.bothDates)
  .refine((q) => inOrder(q.date_from, q.date_to), ERR.dateOrder)
  .transform((q) => ({ date_from: q.date_from as string, date_to: q.date_to as string }));
export type DateRangeQuery = z.output<typeof dateRangeQuerySchema>;

export interface ReportSummary {
  total_incidents: number;
  avg_delay_minutes: number;
  max_delay_minutes: number;
  period: string;
}

export interface DeficiencyIncident {
  task_id: string;
  task_title: string;
  priority: Priority;
  reason: DeficiencyReason;
  /** CONTRACT §22: `Sin conductores disponibles`, `Conductores ocupados` or `Devuelta por {driver}: {motivo}`. */
  reason_detail: string;
  delay_minutes: number;
  trailer_id: string;
  created_at: string;
  timestamp: string | null;
  /** CONTRACT §20: the task's status, deadline and lateness now (the report shows how it stands). */
  status: TaskStatus;
  due_at: string | null;
  late_s: number | null;
}

export interface DelayedAssignment {
  task_id: string;
  task_title: string;
  priority: Priority;
  status: TaskStatus;
  completion_delay_minutes: number;
  assigned_to_name: string | null;
  trailer_id: string;
  assigned_at: string;
  completed_at: string | null;
  /** CONTRACT §20: its deadline and lateness. */
  due_at: string | null;
  late_s: number | null;
}

export interface DeficienciesReport {
  summary: ReportSummary;
  incidents: DeficiencyIncident[];
}

export interface DelayedAssignmentsReport {
  summary: ReportSummary;
  assignments: DelayedAssignment[];
}

export interface DriverAnalyticsRow {
  id: string;
  name: string;
  email: string;
  is_online: boolean;
  movements_count: number;
  total_time_online_24h: number;
  average_task_completion_time: number | null;
  last_activity: string | null;
}
