// Informes de Operaciones (CONTRACT §8). Deficiencies: how long auto-assigned tasks waited for their
// first driver. Delayed assignments: how long assigned tasks took to finish. A delay strictly over
// INCIDENT_THRESHOLD_MIN is an incident; the filter runs in SQL over an indexed time range
// (tasks_created, tasks_assigned_at), so only the incidents reach JavaScript.
import {
  AUTO_ASSIGNED_TYPES,
  type ClockType,
  type Priority,
  type TaskStatus,
  type TaskTitle,
  type VehicleType,
} from '@shared/enums';
import { INCIDENT_THRESHOLD_MIN, OPEN_SHIFT_MAX_MS } from '@shared/constants';
import { DEFICIENCY_REASON_DETAIL, NOT_AVAILABLE, REPORT_PERIOD_LABEL } from '@shared/labels';
import type {
  DeficienciesReport,
  DelayedAssignmentsReport,
  ReportQuery,
  ReportSummary,
} from '@shared/schemas';
import { madridDayRange, madridHourRange, roundMinutes } from '@shared/time';
import { query } from '../db';
import { FALSE, sqlFor } from '../db/dialect';
import { nowMs } from '../clock';
import type { Window } from './timeclock-summary';

const THRESHOLD_MS = INCIDENT_THRESHOLD_MIN * 60_000;
const LAST_24H_MS = 24 * 3_600_000;
const AUTO_TYPES = AUTO_ASSIGNED_TYPES.map((t) => `'${t}'`).join(', ');
// Two-argument scalar MIN/MAX are SQLite's; PostgreSQL says LEAST/GREATEST (no NULL reaches them here).
const MIN2 = sqlFor({ sqlite: 'MIN', postgres: 'LEAST' });
const MAX2 = sqlFor({ sqlite: 'MAX', postgres: 'GREATEST' });

// A task on hold is left out while held (CONTRACT §15): staff keep it back on purpose, no driver is
// missing. The wait ends at the first assignment (the history's first 'assigned'; assigned_at for a row
// without history), else at completion (a pool task dragged straight to finalizada), else now; the time
// the task spent on hold inside that wait is not waiting for a driver and is taken off. Each 'held' row
// holds the task up to the next 'held', 'released' or 'completed' row (a 'held' while held only changes
// the reason, so the pieces never overlap), or up to the end of the wait; assigning a held task by hand
// writes 'released' first. The hold history is read only for tasks whose whole wait is over the
// threshold, a few rows each by task_events_task.
// MATERIALIZED: flattened, SQLite would run the first-assignment and hold subqueries once per place
// their columns are used. INDEXED BY: left alone, SQLite reads task_events_type and walks every
// assignment in history per task. Parameters: start, end, now, threshold, threshold.
const DEFICIENCIES_SQL = `
  WITH f AS MATERIALIZED (
    SELECT t.id, t.title, t.priority, t.trailer_id, t.created_at, t.completed_at, t.no_drivers_available,
           t.status, t.due_at, t.late_s, t.vehicle_type,
           COALESCE(
             (SELECT MIN(e.at) FROM task_events e INDEXED BY task_events_task WHERE e.task_id = t.id AND e.type = 'assigned'),
             t.assigned_at) AS first_assigned_at
    FROM tasks t
    WHERE t.created_at >= ? AND t.created_at < ? AND t.deleted_at IS NULL
      AND t.vehicle_type IN (${AUTO_TYPES}) AND t.on_hold = ${FALSE}
  ),
  w AS (
    SELECT f.*, COALESCE(f.first_assigned_at, f.completed_at, ?) AS wait_end FROM f
  ),
  held AS MATERIALIZED (
    SELECT w.*,
           (SELECT COALESCE(SUM(${MAX2}(0, ${MIN2}(COALESCE(
              (SELECT MIN(n.at) FROM task_events n INDEXED BY task_events_task
               WHERE n.task_id = h.task_id AND n.at >= h.at AND (n.at > h.at OR n.id > h.id)
                 AND n.type IN ('held', 'released', 'completed')),
              w.wait_end), w.wait_end) - ${MAX2}(h.at, w.created_at))), 0)
            FROM task_events h INDEXED BY task_events_task WHERE h.task_id = w.id AND h.type = 'held') AS held_ms
    FROM w WHERE w.wait_end - w.created_at > ?
  )
  SELECT * FROM held WHERE wait_end - created_at - held_ms > ?`;

