// The yard's indicators (CONTRACT §22, docs/REPORTS.md › Indicators): the figures of the Madrid days of a
// period, of its hours of the day, of its shifts, of the whole period and of the same number of days just
// before. One SQL query reads every task, task event and gate visit of both periods, places each fact in
// its Madrid day, hour and shift, and groups it five ways (percentiles included) in the database; only the
// drivers' clocked time, a few thousand punch pairs, is cut into the same buckets here.
import { SHIFTS } from '@shared/enums';
import { GATE_WAIT_AMBER_S, OPEN_SHIFT_MAX_MS } from '@shared/constants';
import {
  INDICATORS_MAX_DAYS,
  type IndicatorFigures,
  type Indicators,
  type IndicatorsQuery,
} from '@shared/schemas';
import { ERR } from '@shared/labels';
import { shiftRange, type ShiftStarts } from '@shared/shifts';
import { madridDay, madridDayRange, madridOffsetMs } from '@shared/time';
import { query } from '../db';
import { sqlFor } from '../db/dialect';
import { nowMs } from '../clock';
import { config } from '../config';
import { badRequest } from '../http/errors';
import { punchesByUser } from './timeclock-summary';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** A Madrid date as a day number (days since 1970-01-01 of its wall calendar), and back. */
const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayText = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);

/**
 * Madrid's offset from UTC over a stretch of time: the offset at its start and each change inside it.
 * Madrid changes at a whole UTC hour, so a day whose ends disagree is searched hour by hour.
 */
interface Offsets {
  first: number;
  changes: { at: number; offset: number }[];
}

function madridOffsets(start: number, end: number): Offsets {
  const first = madridOffsetMs(start);
  const changes: Offsets['changes'] = [];
  let current = first;
  for (let day = start; day < end; day += DAY_MS) {
    const next = madridOffsetMs(day + DAY_MS);
    if (next === current) continue;
    let at = day;
    while (madridOffsetMs(at) === current) at += HOUR_MS;
    changes.push({ at, offset: next });
    current = next;
  }
  return { first, changes };
}

/**
 * Where an instant falls, computed one way here and in SQL: its Madrid wall time as ms since the epoch
 * (`local`), whose whole days are Madrid dates and whose remainder gives the hour of the day (the autumn's
 * repeated 02:00 folds into hour 2) and the shift (before the first start: the previous date's last shift,
 * CONTRACT §20).
 */
class Placement {
  constructor(
    private readonly offsets: Offsets,
    private readonly starts: ShiftStarts,
  ) {}

  local(t: number): number {
    let offset = this.offsets.first;
    for (const c of this.offsets.changes) if (t >= c.at) offset = c.offset;
    return t + offset;
  }

  /** The same as `local`, as SQL over a column of epoch ms, with its parameters. */
  localSql(column: string): { text: string; params: number[] } {
    const { first, changes } = this.offsets;
    const offset = 'CAST(? AS BIGINT)';
    const last = changes.at(-1)?.offset ?? first;
    if (!changes.length) return { text: `(${column} + ${offset})`, params: [last] };
    // Before the first change the starting offset, then each change's own up to the next one.
    const whens = changes.map(() => `WHEN ${column} < ${offset} THEN ${offset}`).join(' ');
    return {
      text: `(${column} + CASE ${whens} ELSE ${offset} END)`,
      params: [...changes.flatMap((c, i) => [c.at, i === 0 ? first : changes[i - 1]!.offset]), last],
    };
  }

  /** The shift (index into SHIFTS) of a minute of the day, and how many days before its date it started. */
  shiftOf(minute: number): { shift: number; dayBack: number } {
    if (minute < this.starts[0]!) return { shift: this.starts.length - 1, dayBack: 1 };
    let i = 0;
    while (i + 1 < this.starts.length && this.starts[i + 1]! <= minute) i++;
    return { shift: i, dayBack: 0 };
  }

  /** `shiftOf` as SQL over a column of minutes of the day, with its parameters. */
  shiftSql(minute: string): { shift: string; dayBack: string; params: number[] } {
    const later = this.starts.slice(1);
    return {
      shift: `CASE WHEN ${minute} < ? THEN ${this.starts.length - 1} ${later.map((_, i) => `WHEN ${minute} < ? THEN ${i}`).join(' ')} ELSE ${this.starts.length - 1} END`,
      dayBack: `CASE WHEN ${minute} < ? THEN 1 ELSE 0 END`,
      params: [this.starts[0]!, ...later, this.starts[0]!],
    };
  }
}

