// control_horario_{from}_to_{to}.xlsx: one row per driver and Madrid day with punches, the totals of
// the range per driver, every punch and every correction (CONTRACT §15: a corrected day or punch says
// `Corregido`, the corrections sheet says who, when and why). Days are the same windows as the daily
// summary's `date`: a night shift is counted whole on the day it started.
import type ExcelJS from 'exceljs';
import { SHORT_ID_LENGTH } from '@shared/constants';
import { CLOCK_TYPE_LABELS, DAILY_STATUS_LABELS, EXCEL, UI_TIME_CONTROL } from '@shared/labels';
import type { PunchCorrection } from '@shared/schemas';
import { formatDateTime, formatTime, madridDay, madridDayRange } from '@shared/time';
import {
  correctionsByUser,
  daysBetween,
  driversOf,
  punchesByUser,
  summarizeWindow,
  type Driver,
  type ShiftSummary,
} from '../services/timeclock-summary';
import { addTableSheet, newWorkbook } from './workbook';

const HOUR_MS = 3_600_000;
const { daily, totals, punches: punchSheet, corrections: correctionSheet } = EXCEL.timeclock;

interface DayRow {
  day: string;
  driver: Driver;
  shift: ShiftSummary;
}

/** 'Entrada 22:00 · Salida 06:00'; a punch of another day than the row's shows its date. */
const punchList = (day: string, shift: ShiftSummary) =>
  shift.punches
    .map(
      (p) =>
        `${CLOCK_TYPE_LABELS[p.clockType]} ${madridDay(p.at) === day ? formatTime(p.at) : formatDateTime(p.at)}`,
    )
    .join(' · ');

/** 'Añadido por Marta el 21/11/2026, 09:15: Olvidó fichar · …'; empty for a day nobody corrected. */
const correctionList = (list: PunchCorrection[]): string | null =>
  list
    .map((c) => UI_TIME_CONTROL.correctionDetail(c.action, c.actor_name, formatDateTime(c.at), c.reason))
    .join(' · ') || null;

export async function timeclockWorkbook(from: string, to: string): Promise<ExcelJS.Workbook> {
  const days = daysBetween(from, to);
  const range = { start: madridDayRange(from).start, end: madridDayRange(to).end };
  const drivers = await driversOf(range);

  const dayRows: DayRow[] = [];
  for (const day of days)
    for (const { driver, shift } of await summarizeWindow(madridDayRange(day), drivers))
      if (shift.status !== 'not_started' || shift.corrections.length) dayRows.push({ day, driver, shift });

  const wb = newWorkbook();
  addTableSheet<DayRow>(
    wb,
    daily.sheet,
    [
      { header: daily.headers.date, kind: 'date', value: (r) => madridDayRange(r.day).start },
      { header: daily.headers.driver, kind: 'text', value: (r) => r.driver.name },
      { header: daily.headers.shortId, kind: 'text', value: (r) => r.driver.id.slice(-SHORT_ID_LENGTH) },
      { header: daily.headers.status, kind: 'text', value: (r) => DAILY_STATUS_LABELS[r.shift.status] },
      { header: daily.headers.clockIn, kind: 'datetime', value: (r) => r.shift.clockIn },
      { header: daily.headers.clockOut, kind: 'datetime', value: (r) => r.shift.clockOut },
      { header: daily.headers.hours, kind: 'decimal', value: (r) => r.shift.workedMs / HOUR_MS },
      { header: daily.headers.punches, kind: 'text', value: (r) => punchList(r.day, r.shift) },
      { header: daily.headers.corrected, kind: 'text', value: (r) => correctionList(r.shift.corrections) },
    ],
    dayRows,
  );

  const perDriver = drivers.map((driver) => {
    const own = dayRows.filter((r) => r.driver.id === driver.id);
    return {
      driver,
      days: own.length,
      hours: own.reduce((sum, r) => sum + r.shift.workedMs, 0) / HOUR_MS,
      incomplete: own.filter((r) => r.shift.status === 'incomplete').length,
    };
  });
  addTableSheet(
    wb,
    totals.sheet,
    [
      { header: totals.headers.driver, kind: 'text', value: (r) => r.driver.name },
      { header: totals.headers.email, kind: 'text', value: (r) => r.driver.email },
      { header: totals.headers.daysWorked, kind: 'integer', value: (r) => r.days },
      { header: totals.headers.hours, kind: 'decimal', value: (r) => r.hours },
      { header: totals.headers.incompleteDays, kind: 'integer', value: (r) => r.incomplete },
    ],
    perDriver,
  );

  const punched = await punchesByUser(range.start, range.end);
  const punchRows = drivers.flatMap((driver) => (punched.get(driver.id) ?? []).map((p) => ({ driver, p })));
  addTableSheet(
    wb,
    punchSheet.sheet,
    [
      { header: punchSheet.headers.driver, kind: 'text', value: (r) => r.driver.name },
      { header: punchSheet.headers.type, kind: 'text', value: (r) => CLOCK_TYPE_LABELS[r.p.clock_type] },
      { header: punchSheet.headers.at, kind: 'datetime', value: (r) => r.p.timestamp },
      {
        header: punchSheet.headers.corrected,
        kind: 'text',
        value: (r) => (r.p.corrected ? EXCEL.timeclock.corrected : null),
      },
    ],
    punchRows,
  );

  const corrected = await correctionsByUser(range.start, range.end);
  const correctionRows = drivers.flatMap((driver) =>
    (corrected.get(driver.id) ?? []).map((c) => ({ driver, c })),
  );
  const h = correctionSheet.headers;
  addTableSheet(
    wb,
    correctionSheet.sheet,
    [
      { header: h.driver, kind: 'text', value: (r) => r.driver.name },
      { header: h.action, kind: 'text', value: (r) => EXCEL.timeclock.correctionActions[r.c.action] },
      { header: h.type, kind: 'text', value: (r) => CLOCK_TYPE_LABELS[r.c.clock_type] },
      { header: h.punchAt, kind: 'datetime', value: (r) => r.c.punch_timestamp },
      { header: h.reason, kind: 'text', value: (r) => r.c.reason },
      { header: h.by, kind: 'text', value: (r) => r.c.actor_name },
      { header: h.at, kind: 'datetime', value: (r) => r.c.at },
    ],
    correctionRows,
  );
  return wb;
}
