// analytics_tareas_{from}_to_{to}.xlsx (CONTRACT §8): per driver the tasks finished in the range, their
// average and total completion time, hours worked (time clock) and efficiency; then those tasks.
import type ExcelJS from 'exceljs';
import { EXCEL, PRIORITY_LABELS, shortId, VEHICLE_BADGES } from '@shared/labels';
import type { Task } from '@shared/schemas';
import { madridDayRange, roundMinutes } from '@shared/time';
import {
  completionMs,
  driverPerformance,
  tasksFinishedIn,
  type DriverPerformance,
} from '../services/analytics';
import { deadlineColumns } from './deadline-columns';
import { trailerMarkColumns } from './trailer-columns';
import { addTableSheet, newWorkbook } from './workbook';

const { drivers: driverSheet, tasks: taskSheet } = EXCEL.analytics;

const durationMinutes = (t: Task) => {
  const ms = completionMs(t);
  return ms === null ? null : roundMinutes(ms);
};

export async function analyticsWorkbook(from: string, to: string): Promise<ExcelJS.Workbook> {
  const range = { start: madridDayRange(from).start, end: madridDayRange(to).end };
  const finished = await tasksFinishedIn(range);
  const performance = await driverPerformance(range, finished);
  const h = driverSheet.headers;
  const t = taskSheet.headers;

  const wb = newWorkbook();
  addTableSheet<DriverPerformance>(
    wb,
    driverSheet.sheet,
    [
      { header: h.driver, kind: 'text', value: (r) => r.name },
      { header: h.email, kind: 'text', value: (r) => r.email },
      { header: h.tasks, kind: 'integer', value: (r) => r.tasksFinished },
      { header: h.avgMinutes, kind: 'minutes', value: (r) => r.avgMinutes },
      { header: h.totalMinutes, kind: 'minutes', value: (r) => r.totalMinutes },
      { header: h.hoursWorked, kind: 'decimal', value: (r) => r.hoursWorked },
      { header: h.efficiency, kind: 'decimal', value: (r) => r.efficiency },
    ],
    performance,
  );
  addTableSheet<Task>(
    wb,
    taskSheet.sheet,
    [
      // The id as the screens show it (`#1e04136b`) first, then the whole one (issue 30).
      { header: t.shortId, kind: 'text', value: (r) => shortId(r.id) },
      { header: t.id, kind: 'text', value: (r) => r.id },
      { header: t.title, kind: 'text', value: (r) => r.title },
      { header: t.trailer, kind: 'text', value: (r) => r.trailer_id },
      { header: t.origin, kind: 'text', value: (r) => r.origin },
      { header: t.destination, kind: 'text', value: (r) => r.destination },
      { header: t.priority, kind: 'text', value: (r) => PRIORITY_LABELS[r.priority] },
      { header: t.vehicleType, kind: 'text', value: (r) => VEHICLE_BADGES[r.vehicle_type] },
      { header: t.driver, kind: 'text', value: (r) => r.assigned_to_name },
      { header: t.createdAt, kind: 'datetime', value: (r) => r.created_at },
      { header: t.assignedAt, kind: 'datetime', value: (r) => r.assigned_at },
      { header: t.completedAt, kind: 'datetime', value: (r) => r.completed_at },
      { header: t.minutes, kind: 'minutes', value: durationMinutes },
      ...deadlineColumns<Task>((r) => r),
      ...trailerMarkColumns<Task>((r) => r.trailer),
    ],
    finished,
  );
  return wb;
}
