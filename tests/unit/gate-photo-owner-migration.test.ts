// The migration that lets an API client own a gate photo (SQLite 0022, PostgreSQL 0020
// gate_photo_client_owner): SQLite rebuilds the table, so a database of the revision before holding photos
// keeps every one with its owner (and its attachment); on both engines the new check then takes a photo
// of a user or of a client, never of both or of neither.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { closeDb, MIGRATIONS_DIR, openDb, runMigrations, sqlite } from '../../server/db/sqlite';
import { MIGRATIONS_PG_DIR, migratePostgres } from '../../server/db/migrate-pg';
import { migrationsBefore, migrationScratch, scratchPostgres } from '../helpers/migrations';

const scratch = migrationScratch('torre-photo-owner-mig-');
const { tmp } = scratch;

// The rows of the revision before: a user, an admin's API client and two photos of the user (one attached).
const SEED = [
  `INSERT INTO users (id, email, name, password_hash, role, created_at)
   VALUES ('u1', 'ana@example.com', 'Ana', 'x', 'gestor', 1)`,
  `INSERT INTO api_clients (id, name, name_key, key_hash, key_prefix, scopes, created_by, created_by_name, created_at)
   VALUES ('c1', 'WMS', 'wms', 'h', 'trc_abcdefgh', '["gate:write"]', 'u1', 'Ana', 1)`,
  `INSERT INTO gate_photos (id, owner_id, bytes, width, height, size, created_at, attached_at, attached_to)
   VALUES ('p1', 'u1', 'jpeg', 40, 30, 4, 1000, NULL, NULL),
          ('p2', 'u1', 'jpeg', 40, 30, 4, 2000, 3000, 'visita-1')`,
];

/** A photo of owner (user) and client: the statement the check judges. */
const photoOf = (id: string, owner: string | null, client: string | null) =>
  `INSERT INTO gate_photos (id, owner_id, owner_client_id, bytes, width, height, size, created_at)
   VALUES ('${id}', ${owner ? `'${owner}'` : 'NULL'}, ${client ? `'${client}'` : 'NULL'}, 'jpeg', 1, 1, 4, 1)`;

type Row = Record<string, unknown>;
function expectKept(photos: Row[]): void {
  const num = (v: unknown) => (v === null ? null : Number(v));
  expect(
    photos.map((p) => [
      p.id,
      p.owner_id,
      p.owner_client_id,
      num(p.created_at),
      num(p.attached_at),
      p.attached_to,
    ]),
  ).toEqual([
    ['p1', 'u1', null, 1000, null, null],
    ['p2', 'u1', null, 2000, 3000, 'visita-1'],
  ]);
}

describe('the gate photos’ client owner migration', () => {
  it('rebuilds the SQLite table keeping every photo; one owner, a user or a client', () => {
    const file = path.join(tmp, 'old.db');
    // The server's own connection (its pragmas, foreign keys on, and its SQL functions) at the revision
    // before, then upgraded as at start-up.
    openDb(file);
    try {
      const before = migrationsBefore(MIGRATIONS_DIR, tmp, '0022_gate_photo_client_owner');
      migrateSqlite(drizzleSqlite(sqlite), { migrationsFolder: before.folder });
      for (const statement of SEED) sqlite.prepare(statement).run();
      expect(runMigrations()).toBe(before.pending);
    } finally {
      closeDb();
    }
    const db = new Database(file);
    try {
      expectKept(db.prepare('SELECT * FROM gate_photos ORDER BY id').all() as Row[]);
      db.prepare(photoOf('p3', null, 'c1')).run();
      expect(() => db.prepare(photoOf('p4', 'u1', 'c1')).run()).toThrow(/CHECK constraint failed/);
      expect(() => db.prepare(photoOf('p5', null, null)).run()).toThrow(/CHECK constraint failed/);
      const indexes = db
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'gate_photos'
           AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name`,
        )
        .all();
      expect(indexes).toEqual([
        { name: 'gate_photos_attached' },
        { name: 'gate_photos_created' },
        { name: 'gate_photos_owner' },
        { name: 'gate_photos_owner_client' },
      ]);
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    } finally {
      db.close();
    }
  });

  it(
    'alters the PostgreSQL table keeping every photo; one owner, a user or a client',
    { timeout: 60_000 },
    async () => {
      const pool = await scratchPostgres(scratch, 'torre_photo_owner');
      const client = await pool.connect();
      try {
        await migratePg(drizzlePg({ client }), {
          migrationsFolder: migrationsBefore(MIGRATIONS_PG_DIR, tmp, '0020_gate_photo_client_owner').folder,
        });
        for (const statement of SEED)
          await client.query(statement.replaceAll("'jpeg'", "'\\x6a706567'::bytea"));
      } finally {
        client.release();
      }
      await migratePostgres(pool);
      expectKept((await pool.query('SELECT * FROM gate_photos ORDER BY id')).rows as Row[]);
      const insert = (sql: string) => pool.query(sql.replaceAll("'jpeg'", "'\\x6a706567'::bytea"));
      await insert(photoOf('p3', null, 'c1'));
      await expect(insert(photoOf('p4', 'u1', 'c1'))).rejects.toThrow(/gate_photos_one_owner/);
      await expect(insert(photoOf('p5', null, null))).rejects.toThrow(/gate_photos_one_owner/);
    },
  );
});
