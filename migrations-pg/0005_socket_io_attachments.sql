-- The table of @socket.io/postgres-adapter (server/realtime/cluster.ts): a message between nodes over
-- NOTIFY's 8,000-byte limit (a board's worth of tasks, say) is stored here and its id notified; the
-- adapter removes rows older than its cleanup interval. Written by hand: the adapter's own table, kept
-- out of the drizzle schemas (PostgreSQL only; SQLite runs one process and needs no adapter).
CREATE TABLE IF NOT EXISTS socket_io_attachments (
	id bigserial UNIQUE,
	created_at timestamptz DEFAULT NOW(),
	payload bytea
);
