// The searcher (CONTRACT §5) on PostgreSQL: plain SQL over indexes, where SQLite keeps an in-memory index
// (./search.ts). migrations-pg/0002_search.sql made torre_fold(text) = lower(unaccent(text)), the same
// folding as the SQLite index's; 0022 stores the folded origin and destination (origin_fold,
// destination_fold: the index's candidates are checked again as plain text, not folded again per row).
// GIN trigram indexes on those, lower(id) and the plate key (trailer_key, CONTRACT §19: the term's
// plateKey() is what a plate is matched by) answer a substring test written `col LIKE '%' ||
// torre_fold(term) || '%'`, the term folded by the same function as the rows. Two queries per search:
// the page, then every result's trailer position and timeline together.
import { and, desc, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { SearchType } from '@shared/enums';
import { SEARCH_MAX_ROWS } from '@shared/constants';
import type { Task } from '@shared/schemas';
import { query } from '../db';
import { tasks } from '../db/tables';
import { presentJoined, selectTasks } from '../presenters/tasks';
import { plateKey } from '@shared/text';
import type { EventRow, LocationRow } from './search';
import { latestMoveOf, standingSql } from './search-standing';

/** `% _ \` stand for themselves in the term (LIKE … ESCAPE '\'). */
const literal = (term: string): string => term.replace(/[\\%_]/g, '\\$&');

/** The chosen field(s) contain the term, folded; each test is the expression of one trigram index. */
function contains(type: SearchType, term: string): SQL {
  const pattern = literal(term);
  const like = (field: SQL) => sql`${field} LIKE '%' || torre_fold(${pattern}) || '%' ESCAPE '\\'`;
  const key = plateKey(term);
  const field = {
    id: () => like(sql`lower(${tasks.id})`),
    trailer: () => (key ? sql`${tasks.trailerKey} LIKE ${`%${literal(key)}%`} ESCAPE '\\'` : sql`false`),
    origin: () => like(sql.raw('tasks.origin_fold')),
    destination: () => like(sql.raw('tasks.destination_fold')),
  };
  if (type !== 'all') return field[type]();
  return or(field.id(), field.trailer(), field.origin(), field.destination())!;
}

/**
 * The newest SEARCH_MAX_ROWS live tasks created in [from, to) that match (no term: every one). Equal
 * created_at is ordered by id, newest first, so a page is the same on every read.
 */
export async function postgresPage(
  type: SearchType,
  term: string | undefined,
  from: number,
  to: number,
): Promise<Task[]> {
  const rows = await selectTasks()
    .where(
      and(
        isNull(tasks.deletedAt),
        sql`${tasks.createdAt} >= ${from}`,
        sql`${tasks.createdAt} < ${to}`,
        term === undefined ? undefined : contains(type, term),
      ),
    )
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(SEARCH_MAX_ROWS);
  return rows.map(presentJoined);
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
