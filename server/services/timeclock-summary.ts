// Control Conductores (CONTRACT §7): per approved conductor and time window, one status, the first
// entrada, the last salida, the hours worked and the punches. Shared by the daily summary, its Excel
// export and the analytics export (hours worked), so hours are computed one way everywhere.
//
// A shift that crosses the window's edge keeps its whole pair of punches in the row (the entrada just
// before the window, the salida just after it), but only the part inside the window counts as hours:
// summed over consecutive days, a night shift is counted exactly once (docs/REPORTS.md).
import type Database from 'better-sqlite3';
import type { ClockType, DailySummaryStatus } from '@shared/enums';
import { LOCALE, OPEN_SHIFT_MAX_MS, TIMECLOCK_WINDOW_MS } from '@shared/constants';
import type { DailySummary } from '@shared/schemas';
import { madridDayRange } from '@shared/time';
import { SUPERVISION_ERR } from '@shared/labels';
import { sqlite } from '../db';
import { nowMs } from '../clock';
import { badRequest } from '../http/errors';

/** [start, end) in UTC ms. */
export interface Window {
  start: number;
  end: number;
}

export interface PunchRow {
  user_id: string;
  clock_type: ClockType;
  timestamp: number;
}

/** An approved, live conductor as supervision reads them. */
export interface Driver {
  id: string;
  name: string;
  email: string;
  is_online: number;
  movements_count: number;
  last_activity_at: number | null;
}

export interface ShiftSummary {
  status: DailySummaryStatus;
  clockIn: number | null;
  clockOut: number | null;
  workedMs: number;
  punches: { clockType: ClockType; at: number }[];
}

const HOUR_MS = 3_600_000;

const DRIVERS_SQL = `
  SELECT id, name, email, is_online, movements_count, last_activity_at FROM users
  WHERE role = 'conductor' AND is_approved = 1 AND deleted_at IS NULL`;
// Punches up to one long shift either side of the window: the entrada of a shift already open at
// the start and the salida closing one still open at the end. rowid orders same-millisecond punches.
const PUNCHES_SQL = `
  SELECT user_id, clock_type, timestamp FROM punches
  WHERE timestamp >= @from AND timestamp < @to
  ORDER BY user_id, timestamp, rowid`;

// Conductors deleted since keep their punches in the exports (CONTRACT §4: history stays in reports).
const PUNCHED_SQL = `
  SELECT id, name, email, is_online, movements_count, last_activity_at FROM users
  WHERE id IN (SELECT DISTINCT user_id FROM punches WHERE timestamp >= @from AND timestamp < @to)`;

type Stmts = Record<'drivers' | 'punches' | 'punched', Database.Statement>;
let stmts: { conn: Database.Database; s: Stmts } | undefined;
function statements(): Stmts {
  if (stmts?.conn !== sqlite)
    stmts = {
      conn: sqlite,
      s: {
        drivers: sqlite.prepare(DRIVERS_SQL),
        punches: sqlite.prepare(PUNCHES_SQL),
        punched: sqlite.prepare(PUNCHED_SQL),
      },
    };
  return stmts.s;
}

// SQLite orders bytes ('Álvaro' after 'Zoe'): names are sorted the Spanish way here.
export const compareNames = new Intl.Collator(LOCALE, { sensitivity: 'base' }).compare;
const byName = (a: Driver, b: Driver) => compareNames(a.name, b.name) || a.id.localeCompare(b.id);

/** Every approved, live conductor, by name. */
export const liveDrivers = (): Driver[] => (statements().drivers.all() as Driver[]).sort(byName);

/** The people of an export: every live conductor and anybody who punched in the window. */
export function driversOf(w: Window): Driver[] {
  const all = new Map(liveDrivers().map((d) => [d.id, d]));
  for (const d of statements().punched.all({ from: w.start, to: w.end }) as Driver[])
    if (!all.has(d.id)) all.set(d.id, d);
  return [...all.values()].sort(byName);
}

/** Each user's punches in [from, to), in time order. */
export function punchesByUser(from: number, to: number): Map<string, PunchRow[]> {
  const rows = statements().punches.all({ from, to }) as PunchRow[];
  const byUser = new Map<string, PunchRow[]>();
  for (const r of rows) {
    const list = byUser.get(r.user_id);
    if (list) list.push(r);
    else byUser.set(r.user_id, [r]);
  }
  return byUser;
}

const punchesAround = (w: Window) => punchesByUser(w.start - OPEN_SHIFT_MAX_MS, w.end + OPEN_SHIFT_MAX_MS);