/** A percentile_cont (linear interpolation between the nearest ranks, 0 ≤ p ≤ 1) of a SQL expression. */
export const percentileSql = (expr: string, p: number): string =>
  sqlFor({
    sqlite: `percentile_cont(${expr}, ${p})`,
    postgres: `percentile_cont(${p}) WITHIN GROUP (ORDER BY ${expr})`,
  });

/** A closed visit's wait in whole seconds, shared/gate.ts `waitS` as SQL: exit − max(entry, appointment), ≥ 0. */
export const WAIT_S_SQL = `CASE WHEN exited_at > CASE WHEN appointment_at > entered_at THEN appointment_at ELSE entered_at END
  THEN (exited_at - CASE WHEN appointment_at > entered_at THEN appointment_at ELSE entered_at END) / 1000 ELSE 0 END`;

/**
 * When a task last entered the pool before its assignment: the latest event that moved it into
 * `bolsa_trabajo` from elsewhere (created, returned, sent back by staff, reopened); its creation when it has
 * none. A hold while in the pool does not restart it: the task waited all along.
 */
const POOL_ENTRY_SQL = `COALESCE((SELECT MAX(e.at) FROM task_events e WHERE e.task_id = tasks.id
  AND e.at <= tasks.assigned_at AND e.to_status = 'bolsa_trabajo'
  AND (e.from_status IS NULL OR e.from_status <> 'bolsa_trabajo')), tasks.created_at)`;

const seconds = (expr: string) => `CAST(${expr} AS DOUBLE PRECISION) / 1000`;

/** Every fact of [?, ?) four times over: its instant `t`, its kind, a duration `s` in seconds, two flags. */
const FACTS_SQL = `
  SELECT completed_at AS t, 'done' AS kind, ${seconds('completed_at - assigned_at')} AS s,
    CASE WHEN due_at IS NULL THEN NULL WHEN COALESCE(late_s, 0) > 0 THEN 0 ELSE 1 END AS on_time,
    CASE WHEN proof = 'scan' THEN 1 ELSE 0 END AS scan
  FROM tasks WHERE completed_at >= ? AND completed_at < ? AND deleted_at IS NULL
  UNION ALL
  SELECT assigned_at, 'assigned', ${seconds(`assigned_at - ${POOL_ENTRY_SQL}`)}, NULL, NULL
  FROM tasks WHERE assigned_at >= ? AND assigned_at < ? AND deleted_at IS NULL
  UNION ALL
  SELECT at, type, NULL, NULL, NULL FROM task_events WHERE type IN ('returned', 'held') AND at >= ? AND at < ?
  UNION ALL
  SELECT entered_at, 'entry', NULL, NULL, NULL FROM gate_visits WHERE entered_at >= ? AND entered_at < ?
  UNION ALL
  SELECT exited_at, 'exit', CAST(${WAIT_S_SQL} AS DOUBLE PRECISION), NULL, NULL
  FROM gate_visits WHERE exited_at >= ? AND exited_at < ?`;

const count = (cond: string) => `SUM(CASE WHEN ${cond} THEN 1 ELSE 0 END)`;
const of = (kind: string) => `CASE WHEN kind = '${kind}' THEN s END`;

/** The figures of one group, as columns (moves per driver hour comes from the punches). */
const FIGURES_SQL = `
  ${count(`kind = 'done'`)} AS moves,
  ${percentileSql(of('assigned'), 0.5)} AS pool_p50, ${percentileSql(of('assigned'), 0.9)} AS pool_p90,
  ${percentileSql(of('done'), 0.5)} AS move_p50, ${percentileSql(of('done'), 0.9)} AS move_p90,
  ${count(`kind = 'done' AND on_time = 1`)} AS on_time, ${count(`kind = 'done' AND on_time IS NOT NULL`)} AS with_deadline,
  ${count(`kind = 'done' AND on_time = 0`)} AS late,
  ${count(`kind = 'done' AND scan = 1`)} AS scans,
  ${count(`kind = 'returned'`)} AS returns, ${count(`kind = 'held'`)} AS holds,
  ${count(`kind = 'entry'`)} AS entries, ${count(`kind = 'exit'`)} AS exits,
  ${percentileSql(of('exit'), 0.5)} AS stay_p50, ${percentileSql(of('exit'), 0.9)} AS stay_p90,
  ${count(`kind = 'exit' AND s > ?`)} AS over_1h`;

