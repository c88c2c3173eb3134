// The yard's indicators (CONTRACT §22, docs/REPORTS.md › Indicators): the figures of the Madrid days of a
// period, of its hours of the day, of its shifts, of the whole period and of the same number of days just
// before. One SQL query per family of facts (completions, assignments, returns and holds, gate visits)
// reads its rows of both periods and groups them once, by UTC slot (the hour, or less when a shift starts
// off the hour): its counts, and its durations as one list. Each slot lies in one Madrid day, hour and
// shift (Madrid's offset changes at whole UTC hours), so the few thousand slots are folded into the days,
// hours, shifts, totals and previous period here, and each bucket's percentiles are the nearest ranks of
// its durations. The drivers' clocked time, each punch pair read once, is cut into the same slots.
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

/** Inclusive day-number ranges of the period and of the one before it. */
interface Periods {
  current: [number, number];
  previous: [number, number];
}

/**
 * The buckets an instant counts in: its Madrid wall time as ms since the epoch, whose whole days are Madrid
 * dates and whose remainder gives the hour of the day (the autumn's repeated 02:00 folds into hour 2) and
 * the shift (before the first start: the previous date's last shift, CONTRACT §20). Every instant of a
 * slot (a whole UTC step, `stepMs`) has the buckets of the slot's start.
 */
class Placement {
  /** The slot: a whole fraction of the hour on which every shift starts. */
  readonly stepMs: number;

  constructor(
    private readonly offsets: Offsets,
    private readonly starts: ShiftStarts,
    private readonly periods: Periods,
  ) {
    this.stepMs = [60, ...starts.map((m) => m % 60)].reduce(gcd) * MINUTE_MS;
  }

  private local(t: number): number {
    let offset = this.offsets.first;
    for (const c of this.offsets.changes) if (t >= c.at) offset = c.offset;
    return t + offset;
  }

  /** The keys (`${bucket}:${k}`) of the buckets of the slot that starts at `t`. */
  bucketsAt(t: number): string[] {
    const lt = this.local(t);
    const day = Math.floor(lt / DAY_MS);
    const minute = Math.floor((lt % DAY_MS) / MINUTE_MS);
    const { index: shift, daysBack } = shiftOfMinute(minute, this.starts);
    const within = ([first, last]: [number, number], d: number) => d >= first && d <= last;
    const keys: string[] = [];
    if (within(this.periods.current, day))
      keys.push(`day:${day}`, `hour:${Math.floor(minute / 60)}`, 'total:0');
    if (within(this.periods.current, day - daysBack)) keys.push(`shift:${shift}`);
    if (within(this.periods.previous, day)) keys.push('previous:0');
    return keys;
  }
}

/**
 * Rearranges `values` so that `values[k]` is their k-th smallest (from 0), none before it larger and none
 * after it smaller (Hoare's selection: linear on average, where a sort of each bucket was most of the time).
 */
function select(values: Float64Array, k: number): number {
  let left = 0;
  let right = values.length - 1;
  while (left < right) {
    const pivot = values[(left + right) >> 1]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        [values[i], values[j]] = [values[j]!, values[i]!];
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break; // between the two halves: equal to the pivot
  }
  return values[k]!;
}

/**
 * Each engine's `percentile_cont` over durations in seconds, of durations in ms (rearranged): the two nearest ranks are
 * turned into seconds (ms / 1000, the same doubles as SQL's) before the same interpolation.
 */
export function percentileOfMs(ms: Float64Array, p: number): number | null {
  if (!ms.length) return null;
  const pos = p * (ms.length - 1);
  const lo = Math.floor(pos);
  const below = select(ms, lo) / 1000;
  if (lo === pos) return below;
  // Everything after rank `lo` is at least it: the next rank is their smallest.
  let next = ms[lo + 1]!;
  for (let i = lo + 2; i < ms.length; i++) if (ms[i]! < next) next = ms[i]!;
  return below + (pos - lo) * (next / 1000 - below);
}

/** A closed visit's wait in whole seconds, shared/gate.ts `waitS` as SQL: exit − max(entry, appointment), ≥ 0. */
export const WAIT_S_SQL = `CASE WHEN exited_at > CASE WHEN appointment_at > entered_at THEN appointment_at ELSE entered_at END
  THEN (exited_at - CASE WHEN appointment_at > entered_at THEN appointment_at ELSE entered_at END) / 1000 ELSE 0 END`;

