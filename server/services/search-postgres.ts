// The searcher (CONTRACT §5) on PostgreSQL: plain SQL over indexes, where SQLite keeps an in-memory index
// (./search.ts). migrations-pg/0002_search.sql made torre_fold(text) = lower(unaccent(text)), the same
// folding as the SQLite index's; 0022 stores the folded origin and destination (origin_fold,
// destination_fold: the index's candidates are checked again as plain text, not folded again per row).
// GIN trigram indexes on those, lower(id) and the plate key (trailer_key, CONTRACT §19: the term's
// plateKey() is what a plate is matched by) answer a substring test written `col LIKE '%' ||
// torre_fold(term) || '%'`, the term folded by the same function as the rows. Two queries per search:
// the page, then every result's trailer position and timeline together.
import type { SearchType } from '@shared/enums';
import { SEARCH_MAX_ROWS } from '@shared/constants';
import type { Task } from '@shared/schemas';
import { query } from '../db';
import { queryTasks } from '../presenters/tasks';
import { plateKey } from '@shared/text';
import type { EventRow, LocationRow } from './search';
import { latestMoveOf, standingSql } from './search-standing';

/** `% _ \` stand for themselves in the term (LIKE … ESCAPE '\'). */
const literal = (term: string): string => term.replace(/[\\%_]/g, '\\$&');

/** A substring test on a folded field, the term folded by the rows' function: one trigram index's expression. */
const like = (field: string) => `${field} LIKE '%' || torre_fold(?) || '%' ESCAPE '\\'`;
const TESTS = {
  id: like('lower(t.id)'),
  trailer: `t.trailer_key LIKE ? ESCAPE '\\'`,
  origin: like('t.origin_fold'),
  destination: like('t.destination_fold'),
};

/**
 * The chosen field(s) contain the term, with its parameters (`?` in order). A term naming no plate
 * matches no trailer. Raw SQL, one text per search type: each runs as a named statement, parsed once
 * per connection, and the page's rows are presented as every other task read's (queryTasks).
 */
function contains(type: SearchType, term: string): { test: string; params: string[] } {
  const pattern = literal(term);
  const key = plateKey(term);
  const field = {
    id: () => ({ test: TESTS.id, params: [pattern] }),
    trailer: () =>
      key ? { test: TESTS.trailer, params: [`%${literal(key)}%`] } : { test: 'false', params: [] },
    origin: () => ({ test: TESTS.origin, params: [pattern] }),
    destination: () => ({ test: TESTS.destination, params: [pattern] }),
  };
  if (type !== 'all') return field[type]();
  const parts = [field.id(), field.trailer(), field.origin(), field.destination()];
  return { test: `(${parts.map((p) => p.test).join(' OR ')})`, params: parts.flatMap((p) => p.params) };
}

/**
 * The newest SEARCH_MAX_ROWS live tasks created in [from, to) that match (no term: every one). Equal
 * created_at is ordered by id, newest first, so a page is the same on every read.
 */
export function postgresPage(
  type: SearchType,
  term: string | undefined,
  from: number,
  to: number,
): Promise<Task[]> {
  const match = term === undefined ? { test: 'true', params: [] } : contains(type, term);
  return queryTasks(
    `WHERE t.deleted_at IS NULL AND t.created_at >= ? AND t.created_at < ? AND ${match.test}
     ORDER BY t.created_at DESC, t.id DESC LIMIT ${SEARCH_MAX_ROWS}`,
    [from, to, ...match.params],
  );
}

// Where each trailer stands (./search.ts standingSql) and the results' histories (task_events_task), as two
// JSON arrays of one row: arrays go in as PostgreSQL arrays.
const EXTRAS_SQL = `
  SELECT
    (SELECT coalesce(json_agg(json_build_object('trailer_key', s.trailer_key, 'place', s.place, 'since', s.since)), '[]')
     FROM (${standingSql('(SELECT unnest(?::text[]) AS trailer_key)', latestMoveOf('k.trailer_key', 'id'))}) AS s) AS locations,
    (SELECT coalesce(json_agg(json_build_object(
              'task_id', e.task_id, 'type', e.type, 'at', e.at, 'actor_name', a.name, 'driver_name', d.name)
              ORDER BY e.task_id, e.at, e.id), '[]')
     FROM task_events e
     LEFT JOIN users a ON a.id = e.actor_id
     LEFT JOIN users d ON d.id = e.driver_id
     WHERE e.task_id = ANY(?::text[])) AS events`;

/** Where the trailers stand and the tasks' history rows in time order. */
export async function postgresExtras(
  trailerKeys: string[],
  taskIds: string[],
): Promise<{ locations: LocationRow[]; events: EventRow[] }> {
  if (!taskIds.length) return { locations: [], events: [] };
  const [row] = await query<{ locations: LocationRow[]; events: EventRow[] }>(EXTRAS_SQL, [
    trailerKeys,
    taskIds,
  ]);
  return row;
}
