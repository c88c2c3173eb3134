// Drivers' shifts: each driver keeps a morning, afternoon or night pattern (Madrid wall time, so
// daylight-saving days are right), rests two days a week, works 6–10 h. Some drivers are on shift
// now. Shifts become punches (entrada/salida), presence intervals and activity-log rows.
import { ACCOUNT_LOG } from '@shared/labels';
import { madridDay, madridWallToUtc } from '@shared/time';
import type { Person } from './people';
import type { Rng } from './random';
import type { Writer } from './writer';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

export interface Shift {
  start: number;
  /** Infinity while the driver is still working. */
  end: number;
}

export interface Driver {
  person: Person;
  /** Sorted, never overlapping; the last one is open (end Infinity) for a driver on shift now. */
  shifts: Shift[];
  current: Shift | null;
  /** When the driver's latest task ended for them (completed or returned). */
  busyUntil: number;
  /** Latest of clock-in, last completion, last return, coming online (the engine's "idle longest"). */
  idleSince: number | null;
  movements: number;
  online: boolean;
  lastActivityAt: number | null;
}

/** Start hour (Madrid) of the morning, afternoon and night shifts, and the share of drivers on each. */
const PATTERNS = [
  [6, 0.4],
  [14, 0.35],
  [22, 0.25],
] as const;

/** The i-th of n drivers' start hour: the shares are kept, so every shift of the day is covered. */
function patternHour(i: number, n: number): number {
  let edge = 0;
  for (const [hour, share] of PATTERNS) if ((i + 0.5) / n < (edge += share)) return hour;
  return PATTERNS[PATTERNS.length - 1][0];
}
const SHORTEST_SHIFT_MS = 6 * HOUR;
export const LONGEST_SHIFT_MS = 10 * HOUR;
/** Enough rest between the last regular shift and one started out of pattern. */
const MIN_REST_MS = 6 * HOUR;

/** The Madrid calendar days from `from` to `to`, with their weekday (0 = Sunday). */
function madridDays(from: number, to: number): { y: number; m: number; d: number; weekday: number }[] {
  const [y0, m0, d0] = madridDay(from).split('-').map(Number);
  const last = madridDay(to);
  const days = [];
  for (let i = 0; ; i++) {
    const date = new Date(Date.UTC(y0, m0 - 1, d0 + i));
    const day = {
      y: date.getUTCFullYear(),
      m: date.getUTCMonth() + 1,
      d: date.getUTCDate(),
      weekday: date.getUTCDay(),
    };
    days.push(day);
    if (date.toISOString().slice(0, 10) >= last) return days;
  }
}

/** Plans every driver's shifts; `clockedIn` of them are working now (the ones whose pattern says so first). */
export function planShifts(
  rng: Rng,
  people: Person[],
  opts: { nowMs: number; historyStart: number; clockedIn: number },
): Driver[] {
  // From the day before the history: its first tasks find the drivers already on shift.
  const days = madridDays(opts.historyStart - DAY, opts.nowMs);
  const plans = people.map((person, i) => {
    const startHour = patternHour(i, people.length);
    const restFrom = rng.int(0, 6);
    const shifts: Shift[] = [];
    for (const day of days) {
      const rests = day.weekday === restFrom || day.weekday === (restFrom + 1) % 7;
      const start = madridWallToUtc(day.y, day.m, day.d, startHour) + rng.between(-20, 25) * MIN;
      // Two uniform draws: most shifts last about 8 h, few 6 or 10.
      const length =
        (rng.between(SHORTEST_SHIFT_MS, LONGEST_SHIFT_MS) +
          rng.between(SHORTEST_SHIFT_MS, LONGEST_SHIFT_MS)) /
        2;
      if (!rests && !rng.chance(0.04)) shifts.push({ start, end: start + length });
    }
    const covering = shifts.find((s) => s.start <= opts.nowMs - 15 * MIN && s.end > opts.nowMs) ?? null;
    return { person, shifts, covering, order: (covering ? 0 : 1) + rng.next() };
  });

  const onShift = new Set([...plans].sort((a, b) => a.order - b.order).slice(0, opts.clockedIn));
  return plans.map((plan) => {
    let current: Shift | null = null;
    let shifts: Shift[];
    if (onShift.has(plan)) {
      current = { start: plan.covering?.start ?? opts.nowMs - rng.between(20, 360) * MIN, end: Infinity };
      shifts = plan.shifts.filter((s) => s !== plan.covering && s.end <= current!.start - MIN_REST_MS);
      shifts.push(current);
    } else {
      shifts = plan.shifts.filter((s) => s.end <= opts.nowMs - 5 * MIN);
    }
    return {
      person: plan.person,
      shifts,
      current,
      busyUntil: 0,
      idleSince: null,
      movements: 0,
      online: current !== null,
      lastActivityAt: null,
    };
  });
}

/**
 * Punches, presence (online from a little before entrada to a little after salida) and the log, written
 * driver by driver.
 */
export async function writeShifts(rng: Rng, w: Writer, drivers: Driver[], nowMs: number): Promise<void> {
  for (const driver of drivers) {
    const who = driver.person;
    for (const shift of driver.shifts) {
      const open = shift.end === Infinity;
      const online = shift.start - rng.between(0, 8) * MIN;
      const offline = open ? null : Math.min(shift.end + rng.between(0.5, 6) * MIN, nowMs - 1000);
      w.log('auth', who, ACCOUNT_LOG.login.action, ACCOUNT_LOG.login.details(who.name), online);
      // A phone that lost coverage for a while in the middle of the shift.
      const gapAt = shift.start + rng.between(1, 5) * HOUR;
      if (rng.chance(0.2) && gapAt + 30 * MIN < (offline ?? nowMs)) {
        const back = gapAt + rng.between(2, 25) * MIN;
        w.presence(who.id, online, gapAt);
        w.presence(who.id, back, offline);
      } else {
        w.presence(who.id, online, offline);
      }
      w.punch(who, 'entrada', shift.start);
      // Now and then a driver forgets the salida (old days only: today's status stays clean).
      if (!open && !(shift.end < nowMs - 2 * DAY && rng.chance(0.015))) w.punch(who, 'salida', shift.end);
      if (offline !== null) {
        if (rng.chance(0.4))
          w.log('auth', who, ACCOUNT_LOG.logout.action, ACCOUNT_LOG.logout.details(who.name), offline);
        driver.lastActivityAt = offline;
      } else {
        driver.lastActivityAt = nowMs - rng.between(0, 60) * 1000;
      }
    }
    if (driver.current) driver.idleSince = driver.current.start;
    await w.drain();
  }
}