/**
 * When a task last entered the pool before its current assignment: the latest event that moved it into
 * `bolsa_trabajo` from another status after its creation (returned, sent back by staff, reopened: each
 * clears `assigned_at`, so they all precede the assignment); its creation when there is none. A hold
 * while in the pool does not restart it: the task waited all along. The re-entries are few: the
 * assignments' waits are read from creation, and those of the tasks that re-entered replaced after
 * (`POOL_REENTERED_SQL`), instead of a join probed by every assigned task.
 */
const POOL_REENTRIES_SQL = `SELECT task_id, MAX(at) AS at FROM task_events
  WHERE type IN ('returned', 'status_changed', 'reopened') AND at < ?
    AND to_status = 'bolsa_trabajo' AND from_status <> 'bolsa_trabajo'
  GROUP BY task_id`;

/** The tasks assigned in [?, ?) that re-entered the pool: their slot, wait from creation and from the re-entry. */
const POOL_REENTERED_SQL = `SELECT tasks.assigned_at / CAST(? AS BIGINT) AS slot,
    tasks.assigned_at - tasks.created_at AS was, tasks.assigned_at - back.at AS ms
  FROM (${POOL_REENTRIES_SQL}) back JOIN tasks ON tasks.id = back.task_id
  WHERE tasks.assigned_at >= ? AND tasks.assigned_at < ? AND tasks.deleted_at IS NULL`;

const count = (cond: string) => `SUM(CASE WHEN ${cond} THEN 1 ELSE 0 END)`;
/** A group's durations (`ms`, NULLs left out) as one comma-separated text. */
const DURATIONS_SQL = sqlFor({ sqlite: 'group_concat(ms)', postgres: `string_agg(CAST(ms AS TEXT), ',')` });

type Percentiles = 'move' | 'pool' | 'stay';

/**
 * The families of facts: each reads its rows of [?, ?) (`t` the instant, `ms` a duration in ms, `kind`
 * and `flag` what its counts need), counts them per slot, and lists the durations of which it gives the
 * percentiles.
 */
const FAMILIES: {
  facts: string;
  params: (range: { start: number; end: number }) => number[];
  counts?: string;
  percentiles?: Percentiles;
}[] = [
  {
    // Completions: on time (flag 1) or late (0) when they had a deadline, and their proof. The covering
    // index tasks_completed_facts holds every column read.
    facts: `SELECT completed_at AS t, proof AS kind, completed_at - assigned_at AS ms,
        CASE WHEN due_at IS NULL THEN NULL WHEN COALESCE(late_s, 0) > 0 THEN 0 ELSE 1 END AS flag
      FROM tasks WHERE completed_at >= ? AND completed_at < ? AND deleted_at IS NULL`,
    params: (r) => [r.start, r.end],
    counts: `COUNT(*) AS moves, ${count('flag = 1')} AS on_time, COUNT(flag) AS with_deadline,
      ${count('flag = 0')} AS late, ${count(`kind = 'scan'`)} AS scans`,
    percentiles: 'move',
  },
  {
    // The waits from creation; those of the tasks that re-entered the pool are replaced (addFacts).
    facts: `SELECT assigned_at AS t, assigned_at - created_at AS ms
      FROM tasks WHERE assigned_at >= ? AND assigned_at < ? AND deleted_at IS NULL`,
    params: (r) => [r.start, r.end],
    percentiles: 'pool',
  },
  {
    facts: `SELECT at AS t, type AS kind FROM task_events WHERE type IN ('returned', 'held') AND at >= ? AND at < ?`,
    params: (r) => [r.start, r.end],
    counts: `${count(`kind = 'returned'`)} AS returns, ${count(`kind = 'held'`)} AS holds`,
  },
  {
    // Entries have no wait; exits carry theirs (whole seconds, as ms).
    facts: `SELECT entered_at AS t, 'entry' AS kind, NULL AS ms
        FROM gate_visits WHERE entered_at >= ? AND entered_at < ?
      UNION ALL
      SELECT exited_at, 'exit', (${WAIT_S_SQL}) * 1000 FROM gate_visits WHERE exited_at >= ? AND exited_at < ?`,
    params: (r) => [r.start, r.end, r.start, r.end],
    counts: `${count(`kind = 'entry'`)} AS entries, ${count(`kind = 'exit'`)} AS exits,
      ${count(`kind = 'exit' AND ms > ${GATE_WAIT_AMBER_S * 1000}`)} AS over_1h`,
    percentiles: 'stay',
  },
];

