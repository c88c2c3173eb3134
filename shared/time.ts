// Madrid/es-ES time helpers. Everything is stored in UTC; only these functions turn it into
// Madrid wall time, so daylight-saving days (23 h in March, 25 h in October) are right everywhere.
import { LOCALE, TIMEZONE } from './constants';

type Instant = Date | string | number;
const toMs = (t: Instant): number =>
  t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(t) : t;

const fmt = (opts: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(LOCALE, { timeZone: TIMEZONE, ...opts });
const dateTimeFmt = fmt({
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const dateFmt = fmt({ day: '2-digit', month: '2-digit', year: 'numeric' });
const timeFmt = fmt({ hour: '2-digit', minute: '2-digit' });
const timeSecFmt = fmt({ hour: '2-digit', minute: '2-digit', second: '2-digit' });
const longDateFmt = fmt({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const partsFmt = new Intl.DateTimeFormat('en-US', {
  timeZone: TIMEZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** 22/11/2026, 09:15 */
export const formatDateTime = (t: Instant): string => dateTimeFmt.format(toMs(t));
/** 22/11/2026 */
export const formatDate = (t: Instant): string => dateFmt.format(toMs(t));
/** 09:15 */
export const formatTime = (t: Instant): string => timeFmt.format(toMs(t));
const dayMonthTimeFmt = fmt({ day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });
/**
 * 09:15 on the Madrid day of `nowMs`, 21/11, 23:40 on another: a time in a window that crosses midnight
 * says which day it belongs to.
 */
export const formatTimeNear = (t: Instant, nowMs: number): string =>
  madridDay(t) === madridDay(nowMs) ? formatTime(t) : dayMonthTimeFmt.format(toMs(t));
/** 09:15:07 */
export const formatTimeWithSeconds = (t: Instant): string => timeSecFmt.format(toMs(t));
/** domingo, 22 de noviembre de 2026 */
export const formatLongDate = (t: Instant): string => longDateFmt.format(toMs(t));

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Madrid wall-clock parts of an instant. */
export function madridWall(t: Instant): Wall {
  const p: Record<string, number> = {};
  for (const part of partsFmt.formatToParts(toMs(t)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, second: p.second };
}

/** Offset of Madrid from UTC at an instant, in ms (+1 h in winter, +2 h in summer). */
export function madridOffsetMs(t: Instant): number {
  const ms = toMs(t);
  const w = madridWall(ms);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * The first instant whose Madrid wall time is at or after the given hour (and minute). In the spring gap
 * (02:00 does not exist) that is the jump itself; in the autumn repeat it is the first 02:00.
 */
export function madridWallToUtc(year: number, month: number, day: number, hour = 0, minute = 0): number {
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute);
  const matches = [2, 1]
    .map((h) => wallAsUtc - h * 3_600_000)
    .filter((c) => {
      const w = madridWall(c);
      return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) === wallAsUtc;
    });
  return matches.length ? Math.min(...matches) : wallAsUtc - 3_600_000;
}

const parseDay = (day: string): [number, number, number] => {
  const [y, m, d] = day.split('-').map(Number);
  return [y, m, d];
};

/** The Madrid calendar day 'YYYY-MM-DD' of an instant. */
export function madridDay(t: Instant): string {
  const w = madridWall(t);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** [start, end) in UTC ms of a Madrid calendar day (23, 24 or 25 hours long). */
export function madridDayRange(day: string): { start: number; end: number } {
  const [y, m, d] = parseDay(day);
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return {
    start: madridWallToUtc(y, m, d, 0),
    end: madridWallToUtc(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0),
  };
}

/** [start, end) of the Madrid local hour H:00–H+1:00 of a day (empty in the spring gap, 2 h in autumn). */
export function madridHourRange(day: string, hour: number): { start: number; end: number } {
  const [y, m, d] = parseDay(day);
  const start = madridWallToUtc(y, m, d, hour);
  const end = hour === 23 ? madridDayRange(day).end : madridWallToUtc(y, m, d, hour + 1);
  return { start, end };
}

/** ISO 8601 with the Madrid offset: 2026-11-22T09:15:00.000+01:00 */
export function madridIso(t: Instant): string {
  const ms = toMs(t);
  const off = madridOffsetMs(ms);
  const local = new Date(ms + off).toISOString().slice(0, 23);
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off) / 60_000;
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** 'hace menos de 1 min', 'hace 5 min', 'hace 3 h', then the Madrid date (CONTRACT §11). */
export function relativeAge(t: Instant, nowMs: number): string {
  const minutes = Math.floor((nowMs - toMs(t)) / 60_000);
  if (minutes < 1) return 'hace menos de 1 min';
  if (minutes < 60) return `hace ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `hace ${hours} h`;
  return formatDate(t);
}

/**
 * The one Spanish way to write a duration (CONTRACT §15): `45 s`, `12 min`, `1 h 05 min`, `2 d 3 h`.
 * Floors each unit, so a wait is never shown longer than it was.
 */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${String(m % 60).padStart(2, '0')} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** Minutes rounded to one decimal. */
export const roundMinutes = (ms: number): number => Math.round(ms / 6_000) / 10;
