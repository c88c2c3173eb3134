// A database of an earlier revision, for the tests of a migration that moves rows: a copy of a migrations
// folder whose journal stops before a given migration (applied with drizzle's migrator, then seeded, then
// upgraded by the server's own start-up path).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect } from 'vitest';
import { postgresAdminQuery, postgresUrl } from './postgres';

/** A test file's scratch: a temporary folder, removed after the file with what `cleanups` holds (last first). */
export interface Scratch {
  tmp: string;
  cleanups: (() => Promise<unknown>)[];
}

export function migrationScratch(prefix: string): Scratch {
  const scratch: Scratch = { tmp: fs.mkdtempSync(path.join(os.tmpdir(), prefix)), cleanups: [] };
  afterAll(async () => {
    for (const fn of scratch.cleanups.reverse()) await fn();
    fs.rmSync(scratch.tmp, { recursive: true, force: true });
  });
  return scratch;
}

/** A new empty PostgreSQL database and a pool on it, both gone after the file. */
export async function scratchPostgres(scratch: Scratch, prefix: string): Promise<pg.Pool> {
  const name = `${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  await postgresAdminQuery(`CREATE DATABASE ${name}`);
  scratch.cleanups.push(() => postgresAdminQuery(`DROP DATABASE IF EXISTS ${name}`));
  const pool = new pg.Pool({ connectionString: await postgresUrl(name) });
  scratch.cleanups.push(() => pool.end());
  return pool;
}

export interface MigrationsBefore {
  /** The copied folder, its journal cut before the migration. */
  folder: string;
  /** How many migrations the upgrade then applies (the one named and those after it). */
  pending: number;
}

/** A copy of `dir` (in `tmp`) whose journal stops before the migration tagged `before`. */
export function migrationsBefore(dir: string, tmp: string, before: string): MigrationsBefore {
  const folder = path.join(tmp, `${path.basename(dir)}-${crypto.randomBytes(3).toString('hex')}`);
  fs.cpSync(dir, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === before);
  expect(at).toBeGreaterThan(0);
  const pending = journal.entries.length - at;
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return { folder, pending };
}
