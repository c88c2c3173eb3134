// Deadlines (CONTRACT §20): the one rule for a task's `due_at` — what create and PUT accept, the
// lateness a completion records, and what a card says of it — used by the server and the client alike.
import { ESCALATION } from './constants';
import { DEADLINE_TEXT } from './labels/tasks';
import { UI_DEADLINE } from './labels/deadlines';
import { formatDuration, formatTime, madridDay, madridDayRange, madridWall, madridWallToUtc } from './time';

/** A new `due_at` may be at most this far ahead (CONTRACT §20: 30 days). */
export const DEADLINE_MAX_AHEAD_MS = 30 * 24 * 60 * 60 * 1000;
/** Within this of its deadline a task counts the time left (`Faltan 25 min`) and is urgent (§20: 60 min). */
export const DEADLINE_SOON_MS = 60 * 60 * 1000;
/** Within this of its deadline the count turns amber (§20: the last 30 minutes). */
export const DEADLINE_AMBER_MS = 30 * 60 * 1000;

type Instant = Date | string | number;
const toMs = (t: Instant): number =>
  t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(t) : t;

/**
 * Why a new `due_at` is refused at `now` (the 400's text), or null when it is accepted: in the past, or
 * more than 30 days ahead. An unchanged deadline is not judged again (the caller compares).
 */
export function dueAtError(dueAt: Instant, now: number): string | null {
  const ms = toMs(dueAt);
  if (!Number.isFinite(ms)) return DEADLINE_TEXT.invalid;
  if (ms <= now) return DEADLINE_TEXT.past;
  if (ms - now > DEADLINE_MAX_AHEAD_MS) return DEADLINE_TEXT.tooFar;
  return null;
}

/**
 * `late_s` of a completion (CONTRACT §20): whole seconds after the deadline the move was done (its
 * believed time, §16's client_time rule), 0 when on time, null without a deadline.
 */
export function lateSeconds(completedAt: Instant, dueAt: Instant | null): number | null {
  if (dueAt === null) return null;
  return Math.max(0, Math.round((toMs(completedAt) - toMs(dueAt)) / 1000));
}

export type DeadlineTone = 'neutral' | 'amber' | 'red';
export interface DeadlineLabel {
  text: string;
  tone: DeadlineTone;
}

const dayMonth = (t: number): string => {
  const w = madridWall(t);
  return `${String(w.day).padStart(2, '0')}/${String(w.month).padStart(2, '0')}`;
};

/**
 * What a card says of a deadline at `now` (Madrid time): `Antes de 21:30` (today), `Antes de mañana
 * 06:00`, `Antes del 24/11 21:30`; in the last hour `Faltan 25 min` (amber in the last 30), past it
 * `Retrasada 12 min` (red). Durations are §15's (formatDuration: floored).
 */
export function deadlineLabel(dueAt: Instant, now: number): DeadlineLabel {
  const due = toMs(dueAt);
  const left = due - now;
  if (left <= 0) return { text: DEADLINE_TEXT.late(formatDuration(-left)), tone: 'red' };
  if (left < DEADLINE_SOON_MS)
    return {
      text: DEADLINE_TEXT.left(formatDuration(left)),
      tone: left <= DEADLINE_AMBER_MS ? 'amber' : 'neutral',
    };
  const today = madridDay(now);
  const day = madridDay(due);
  const time = formatTime(due);
  if (day === today) return { text: DEADLINE_TEXT.today(time), tone: 'neutral' };
  if (day === madridDay(madridDayRange(today).end))
    return { text: DEADLINE_TEXT.tomorrow(time), tone: 'neutral' };
  return { text: DEADLINE_TEXT.later(dayMonth(due), time), tone: 'neutral' };
}

/** A waiting timer turns amber past §20's `espera` (the task escalates then) … */
export const WAIT_AMBER_MS = ESCALATION.waitMs;
/** … and red past twice that. */
export const WAIT_RED_MS = 2 * WAIT_AMBER_MS;

/**
 * The colour of a card's time in its state (issue 28, docs/DECISIONS.md): none while fresh, amber past
 * §20's `espera` (20 min), red past 40 min. A fresh task without a deadline carries no alarm colour.
 */
export function waitTone(elapsedMs: number): DeadlineTone {
  if (elapsedMs > WAIT_RED_MS) return 'red';
  return elapsedMs > WAIT_AMBER_MS ? 'amber' : 'neutral';
}

/** What a finished task says of its lateness: `Retrasada 12 min`, `A tiempo`, or null without a deadline. */
export function latenessLabel(lateS: number | null | undefined): DeadlineLabel | null {
  if (lateS === null || lateS === undefined) return null;
  return lateS > 0
    ? { text: DEADLINE_TEXT.late(formatDuration(lateS * 1000)), tone: 'red' }
    : { text: UI_DEADLINE.onTime, tone: 'neutral' };
}

/** The form's day choice: `Hoy` or `Mañana` (Madrid days). */
export const DUE_DAYS = ['today', 'tomorrow'] as const;
export type DueDay = (typeof DUE_DAYS)[number];

const madridDayOf = (day: DueDay, now: number): string => {
  const today = madridDay(now);
  return day === 'today' ? today : madridDay(madridDayRange(today).end);
};

/**
 * The UTC ISO `due_at` of a Madrid wall time `HH:mm` today or tomorrow (right across DST: a time in the
 * spring gap is the same minutes after the jump; in the autumn repeat the first one). Null when `time`
 * is not `HH:mm`.
 */
export function dueAtFromPicker(day: DueDay, time: string, now: number): string | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!m) return null;
  const [y, mo, d] = madridDayOf(day, now).split('-').map(Number);
  return new Date(madridWallToUtc(y, mo, d, Number(m[1])) + Number(m[2]) * 60_000).toISOString();
}

/** What the picker shows of a `due_at`: its day and `HH:mm`, or null when it is neither today nor tomorrow. */
export function pickerOf(dueAt: string, now: number): { day: DueDay; time: string } | null {
  const ms = Date.parse(dueAt);
  if (!Number.isFinite(ms)) return null;
  const day = DUE_DAYS.find((d) => madridDayOf(d, now) === madridDay(ms));
  return day ? { day, time: formatTime(ms) } : null;
}
