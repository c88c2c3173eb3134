// Control Conductores (CONTRACT §7, §15): per approved conductor and time window, one status, the
// first entrada, the last salida, the hours worked, the punches and their corrections. Shared by the
// daily summary, its Excel export and the analytics export (hours worked), so hours are computed one
// way everywhere. Punches removed by a correction (deleted_at set) count nowhere.
//
// Two ways to cut time into windows:
// - Madrid days and date ranges (`byStart`): a shift belongs to the day on which it started (CONTRACT
//   §15). That day counts its whole length, up to the salida that closed it the next morning; the next
//   day ignores that salida. Summed over consecutive days, a night shift is counted exactly once.
// - The rolling last 24 h (the live view): a shift begun before the window keeps its whole pair of
//   punches in the row, but only the part inside the window counts (docs/REPORTS.md).
import type { ClockType, DailySummaryStatus } from '@shared/enums';
import { LOCALE, OPEN_SHIFT_MAX_MS, TIMECLOCK_WINDOW_MS } from '@shared/constants';
import type { DailySummary, PunchCorrection, PunchCorrectionAction } from '@shared/schemas';
import { madridDayRange } from '@shared/time';
import { SUPERVISION_ERR } from '@shared/labels';
import { query } from '../db';
import { TRUE } from '../db/dialect';
import { nowMs } from '../clock';
import { badRequest } from '../http/errors';

/** [start, end) in UTC ms. */
export interface Window {
  start: number;
  end: number;
}

export interface PunchRow {
  id: string;
  user_id: string;
  clock_type: ClockType;
  timestamp: number;
  /** 0/1 on SQLite, a boolean on PostgreSQL: read with Boolean(). */
  corrected: number | boolean;
  offline: number | boolean;
}

/** A correction as stored, with its punch and the actor's name (CONTRACT §15). */
interface CorrectionRow {
  punch_id: string;
  user_id: string;
  action: PunchCorrectionAction;
  clock_type: ClockType;
  punch_timestamp: number;
  reason: string;
  actor_name: string;
  at: number;
}

/** An approved, live conductor as supervision reads them. */
export interface Driver {
  id: string;
  name: string;
  email: string;
  /** 0/1 on SQLite, a boolean on PostgreSQL: read with Boolean(). */
  is_online: number | boolean;
  movements_count: number;
  last_activity_at: number | null;
}

export interface ShiftSummary {
  status: DailySummaryStatus;
  clockIn: number | null;
  clockOut: number | null;
  workedMs: number;
  punches: { id: string; clockType: ClockType; at: number; corrected: boolean; offline: boolean }[];
  corrections: PunchCorrection[];
}

const HOUR_MS = 3_600_000;

const DRIVERS_SQL = `
  SELECT id, name, email, is_online, movements_count, last_activity_at FROM users
  WHERE role = 'conductor' AND is_approved = ${TRUE} AND deleted_at IS NULL`;
// Punches up to one long shift either side of the window: the entrada of a shift already open at
// the start and the salida closing one still open at the end. rowid orders same-millisecond punches.
const PUNCHES_SQL = `
  SELECT id, user_id, clock_type, timestamp, corrected, offline FROM punches
  WHERE timestamp >= ? AND timestamp < ? AND deleted_at IS NULL
  ORDER BY user_id, timestamp, rowid`;

// Conductors deleted since keep their punches in the exports (CONTRACT §4: history stays in reports).
const PUNCHED_SQL = `
  SELECT id, name, email, is_online, movements_count, last_activity_at FROM users
  WHERE id IN (SELECT DISTINCT user_id FROM punches
    WHERE timestamp >= ? AND timestamp < ? AND deleted_at IS NULL)`;

// Corrections of the punches (removed ones too) whose time lies in a range, oldest first.
const CORRECTIONS_SQL = `
  SELECT c.punch_id, p.user_id, c.action, p.clock_type, p.timestamp AS punch_timestamp, c.reason,
    u.name AS actor_name, c.at
  FROM punch_corrections c
  JOIN punches p ON p.id = c.punch_id
  JOIN users u ON u.id = c.actor_id
  WHERE p.timestamp >= ? AND p.timestamp < ?
  ORDER BY c.at, c.id`;

// SQLite orders bytes ('Álvaro' after 'Zoe'): names are sorted the Spanish way here.
export const compareNames = new Intl.Collator(LOCALE, { sensitivity: 'base' }).compare;
const byName = (a: Driver, b: Driver) => compareNames(a.name, b.name) || a.id.localeCompare(b.id);

/** Every approved, live conductor, by name. */
export const liveDrivers = async (): Promise<Driver[]> => (await query<Driver>(DRIVERS_SQL)).sort(byName);

/** The people of an export: every live conductor and anybody who punched in the window. */
export async function driversOf(w: Window): Promise<Driver[]> {
  const all = new Map((await liveDrivers()).map((d) => [d.id, d]));
  for (const d of await query<Driver>(PUNCHED_SQL, [w.start, w.end])) if (!all.has(d.id)) all.set(d.id, d);
  return [...all.values()].sort(byName);
}

function groupByUser<R extends { user_id: string }>(rows: R[]): Map<string, R[]> {
  const byUser = new Map<string, R[]>();
  for (const r of rows) {
    const list = byUser.get(r.user_id);
    if (list) list.push(r);
    else byUser.set(r.user_id, [r]);
  }
  return byUser;
}

/** Each user's live punches in [from, to), in time order. */
export const punchesByUser = async (from: number, to: number): Promise<Map<string, PunchRow[]>> =>
  groupByUser(await query<PunchRow>(PUNCHES_SQL, [from, to]));

