// Dashboard figures (CONTRACT §6): task counts, driver availability, the workload alert, and the
// online-drivers and ranking lists. Also the source of the coalesced `stats:updated` push.
import type Database from 'better-sqlite3';
import { BOARD_FINISHED_WINDOW_MS } from '@shared/constants';
import { WORKLOAD } from '@shared/labels';
import type { DashboardStats, OnlineDriver, RankingEntry, WorkloadAlert } from '@shared/schemas';
import { sqlite } from '../db';
import { nowMs } from '../clock';
import * as emit from '../realtime/emit';
import { driverStates, type DriverState } from './availability';

// One statement of plain COUNTs on indexed columns: it stays sub-millisecond with a large history
// (finalizada walks tasks_completed over the last 24 h only, never the whole finished history).
const COUNTS_SQL = `
  SELECT
    (SELECT count(*) FROM tasks WHERE status = 'bolsa_trabajo' AND deleted_at IS NULL) AS bolsa_trabajo,
    (SELECT count(*) FROM tasks WHERE status = 'bolsa_trabajo' AND deleted_at IS NULL AND on_hold = 0)
      AS pending_tasks,
    (SELECT count(*) FROM tasks WHERE status = 'en_proceso' AND deleted_at IS NULL) AS en_proceso,
    (SELECT count(*) FROM tasks INDEXED BY tasks_completed
      WHERE completed_at > @since AND status = 'finalizada' AND deleted_at IS NULL) AS finalizada,
    (SELECT count(*) FROM users WHERE is_approved = 0 AND deleted_at IS NULL) AS pending_users,
    (SELECT count(*) FROM tasks t CROSS JOIN users u ON u.id = t.assigned_to
      WHERE t.status = 'en_proceso' AND t.deleted_at IS NULL
        AND u.role = 'conductor' AND u.is_approved = 1 AND u.deleted_at IS NULL) AS busy_drivers`;

interface Counts {
  bolsa_trabajo: number;
  /** The workload alert's pending tasks: the pool without the tasks on hold (CONTRACT §6, §15). */
  pending_tasks: number;
  en_proceso: number;
  finalizada: number;
  pending_users: number;
  /** One active task per driver (tasks_active_driver): counting their tasks counts them. */
  busy_drivers: number;
}

let counts: { db: typeof sqlite; stmt: ReturnType<typeof sqlite.prepare> } | undefined;
const readCounts = (): Counts => {
  if (counts?.db !== sqlite) counts = { db: sqlite, stmt: sqlite.prepare(COUNTS_SQL) };
  return counts.stmt.get({ since: nowMs() - BOARD_FINISHED_WINDOW_MS }) as Counts;
};

/** Utilization at which a waiting pool is a warning (CONTRACT §6). */
const ALERT_UTILIZATION_PERCENT = 80;

/**
 * critical: work waits and nobody can take it; warning: the queue outgrows the free drivers, or nearly
 * every driver is busy while work waits (every driver busy with nothing waiting is a good day, not an
 * alert). `since` is when the status began: the tracker below fills it in.
 */
export function workloadAlert(
  pending: number,
  available: number,
  busy: number,
  since: string = new Date(nowMs()).toISOString(),
): WorkloadAlert {
  const utilization = busy + available === 0 ? 0 : Math.round((busy / (busy + available)) * 100);
  const metrics = {
    pending_tasks: pending,
    available_drivers: available,
    busy_drivers: busy,
    driver_utilization: utilization,
  };
  if (pending > 0 && available === 0)
    return {
      status: 'critical',
      since,
      severity: 2,
      message: WORKLOAD.critical.message(pending),
      recommendations: [...WORKLOAD.critical.recommendations],
      metrics,
    };
  if (pending > 2 * available || (utilization >= ALERT_UTILIZATION_PERCENT && pending > 0))
    return {
      status: 'warning',
      since,
      severity: 1,
      message: WORKLOAD.warning.message(pending, available, utilization),
      recommendations: [...WORKLOAD.warning.recommendations],
      metrics,
    };
  return {
    status: 'normal',
    since,
    severity: 0,
    message: WORKLOAD.normal.message,
    recommendations: [...WORKLOAD.normal.recommendations],
    metrics,
  };
}

