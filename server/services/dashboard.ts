// Dashboard figures (CONTRACT §6): task counts, driver availability, the workload alert, and the
// online-drivers and ranking lists. Also the source of the coalesced `stats:updated` push.
import { BOARD_FINISHED_WINDOW_MS } from '@shared/constants';
import { WORKLOAD } from '@shared/labels';
import type { DashboardStats, OnlineDriver, RankingEntry, WorkloadAlert } from '@shared/schemas';
import { execute, query, session, tx, type Session } from '../db';
import { isDatabaseUnavailable } from '../http/errors';
import { withoutKey } from './idempotency';
import { changeMark, unchangedSince, type ChangeMark } from '../db/change-mark';
import { FALSE, TRUE, sqlFor } from '../db/dialect';
import { nowMs } from '../clock';
import { driverStates, type DriverState } from './availability';

// SQLite's CROSS JOIN keeps the tables in the order written (tasks by tasks_status, then each user by
// key); PostgreSQL's CROSS JOIN takes no ON and its planner orders a plain JOIN itself.
const JOIN_IN_ORDER = sqlFor({ sqlite: 'CROSS JOIN', postgres: 'JOIN' });
// One statement of plain COUNTs on indexed columns: it stays sub-millisecond with a large history
// (finalizada walks tasks_completed over the last 24 h only, never the whole finished history).
// The workload alert's status and when it began, as the cluster last saw it (see alertSince below).
const ALERT_KEY = 'workload_alert';
const COUNTS_SQL = `
  SELECT
    (SELECT count(*) FROM tasks WHERE status = 'bolsa_trabajo' AND deleted_at IS NULL) AS bolsa_trabajo,
    (SELECT count(*) FROM tasks WHERE status = 'bolsa_trabajo' AND deleted_at IS NULL AND on_hold = ${FALSE})
      AS pending_tasks,
    (SELECT count(*) FROM tasks WHERE status = 'en_proceso' AND deleted_at IS NULL) AS en_proceso,
    (SELECT count(*) FROM tasks INDEXED BY tasks_completed
      WHERE completed_at > ? AND status = 'finalizada' AND deleted_at IS NULL) AS finalizada,
    (SELECT count(*) FROM users WHERE is_approved = ${FALSE} AND deleted_at IS NULL) AS pending_users,
    (SELECT count(*) FROM tasks t ${JOIN_IN_ORDER} users u ON u.id = t.assigned_to
      WHERE t.status = 'en_proceso' AND t.deleted_at IS NULL
        AND u.role = 'conductor' AND u.is_approved = ${TRUE} AND u.deleted_at IS NULL) AS busy_drivers,
    (SELECT value FROM app_settings WHERE key = '${ALERT_KEY}') AS alert`;

interface Counts {
  bolsa_trabajo: number;
  /** The workload alert's pending tasks: the pool without the tasks on hold (CONTRACT §6, §15). */
  pending_tasks: number;
  en_proceso: number;
  finalizada: number;
  pending_users: number;
  /** One active task per driver (tasks_active_driver): counting their tasks counts them. */
  busy_drivers: number;
  /** The alert's status and start kept (JSON), read with the counts; null before the first reading. */
  alert: string | null;
}

const readCounts = async (): Promise<Counts> =>
  (await query<Counts>(COUNTS_SQL, [nowMs() - BOARD_FINISHED_WINDOW_MS]))[0]!;

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

// When the alert's current status began (CONTRACT §15), one answer for every node (CONTRACT §23): kept
// in app_settings and read with the counts. The first reading that sees another status (on whichever
// node: emit.ts computes the figures after every change of the node that made it) sets it, compare and
// set, so two nodes seeing it together agree on one start. A fresh database, not knowing the past,
// starts from this process's start time. When the database cannot keep the write, the answer's status
// begins now, as a node alone would have said.
const startedAt = nowMs();
interface KeptAlert {
  status: WorkloadAlert['status'];
  since: number;
}
const iso = (ms: number) => new Date(ms).toISOString();

const INSERT_ALERT = 'INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING';
const UPDATE_ALERT = 'UPDATE app_settings SET value = ? WHERE key = ? AND value = ?';
const READ_ALERT = 'SELECT value FROM app_settings WHERE key = ?';

async function alertSince(status: WorkloadAlert['status'], kept: string | null): Promise<string> {
  const was = kept === null ? undefined : (JSON.parse(kept) as KeptAlert);
  if (was?.status === status) return iso(was.since);
  const next = JSON.stringify({ status, since: was ? nowMs() : startedAt } satisfies KeptAlert);
  const set = async () => {
    if (kept === null) await execute(INSERT_ALERT, [ALERT_KEY, next]);
    else await execute(UPDATE_ALERT, [next, ALERT_KEY, kept]);
    return (await query<{ value: string }>(READ_ALERT, [ALERT_KEY]))[0]!.value;
  };
  try {
    // Whichever request's work computes the figures, this write is no request's effect.
    const now = JSON.parse(await withoutKey(() => tx(set))) as KeptAlert;
    return iso(now.status === status ? now.since : nowMs());
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    return iso(nowMs());
  }
}

