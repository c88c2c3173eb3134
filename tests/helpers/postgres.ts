// Real PostgreSQL for tests, from the npm registry (scripts/postgres/embedded.ts; ENVIRONMENT.md): one
// cluster per test process, started on first use without durability (fsync off: the data is thrown
// away), with a template database migrated once; every test file (or test) takes a fresh database copied
// from it (CREATE DATABASE … TEMPLATE, tens of milliseconds). The cluster is stopped, and its data
// directory removed, when the process ends however it ends (embedded.ts: exit handler and watchdog).
import crypto from 'node:crypto';
import pg from 'pg';
import { migratePostgres } from '../../server/db/migrate-pg';
import { startEmbeddedPostgres, type EmbeddedCluster } from '../../scripts/postgres/embedded';

const TEMPLATE = 'torre_template';

/** How long the last start took, in milliseconds (initdb and server start, template migrated). */
export const postgresStartTimings = { start: 0, template: 0, total: 0 };

let starting: Promise<EmbeddedCluster> | undefined;
let running: EmbeddedCluster | undefined;

async function startCluster(): Promise<EmbeddedCluster> {
  const t0 = performance.now();
  const c = await startEmbeddedPostgres({ durability: 'throwaway', password: 'torre-test' });
  const t1 = performance.now();
  try {
    await c.admin.query(`CREATE DATABASE ${TEMPLATE}`);
    const tpl = new pg.Pool({ connectionString: c.url(TEMPLATE), max: 1 });
    try {
      await migratePostgres(tpl);
    } finally {
      await tpl.end(); // a template must have no connections when it is copied
    }
  } catch (err) {
    await c.stop();
    throw err;
  }
  const t2 = performance.now();
  Object.assign(postgresStartTimings, {
    start: Math.round(t1 - t0),
    template: Math.round(t2 - t1),
    total: Math.round(t2 - t0),
  });
  running = c;
  return c;
}

function cluster(): Promise<EmbeddedCluster> {
  starting ??= startCluster().catch((err) => {
    starting = undefined;
    throw err;
  });
  return starting;
}

/** The URL of a database of the test cluster (starting it if needed); for tests that create their own. */
export async function postgresUrl(database: string): Promise<string> {
  return (await cluster()).url(database);
}

/** Runs a statement on the cluster's maintenance database (CREATE/DROP DATABASE …). */
export async function postgresAdminQuery(text: string): Promise<pg.QueryResult> {
  return (await cluster()).admin.query(text);
}

/** A new database with every migration applied (a copy of the template), and its pool. */
export async function freshPostgresDatabase(): Promise<{
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}> {
  const c = await cluster();
  const name = `torre_${crypto.randomBytes(6).toString('hex')}`;
  await c.admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
  const url = c.url(name);
  const pool = new pg.Pool({ connectionString: url });
  let dropped = false;
  // pool.end() resolves before its connections have closed, so the DROP below (or the cluster stopping)
  // may still end one of them: expected then. Before that, an idle connection's error is the test's.
  pool.on('error', (err) => {
    if (!dropped && c.running) throw err;
  });
  return {
    url,
    pool,
    async drop() {
      if (dropped) return;
      dropped = true;
      await pool.end();
      if (c.running) await c.admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Stops the cluster now and removes its files (otherwise that happens when the process exits). */
export async function stopPostgres(): Promise<void> {
  const pending = starting;
  starting = undefined;
  running = undefined;
  if (!pending) return;
  const c = await pending.catch(() => undefined);
  await c?.stop();
}

/** For a test that checks the cleanup: the running cluster's postmaster pid and data directory. */
export function postgresProcessInfo(): { pid: number; dir: string } | undefined {
  return running?.running ? { pid: running.pid, dir: running.dir } : undefined;
}