type Bucket = 'day' | 'hour' | 'shift' | 'total' | 'previous';

interface FigureRow {
  bucket: Bucket;
  k: number;
  moves: number | null;
  pool_p50: number | null;
  pool_p90: number | null;
  move_p50: number | null;
  move_p90: number | null;
  on_time: number | null;
  with_deadline: number | null;
  late: number | null;
  scans: number | null;
  returns: number | null;
  holds: number | null;
  entries: number | null;
  exits: number | null;
  stay_p50: number | null;
  stay_p90: number | null;
  over_1h: number | null;
}

/** Inclusive day-number ranges of the period and of the one before it. */
interface Periods {
  current: [number, number];
  previous: [number, number];
}

async function factFigures(place: Placement, range: { start: number; end: number }, p: Periods) {
  const local = place.localSql('t');
  const shift = place.shiftSql('minute');
  const figures = FIGURES_SQL;
  const sql = `
    WITH facts AS (${FACTS_SQL}),
    placed AS (SELECT kind, s, on_time, scan, ${local.text} AS lt FROM facts),
    keyed AS (SELECT kind, s, on_time, scan, lt / ${DAY_MS} AS day_no, (lt % ${DAY_MS}) / ${MINUTE_MS} AS minute FROM placed),
    shifted AS MATERIALIZED (SELECT keyed.*, ${shift.shift} AS shift_idx, day_no - ${shift.dayBack} AS shift_day FROM keyed)
    SELECT 'day' AS bucket, day_no AS k, ${figures} FROM shifted WHERE day_no BETWEEN ? AND ? GROUP BY day_no
    UNION ALL SELECT 'hour', minute / 60, ${figures} FROM shifted WHERE day_no BETWEEN ? AND ? GROUP BY minute / 60
    UNION ALL SELECT 'shift', shift_idx, ${figures} FROM shifted WHERE shift_day BETWEEN ? AND ? GROUP BY shift_idx
    UNION ALL SELECT 'total', 0, ${figures} FROM shifted WHERE day_no BETWEEN ? AND ?
    UNION ALL SELECT 'previous', 0, ${figures} FROM shifted WHERE day_no BETWEEN ? AND ?`;
  const params = [
    ...Array.from({ length: 5 }, () => [range.start, range.end]).flat(),
    ...local.params,
    ...shift.params,
    ...[p.current, p.current, p.current, p.current, p.previous].flatMap((r) => [GATE_WAIT_AMBER_S, ...r]),
  ];
  return query<FigureRow>(sql, params);
}

/** Clocked ms per bucket, keyed `${bucket}:${k}` like the figure rows. */
type ClockedMs = Map<string, number>;

/**
 * The drivers' clocked time cut into the buckets: each entrada with the salida that follows it (an
 * entrada followed by another entrada counts nothing, as in Control Conductores); a pair still open
 * counts up to now, at most OPEN_SHIFT_MAX_MS. Pieces are cut at every whole step of `stepMs` (the hour,
 * or less when a shift starts off the hour), so each lies in one hour and one shift.
 */
