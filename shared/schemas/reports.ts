import { z } from 'zod';
import { REPORT_PERIODS, SEARCH_TYPES } from '../enums';
import type { DeficiencyReason, Priority, TaskStatus } from '../enums';
import { TEXT_MAX } from '../constants';
import { daySchema } from './common';

export const searchQuerySchema = z
  .object({
    search_type: z.enum(SEARCH_TYPES, { error: 'Tipo de búsqueda no válido' }).default('all'),
    query: z.string().trim().max(TEXT_MAX).optional(),
    date_from: daySchema.optional(),
    date_to: daySchema.optional(),
  })
  .strict();

export const reportQuerySchema = z
  .object({
    period: z.enum(REPORT_PERIODS, { error: 'Periodo no válido (24h, day u hour)' }).default('24h'),
    date: daySchema.optional(),
    hour: z.coerce
      .number({ error: 'Hora no válida' })
      .int('Hora no válida')
      .min(0, 'La hora va de 0 a 23')
      .max(23, 'La hora va de 0 a 23')
      .optional(),
  })
  .strict();

export const dateRangeQuerySchema = z
  .object({
    date_from: daySchema,
    date_to: daySchema,
  })
  .strict();

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
  delay_minutes: number;
  trailer_id: string;
  created_at: string;
  timestamp: string | null;
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
