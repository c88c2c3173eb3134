// The migration that keyed the trailers (issue 27, CONTRACT §19; docs/GATE.md › Plate identity), on both
// engines, over a database of the revision before it holding clashing rows: every task gets its plate key;
// two open tasks that become one trailer both stay; every trailer seen gets its record with its first
// spelling; of two positions that become one trailer the later wins; a trailer marked gone stays gone.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { closeDb, MIGRATIONS_DIR, openDb, runMigrations } from '../../server/db/sqlite';
import { MIGRATIONS_PG_DIR, migratePostgres } from '../../server/db/migrate-pg';
import { migrationsBefore, migrationScratch, scratchPostgres } from '../helpers/migrations';

const scratch = migrationScratch('torre-trailer-mig-');
const { tmp } = scratch;

// The rows of the revision before (trailer_positions, tasks without a key), as both engines take them.
const SEED = [
  `INSERT INTO locations (id, code, name, name_key, kind, zone, capacity, x, y, created_at, updated_at)
   VALUES ('l1', 'CA-1', 'Campa A-1', 'campa a-1', 'campa', 'A', 2, 0, 0, 1, 1),
          ('l2', 'CA-2', 'Campa A-2', 'campa a-2', 'campa', 'A', 2, 0, 0, 1, 1)`,
  `INSERT INTO tasks (id, title, origin, destination, trailer_id, status, created_at, updated_at, status_since)
   VALUES ('t1', 'Mover', 'A', 'B', 'R-4136-FVR', 'bolsa_trabajo', 1000, 1000, 1000),
          ('t2', 'Mover', 'A', 'B', 'R4136FVR', 'en_proceso', 2000, 2000, 2000),
          ('t3', 'Mover', 'A', 'B', 'Á-1', 'finalizada', 500, 500, 500)`,
  `INSERT INTO trailer_positions (trailer_id, location_id, since, task_id, left_at)
   VALUES ('R-4136-FVR', 'l1', 100, NULL, NULL),
          ('R 4136 FVR', 'l2', 200, 't9', NULL),
          ('X-1', NULL, 50, NULL, 300)`,
];

type Row = Record<string, unknown>;
function expectMigrated(tasks: Row[], trailers: Row[]): void {
  expect(tasks.map((t) => [t.id, t.trailer_id, t.trailer_key, t.status])).toEqual([
    ['t1', 'R-4136-FVR', 'R4136FVR', 'bolsa_trabajo'],
    ['t2', 'R4136FVR', 'R4136FVR', 'en_proceso'],
    ['t3', 'Á-1', 'A1', 'finalizada'],
  ]);
  const num = (v: unknown) => (v === null ? null : Number(v));
  expect(
    trailers.map((t) => [
      t.trailer_key,
      t.trailer_id,
      t.location_id,
      num(t.since),
      t.task_id,
      num(t.placed_at),
    ]),
  ).toEqual([
    ['A1', 'Á-1', null, null, null, null],
    ['R4136FVR', 'R-4136-FVR', 'l2', 200, 't9', null],
    ['X1', 'X-1', null, null, null, 300],
  ]);
  expect(
    trailers.every((t) => t.kind === 'otro' && t.load_state === 'desconocido' && Number(t.version) === 1),
  ).toBe(true);
}

describe('the trailers migration', () => {
  it('re-keys a SQLite database with clashing rows', () => {
    const file = path.join(tmp, 'old.db');
    const old = new Database(file);
    const before = migrationsBefore(MIGRATIONS_DIR, tmp, '0011_trailers');
    migrateSqlite(drizzleSqlite(old), { migrationsFolder: before.folder });
    for (const statement of SEED) old.prepare(statement).run();
    old.close();

    openDb(file);
    try {
      expect(runMigrations()).toBe(before.pending);
    } finally {
      closeDb();
    }
    const db = new Database(file, { readonly: true });
    try {
      expectMigrated(
        db.prepare('SELECT * FROM tasks ORDER BY id').all() as Row[],
        db.prepare('SELECT * FROM trailers ORDER BY trailer_key').all() as Row[],
      );
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'trailer_positions'").all()).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('re-keys a PostgreSQL database with clashing rows', { timeout: 60_000 }, async () => {
    const pool = await scratchPostgres(scratch, 'torre_trailers');
    const client = await pool.connect();
    try {
      await migratePg(drizzlePg({ client }), {
        migrationsFolder: migrationsBefore(MIGRATIONS_PG_DIR, tmp, '0009_trailers').folder,
      });
      for (const statement of SEED) await client.query(statement);
    } finally {
      client.release();
    }
    await migratePostgres(pool);
    const q = async (text: string) => (await pool.query(text)).rows as Row[];
    expectMigrated(
      await q('SELECT * FROM tasks ORDER BY id'),
      await q('SELECT * FROM trailers ORDER BY trailer_key'),
    );
    expect(await q("SELECT to_regclass('trailer_positions') AS t")).toEqual([{ t: null }]);
    expect(await q("SELECT torre_plate_key('r 4136-fvr.') AS k")).toEqual([{ k: 'R4136FVR' }]);
  });
});
