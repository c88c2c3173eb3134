// The searcher (CONTRACT §5): case- and accent-insensitive substring over the chosen fields, Madrid
// calendar days on created_at, newest first, capped, deleted tasks left out; each result carries its
// trailer's current position and its history for the timeline.
import { desc, sql } from 'drizzle-orm';
import type Database from 'better-sqlite3';
import { SEARCH_TYPES, type SearchType } from '@shared/enums';
import { SEARCH_MAX_ROWS } from '@shared/constants';
import type { SearchQuery, SearchTask, Task, TaskTimelineEntry } from '@shared/schemas';
import { madridDayRange } from '@shared/time';
import { sqlite } from '../db';
import { tasks } from '../db/schema';
import { presentJoined, selectTasks } from '../presenters/tasks';

// ---- folding ---------------------------------------------------------------------------------------

/** Lower case without diacritics: 'Camión' → 'camion', 'MUELLE' → 'muelle'. */
const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

// Yard texts repeat (the same docks and plates on thousands of tasks): fold each distinct one once.
const folded = new Map<string, string>();
const FOLD_MEMO_MAX = 20_000;
function foldMemo(s: string): string {
  let f = folded.get(s);
  if (f === undefined) {
    if (folded.size >= FOLD_MEMO_MAX) folded.clear();
    f = fold(s);
    folded.set(s, f);
  }
  return f;
}

const registered = new WeakSet<Database.Database>();
/** `fold_has(text, q)`: 1 when fold(text) contains q (already folded). Registered once per connection. */
function registerFoldHas(conn: Database.Database): void {
  if (registered.has(conn)) return;
  conn.function('fold_has', { deterministic: true }, (text: unknown, q: unknown) =>
    typeof text === 'string' && typeof q === 'string' && foldMemo(text).includes(q) ? 1 : 0,
  );
  registered.add(conn);
}

/**
 * A field matches the folded term. SQLite's LIKE already ignores ASCII case in C, so an all-ASCII
 * value is decided there; only a value holding other characters (length in characters ≠ length in
 * bytes) calls the JavaScript fold.
 */
const like = (col: string) => `${col} LIKE @like ESCAPE '\\'`;
const matches = (col: string) =>
  `(${like(col)} OR (length(${col}) <> octet_length(${col}) AND fold_has(${col}, @q)))`;

const FILTERS: Record<Exclude<SearchType, 'all'>, string> = {
  // A UUID is ASCII by construction: LIKE alone decides, which saves a test per row of a scan.
  id: like('id'),
  trailer: matches('trailer_id'),
  origin: matches('origin'),
  destination: matches('destination'),
};
const predicate = (type: SearchType) =>
  type === 'all' ? `(${Object.values(FILTERS).join(' OR ')})` : FILTERS[type];
/** id and trailer_id have their own indexes: a scan of those is a tenth of a scan of the table. */
const INDEXED_TYPES: SearchType[] = ['id', 'trailer'];

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

// ---- the query -------------------------------------------------------------------------------------
//
// Two phases keep both kinds of search fast over a long history (docs/REPORTS.md):
// 1. walk the newest RECENT_SLICE tasks of the range by the tasks_created index, newest first: a
//    frequent term ("muelle") fills the page there and stops;
// 2. only if the page is not full, scan the older rest once (the id or trailer index when the
//    field has one, else the table) and keep the newest matches.
// Both phases return rowids; the page is read with the names joined at the end.

export const RECENT_SLICE = 5_000;

const BOUND_SQL = `SELECT created_at FROM tasks WHERE created_at < @to ORDER BY created_at DESC LIMIT 1 OFFSET @offset`;
const recentSql = (where: string) => `
  SELECT rowid FROM tasks
  WHERE created_at >= @from AND created_at < @to AND deleted_at IS NULL${where ? ` AND ${where}` : ''}
  ORDER BY created_at DESC LIMIT @limit`;
const olderSql = (type: SearchType) =>
  INDEXED_TYPES.includes(type)
    ? `SELECT t.rowid FROM tasks t
       WHERE t.rowid IN (SELECT rowid FROM tasks WHERE ${predicate(type)})
         AND t.created_at >= @from AND t.created_at < @to AND t.deleted_at IS NULL
       ORDER BY t.created_at DESC LIMIT @limit`
    : `SELECT rowid FROM tasks NOT INDEXED
       WHERE created_at >= @from AND created_at < @to AND deleted_at IS NULL AND ${predicate(type)}
       ORDER BY created_at DESC LIMIT @limit`;

