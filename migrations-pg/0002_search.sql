-- The searcher (CONTRACT §5) on PostgreSQL: case- and accent-insensitive substring search over a
-- task's trailer, origin, destination and id. torre_fold() folds as the SQLite engine's in-memory index
-- does (accents off, lower case); unaccent() is only STABLE, so the immutable wrapper (with its
-- dictionary named) is what the trigram indexes are built on. Written by hand: drizzle's schema cannot
-- declare expression indexes over a function, so tests/unit/schema-parity.test.ts leaves these out.
CREATE OR REPLACE FUNCTION torre_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS tasks_fold_trailer ON tasks USING gin (torre_fold(trailer_id) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS tasks_fold_origin ON tasks USING gin (torre_fold(origin) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS tasks_fold_destination ON tasks USING gin (torre_fold(destination) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS tasks_fold_id ON tasks USING gin (lower(id) gin_trgm_ops);