const presentCorrection = (c: CorrectionRow): PunchCorrection => ({
  punch_id: c.punch_id,
  action: c.action,
  clock_type: c.clock_type,
  punch_timestamp: new Date(c.punch_timestamp).toISOString(),
  reason: c.reason,
  actor_name: c.actor_name,
  at: new Date(c.at).toISOString(),
});

/** Each user's corrections of punches timed in [from, to), oldest first. */
export const correctionsByUser = async (
  from: number,
  to: number,
): Promise<Map<string, PunchCorrection[]>> => {
  const out = new Map<string, PunchCorrection[]>();
  for (const [user, rows] of groupByUser(await query<CorrectionRow>(CORRECTIONS_SQL, [from, to])))
    out.set(user, rows.map(presentCorrection));
  return out;
};

const aroundRange = (w: Window) => ({ from: w.start - OPEN_SHIFT_MAX_MS, to: w.end + OPEN_SHIFT_MAX_MS });
const punchesAround = (w: Window) => {
  const { from, to } = aroundRange(w);
  return punchesByUser(from, to);
};

const overlap = (from: number, to: number, w: Window) =>
  Math.max(0, Math.min(to, w.end) - Math.max(from, w.start));

/**
 * The rules of one driver's window, from their punches around it (time order). `byStart`: the window
 * is a Madrid day or range, whose shifts are the ones that started in it; else a rolling window that
 * counts the part of each shift inside it.
 */
function summarizeShift(
  around: PunchRow[],
  w: Window,
  now: number,
  byStart: boolean,
  corrections: PunchCorrection[] = [],
): ShiftSummary {
  const before = around.filter((p) => p.timestamp < w.start).at(-1);
  const inside = around.filter((p) => p.timestamp >= w.start && p.timestamp < w.end);
  const after = around.find((p) => p.timestamp >= w.end);
  const openBefore = before?.clock_type === 'entrada';
  const seq = byStart
    ? // The salida closing a shift begun the day before belongs to that day's row, not to this one.
      openBefore && inside[0]?.clock_type === 'salida'
      ? inside.slice(1)
      : inside
    : openBefore
      ? [before, ...inside]
      : inside;
  if (seq.at(-1)?.clock_type === 'entrada' && after?.clock_type === 'salida') seq.push(after);

  // A day counts its shifts whole; the rolling window only their part inside it.
  const length = (from: number, to: number) => (byStart ? Math.max(0, to - from) : overlap(from, to, w));
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
      workedMs += length(open, p.timestamp);
      open = null;
    }
  }
  if (open !== null) {
    if (openTooLong(open)) incomplete = true;
    // The open pair runs up to now; on a past day, a shift never closed counts at most the longest
    // believable shift (the row says `incomplete`: a supervisor adds the missing salida).
    workedMs += byStart ? Math.min(length(open, now), OPEN_SHIFT_MAX_MS) : length(open, now);
  }

  const status: DailySummaryStatus = incomplete
    ? 'incomplete'
    : !seq.length
      ? 'not_started'
      : open !== null
        ? 'working'
        : 'clocked_out';
  const ids = new Set(seq.map((p) => p.id));
  return {
    status,
    clockIn: seq.find((p) => p.clock_type === 'entrada')?.timestamp ?? null,
    clockOut: seq.findLast((p) => p.clock_type === 'salida')?.timestamp ?? null,
    workedMs,
    punches: seq.map((p) => ({
      id: p.id,
      clockType: p.clock_type,
      at: p.timestamp,
      corrected: Boolean(p.corrected),
      offline: Boolean(p.offline),
    })),
    // The corrections of the row's punches, and of punches removed from its window.
    corrections: corrections.filter((c) => {
      const at = Date.parse(c.punch_timestamp);
      return ids.has(c.punch_id) || (c.action === 'removed' && at >= w.start && at < w.end);
    }),
  };
}

/**
 * Each driver's summary of a window (every live conductor unless told whom). `byStart` (default): a
 * Madrid day or range, shifts counted whole on the day they started; false: the rolling last 24 h.
 */
export async function summarizeWindow(
  w: Window,
  drivers?: Driver[],
  byStart = true,
): Promise<{ driver: Driver; shift: ShiftSummary }[]> {
  const now = nowMs();
  const range = aroundRange(w);
  const people = drivers ?? (await liveDrivers());
  const around = await punchesByUser(range.from, range.to);
  const corrections = await correctionsByUser(range.from, range.to);
  return people.map((driver) => ({
    driver,
    shift: summarizeShift(around.get(driver.id) ?? [], w, now, byStart, corrections.get(driver.id)),
  }));
}

/**
 * Worked milliseconds of every user with punches in a Madrid range (conductors deleted since
 * included): the shifts that started in it, whole.
 */
export async function workedMsByUser(w: Window): Promise<Map<string, number>> {
  const now = nowMs();
  const out = new Map<string, number>();
  for (const [userId, list] of await punchesAround(w))
    out.set(userId, summarizeShift(list, w, now, true).workedMs);
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
  punches: s.punches.map((p) => ({
    id: p.id,
    clock_type: p.clockType,
    timestamp: new Date(p.at).toISOString(),
    corrected: p.corrected,
    offline: p.offline,
  })),
  corrections: s.corrections,
});

/** GET /admin/timeclock/daily: `last_24h=true` (also the default) or one Madrid `date`. */
export async function dailySummary(q: { last_24h?: boolean; date?: string }): Promise<DailySummary[]> {
  if (q.last_24h && q.date) throw badRequest(SUPERVISION_ERR.last24hOrDate);
  const rows = await summarizeWindow(summaryWindow(q.date), await liveDrivers(), q.date !== undefined);
  return rows.map(({ driver, shift }) => toDailySummary(driver, shift));
}
