// Shifts (CONTRACT §20 "Shift handover", also §22's indicators): the day is cut at SHIFT_STARTS (Madrid wall
// times, default 06:00,14:00,22:00) into `mañana`, `tarde` and `noche`. A shift belongs to the Madrid date it
// starts on: the noche of D runs from D 22:00 to D+1 06:00 (7 or 9 h on a DST night), so the early hours of a
// day belong to the previous date's noche. Everything here is pure: the server passes its configured starts.
import { SHIFTS, type Shift } from './enums';
import { madridWall, madridWallToUtc } from './time';

/** SHIFT_STARTS's default: the starts of mañana, tarde and noche. */
export const SHIFT_STARTS_DEFAULT = '06:00,14:00,22:00';

/** Minutes after Madrid midnight each shift starts at, one per SHIFTS entry, ascending. */
export type ShiftStarts = readonly number[];

/** The Spanish names (CONTRACT §20): what the pages, the Excel and the query say. */
export const SHIFT_NAMES: Record<Shift, string> = { manana: 'mañana', tarde: 'tarde', noche: 'noche' };

/**
 * SHIFT_STARTS as text (`HH:mm,HH:mm,HH:mm`, one per shift, strictly ascending inside one day) → minutes;
 * null when it is not that.
 */
export function parseShiftStarts(text: string): ShiftStarts | null {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length !== SHIFTS.length) return null;
  const minutes: number[] = [];
  for (const p of parts) {
    const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(p);
    if (!m) return null;
    const value = Number(m[1]) * 60 + Number(m[2]);
    if (minutes.length && value <= minutes[minutes.length - 1]) return null;
    minutes.push(value);
  }
  return minutes;
}

export const DEFAULT_SHIFT_STARTS: ShiftStarts = parseShiftStarts(SHIFT_STARTS_DEFAULT)!;

/** A query's shift: `manana`, `mañana` (any case, NFC or not), `tarde`, `noche`; null for anything else. */
export function parseShift(value: unknown): Shift | null {
  if (typeof value !== 'string') return null;
  const v = value.normalize('NFC').trim().toLowerCase().replace('ñ', 'n');
  return (SHIFTS as readonly string[]).includes(v) ? (v as Shift) : null;
}

/** A shift of a Madrid date: the unit the handover and the indicators speak of. */
export interface ShiftRef {
  shift: Shift;
  /** The Madrid date it starts on, YYYY-MM-DD. */
  date: string;
}

const addDays = (date: string, days: number): string => {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
};

const startOn = (date: string, minutes: number): number => {
  const [y, m, d] = date.split('-').map(Number);
  return madridWallToUtc(y, m, d, Math.floor(minutes / 60), minutes % 60);
};

/** [from, to) in UTC ms of a shift of a Madrid date: from its start to the next shift's start. */
export function shiftRange(
  ref: ShiftRef,
  starts: ShiftStarts = DEFAULT_SHIFT_STARTS,
): { from: number; to: number } {
  const i = SHIFTS.indexOf(ref.shift);
  const from = startOn(ref.date, starts[i]);
  const to =
    i + 1 < SHIFTS.length ? startOn(ref.date, starts[i + 1]) : startOn(addDays(ref.date, 1), starts[0]);
  return { from, to };
}

/**
 * The shift (its index in SHIFTS) a Madrid wall minute of the day falls in; before the first start it is
 * the previous date's last shift (`daysBack` 1).
 */
export function shiftOfMinute(
  minutes: number,
  starts: ShiftStarts = DEFAULT_SHIFT_STARTS,
): { index: number; daysBack: 0 | 1 } {
  if (minutes < starts[0]) return { index: SHIFTS.length - 1, daysBack: 1 };
  let i = 0;
  while (i + 1 < SHIFTS.length && starts[i + 1] <= minutes) i++;
  return { index: i, daysBack: 0 };
}

/** The shift an instant belongs to (before the first start of a day: the previous date's last shift). */
export function shiftAt(t: Date | number, starts: ShiftStarts = DEFAULT_SHIFT_STARTS): ShiftRef {
  const w = madridWall(t);
  const date = `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
  const { index, daysBack } = shiftOfMinute(w.hour * 60 + w.minute, starts);
  return { shift: SHIFTS[index], date: addDays(date, -daysBack) };
}

/** The shift before this one (the mañana's is the previous date's noche). */
export function previousShift(ref: ShiftRef): ShiftRef {
  const i = SHIFTS.indexOf(ref.shift);
  return i > 0
    ? { shift: SHIFTS[i - 1], date: ref.date }
    : { shift: SHIFTS[SHIFTS.length - 1], date: addDays(ref.date, -1) };
}

/** The shift after this one (the noche's is the next date's mañana). */
export function nextShift(ref: ShiftRef): ShiftRef {
  const i = SHIFTS.indexOf(ref.shift);
  return i + 1 < SHIFTS.length
    ? { shift: SHIFTS[i + 1], date: ref.date }
    : { shift: SHIFTS[0], date: addDays(ref.date, 1) };
}