/** What a bucket's figures are computed from. */
interface BucketSums {
  moves: number;
  on_time: number;
  with_deadline: number;
  late: number;
  scans: number;
  returns: number;
  holds: number;
  entries: number;
  exits: number;
  over_1h: number;
  /** The drivers' clocked time. */
  clocked_ms: number;
}
type Bucket = Partial<BucketSums> & Partial<Record<`${Percentiles}_${'p50' | 'p90'}`, number | null>>;

/** The buckets' sums and durations, filled slot by slot. */
class Buckets {
  private readonly sums = new Map<string, Bucket>();
  /** Per bucket and figure, the lists of durations (ms) of its slots and how many they hold. */
  private readonly durations = new Map<string, { lists: number[][]; length: number }>();

  constructor(private readonly place: Placement) {}

  add(slotStart: number, sums: Partial<BucketSums>, durations?: { name: Percentiles; ms: number[] }) {
    for (const key of this.place.bucketsAt(slotStart)) {
      const bucket = this.sums.get(key) ?? {};
      for (const [column, n] of Object.entries(sums) as [keyof BucketSums, number][])
        bucket[column] = (bucket[column] ?? 0) + Number(n);
      this.sums.set(key, bucket);
      if (!durations?.ms.length) continue;
      const listKey = `${key}|${durations.name}`;
      const all = this.durations.get(listKey) ?? { lists: [], length: 0 };
      all.lists.push(durations.ms);
      all.length += durations.ms.length;
      this.durations.set(listKey, all);
    }
  }

  /** The bucket's sums and its percentiles. */
  get(key: string): Bucket {
    const bucket = { ...this.sums.get(key) };
    for (const name of ['move', 'pool', 'stay'] as const) {
      const all = this.durations.get(`${key}|${name}`) ?? { lists: [], length: 0 };
      const values = new Float64Array(all.length);
      let i = 0;
      for (const list of all.lists) for (const ms of list) values[i++] = ms;
      bucket[`${name}_p50`] = percentileOfMs(values, 0.5);
      bucket[`${name}_p90`] = percentileOfMs(values, 0.9);
    }
    return bucket;
  }
}

/** Per slot, the pool waits read from creation that are from a later re-entry into the pool. */
async function poolReentered(stepMs: number, range: { start: number; end: number }) {
  const bySlot = new Map<number, { was: number; ms: number }[]>();
  const rows = await query<{ slot: number; was: number; ms: number }>(POOL_REENTERED_SQL, [
    stepMs,
    range.end,
    range.start,
    range.end,
  ]);
  for (const { slot, was, ms } of rows) {
    const list = bySlot.get(Number(slot)) ?? [];
    list.push({ was: Number(was), ms: Number(ms) });
    bySlot.set(Number(slot), list);
  }
  return bySlot;
}

/**
 * Every family's counts and durations, slot by slot. The queries are independent: on PostgreSQL they run
 * at once on the pool's connections (SQLite runs them one after another whatever the order).
 */
async function addFacts(buckets: Buckets, place: Placement, range: { start: number; end: number }) {
  const [reentered, ...families] = await Promise.all([
    poolReentered(place.stepMs, range),
    ...FAMILIES.map(async (family) => {
      const columns = [
        't / CAST(? AS BIGINT) AS slot',
        family.counts,
        family.percentiles && `${DURATIONS_SQL} AS durations`,
      ].filter(Boolean);
      const sql = `SELECT ${columns.join(', ')} FROM (${family.facts}) facts GROUP BY 1`;
      const rows = await query<{ slot: number; durations?: string | null }>(sql, [
        place.stepMs,
        ...family.params(range),
      ]);
      return { family, rows };
    }),
  ]);
  for (const { family, rows } of families) {
    for (const { slot, durations: list, ...sums } of rows) {
      const ms = list ? (JSON.parse(`[${list}]`) as number[]) : [];
      // The same tasks in the same slot: each wait from creation is in the list once per such task.
      if (family.percentiles === 'pool')
        for (const task of reentered.get(Number(slot)) ?? []) ms[ms.indexOf(task.was)] = task.ms;
      buckets.add(Number(slot) * place.stepMs, sums, family.percentiles && { name: family.percentiles, ms });
    }
  }
}

