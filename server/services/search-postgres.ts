// The searcher (CONTRACT §5) on PostgreSQL: plain SQL over indexes, where SQLite keeps an in-memory index
// (./search.ts). migrations-pg/0002_search.sql made torre_fold(text) = lower(unaccent(text)), the same
// folding as the SQLite index's; 0022 stores the folded origin and destination (origin_fold,
// destination_fold: the index's candidates are checked again as plain text, not folded again per row).
// GIN trigram indexes on those, lower(id) and the plate key (trailer_key, CONTRACT §19: the term's
// plateKey() is what a plate is matched by) answer a substring test written `col LIKE '%' ||
// torre_fold(term) || '%'`, the term folded by the same function as the rows. This module reads the page;
// the results' trailer positions and timelines are read as on SQLite (./search.ts).
import type { SearchType } from '@shared/enums';
import { SEARCH_MAX_ROWS } from '@shared/constants';
import type { Task } from '@shared/schemas';
import { queryTasks } from '../presenters/tasks';
import { fold, plateKey } from '@shared/text';

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

/** pg_trgm's index finds a substring only through its trigrams: a pattern of 3 characters or more. */
const TRIGRAM = 3;

/** Every field the search looks in can be searched through its trigram index (a term naming no plate: no field). */
function indexable(type: SearchType, term: string): boolean {
  const text = fold(term).length >= TRIGRAM;
  const key = plateKey(term).length;
  if (type === 'trailer') return key >= TRIGRAM;
  if (type === 'all') return text && (key === 0 || key >= TRIGRAM);
  return text;
}

/**
 * The newest SEARCH_MAX_ROWS live tasks created in [from, to) that match (no term: every one). Equal
 * created_at is ordered by id, newest first, so a page is the same on every read.
 *
 * A term the trigram indexes can find: its matches are gathered through them and only their ids are
 * sorted (`created_at + 0`: not along tasks_created, which PostgreSQL would otherwise walk backwards
 * testing every task until 500 match — 17,000 rows for a common word), then the page's rows are read
 * whole: half the time of the plain query for "muelle" over 100,000 tasks. A shorter term, or none,
 * has no index to go through: the walk along tasks_created stops at the 500th match.
 */
export function postgresPage(
  type: SearchType,
  term: string | undefined,
  from: number,
  to: number,
): Promise<Task[]> {
  const match = term === undefined ? { test: 'true', params: [] } : contains(type, term);
  if (term !== undefined && indexable(type, term))
    return queryTasks(
      `WHERE t.id = ANY(ARRAY(
         SELECT t.id FROM tasks t
         WHERE t.deleted_at IS NULL AND t.created_at >= ? AND t.created_at < ? AND ${match.test}
         ORDER BY t.created_at + 0 DESC, t.id DESC LIMIT ${SEARCH_MAX_ROWS}))
       ORDER BY t.created_at DESC, t.id DESC`,
      [from, to, ...match.params],
    );
  return queryTasks(
    `WHERE t.deleted_at IS NULL AND t.created_at >= ? AND t.created_at < ? AND ${match.test}
     ORDER BY t.created_at DESC, t.id DESC LIMIT ${SEARCH_MAX_ROWS}`,
    [from, to, ...match.params],
  );
}
