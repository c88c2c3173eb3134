-- The searcher on PostgreSQL (0002_search): a trigram index only narrows the rows down, every row it
-- gives is checked again with the query's own test, and torre_fold() (unaccent's dictionary, per call)
-- was that test's cost: ~10 µs a call, two or three calls per candidate row, most of a 100 ms search for
-- a common word over 100,000 tasks. The folded origin and destination are now stored columns, computed
-- once per write (the indexes computed them already), indexed and checked as plain text. Written by hand,
-- as 0002: drizzle's schema does not declare them (the server never reads or writes them itself).
ALTER TABLE tasks ADD COLUMN IF NOT EXISTS origin_fold text GENERATED ALWAYS AS (torre_fold(origin)) STORED;--> statement-breakpoint
ALTER TABLE tasks ADD COLUMN IF NOT EXISTS destination_fold text GENERATED ALWAYS AS (torre_fold(destination)) STORED;--> statement-breakpoint
DROP INDEX IF EXISTS tasks_fold_origin;--> statement-breakpoint
DROP INDEX IF EXISTS tasks_fold_destination;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS tasks_fold_origin ON tasks USING gin (origin_fold gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS tasks_fold_destination ON tasks USING gin (destination_fold gin_trgm_ops);