/**
 * Each entrada with what follows it among the user's punches (time order, as Control Conductores reads
 * them: timeclock-summary.ts): the salida's time, or NULL when nothing follows. An entrada followed by
 * another entrada counts nothing and is left out. SQLite reads them along the user's index (it ends with
 * the rowid: the window's order, no sort of every punch; its planner, with no ANALYZE, would take the time
 * index and sort): about half the query's time over the bench's yard.
 */
const CLOCKED_PAIRS_SQL = `SELECT at, next_at FROM (
    SELECT clock_type, timestamp AS at, LEAD(timestamp) OVER w AS next_at, LEAD(clock_type) OVER w AS next_type
    FROM punches INDEXED BY punches_user WHERE timestamp >= ? AND timestamp < ? AND deleted_at IS NULL
    WINDOW w AS (PARTITION BY user_id ORDER BY timestamp, rowid)) pairs
  WHERE clock_type = 'entrada' AND (next_type IS NULL OR next_type = 'salida')`;

/**
 * The drivers' clocked time cut into the slots: each entrada with the salida that follows it; a pair still
 * open counts up to now, at most OPEN_SHIFT_MAX_MS. A pair adds its partial first and last slots, and one
 * driver to each whole slot between them (a running count over the slots, not a piece per slot per pair).
 */
async function addClocked(buckets: Buckets, place: Placement, range: { start: number; end: number }) {
  const now = nowMs();
  const step = place.stepMs;
  const first = Math.floor(range.start / step);
  const slots = Math.ceil(range.end / step) - first;
  const partialMs = new Array<number>(slots + 1).fill(0);
  const driversChange = new Array<number>(slots + 1).fill(0);
  const pairs = await query<{ at: number; next_at: number | null }>(CLOCKED_PAIRS_SQL, [
    range.start - OPEN_SHIFT_MAX_MS,
    range.end + OPEN_SHIFT_MAX_MS,
  ]);
  for (const pair of pairs) {
    const end = pair.next_at ?? Math.min(now, pair.at + OPEN_SHIFT_MAX_MS);
    const from = Math.max(pair.at, range.start);
    const to = Math.min(end, range.end);
    if (from >= to) continue;
    const a = Math.floor(from / step) - first;
    const b = Math.floor(to / step) - first;
    if (a === b) {
      partialMs[a]! += to - from;
      continue;
    }
    partialMs[a]! += (first + a + 1) * step - from;
    partialMs[b]! += to - (first + b) * step;
    driversChange[a + 1]! += 1;
    driversChange[b]! -= 1;
  }
  let drivers = 0;
  for (let i = 0; i < slots; i++) {
    drivers += driversChange[i]!;
    const ms = partialMs[i]! + drivers * step;
    if (ms) buckets.add((first + i) * step, { clocked_ms: ms });
  }
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

const whole = (n: number | null | undefined): number | null => (n == null ? null : Math.round(n));
const ratio = (part: number, all: number, decimals: number): number | null =>
  all > 0 ? Math.round((part / all) * 10 ** decimals) / 10 ** decimals : null;

function figures(row: Bucket): IndicatorFigures {
  const n = (v: number | null | undefined) => Number(v ?? 0);
  const moves = n(row.moves);
  return {
    moves_completed: moves,
    moves_per_driver_hour: ratio(moves, n(row.clocked_ms) / HOUR_MS, 2),
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
  const place = new Placement(madridOffsets(range.start, range.end), starts, p);
  const buckets = new Buckets(place);
  await Promise.all([addFacts(buckets, place, range), addClocked(buckets, place, range)]);
  const at = (bucket: 'day' | 'hour' | 'shift' | 'total' | 'previous', k: number) =>
    figures(buckets.get(`${bucket}:${k}`));
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
