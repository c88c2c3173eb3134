-- SQLite orders rows stored in the same millisecond by their implicit rowid (the later insert wins: a
-- driver's status, the day's pairs of punches). PostgreSQL has no rowid: this column is the same
-- insertion order under the same name, so the time clock's SQL is one text for both engines. Written
-- by hand, outside the drizzle schema: SQLite's rowid is not in schema.ts either, and the two schemas
-- stay equal (tests/unit/schema-parity.test.ts).
ALTER TABLE punches ADD COLUMN IF NOT EXISTS rowid bigserial NOT NULL;