// The latest return of each incident's task (CONTRACT §22 `reason_detail`): who and why.
const RETURNS_SQL = (ids: number) => `
  SELECT e.task_id, e.reason, u.name AS driver_name FROM task_events e INDEXED BY task_events_task
  LEFT JOIN users u ON u.id = e.driver_id
  WHERE e.task_id IN (${Array(ids).fill('?').join(', ')}) AND e.type = 'returned'
  ORDER BY e.at, e.id`;

// Still en_proceso: the delay runs up to now. INDEXED BY: left alone, SQLite prefers tasks_status and
// walks the whole finished history. Parameters: start, end, now, threshold.
const DELAYED_SQL = `
  SELECT t.id, t.title, t.priority, t.status, t.trailer_id, t.assigned_at, t.completed_at,
         t.due_at, t.late_s, u.name AS assigned_to_name
  FROM tasks t INDEXED BY tasks_assigned_at LEFT JOIN users u ON u.id = t.assigned_to
  WHERE t.assigned_at >= ? AND t.assigned_at < ? AND t.deleted_at IS NULL
    AND t.status IN ('en_proceso', 'finalizada')
    AND COALESCE(t.completed_at, ?) - t.assigned_at > ?`;

/** CONTRACT §20: a task's deadline and lateness, as both reports read them. */
interface DeadlineColumns {
  due_at: number | null;
  late_s: number | null;
}

interface DeficiencyRow extends DeadlineColumns {
  id: string;
  title: TaskTitle;
  priority: Priority;
  trailer_id: string;
  created_at: number;
  completed_at: number | null;
  no_drivers_available: number | null;
  first_assigned_at: number | null;
  /** When the wait ended: the first assignment, else the completion, else now. */
  wait_end: number;
  /** Time on hold inside the wait. */
  held_ms: number;
  status: TaskStatus;
  vehicle_type: VehicleType;
}

// The conductors' punches around the incidents (reason_detail): who was on shift when each task entered
// the pool. Read once for the report, along punches_time; an entrada older than OPEN_SHIFT_MAX_MS is no
// shift any more (CONTRACT §15). Parameters: from, to.
const SHIFT_PUNCHES_SQL = `
  SELECT p.user_id, p.clock_type, p.timestamp, d.task_types
  FROM punches p INDEXED BY punches_time JOIN users d ON d.id = p.user_id
  WHERE p.timestamp > ? AND p.timestamp <= ? AND p.deleted_at IS NULL
    AND d.role = 'conductor' AND d.deleted_at IS NULL
  ORDER BY p.timestamp`;

interface ShiftPunchRow {
  user_id: string;
  clock_type: ClockType;
  timestamp: number;
  /** JSON text on both engines. */
  task_types: string;
}

interface ReturnRow {
  task_id: string;
  reason: string | null;
  driver_name: string | null;
}

interface DelayedRow extends DeadlineColumns {
  id: string;
  title: TaskTitle;
  priority: Priority;
  status: TaskStatus;
  trailer_id: string;
  assigned_at: number;
  completed_at: number | null;
  assigned_to_name: string | null;
}

/** The report's window and its readable label; hours are Madrid local hours (DST-correct). */
function reportPeriod(q: ReportQuery, now: number): Window & { label: string } {
  if (q.period === 'day' && q.date)
    return { ...madridDayRange(q.date), label: REPORT_PERIOD_LABEL.day(q.date) };
  if (q.period === 'hour' && q.date && q.hour !== undefined)
    return { ...madridHourRange(q.date, q.hour), label: REPORT_PERIOD_LABEL.hour(q.date, q.hour) };
  // The schema lets day/hour through only with their date and hour: what is left is 24h.
  return { start: now - LAST_24H_MS, end: now + 1, label: REPORT_PERIOD_LABEL.last24h };
}

