// Admin Analytics de Conductores (SPEC §2, CONTRACT §8): one row per approved, live conductor with
// their online time of the last 24 h, their average completion time of the last 30 days and their
// latest activity; and the per-driver performance of a date range for the Excel export.
import type Database from 'better-sqlite3';
import { and, asc, eq, gte, isNull, lt } from 'drizzle-orm';
import { AVG_COMPLETION_WINDOW_MS } from '@shared/constants';
import type { DriverAnalyticsRow, Task } from '@shared/schemas';
import { roundMinutes } from '@shared/time';
import { sqlite } from '../db';
import { tasks } from '../db/schema';
import { nowMs } from '../clock';
import { presentJoined, selectTasks } from '../presenters/tasks';
import { compareNames, driversOf, liveDrivers, workedMsByUser, type Window } from './timeclock-summary';
import { findUserById } from './users';

const HOUR_MS = 3_600_000;
const ONLINE_WINDOW_MS = 24 * HOUR_MS;
/** Task history consulted for a driver's latest activity (their presence and punches cover the rest). */
const ACTIVITY_LOOKBACK_MS = AVG_COMPLETION_WINDOW_MS;

// Presence intervals clipped to the window; an open interval lasts up to now.
const ONLINE_SQL = `
  SELECT user_id, SUM(min(COALESCE(ended_at, @now), @now) - max(started_at, @since)) AS ms
  FROM presence_intervals
  WHERE started_at < @now AND (ended_at IS NULL OR ended_at > @since)
  GROUP BY user_id`;
// By the completion-time index: the status index would read every finished task ever.
const AVG_COMPLETION_SQL = `
  SELECT assigned_to AS user_id, AVG(completed_at - assigned_at) AS ms
  FROM tasks INDEXED BY tasks_completed
  WHERE completed_at >= @since AND completed_at <= @now AND status = 'finalizada'
    AND assigned_to IS NOT NULL AND assigned_at IS NOT NULL AND deleted_at IS NULL
  GROUP BY assigned_to`;
const LAST_PRESENCE_SQL = `
  SELECT user_id, MAX(CASE WHEN ended_at IS NULL THEN @now ELSE ended_at END) AS at
  FROM presence_intervals GROUP BY user_id`;
const LAST_PUNCH_SQL = `SELECT user_id, MAX(timestamp) AS at FROM punches WHERE deleted_at IS NULL GROUP BY user_id`;
// task_events has no per-driver index: its (type, at) index bounds the scan to the recent history.
// Those rows name the driver they concern; a driver acts on nothing else.
const LAST_TASK_EVENT_SQL = `
  SELECT driver_id AS user_id, MAX(at) AS at FROM task_events
  WHERE type IN ('assigned', 'returned', 'completed') AND at >= @since AND driver_id IS NOT NULL
  GROUP BY driver_id`;

interface PerUser {
  user_id: string;
  ms?: number;
  at?: number;
}

type Stmts = Record<'online' | 'avg' | 'presence' | 'punch' | 'event', Database.Statement>;
let stmts: { conn: Database.Database; s: Stmts } | undefined;
function statements(): Stmts {
  if (stmts?.conn !== sqlite)
    stmts = {
      conn: sqlite,
      s: {
        online: sqlite.prepare(ONLINE_SQL),
        avg: sqlite.prepare(AVG_COMPLETION_SQL),
        presence: sqlite.prepare(LAST_PRESENCE_SQL),
        punch: sqlite.prepare(LAST_PUNCH_SQL),
        event: sqlite.prepare(LAST_TASK_EVENT_SQL),
      },
    };
  return stmts.s;
}

const byUser = (rows: unknown[], key: 'ms' | 'at') =>
  new Map((rows as PerUser[]).map((r) => [r.user_id, r[key] ?? null]));