const overlap = (from: number, to: number, w: Window) =>
  Math.max(0, Math.min(to, w.end) - Math.max(from, w.start));

/** The rules of one driver's window, from their punches around it (time order). */
function summarizeShift(around: PunchRow[], w: Window, now: number): ShiftSummary {
  const before = around.filter((p) => p.timestamp < w.start).at(-1);
  const inside = around.filter((p) => p.timestamp >= w.start && p.timestamp < w.end);
  const after = around.find((p) => p.timestamp >= w.end);
  const seq = before?.clock_type === 'entrada' ? [before, ...inside] : inside;
  if (seq.at(-1)?.clock_type === 'entrada' && after?.clock_type === 'salida') seq.push(after);

  let open: number | null = null;
  let workedMs = 0;
  let incomplete = false;
  const openTooLong = (entrada: number) => now - entrada > OPEN_SHIFT_MAX_MS;
  for (const p of seq) {
    if (p.clock_type === 'entrada') {
      // An entrada never closed (the next punch is another entrada) counts no hours.
      if (open !== null && openTooLong(open)) incomplete = true;
      open = p.timestamp;
    } else if (open === null) {
      incomplete = true; // a salida without its entrada
    } else {
      workedMs += overlap(open, p.timestamp, w);
      open = null;
    }
  }
  if (open !== null) {
    if (openTooLong(open)) incomplete = true;
    workedMs += overlap(open, now, w); // the open pair runs up to now
  }

  const status: DailySummaryStatus = incomplete
    ? 'incomplete'
    : !seq.length
      ? 'not_started'
      : open !== null
        ? 'working'
        : 'clocked_out';
  return {
    status,
    clockIn: seq.find((p) => p.clock_type === 'entrada')?.timestamp ?? null,
    clockOut: seq.findLast((p) => p.clock_type === 'salida')?.timestamp ?? null,
    workedMs,
    punches: seq.map((p) => ({ clockType: p.clock_type, at: p.timestamp })),
  };
}

/** Each driver's summary of a window (every live conductor unless told whom). */
export function summarizeWindow(
  w: Window,
  drivers: Driver[] = liveDrivers(),
): { driver: Driver; shift: ShiftSummary }[] {
  const now = nowMs();
  const around = punchesAround(w);
  return drivers.map((driver) => ({
    driver,
    shift: summarizeShift(around.get(driver.id) ?? [], w, now),
  }));
}

/** Worked milliseconds of every user with punches in a window (conductors deleted since included). */
export function workedMsByUser(w: Window): Map<string, number> {
  const now = nowMs();
  const out = new Map<string, number>();
  for (const [userId, list] of punchesAround(w)) out.set(userId, summarizeShift(list, w, now).workedMs);
  return out;
}

/** Longest range of the time-clock export, which writes one row per driver and day. */
export const EXPORT_MAX_DAYS = 366;

/** The Madrid days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const [y, m, d] = from.split('-').map(Number);
  const days: string[] = [];
  for (let i = 0; ; i++) {
    const day = new Date(Date.UTC(y, m - 1, d + i)).toISOString().slice(0, 10);
    if (day > to) return days;
    if (days.length === EXPORT_MAX_DAYS) throw badRequest(SUPERVISION_ERR.rangeTooLong(EXPORT_MAX_DAYS));
    days.push(day);
  }
}

/** The window of the daily summary: the last 24 h (as the driver's status reads it), or a Madrid day. */
function summaryWindow(day?: string): Window {
  if (day) return madridDayRange(day);
  const now = nowMs();
  return { start: now - TIMECLOCK_WINDOW_MS + 1, end: now + 1 };
}

const toDailySummary = (driver: Driver, s: ShiftSummary): DailySummary => ({
  user_id: driver.id,
  user_name: driver.name,
  status: s.status,
  clock_in: s.clockIn === null ? null : new Date(s.clockIn).toISOString(),
  clock_out: s.clockOut === null ? null : new Date(s.clockOut).toISOString(),
  total_hours: s.workedMs / HOUR_MS,
  punches: s.punches.map((p) => ({ clock_type: p.clockType, timestamp: new Date(p.at).toISOString() })),
});

/** GET /admin/timeclock/daily: `last_24h=true` (also the default) or one Madrid `date`. */
export function dailySummary(q: { last_24h?: boolean; date?: string }): DailySummary[] {
  if (q.last_24h && q.date) throw badRequest(SUPERVISION_ERR.last24hOrDate);
  return summarizeWindow(summaryWindow(q.date)).map(({ driver, shift }) => toDailySummary(driver, shift));
}
