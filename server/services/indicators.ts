// The yard's indicators (CONTRACT §22, docs/REPORTS.md › Indicators): the figures of the Madrid days of a
// period, of its hours of the day, of its shifts, of the whole period and of the same number of days just
// before. One SQL query per family of facts (completions, assignments, returns and holds, gate visits)
// reads its rows of both periods, places each in its Madrid day, hour and shift, and groups them five ways
// (percentiles included) in the database; only the drivers' clocked time, a few thousand punch pairs, is
// cut into the same buckets here.
import { SHIFTS } from '@shared/enums';
import { GATE_WAIT_AMBER_S, OPEN_SHIFT_MAX_MS } from '@shared/constants';
import {
  INDICATORS_MAX_DAYS,
  type IndicatorFigures,
  type Indicators,
  type IndicatorsQuery,
} from '@shared/schemas';
import { ERR } from '@shared/labels';
import { shiftOfMinute, shiftRange, type ShiftStarts } from '@shared/shifts';
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

  /** The shift of a Madrid minute of the day (shared/shifts.ts, CONTRACT §20). */
  shiftOf(minute: number): ReturnType<typeof shiftOfMinute> {
    return shiftOfMinute(minute, this.starts);
  }

  /** `shiftOf` as SQL over a column of minutes of the day, with its parameters. */
  shiftSql(minute: string): { shift: string; daysBack: string; params: number[] } {
    const later = this.starts.slice(1);
    return {
      shift: `CASE WHEN ${minute} < ? THEN ${this.starts.length - 1} ${later.map((_, i) => `WHEN ${minute} < ? THEN ${i}`).join(' ')} ELSE ${this.starts.length - 1} END`,
      daysBack: `CASE WHEN ${minute} < ? THEN 1 ELSE 0 END`,
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
 * When a task last entered the pool before its current assignment: the latest event that moved it into
 * `bolsa_trabajo` from another status after its creation (returned, sent back by staff, reopened: each
 * clears `assigned_at`, so they all precede the assignment); its creation when there is none. A hold
 * while in the pool does not restart it: the task waited all along. The re-entries are few and read
 * through the (type, at) index, instead of a look-up per assigned task.
 */
const POOL_REENTRIES_SQL = `SELECT task_id, MAX(at) AS at FROM task_events
  WHERE type IN ('returned', 'status_changed', 'reopened') AND at < ?
    AND to_status = 'bolsa_trabajo' AND from_status <> 'bolsa_trabajo'
  GROUP BY task_id`;

const seconds = (expr: string) => `CAST(${expr} AS DOUBLE PRECISION) / 1000`;
const count = (cond: string) => `SUM(CASE WHEN ${cond} THEN 1 ELSE 0 END)`;
const percentiles = (name: string) =>
  `${percentileSql('s', 0.5)} AS ${name}_p50, ${percentileSql('s', 0.9)} AS ${name}_p90`;

/**
 * The families of facts: each reads its rows of [?, ?) (`t` the instant, `s` a duration in seconds,
 * `kind` and `flag` what its figures need) and computes its own figures for every group.
 */
const FAMILIES: {
  facts: string;
  params: (range: { start: number; end: number }) => number[];
  figures: string;
}[] = [
  {
    // Completions: on time (flag 1) or late (0) when they had a deadline, and their proof.
    facts: `SELECT completed_at AS t, proof AS kind, ${seconds('completed_at - assigned_at')} AS s,
        CASE WHEN due_at IS NULL THEN NULL WHEN COALESCE(late_s, 0) > 0 THEN 0 ELSE 1 END AS flag
      FROM tasks WHERE completed_at >= ? AND completed_at < ? AND deleted_at IS NULL`,
    params: (r) => [r.start, r.end],
    figures: `COUNT(*) AS moves, ${percentiles('move')}, ${count('flag = 1')} AS on_time,
      COUNT(flag) AS with_deadline, ${count('flag = 0')} AS late, ${count(`kind = 'scan'`)} AS scans`,
  },
  {
    facts: `SELECT tasks.assigned_at AS t, NULL AS kind,
        ${seconds('tasks.assigned_at - COALESCE(back.at, tasks.created_at)')} AS s, NULL AS flag
      FROM tasks LEFT JOIN (${POOL_REENTRIES_SQL}) back ON back.task_id = tasks.id
      WHERE tasks.assigned_at >= ? AND tasks.assigned_at < ? AND tasks.deleted_at IS NULL`,
    params: (r) => [r.end, r.start, r.end],
    figures: percentiles('pool'),
  },
  {
    facts: `SELECT at AS t, type AS kind, NULL AS s, NULL AS flag
      FROM task_events WHERE type IN ('returned', 'held') AND at >= ? AND at < ?`,
    params: (r) => [r.start, r.end],
    figures: `${count(`kind = 'returned'`)} AS returns, ${count(`kind = 'held'`)} AS holds`,
  },
  {
    // Entries have no wait; exits carry theirs.
    facts: `SELECT entered_at AS t, 'entry' AS kind, NULL AS s, NULL AS flag
        FROM gate_visits WHERE entered_at >= ? AND entered_at < ?
      UNION ALL
      SELECT exited_at, 'exit', CAST(${WAIT_S_SQL} AS DOUBLE PRECISION), NULL
        FROM gate_visits WHERE exited_at >= ? AND exited_at < ?`,
    params: (r) => [r.start, r.end, r.start, r.end],
    figures: `${count(`kind = 'entry'`)} AS entries, ${count(`kind = 'exit'`)} AS exits, ${percentiles('stay')},
      ${count(`kind = 'exit' AND s > ${GATE_WAIT_AMBER_S}`)} AS over_1h`,
  },
];

type Bucket = 'day' | 'hour' | 'shift' | 'total' | 'previous';

/** What the families' groups answer, each the columns of its own figures. */
interface FigureColumns {
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
type FigureRow = Partial<FigureColumns> & { bucket: Bucket; k: number };

/** Inclusive day-number ranges of the period and of the one before it. */
interface Periods {
  current: [number, number];
  previous: [number, number];
}

/** Every family's figures of every group, merged by `${bucket}:${k}`. */
async function factFigures(place: Placement, range: { start: number; end: number }, p: Periods) {
  const local = place.localSql('t');
  const shift = place.shiftSql('minute');
  const merged = new Map<string, Partial<FigureColumns>>();
  for (const family of FAMILIES) {
    const f = family.figures;
    const sql = `
      WITH facts AS (${family.facts}),
      placed AS (SELECT kind, s, flag, ${local.text} AS lt FROM facts),
      keyed AS (SELECT kind, s, flag, lt / ${DAY_MS} AS day_no, (lt % ${DAY_MS}) / ${MINUTE_MS} AS minute FROM placed),
      shifted AS MATERIALIZED (SELECT keyed.*, ${shift.shift} AS shift_idx, day_no - ${shift.daysBack} AS shift_day FROM keyed)
      SELECT 'day' AS bucket, day_no AS k, ${f} FROM shifted WHERE day_no BETWEEN ? AND ? GROUP BY day_no
      UNION ALL SELECT 'hour', minute / 60, ${f} FROM shifted WHERE day_no BETWEEN ? AND ? GROUP BY minute / 60
      UNION ALL SELECT 'shift', shift_idx, ${f} FROM shifted WHERE shift_day BETWEEN ? AND ? GROUP BY shift_idx
      UNION ALL SELECT 'total', 0, ${f} FROM shifted WHERE day_no BETWEEN ? AND ?
      UNION ALL SELECT 'previous', 0, ${f} FROM shifted WHERE day_no BETWEEN ? AND ?`;
    const params = [
      ...family.params(range),
      ...local.params,
      ...shift.params,
      ...[p.current, p.current, p.current, p.current, p.previous].flat(),
    ];
    for (const { bucket, k, ...columns } of await query<FigureRow>(sql, params)) {
      const key = `${bucket}:${Number(k)}`;
      merged.set(key, { ...merged.get(key), ...columns });
    }
  }
  return merged;
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
  const [first, last] = p.current;
  // Sums in plain arrays (a pass over every piece of every pair), keyed once at the end.
  const days = new Array<number>(last - first + 1).fill(0);
  const hours = new Array<number>(24).fill(0);
  const shifts = new Array<number>(SHIFTS.length).fill(0);
  let total = 0;
  let previous = 0;
  const addPiece = (from: number, ms: number) => {
    const lt = place.local(from);
    const day = Math.floor(lt / DAY_MS);
    const minute = Math.floor((lt % DAY_MS) / MINUTE_MS);
    const { index: shift, daysBack } = place.shiftOf(minute);
    if (day >= first && day <= last) {
      days[day - first]! += ms;
      hours[Math.floor(minute / 60)]! += ms;
      total += ms;
    }
    if (day - daysBack >= first && day - daysBack <= last) shifts[shift]! += ms;
    if (day >= p.previous[0] && day <= p.previous[1]) previous += ms;
  };
  const punches = await punchesByUser(range.start - OPEN_SHIFT_MAX_MS, range.end + OPEN_SHIFT_MAX_MS);
  for (const list of punches.values()) {
    list.forEach((punch, i) => {
      if (punch.clock_type !== 'entrada') return;
      const next = list[i + 1];
      if (next?.clock_type === 'entrada') return;
      const end = next ? next.timestamp : Math.min(now, punch.timestamp + OPEN_SHIFT_MAX_MS);
      const to = Math.min(end, range.end);
      for (let at = Math.max(punch.timestamp, range.start); at < to;) {
        const cut = Math.min(to, (Math.floor(at / stepMs) + 1) * stepMs);
        addPiece(at, cut - at);
        at = cut;
      }
    });
  }
  const out: ClockedMs = new Map([
    ['total:0', total],
    ['previous:0', previous],
  ]);
  days.forEach((ms, i) => out.set(`day:${first + i}`, ms));
  hours.forEach((ms, h) => out.set(`hour:${h}`, ms));
  shifts.forEach((ms, i) => out.set(`shift:${i}`, ms));
  return out;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

const whole = (n: number | null | undefined): number | null => (n == null ? null : Math.round(n));
const ratio = (part: number, all: number, decimals: number): number | null =>
  all > 0 ? Math.round((part / all) * 10 ** decimals) / 10 ** decimals : null;

function figures(row: Partial<FigureColumns>, clocked: number): IndicatorFigures {
  const n = (v: number | null | undefined) => Number(v ?? 0);
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
  const [byKey, clocked] = await Promise.all([factFigures(place, range, p), clockedMs(place, range, p)]);
  const at = (bucket: Bucket, k: number) =>
    figures(byKey.get(`${bucket}:${k}`) ?? {}, clocked.get(`${bucket}:${k}`) ?? 0);
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