/** Averages and maxima over the incidents listed, from the unrounded delays; 0 with none. */
function summarize(delaysMs: number[], period: string): ReportSummary {
  const total = delaysMs.length;
  return {
    total_incidents: total,
    avg_delay_minutes: total ? roundMinutes(delaysMs.reduce((a, b) => a + b, 0) / total) : 0,
    max_delay_minutes: total ? roundMinutes(Math.max(...delaysMs)) : 0,
    period,
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const deadlineOf = (r: DeadlineColumns) => ({ due_at: iso(r.due_at), late_s: r.late_s });
/** Worst first; equal delays oldest first. */
const byDelay = <T extends { delay: number; at: number }>(a: T, b: T) => b.delay - a.delay || a.at - b.at;

/**
 * CONTRACT §22: why the task waited, in words. A return names the driver and their motive (the task went
 * back to the pool and waited again); else no driver of its type on shift when it entered the pool, or all
 * of them busy.
 */
function reasonDetail(ret: ReturnRow | undefined, driversOnShift: boolean): string {
  if (ret) return DEFICIENCY_REASON_DETAIL.returned(ret.driver_name ?? NOT_AVAILABLE, ret.reason);
  return driversOnShift ? DEFICIENCY_REASON_DETAIL.driversBusy : DEFICIENCY_REASON_DETAIL.noDrivers;
}

/** For each task: was a conductor having its type clocked in when it entered the pool? One read of punches. */
async function driversOnShift(rows: readonly DeficiencyRow[]): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  if (!rows.length) return out;
  const byTime = [...rows].sort((a, b) => a.created_at - b.created_at);
  const punches = await query<ShiftPunchRow>(SHIFT_PUNCHES_SQL, [
    byTime[0].created_at - OPEN_SHIFT_MAX_MS,
    byTime[byTime.length - 1].created_at,
  ]);
  // Sweep the punches in time order: each driver's latest entrada still open, with their types.
  const onShift = new Map<string, { since: number; types: string }>();
  let next = 0;
  for (const task of byTime) {
    for (; next < punches.length && Number(punches[next].timestamp) <= task.created_at; next++) {
      const p = punches[next];
      if (p.clock_type === 'entrada')
        onShift.set(p.user_id, { since: Number(p.timestamp), types: p.task_types });
      else onShift.delete(p.user_id);
    }
    const quoted = JSON.stringify(task.vehicle_type);
    out.set(
      task.id,
      [...onShift.values()].some(
        (d) => task.created_at - d.since <= OPEN_SHIFT_MAX_MS && d.types.includes(quoted),
      ),
    );
  }
  return out;
}

export async function deficienciesReport(q: ReportQuery): Promise<DeficienciesReport> {
  const now = nowMs();
  const period = reportPeriod(q, now);
  const rows = (
    await query<DeficiencyRow>(DEFICIENCIES_SQL, [period.start, period.end, now, THRESHOLD_MS, THRESHOLD_MS])
  )
    .map((r) => ({
      r,
      delay: r.wait_end - r.created_at - r.held_ms,
      at: r.created_at,
    }))
    .sort(byDelay);
  const onShift = await driversOnShift(rows.map((x) => x.r));
  const returns = new Map<string, ReturnRow>();
  if (rows.length)
    for (const ret of await query<ReturnRow>(
      RETURNS_SQL(rows.length),
      rows.map((x) => x.r.id),
    ))
      returns.set(ret.task_id, ret);
  return {
    summary: summarize(
      rows.map((x) => x.delay),
      period.label,
    ),
    incidents: rows.map(({ r, delay }) => ({
      task_id: r.id,
      task_title: r.title,
      priority: r.priority,
      reason: r.no_drivers_available ? 'no_drivers_available' : 'other',
      reason_detail: reasonDetail(returns.get(r.id), onShift.get(r.id) ?? false),
      delay_minutes: roundMinutes(delay),
      trailer_id: r.trailer_id,
      created_at: new Date(r.created_at).toISOString(),
      timestamp: iso(r.first_assigned_at),
      status: r.status,
      ...deadlineOf(r),
    })),
  };
}

export async function delayedAssignmentsReport(q: ReportQuery): Promise<DelayedAssignmentsReport> {
  const now = nowMs();
  const period = reportPeriod(q, now);
  const rows = (await query<DelayedRow>(DELAYED_SQL, [period.start, period.end, now, THRESHOLD_MS]))
    .map((r) => ({ r, delay: (r.completed_at ?? now) - r.assigned_at, at: r.assigned_at }))
    .sort(byDelay);
  return {
    summary: summarize(
      rows.map((x) => x.delay),
      period.label,
    ),
    assignments: rows.map(({ r, delay }) => ({
      task_id: r.id,
      task_title: r.title,
      priority: r.priority,
      status: r.status,
      completion_delay_minutes: roundMinutes(delay),
      assigned_to_name: r.assigned_to_name,
      trailer_id: r.trailer_id,
      assigned_at: new Date(r.assigned_at).toISOString(),
      completed_at: iso(r.completed_at),
      ...deadlineOf(r),
    })),
  };
}