/** GET /admin/analytics/drivers. */
export function driverAnalytics(): DriverAnalyticsRow[] {
  const now = nowMs();
  const s = statements();
  const online = byUser(s.online.all({ now, since: now - ONLINE_WINDOW_MS }), 'ms');
  const avg = byUser(s.avg.all({ now, since: now - AVG_COMPLETION_WINDOW_MS }), 'ms');
  const lastSeen = [
    byUser(s.presence.all({ now }), 'at'),
    byUser(s.punch.all(), 'at'),
    byUser(s.event.all({ since: now - ACTIVITY_LOOKBACK_MS }), 'at'),
  ];
  // Ranked as the dashboard ranks them: most movements first, then by name.
  const drivers = liveDrivers().sort((a, b) => b.movements_count - a.movements_count);
  return drivers.map((d) => {
    const times = [d.last_activity_at, ...lastSeen.map((m) => m.get(d.id) ?? null)].filter(
      (t): t is number => t !== null,
    );
    const avgMs = avg.get(d.id) ?? null;
    return {
      id: d.id,
      name: d.name,
      email: d.email,
      is_online: d.is_online === 1,
      movements_count: d.movements_count,
      total_time_online_24h: roundMinutes(online.get(d.id) ?? 0),
      average_task_completion_time: avgMs === null ? null : roundMinutes(avgMs),
      last_activity: times.length ? new Date(Math.max(...times)).toISOString() : null,
    };
  });
}

// ---- the Excel export's figures -----------------------------------------------------------------------

export interface DriverPerformance {
  id: string;
  name: string;
  email: string | null;
  tasksFinished: number;
  avgMinutes: number | null;
  totalMinutes: number;
  hoursWorked: number;
  /** Tasks finished per hour worked (time clock); null without hours worked. */
  efficiency: number | null;
}

/** How long a finished task took from its assignment; null when it was never assigned. */
export const completionMs = (t: Task): number | null =>
  t.assigned_at && t.completed_at ? Date.parse(t.completed_at) - Date.parse(t.assigned_at) : null;

/** Tasks finished in a window (completed_at inside it), oldest first. */
export function tasksFinishedIn(w: Window): Task[] {
  return selectTasks()
    .where(
      and(
        eq(tasks.status, 'finalizada'),
        gte(tasks.completedAt, new Date(w.start)),
        lt(tasks.completedAt, new Date(w.end)),
        isNull(tasks.deletedAt),
      ),
    )
    .orderBy(asc(tasks.completedAt))
    .all()
    .map(presentJoined);
}

/**
 * Per driver in a window: tasks finished, their average and total time (assigned → completed), hours
 * worked by the time clock and efficiency = tasks ÷ hours. Every live conductor, plus anybody who
 * punched or finished a task in the window (a driver deleted since keeps their history).
 */
export function driverPerformance(w: Window, finished: Task[]): DriverPerformance[] {
  const people = new Map<string, { name: string; email: string | null; durations: number[] }>(
    driversOf(w).map((d) => [d.id, { name: d.name, email: d.email, durations: [] }]),
  );
  const finishedBy = new Map<string, number>();
  for (const t of finished) {
    if (!t.assigned_to) continue;
    if (!people.has(t.assigned_to)) {
      const user = findUserById(t.assigned_to);
      people.set(t.assigned_to, { name: user?.name ?? '', email: user?.email ?? null, durations: [] });
    }
    finishedBy.set(t.assigned_to, (finishedBy.get(t.assigned_to) ?? 0) + 1);
    const ms = completionMs(t);
    if (ms !== null) people.get(t.assigned_to)!.durations.push(ms);
  }
  const worked = workedMsByUser(w);
  return [...people]
    .map(([id, p]): DriverPerformance => {
      const tasksFinished = finishedBy.get(id) ?? 0;
      const totalMs = p.durations.reduce((a, b) => a + b, 0);
      const hoursWorked = (worked.get(id) ?? 0) / HOUR_MS;
      return {
        id,
        name: p.name,
        email: p.email,
        tasksFinished,
        avgMinutes: p.durations.length ? roundMinutes(totalMs / p.durations.length) : null,
        totalMinutes: roundMinutes(totalMs),
        hoursWorked,
        efficiency: hoursWorked > 0 ? tasksFinished / hoursWorked : null,
      };
    })
    .sort((a, b) => b.tasksFinished - a.tasksFinished || compareNames(a.name, b.name));
}
