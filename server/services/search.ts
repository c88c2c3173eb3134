// The searcher (CONTRACT §5): case- and accent-insensitive substring over the chosen fields, Madrid
// calendar days on created_at, newest first, capped, deleted tasks left out; each result carries its
// trailer's current position and its history for the timeline.
//
// SQLite cannot fold accents and there is no folded column to index (no schema change), so a rare
// term would mean reading the whole table on every search. Instead the process keeps the searched
// fields of every task already folded, in created_at order (the search index below): a search walks
// it newest first in memory and reads only the page's rows from SQLite, checked again there.
// PostgreSQL folds and indexes in the database (unaccent + pg_trgm): there the searcher is SQL
// (./search-postgres.ts), and the rules and answers are the same.
import type { SearchType } from '@shared/enums';
import { SEARCH_MAX_ROWS } from '@shared/constants';
import type { SearchQuery, SearchTask, Task, TaskTimelineEntry } from '@shared/schemas';
import { madridDayRange } from '@shared/time';
import { fold, plateKey } from '@shared/text';
import { query, session, type Session } from '../db';
import { sqlFor } from '../db/dialect';
import { queryTasks } from '../presenters/tasks';
import { postgresPage } from './search-postgres';

// ---- folding ---------------------------------------------------------------------------------------

// Yard texts repeat (the same docks and plates on thousands of tasks): fold each distinct one once,
// and let the index share one string per distinct value.
const FOLD_MEMO_MAX = 50_000;
function memo(by: (s: string) => string): (s: string) => string {
  const done = new Map<string, string>();
  return (s) => {
    let f = done.get(s);
    if (f === undefined) {
      if (done.size >= FOLD_MEMO_MAX) done.clear();
      f = by(s);
      done.set(s, f);
    }
    return f;
  };
}
const foldMemo = memo(fold);
/** A plate is matched by its key (CONTRACT §19): `r4136` finds `R-4136-FVR`. */
const plateMemo = memo(plateKey);

/** A search term: folded for the texts, as a plate key for the trailer (empty: it names no plate). */
interface Term {
  folded: string;
  key: string;
}
export const searchTerm = (term: string): Term => ({ folded: fold(term), key: plateKey(term) });

/** The searched fields of a task, folded (the trailer: its plate key). `search_type=all` looks in the four. */
interface Fields {
  id: string;
  trailer: string;
  origin: string;
  destination: string;
}
/** Direct property reads: this runs for every task of the range on a rare term. */
function matches(f: Fields, type: SearchType, term: Term): boolean {
  const text = term.folded;
  switch (type) {
    case 'id':
      return f.id.includes(text);
    case 'trailer':
      return term.key !== '' && f.trailer.includes(term.key);
    case 'origin':
      return f.origin.includes(text);
    case 'destination':
      return f.destination.includes(text);
    case 'all':
      return (
        f.id.includes(text) ||
        (term.key !== '' && f.trailer.includes(term.key)) ||
        f.origin.includes(text) ||
        f.destination.includes(text)
      );
  }
}

const foldFields = (r: { id: string; trailer_id: string; origin: string; destination: string }): Fields => ({
  id: r.id.toLowerCase(), // a UUID is ASCII
  trailer: plateMemo(r.trailer_id),
  origin: foldMemo(r.origin),
  destination: foldMemo(r.destination),
});

// ---- the search index -----------------------------------------------------------------------------

interface IndexRow {
  rowid: number;
  id: string;
  trailer_id: string;
  origin: string;
  destination: string;
  created_at: number;
  deleted_at: number | null;
}
interface Entry extends Fields {
  rowid: number;
  createdAt: number;
  deleted: boolean;
}

const COLUMNS = 'rowid, id, trailer_id, origin, destination, created_at, deleted_at';
const NEW_ROWS_SQL = `SELECT ${COLUMNS} FROM tasks WHERE rowid > ? ORDER BY rowid`;
const LAST_EVENT_SQL = 'SELECT coalesce(max(id), 0) AS id FROM task_events';
const CHANGED_ROWS_SQL = `SELECT ${COLUMNS} FROM tasks WHERE id IN (SELECT DISTINCT task_id FROM task_events WHERE id > ? AND id <= ?)`;

/**
 * Every task's folded fields, oldest first. It follows the table without a trigger: tasks are never
 * removed, new ones have higher rowids (stable: nothing VACUUMs), and every change of a task writes
 * a task_events row (CONTRACT §5), so before each search it reads the rows past its last rowid and
 * re-reads the tasks named by the history rows past its last event id. Rows changed some other way
 * are still checked against the table when the page is read, so a stale entry can only hide a task,
 * never show a wrong one.
 *
 * Its reads are committed data (outside a transaction) and await: refreshes run one at a time, and the
 * searches that arrive while one waits to start share it. A change committed between its reads is
 * caught by the next refresh: the last event id is read first, and anything later has a higher one. A
 * search walking the entries across its page reads is not disturbed by a refresh meanwhile: new entries
 * are appended past where it started, and a refresh that must re-sort builds a new array.
 */