// The figures change only when the database does (or as their 24 h windows slide): requests between two
// commits share one computation, at most FIGURES_MAX_AGE_MS old. A reading is kept with the database's
// change mark read before it (db/change-mark.ts): once anything has committed since — on this node or
// another, even while the figures were being read — the next request computes again, so a read that
// starts after a write's answer shows it whichever node serves each (CONTRACT §23). The age bound is for
// the windows that slide. The database is told apart by its reader session (the figures are read outside
// transactions), so a reopened database starts afresh. Computations run one at a time, in order: the
// alert's `since` follows the readings as they were taken, and the requests queued behind a computation
// are served by it.
const FIGURES_MAX_AGE_MS = 1000;
interface Reading {
  db: Session;
  mark: ChangeMark;
  at: number;
}
let memo: (Reading & { stats: DashboardStats }) | undefined;
let computing: Promise<unknown> = Promise.resolve();

/** Whether a reading is still good for this database at `mark`: a few comparisons, no query. */
function isFresh<R extends Reading>(m: R | undefined, mark: ChangeMark): m is R {
  const at = nowMs();
  return (
    !!m && m.db === session() && at - m.at < FIGURES_MAX_AGE_MS && at >= m.at && unchangedSince(m.mark, mark)
  );
}

// The driver lists (rankings, online drivers) read every driver of the yard: screens asking together (a
// control room, the resync of a dead node's screens on the survivor) share one reading, by the same rule.
// After the mark is read nothing awaits until the reading is kept: callers arriving together share it.
let driversMemo: (Reading & { drivers: Promise<DriverState[]> }) | undefined;
async function allDrivers(): Promise<DriverState[]> {
  const mark = await changeMark();
  if (isFresh(driversMemo, mark)) return driversMemo.drivers;
  // The database is named before the reading starts: a database closed meanwhile (a shutdown) throws
  // here, not between the reading's start and its handler, where its rejection would go unhandled.
  const database = session();
  const drivers = driverStates();
  drivers.catch(() => {
    if (driversMemo?.drivers === drivers) driversMemo = undefined;
  });
  driversMemo = { db: database, mark, at: nowMs(), drivers };
  return drivers;
}

/** Waits for the computation running, then computes unless it has left figures that are still good. */
function computeInTurn(): Promise<DashboardStats> {
  const mine = computing.then(async () => {
    const mark = await changeMark();
    if (isFresh(memo, mark)) return memo.stats;
    const database = session();
    const at = nowMs();
    const stats = await computeStats();
    memo = { db: database, mark, at, stats };
    return stats;
  });
  computing = mine.catch(() => undefined);
  return mine;
}

/** The stats as an admin sees them: still good, or computed now. */
async function currentStats(): Promise<DashboardStats> {
  const mark = await changeMark();
  return isFresh(memo, mark) ? memo.stats : await computeInTurn();
}

/** `pending_users` is only an admin's figure. */
const forOthers = (stats: DashboardStats): DashboardStats => ({ ...stats, pending_users: 0 });

/** The dashboard stats; `pending_users` is only filled for an admin. */
export async function dashboardStats(forAdmin: boolean): Promise<DashboardStats> {
  const stats = await currentStats();
  return forAdmin ? stats : forOthers(stats);
}

/** The stats pushed to boards (realtime/emit.ts): the admins' and everyone else's, from one reading. */
export async function statsByAudience(): Promise<{ admin: DashboardStats; others: DashboardStats }> {
  const admin = await currentStats();
  return { admin, others: forOthers(admin) };
}

async function computeStats(): Promise<DashboardStats> {
  const c = await readCounts();
  // Online and available are about online drivers only: a big yard's offline drivers cost nothing.
  const drivers = await driverStates('online');
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
    workload_alert: await trackedAlert(c, available, busy),
  };
}

/** The alert with the start of its current status. */
async function trackedAlert(c: Counts, available: number, busy: number): Promise<WorkloadAlert> {
  const alert = workloadAlert(c.pending_tasks, available, busy);
  return { ...alert, since: await alertSince(alert.status, c.alert) };
}

const collator = new Intl.Collator('es', { sensitivity: 'base' });
/** Most movements first, then by name. */
const ranked = (drivers: DriverState[]) =>
  [...drivers].sort((a, b) => b.movementsCount - a.movementsCount || collator.compare(a.name, b.name));

const rankingOf = (drivers: DriverState[]): RankingEntry[] =>
  ranked(drivers).map((d) => ({
    id: d.id,
    name: d.name,
    is_online: d.isOnline,
    movements_count: d.movementsCount,
  }));

const onlineOf = (drivers: DriverState[]): OnlineDriver[] =>
  ranked(drivers.filter((d) => d.isOnline)).map((d) => ({
    id: d.id,
    name: d.name,
    movements_count: d.movementsCount,
  }));

/** Every approved conductor (the client shows the first 10). */
export const rankings = async (): Promise<RankingEntry[]> => rankingOf(await allDrivers());

/** Every online approved conductor, in ranking order (the client shows the first 5). */
export const onlineDrivers = async (): Promise<OnlineDriver[]> => onlineOf(await allDrivers());

/** The driver lists pushed with the figures (changes/processors/sockets.ts): one reading for both. */
export async function driverLists(): Promise<{ online_drivers: OnlineDriver[]; rankings: RankingEntry[] }> {
  const drivers = await allDrivers();
  return { online_drivers: onlineOf(drivers), rankings: rankingOf(drivers) };
}