interface Stmts {
  bound: Database.Statement;
  all: Database.Statement;
  recent: Map<SearchType, Database.Statement>;
  older: Map<SearchType, Database.Statement>;
}
let stmts: { conn: Database.Database; s: Stmts } | undefined;
function statements(): Stmts {
  if (stmts?.conn !== sqlite) {
    registerFoldHas(sqlite);
    const each = (sqlOf: (t: SearchType) => string) =>
      new Map(SEARCH_TYPES.map((t) => [t, sqlite.prepare(sqlOf(t)).pluck()]));
    stmts = {
      conn: sqlite,
      s: {
        bound: sqlite.prepare(BOUND_SQL).pluck(),
        all: sqlite.prepare(recentSql('')).pluck(),
        recent: each((t) => recentSql(predicate(t))),
        older: each(olderSql),
      },
    };
  }
  return stmts.s;
}

/** Rowids of the page: newest created_at first, at most SEARCH_MAX_ROWS. */
function findRowids(type: SearchType, term: string | undefined, from: number, to: number): number[] {
  const s = statements();
  const limit = SEARCH_MAX_ROWS;
  if (term === undefined) return s.all.all({ from, to, limit }) as number[];
  const params = { like: `%${escapeLike(term)}%`, q: term };
  const bound = s.bound.get({ to, offset: RECENT_SLICE - 1 }) as number | undefined;
  const split = bound === undefined ? from : Math.max(from, bound);
  const found = s.recent.get(type)!.all({ ...params, from: split, to, limit }) as number[];
  if (found.length < limit && split > from)
    found.push(
      ...(s.older.get(type)!.all({ ...params, from, to: split, limit: limit - found.length }) as number[]),
    );
  return found;
}

function readPage(rowids: number[]): Task[] {
  if (!rowids.length) return [];
  return selectTasks()
    .where(sql`${tasks}.rowid IN (SELECT value FROM json_each(${JSON.stringify(rowids)}))`)
    .orderBy(desc(tasks.createdAt))
    .all()
    .map(presentJoined);
}

// ---- extras of each result ---------------------------------------------------------------------------

interface LocationRow {
  destination: string;
  completed_at: number;
}
interface EventRow {
  task_id: string;
  type: string;
  at: number;
  actor_name: string | null;
  driver_name: string | null;
}

const LAST_LOCATION_SQL = `
  SELECT destination, completed_at FROM tasks
  WHERE trailer_id = ? AND status = 'finalizada' AND completed_at IS NOT NULL AND deleted_at IS NULL
  ORDER BY completed_at DESC LIMIT 1`;
const TIMELINE_SQL = `
  SELECT e.task_id, e.type, e.at, a.name AS actor_name, d.name AS driver_name
  FROM task_events e
  LEFT JOIN users a ON a.id = e.actor_id
  LEFT JOIN users d ON d.id = e.driver_id
  WHERE e.task_id IN (SELECT value FROM json_each(?))
  ORDER BY e.task_id, e.at, e.id`;

let extras:
  { conn: Database.Database; location: Database.Statement; timeline: Database.Statement } | undefined;
function extraStatements() {
  if (extras?.conn !== sqlite)
    extras = {
      conn: sqlite,
      location: sqlite.prepare(LAST_LOCATION_SQL),
      timeline: sqlite.prepare(TIMELINE_SQL),
    };
  return extras;
}

/** Where a trailer is now: the destination and time of its latest completed move (none → nulls). */
function trailerLocations(trailerIds: string[]): Map<string, LocationRow | undefined> {
  const { location } = extraStatements();
  return new Map(trailerIds.map((id) => [id, location.get(id) as LocationRow | undefined]));
}

function timelines(taskIds: string[]): Map<string, TaskTimelineEntry[]> {
  const byTask = new Map<string, TaskTimelineEntry[]>(taskIds.map((id) => [id, []]));
  if (!taskIds.length) return byTask;
  for (const e of extraStatements().timeline.all(JSON.stringify(taskIds)) as EventRow[])
    byTask.get(e.task_id)?.push({
      type: e.type,
      at: new Date(e.at).toISOString(),
      actor_name: e.actor_name,
      driver_name: e.driver_name,
    });
  return byTask;
}

// ---- entry point -------------------------------------------------------------------------------------

export function searchTasks(q: SearchQuery): SearchTask[] {
  const from = q.date_from ? madridDayRange(q.date_from).start : 0;
  const to = q.date_to ? madridDayRange(q.date_to).end : Number.MAX_SAFE_INTEGER;
  const term = q.query === undefined ? undefined : fold(q.query);
  const found = readPage(findRowids(q.search_type, term, from, to));

  const locations = trailerLocations([...new Set(found.map((t) => t.trailer_id))]);
  const history = timelines(found.map((t) => t.id));
  return found.map((task) => {
    const at = locations.get(task.trailer_id);
    return {
      ...task,
      trailer_last_location: at?.destination ?? null,
      trailer_last_location_at: at ? new Date(at.completed_at).toISOString() : null,
      timeline: history.get(task.id) ?? [],
    };
  });
}