// When the alert's current status began (CONTRACT §15). Updated whenever the figures are computed (a
// request, or a push: emit.ts computes them after every change even with no board open); a fresh
// server, not knowing the past, starts from its start time. Per database, as the memo below.
const startedAt = nowMs();
let alertTrack: { db: typeof sqlite; status: WorkloadAlert['status']; since: number } | undefined;
function alertSince(status: WorkloadAlert['status']): string {
  if (alertTrack?.db !== sqlite) alertTrack = { db: sqlite, status, since: startedAt };
  else if (alertTrack.status !== status) alertTrack = { db: sqlite, status, since: nowMs() };
  return new Date(alertTrack.since).toISOString();
}

// The figures change only when the database does (or as their 24 h windows slide): requests between two
// changes share one computation, at most FIGURES_MAX_AGE_MS old. total_changes() counts this
// connection's writes, data_version another connection's.
const FIGURES_MAX_AGE_MS = 1000;
let memo: { db: typeof sqlite; key: string; at: number; stats: DashboardStats } | undefined;
let changes: { db: typeof sqlite; stmt: Database.Statement<[], number> } | undefined;
function changeKey(): string {
  if (changes?.db !== sqlite)
    changes = { db: sqlite, stmt: sqlite.prepare<[], number>('SELECT total_changes()').pluck() };
  return `${changes.stmt.get()}/${sqlite.pragma('data_version', { simple: true }) as number}`;
}

/** The dashboard stats; `pending_users` is only filled for an admin. */
export function dashboardStats(forAdmin: boolean): DashboardStats {
  const key = changeKey();
  const at = nowMs();
  if (memo?.db !== sqlite || memo.key !== key || at - memo.at >= FIGURES_MAX_AGE_MS || at < memo.at)
    memo = { db: sqlite, key, at, stats: computeStats() };
  return forAdmin ? memo.stats : { ...memo.stats, pending_users: 0 };
}

function computeStats(): DashboardStats {
  const c = readCounts();
  // Online and available are about online drivers only: a big yard's offline drivers cost nothing.
  const drivers = driverStates('online');
  const available = drivers.filter((d) => d.available).length;
  const busy = c.busy_drivers;
  return {
    bolsa_trabajo: c.bolsa_trabajo,
    en_proceso: c.en_proceso,
    finalizada: c.finalizada,
    online_drivers: drivers.length,
    available_drivers: available,
    busy_drivers: busy,
    pending_users: c.pending_users,
    workload_alert: trackedAlert(c.pending_tasks, available, busy),
  };
}

/** The alert with the start of its current status. */
function trackedAlert(pending: number, available: number, busy: number): WorkloadAlert {
  const alert = workloadAlert(pending, available, busy);
  return { ...alert, since: alertSince(alert.status) };
}

const collator = new Intl.Collator('es', { sensitivity: 'base' });
/** Most movements first, then by name. */
const ranked = (drivers: DriverState[]) =>
  [...drivers].sort((a, b) => b.movementsCount - a.movementsCount || collator.compare(a.name, b.name));

/** Every approved conductor (the client shows the first 10). */
export const rankings = (drivers = driverStates()): RankingEntry[] =>
  ranked(drivers).map((d) => ({
    id: d.id,
    name: d.name,
    is_online: d.isOnline,
    movements_count: d.movementsCount,
  }));

/** Every online approved conductor, in ranking order (the client shows the first 5). */
export const onlineDrivers = (drivers = driverStates()): OnlineDriver[] =>
  ranked(drivers.filter((d) => d.isOnline)).map((d) => ({
    id: d.id,
    name: d.name,
    movements_count: d.movementsCount,
  }));

emit.setFigureSources(
  (role) => dashboardStats(role === 'admin'),
  () => {
    const drivers = driverStates();
    return { online_drivers: onlineDrivers(drivers), rankings: rankings(drivers) };
  },
);
