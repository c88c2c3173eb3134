// A fresh PostgreSQL database per test in the `server-pg` project: a copy of the run's migrated template
// (CREATE DATABASE … TEMPLATE), the previous test's copy dropped. The cluster belongs to the run
// (tests/helpers/postgres-global.ts); its maintenance database's URL is in DATABASE_URL until a test
// opens its own.
import crypto from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

const TEMPLATE = 'torre_template';
let admin: pg.Pool | undefined;
let previous: string | undefined;

const adminUrl = () => inject('postgresAdminUrl');

function adminPool(): pg.Pool {
  if (!admin) {
    admin = new pg.Pool({ connectionString: adminUrl(), max: 1 });
    admin.on('error', () => {});
  }
  return admin;
}

/** A new migrated database; resolves with its URL. Drops the one handed out before (closed by then). */
export async function freshPostgresDatabaseUrl(): Promise<string> {
  const pool = adminPool();
  if (previous) await pool.query(`DROP DATABASE IF EXISTS ${previous} WITH (FORCE)`);
  const name = `t_${process.pid}_${crypto.randomBytes(5).toString('hex')}`;
  await pool.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
  previous = name;
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
