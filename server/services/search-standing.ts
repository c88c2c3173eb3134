// The searcher's `trailer_last_location` (CONTRACT §5) on both engines: one SQL text, two ways of listing the
// trailers (./search.ts for SQLite, ./search-postgres.ts for PostgreSQL).

/**
 * Where each trailer stands (CONTRACT §19): its record's place when it has one; none when a positional event
 * (a gate exit, `leave`) came after its latest completed move; else that move's place — where it was really
 * left (§20), or its destination's text (a place outside the catalogue). `keys`: a subquery of one column,
 * `trailer_key`.
 */
export const standingSql = (keys: string, latestMove: string) => `
  SELECT k.trailer_key,
    CASE WHEN here.name IS NOT NULL THEN here.name
         WHEN r.placed_at IS NOT NULL AND r.placed_at >= coalesce(m.completed_at, 0) THEN NULL
         ELSE coalesce(dropped.name, m.destination) END AS place,
    CASE WHEN here.name IS NOT NULL THEN r.since
         WHEN r.placed_at IS NOT NULL AND r.placed_at >= coalesce(m.completed_at, 0) THEN NULL
         ELSE m.completed_at END AS since
  FROM ${keys} AS k
  LEFT JOIN trailers r ON r.trailer_key = k.trailer_key
  LEFT JOIN locations here ON here.id = r.location_id
  LEFT JOIN tasks m ON ${latestMove}
  LEFT JOIN locations dropped ON dropped.id = m.dropped_at_location_id`;
/** A trailer's latest completed move, for standingSql: one backward step of tasks_trailer. */
export const latestMoveOf = (key: string, id: string) => `m.${id} = (
    SELECT ${id} FROM tasks
    WHERE trailer_key = ${key} AND status = 'finalizada' AND completed_at IS NOT NULL AND deleted_at IS NULL
    ORDER BY completed_at DESC LIMIT 1)`;