async function clockedMs(place: Placement, range: { start: number; end: number }, p: Periods) {
  const now = nowMs();
  const stepMs = [60, ...config.shiftStarts.map((m) => m % 60)].reduce(gcd) * MINUTE_MS;
  const out: ClockedMs = new Map();
  const add = (key: string, ms: number) => out.set(key, (out.get(key) ?? 0) + ms);
  const inside = (day: number, [a, b]: [number, number]) => day >= a && day <= b;
  const addPiece = (from: number, to: number) => {
    const lt = place.local(from);
    const day = Math.floor(lt / DAY_MS);
    const minute = Math.floor((lt % DAY_MS) / MINUTE_MS);
    const { shift, dayBack } = place.shiftOf(minute);
    const ms = to - from;
    if (inside(day, p.current)) {
      add(`day:${day}`, ms);
      add(`hour:${Math.floor(minute / 60)}`, ms);
      add('total:0', ms);
    }
    if (inside(day - dayBack, p.current)) add(`shift:${shift}`, ms);
    if (inside(day, p.previous)) add('previous:0', ms);
  };
  const punches = await punchesByUser(range.start - OPEN_SHIFT_MAX_MS, range.end + OPEN_SHIFT_MAX_MS);
  for (const list of punches.values()) {
    list.forEach((punch, i) => {
      if (punch.clock_type !== 'entrada') return;
      const next = list[i + 1];
      if (next?.clock_type === 'entrada') return;
      const end = next ? next.timestamp : Math.min(now, punch.timestamp + OPEN_SHIFT_MAX_MS);
      const from = Math.max(punch.timestamp, range.start);
      const to = Math.min(end, range.end);
      for (let at = from; at < to;) {
        const cut = Math.min(to, (Math.floor(at / stepMs) + 1) * stepMs);
        addPiece(at, cut);
        at = cut;
      }
    });
  }
  return out;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

const EMPTY_ROW: Omit<FigureRow, 'bucket' | 'k'> = {
  moves: 0,
  pool_p50: null,
  pool_p90: null,
  move_p50: null,
  move_p90: null,
  on_time: 0,
  with_deadline: 0,
  late: 0,
  scans: 0,
  returns: 0,
  holds: 0,
  entries: 0,
  exits: 0,
  stay_p50: null,
  stay_p90: null,
  over_1h: 0,
};

const whole = (n: number | null): number | null => (n === null ? null : Math.round(n));
const ratio = (part: number, all: number, decimals: number): number | null =>
  all > 0 ? Math.round((part / all) * 10 ** decimals) / 10 ** decimals : null;

function figures(row: Omit<FigureRow, 'bucket' | 'k'>, clocked: number): IndicatorFigures {
  const n = (v: number | null) => Number(v ?? 0);
  const moves = n(row.moves);
  return {
    moves_completed: moves,
    moves_per_driver_hour: ratio(moves, clocked / HOUR_MS, 2),
    pool_wait_p50_s: whole(row.pool_p50),
    pool_wait_p90_s: whole(row.pool_p90),
    move_p50_s: whole(row.move_p50),
    move_p90_s: whole(row.move_p90),
    on_time_rate: ratio(n(row.on_time), n(row.with_deadline), 4),
    late: n(row.late),
    returns: n(row.returns),
    holds: n(row.holds),
    gate_entries: n(row.entries),
    gate_exits: n(row.exits),
    truck_stay_p50_s: whole(row.stay_p50),
    truck_stay_p90_s: whole(row.stay_p90),
    trucks_over_1h: n(row.over_1h),
    scan_rate: ratio(n(row.scans), moves, 4),
  };
}

/** The period's checks that need the clock: not after today (Madrid), at most INDICATORS_MAX_DAYS days. */
function periods(q: IndicatorsQuery): Periods {
  if (q.to > madridDay(nowMs())) throw badRequest(ERR.periodInvalid);
  const current: [number, number] = [dayNumber(q.from), dayNumber(q.to)];
  const days = current[1] - current[0] + 1;
  if (days > INDICATORS_MAX_DAYS) throw badRequest(ERR.periodTooLong);
  return { current, previous: [current[0] - days, current[0] - 1] };
}

export async function indicators(q: IndicatorsQuery): Promise<Indicators> {
  const p = periods(q);
  const starts = config.shiftStarts;
  // From the previous period's first midnight to the end of the last date's last shift.
  const range = {
    start: madridDayRange(dayText(p.previous[0])).start,
    end: shiftRange({ shift: SHIFTS[SHIFTS.length - 1]!, date: q.to }, starts).to,
  };
  const place = new Placement(madridOffsets(range.start, range.end), starts);
  const [rows, clocked] = await Promise.all([factFigures(place, range, p), clockedMs(place, range, p)]);
  const byKey = new Map(rows.map((r) => [`${r.bucket}:${Number(r.k)}`, r]));
  const at = (bucket: Bucket, k: number) =>
    figures(byKey.get(`${bucket}:${k}`) ?? EMPTY_ROW, clocked.get(`${bucket}:${k}`) ?? 0);
  const dayNumbers = Array.from({ length: p.current[1] - p.current[0] + 1 }, (_, i) => p.current[0] + i);
  return {
    period: { from: q.from, to: q.to },
    days: dayNumbers.map((d) => ({ date: dayText(d), ...at('day', d) })),
    by_hour: Array.from({ length: 24 }, (_, hour) => ({ hour, ...at('hour', hour) })),
    by_shift: SHIFTS.map((shift, i) => ({ shift, ...at('shift', i) })),
    totals: at('total', 0),
    previous: { from: dayText(p.previous[0]), to: dayText(p.previous[1]), ...at('previous', 0) },
  };
}
