// A section's database on the engine this process runs on (the bench's engine processes get DATABASE_URL
// before anything loads server code: server/db/engine.ts). SQLite: a file in the section's temporary
// folder. PostgreSQL: a new database of the bench's cluster (CREATE DATABASE, DROPped at the end), the
// cluster's maintenance database being this process's DATABASE_URL. The bench's own writes (a generated
// yard, bench accounts, the final count) go through the server's database layer, opened on it for the
// moment (openDb/runMigrations or openPostgres), so they are the same code on both engines.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { isPostgres } from '../../server/db/engine';
import type { EngineName } from './sections';

export const ENGINE: EngineName = isPostgres ? 'postgres' : 'sqlite';

export interface BenchDatabase {
  /** What a server process over this database needs in its environment. */
  env: NodeJS.ProcessEnv;
  /** Runs `fn` with the server's database layer open on this database (migrated), closed after. */
  use<T>(fn: () => Promise<T>): Promise<T>;
  /** A copy of this database as it is now (nothing may have it open), for another server. */
  copy(tag: string): Promise<BenchDatabase>;
  drop(): Promise<void>;
}

let admin: pg.Pool | undefined;

/** The bench cluster's maintenance database (CREATE/DROP DATABASE …). */
function adminPool(): pg.Pool {
  if (!admin) {
    admin = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    admin.on('error', () => {});
  }
  return admin;
}

/** Closes what the PostgreSQL databases needed (at the end of the engine process). */
export async function closeDatabases(): Promise<void> {
  await admin?.end();
  admin = undefined;
}

function sqliteDatabase(file: string): BenchDatabase {
  return {
    env: { DB_PATH: file },
    async use(fn) {
      const { closeDb, openDb, runMigrations } = await import('../../server/db');
      openDb(file);
      try {
        runMigrations();
        return await fn();
      } finally {
        closeDb();
      }
    },
    async copy(tag) {
      const to = path.join(path.dirname(file), `${tag}.db`);
      fs.copyFileSync(file, to);
      return sqliteDatabase(to);
    },
    async drop() {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    },
  };
}

async function postgresDatabase(dir: string, tag: string, template?: string): Promise<BenchDatabase> {
  const name = `bench_${tag.replace(/\W/g, '_')}_${crypto.randomBytes(4).toString('hex')}`;
  // A template must have no connection left: PostgreSQL waits up to 5 s for the ones closing.
  await adminPool().query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    // DB_PATH too, in the section's folder: nothing of the server's may land in ./data.
    env: { DATABASE_URL: url.toString(), DB_PATH: path.join(dir, `${tag}.db`) },
    async use(fn) {
      const { closePostgres, openPostgres } = await import('../../server/db/postgres');
      await openPostgres(url.toString());
      try {
        return await fn();
      } finally {
        await closePostgres();
      }
    },
    copy: (copyTag) => postgresDatabase(dir, copyTag, name),
    async drop() {
      await adminPool().query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** A new, empty database for a section (`dir`: the section's temporary folder). */
export function createDatabase(dir: string, tag: string): Promise<BenchDatabase> {
  return isPostgres
    ? postgresDatabase(dir, tag)
    : Promise.resolve(sqliteDatabase(path.join(dir, `${tag}.db`)));
}
