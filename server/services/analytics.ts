// Admin Analytics de Conductores (SPEC §2, CONTRACT §8): one row per approved, live conductor with
// their online time of the last 24 h, their average completion time of the last 30 days and their
// latest activity; and the per-driver performance of a date range for the Excel export.
import { and, asc, eq, gte, isNull, lt } from 'drizzle-orm';
import { AVG_COMPLETION_WINDOW_MS } from '@shared/constants';
import type { DriverAnalyticsRow, Task } from '@shared/schemas';
import { roundMinutes } from '@shared/time';
import { query } from '../db';
import { sqlFor } from '../db/dialect';
import { tasks } from '../db/tables';
import { nowMs } from '../clock';
import { presentJoined, selectTasks } from '../presenters/tasks';
import { compareNames, driversOf, liveDrivers, workedMsByUser, type Window } from './timeclock-summary';
import { findUserById } from './users';

const HOUR_MS = 3_600_000;
const ONLINE_WINDOW_MS = 24 * HOUR_MS;
/** Task history consulted for a driver's latest activity (their presence and punches cover the rest). */
const ACTIVITY_LOOKBACK_MS = AVG_COMPLETION_WINDOW_MS;

// Two-argument scalar min/max are SQLite's; PostgreSQL says LEAST/GREATEST (no NULL reaches them here).
const MIN2 = sqlFor({ sqlite: 'min', postgres: 'LEAST' });
const MAX2 = sqlFor({ sqlite: 'max', postgres: 'GREATEST' });
// Presence intervals clipped to the window; an open interval lasts up to now. Parameters: now, now, since,
// now, since.
const ONLINE_SQL = `
  SELECT user_id, SUM(${MIN2}(COALESCE(ended_at, ?), ?) - ${MAX2}(started_at, ?)) AS ms
  FROM presence_intervals
  WHERE started_at < ? AND (ended_at IS NULL OR ended_at > ?)
  GROUP BY user_id`;
// By the completion-time index: the status index would read every finished task ever. Parameters: since,
// now.
const AVG_COMPLETION_SQL = `
  SELECT assigned_to AS user_id, AVG(completed_at - assigned_at) AS ms
  FROM tasks INDEXED BY tasks_completed
  WHERE completed_at >= ? AND completed_at <= ? AND status = 'finalizada'
    AND assigned_to IS NOT NULL AND assigned_at IS NOT NULL AND deleted_at IS NULL
  GROUP BY assigned_to`;
// Parameter: now.
const LAST_PRESENCE_SQL = `
  SELECT user_id, MAX(CASE WHEN ended_at IS NULL THEN ? ELSE ended_at END) AS at
  FROM presence_intervals GROUP BY user_id`;
const LAST_PUNCH_SQL = `SELECT user_id, MAX(timestamp) AS at FROM punches WHERE deleted_at IS NULL GROUP BY user_id`;
// task_events has no per-driver index: its (type, at) index bounds the scan to the recent history.
// Those rows name the driver they concern; a driver acts on nothing else. Parameter: since.
const LAST_TASK_EVENT_SQL = `
  SELECT driver_id AS user_id, MAX(at) AS at FROM task_events
  WHERE type IN ('assigned', 'returned', 'completed') AND at >= ? AND driver_id IS NOT NULL
  GROUP BY driver_id`;

interface PerUser {
  user_id: string;
  ms?: number;
  at?: number;
}

const byUser = (rows: PerUser[], key: 'ms' | 'at') => new Map(rows.map((r) => [r.user_id, r[key] ?? null]));

/** GET /admin/analytics/drivers. */
export async function driverAnalytics(): Promise<DriverAnalyticsRow[]> {
  const now = nowMs();
  const onlineSince = now - ONLINE_WINDOW_MS;
  const avgSince = now - AVG_COMPLETION_WINDOW_MS;
  const [online, avg, presence, punch, event, live] = await Promise.all([
    query<PerUser>(ONLINE_SQL, [now, now, onlineSince, now, onlineSince]),
    query<PerUser>(AVG_COMPLETION_SQL, [avgSince, now]),
    query<PerUser>(LAST_PRESENCE_SQL, [now]),
    query<PerUser>(LAST_PUNCH_SQL),
    query<PerUser>(LAST_TASK_EVENT_SQL, [now - ACTIVITY_LOOKBACK_MS]),
    liveDrivers(),
  ]);
  const onlineMs = byUser(online, 'ms');
  const avgMsByUser = byUser(avg, 'ms');
  const lastSeen = [byUser(presence, 'at'), byUser(punch, 'at'), byUser(event, 'at')];
  // Ranked as the dashboard ranks them: most movements first, then by name.
  const drivers = live.sort((a, b) => b.movements_count - a.movements_count);
  return drivers.map((d) => {
    const times = [d.last_activity_at, ...lastSeen.map((m) => m.get(d.id) ?? null)].filter(
      (t): t is number => t !== null,
    );
    const avgMs = avgMsByUser.get(d.id) ?? null;
    return {
      id: d.id,
      name: d.name,
      email: d.email,
      is_online: Boolean(d.is_online),
      movements_count: d.movements_count,
      total_time_online_24h: roundMinutes(onlineMs.get(d.id) ?? 0),
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
export async function tasksFinishedIn(w: Window): Promise<Task[]> {
  const rows = await selectTasks()
    .where(
      and(
        eq(tasks.status, 'finalizada'),
        gte(tasks.completedAt, new Date(w.start)),
        lt(tasks.completedAt, new Date(w.end)),
        isNull(tasks.deletedAt),
      ),
    )
    .orderBy(asc(tasks.completedAt));
  return rows.map(presentJoined);
}

/**
 * Per driver in a window: tasks finished, their average and total time (assigned → completed), hours
 * worked by the time clock and efficiency = tasks ÷ hours. Every live conductor, plus anybody who
 * punched or finished a task in the window (a driver deleted since keeps their history).
 */
export async function driverPerformance(w: Window, finished: Task[]): Promise<DriverPerformance[]> {
  const people = new Map<string, { name: string; email: string | null; durations: number[] }>(
    (await driversOf(w)).map((d) => [d.id, { name: d.name, email: d.email, durations: [] }]),
  );
  const finishedBy = new Map<string, number>();
  for (const t of finished) {
    if (!t.assigned_to) continue;
    if (!people.has(t.assigned_to)) {
      const user = await findUserById(t.assigned_to);
      people.set(t.assigned_to, { name: user?.name ?? '', email: user?.email ?? null, durations: [] });
    }
    finishedBy.set(t.assigned_to, (finishedBy.get(t.assigned_to) ?? 0) + 1);
    const ms = completionMs(t);
    if (ms !== null) people.get(t.assigned_to)!.durations.push(ms);
  }
  const worked = await workedMsByUser(w);
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