class SearchIndex {
  private entries: Entry[] = [];
  private readonly byRowid = new Map<number, Entry>();
  private lastRowid = 0;
  private lastEventId = 0;
  /** The end of the queue of refreshes; the one still waiting to start, which newcomers share. */
  private tail: Promise<void> = Promise.resolve();
  private waiting: Promise<void> | undefined;

  constructor(readonly database: Session) {}

  /** Brings the index up to what is committed now (by the time the returned promise settles). */
  refresh(): Promise<void> {
    if (this.waiting) return this.waiting;
    const next: Promise<void> = this.tail.then(() => {
      // From here on, a newcomer may have committed after this refresh's reads: it queues another.
      if (this.waiting === next) this.waiting = undefined;
      return this.load();
    });
    this.waiting = next;
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<void> {
    const [{ id: upto }] = await query<{ id: number }>(LAST_EVENT_SQL);
    // The first load reads every row as it is now: the history before it has nothing to add.
    const first = this.lastRowid === 0;
    const added: Entry[] = [];
    for (const r of await query<IndexRow>(NEW_ROWS_SQL, [this.lastRowid])) {
      const entry: Entry = Object.assign(foldFields(r), {
        rowid: r.rowid,
        createdAt: r.created_at,
        deleted: r.deleted_at !== null,
      });
      added.push(entry);
      this.byRowid.set(r.rowid, entry);
      this.lastRowid = r.rowid;
    }
    let sorted = true;
    let last = this.entries.at(-1);
    for (const entry of added) {
      if (last && last.createdAt > entry.createdAt) sorted = false;
      last = entry;
    }
    // Tasks mostly arrive in created_at order; one dated earlier than its rowid says is put in place.
    if (sorted) for (const entry of added) this.entries.push(entry);
    else
      this.entries = this.entries
        .concat(added)
        .sort((a, b) => a.createdAt - b.createdAt || a.rowid - b.rowid);
    if (!first && upto > this.lastEventId)
      for (const r of await query<IndexRow>(CHANGED_ROWS_SQL, [this.lastEventId, upto])) {
        const entry = this.byRowid.get(r.rowid);
        if (entry) Object.assign(entry, foldFields(r), { deleted: r.deleted_at !== null });
      }
    this.lastEventId = upto;
  }

  /** Live entries created in [from, to) that match, newest first. */
  *newestMatches(type: SearchType, term: Term | undefined, from: number, to: number): Generator<Entry> {
    const entries = this.entries;
    const stop = firstAtOrAfter(entries, from);
    for (let i = firstAtOrAfter(entries, to) - 1; i >= stop; i--) {
      const e = entries[i];
      if (!e.deleted && (term === undefined || matches(e, type, term))) yield e;
    }
  }
}

/** Index of the first entry created at or after `t`. */
function firstAtOrAfter(entries: Entry[], t: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].createdAt < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index of the open database (told apart by its reader session: searches read outside transactions). */
let index: SearchIndex | undefined;
async function searchIndex(): Promise<SearchIndex> {
  const database = session();
  if (index?.database !== database) index = new SearchIndex(database);
  const current = index;
  await current.refresh();
  return current;
}

// ---- the page --------------------------------------------------------------------------------------

/** The page's live tasks among these rows, newest first. */
const readRows = (rowids: number[]) =>
  queryTasks(
    'WHERE t.rowid IN (SELECT value FROM json_each(?)) AND t.deleted_at IS NULL ORDER BY t.created_at DESC',
    [JSON.stringify(rowids)],
  );

/** The newest SEARCH_MAX_ROWS matching live tasks, each checked against its row as it is now. */
async function findPage(type: SearchType, term: Term | undefined, from: number, to: number): Promise<Task[]> {
  const candidates = (await searchIndex()).newestMatches(type, term, from, to);
  const page: Task[] = [];
  for (;;) {
    const batch: number[] = [];
    for (let next = candidates.next(); !next.done; next = candidates.next()) {
      batch.push(next.value.rowid);
      if (page.length + batch.length === SEARCH_MAX_ROWS) break;
    }
    if (!batch.length) return page;
    for (const task of await readRows(batch))
      if (term === undefined || matches(foldFields(task), type, term)) page.push(task);
    if (page.length === SEARCH_MAX_ROWS) return page;
  }
}

// ---- extras of each result ---------------------------------------------------------------------------

/** Where a trailer stands now (CONTRACT §19 "Where a trailer stands"), and since when; place null: none known. */
interface LocationRow {
  trailer_key: string;
  place: string | null;
  since: number | null;
}
interface EventRow {
  task_id: string;
  type: string;
  at: number;
  actor_name: string | null;
  driver_name: string | null;
}

/**
 * What the engines write differently in these two statements: a list of texts as one parameter (SQLite's
 * JSON array, PostgreSQL's array), and the column a trailer's latest move is told apart by.
 */
const forms = sqlFor({
  sqlite: {
    rows: (column: string) => `(SELECT value AS ${column} FROM json_each(?))`,
    has: (column: string) => `${column} IN (SELECT value FROM json_each(?))`,
    param: (texts: string[]): unknown => JSON.stringify(texts),
    // SQLite: the rowid, its own order.
    moveId: 'rowid',
  },
  postgres: {
    rows: (column: string) => `(SELECT unnest(?::text[]) AS ${column})`,
    has: (column: string) => `${column} = ANY(?::text[])`,
    param: (texts: string[]): unknown => texts,
    moveId: 'id',
  },
});

/**
 * Where each trailer stands (CONTRACT §19): its record's place when it has one; none when a positional event
 * (a gate exit, `leave`) came after its latest completed move (one backward step of tasks_trailer); else
 * that move's place — where it was really left (§20), or its destination's text (a place outside the
 * catalogue).
 */
const LAST_LOCATIONS_SQL = `
  SELECT k.trailer_key,
    CASE WHEN here.name IS NOT NULL THEN here.name
         WHEN r.placed_at IS NOT NULL AND r.placed_at >= coalesce(m.completed_at, 0) THEN NULL
         ELSE coalesce(dropped.name, m.destination) END AS place,
    CASE WHEN here.name IS NOT NULL THEN r.since
         WHEN r.placed_at IS NOT NULL AND r.placed_at >= coalesce(m.completed_at, 0) THEN NULL
         ELSE m.completed_at END AS since
  FROM ${forms.rows('trailer_key')} AS k
  LEFT JOIN trailers r ON r.trailer_key = k.trailer_key
  LEFT JOIN locations here ON here.id = r.location_id
  LEFT JOIN tasks m ON m.${forms.moveId} = (
    SELECT ${forms.moveId} FROM tasks
    WHERE trailer_key = k.trailer_key AND status = 'finalizada' AND completed_at IS NOT NULL AND deleted_at IS NULL
    ORDER BY completed_at DESC LIMIT 1)
  LEFT JOIN locations dropped ON dropped.id = m.dropped_at_location_id`;
const TIMELINE_SQL = `
  SELECT e.task_id, e.type, e.at, a.name AS actor_name, d.name AS driver_name
  FROM task_events e
  LEFT JOIN users a ON a.id = e.actor_id
  LEFT JOIN users d ON d.id = e.driver_id
  WHERE ${forms.has('e.task_id')}
  ORDER BY e.task_id, e.at, e.id`;

/**
 * Where each trailer stands now and the tasks' history rows in time order, one statement
 * each (a statement per trailer cost a quarter of the search's time in awaits and garbage). Plain rows on
 * both engines: PostgreSQL building them as one JSON value cost it three times the rows' time.
 */
async function extras(
  trailerKeys: string[],
  taskIds: string[],
): Promise<{ locations: LocationRow[]; events: EventRow[] }> {
  const [locations, events] = await Promise.all([
    trailerKeys.length ? query<LocationRow>(LAST_LOCATIONS_SQL, [forms.param(trailerKeys)]) : [],
    taskIds.length ? query<EventRow>(TIMELINE_SQL, [forms.param(taskIds)]) : [],
  ]);
  return { locations, events };
}

const page = sqlFor({
  sqlite: (type: SearchType, term: string | undefined, from: number, to: number) =>
    findPage(type, term === undefined ? undefined : searchTerm(term), from, to),
  // The term goes to PostgreSQL as typed: it folds it with the function its indexes were built with.
  postgres: postgresPage,
});

// ---- entry point -------------------------------------------------------------------------------------

export async function searchTasks(q: SearchQuery): Promise<SearchTask[]> {
  const from = q.date_from ? madridDayRange(q.date_from).start : 0;
  const to = q.date_to ? madridDayRange(q.date_to).end : Number.MAX_SAFE_INTEGER;
  const found = await page(q.search_type, q.query, from, to);
  // Each result's plate key once (a page repeats its trailers).
  const keys = found.map((t) => plateMemo(t.trailer_id));

  const { locations, events } = await extras(
    [...new Set(keys)],
    found.map((t) => t.id),
  );
  const location = new Map(locations.map((l) => [l.trailer_key, l]));
  const history = new Map<string, TaskTimelineEntry[]>(found.map((t) => [t.id, []]));
  for (const e of events)
    history.get(e.task_id)?.push({
      type: e.type,
      at: new Date(e.at).toISOString(),
      actor_name: e.actor_name,
      driver_name: e.driver_name,
    });
  // The page's rows are this request's own objects: completed in place, not copied (500 wide rows).
  return found.map((task, i) => {
    const at = location.get(keys[i]);
    return Object.assign(task, {
      trailer_last_location: at?.place ?? null,
      trailer_last_location_at:
        at?.place && at.since !== null ? new Date(Number(at.since)).toISOString() : null,
      timeline: history.get(task.id) ?? [],
    });
  });
}
