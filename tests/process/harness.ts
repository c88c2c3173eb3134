// The real server (`node --import tsx server/index.ts`) in a child process, as an operator runs it:
// configured by the environment, on a free port (PORT=0; the port is read from its "lista en" line),
// its database in a temporary folder. With `prelude`, it runs inside a mount namespace of its own
// (`unshare -m`, root only), where the test can mount a small tmpfs or a read-only bind over the data
// folder without touching the host: the mounts vanish with the process. Every process and folder is
// registered and removed by cleanup(), whatever the test's outcome.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const ADMIN = { email: 'jefa@proceso.test', password: 'clave-de-proceso-1234' };
const NODE = [process.execPath, '--import', 'tsx', 'server/index.ts'];

/** Mount namespaces need Linux, root and util-linux's unshare/nsenter. */
export const canUseMountNamespace: boolean =
  process.platform === 'linux' &&
  process.getuid?.() === 0 &&
  spawnSync('unshare', ['-m', 'true']).status === 0 &&
  spawnSync('nsenter', ['--version']).status === 0;

const children = new Set<ChildProcess>();
const dirs = new Set<string>();

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `torre-${prefix}-`));
  dirs.add(dir);
  return dir;
}

/** Kills every server still running (their namespaces and mounts go with them) and removes the folders. */
export async function cleanup(): Promise<void> {
  await Promise.all([...children].map((c) => stop(c)));
  for (const dir of dirs) {
    fs.chmodSync(dir, 0o755);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  dirs.clear();
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  /** http://127.0.0.1:<port> */
  url: string;
  exited: Promise<Exit>;
  stdout: () => string;
  stderr: () => string;
}

export interface SpawnOptions {
  /** Extra environment (DB_PATH at least); PORT=0, HOST, LOG_LEVEL=silent, BCRYPT_COST=4 and ADMIN by default. */
  env: Record<string, string | undefined>;
  /** Bash run as root inside a new mount namespace before the server starts there (`exec`). */
  prelude?: string;
  /**
   * Run without the capabilities that let root ignore file modes (util-linux's setpriv): the server's user
   * is then stopped by a mode as any user is. Not another user: one who could not reach the checkout (a
   * clone in a 0700 folder) would fail before the server runs.
   */
  obeyFileModes?: boolean;
}

/** setpriv's arguments that drop root's file-mode overrides from the process and whatever it runs. */
const OBEY_FILE_MODES = [
  '--inh-caps=-dac_override,-dac_read_search',
  '--bounding-set=-dac_override,-dac_read_search',
];

function spawnServer(opts: SpawnOptions) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    BCRYPT_COST: '4',
    SERVE_CLIENT: '0',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...opts.env,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
  // unshare and bash both exec: the pid is the server's, the one nsenter and kill must reach.
  const child = opts.prelude
    ? spawn(
        'unshare',
        [
          '-m',
          '--propagation',
          'private',
          'bash',
          '-c',
          `set -e; ${opts.prelude}; exec "$@"`,
          'bash',
          ...NODE,
        ],
        { cwd: ROOT, env, stdio },
      )
    : opts.obeyFileModes
      ? spawn('setpriv', [...OBEY_FILE_MODES, ...NODE], { cwd: ROOT, env, stdio })
      : spawn(NODE[0], NODE.slice(1), { cwd: ROOT, env, stdio });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, exited, stdout: () => out, stderr: () => err };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

/** Starts the server and resolves once it listens; rejects with its stderr if it exits first. */
export async function startServer(opts: SpawnOptions): Promise<ServerProcess> {
  const proc = spawnServer(opts);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const m = /lista en (https?):\/\/localhost:(\d+)/.exec(proc.stdout());
    if (m) return { ...proc, pid: proc.child.pid!, url: `${m[1]}://127.0.0.1:${m[2]}` };
    if (proc.child.exitCode !== null || Date.now() > deadline) {
      await stop(proc.child);
      throw new Error(`the server did not start (exit ${proc.child.exitCode}): ${proc.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs the server expecting it to refuse to start: its exit and output (killed after 25 s). */
export async function runToExit(opts: SpawnOptions): Promise<Exit & { stdout: string; stderr: string }> {
  const proc = spawnServer(opts);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 25_000);
  const exit = await proc.exited;
  clearTimeout(timer);
  return { ...exit, stdout: proc.stdout(), stderr: proc.stderr() };
}

/** Runs a shell command as root inside the server's mount namespace (where its mounts are). */
export function inNamespace(pid: number, script: string): { status: number | null; output: string } {
  const r = spawnSync('nsenter', ['-t', String(pid), '-m', '--', 'sh', '-c', script], { encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

/** One API call: JSON in, JSON out. */
export async function api<T = unknown>(
  url: string,
  route: string,
  opts: { method?: string; token?: string; body?: unknown } = {},
): Promise<Answer<T>> {
  const res = await fetch(`${url}/api${route}`, {
    method: opts.method ?? 'GET',
    headers: {
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

export const loginAs = (url: string, who = ADMIN) =>
  api<{ access_token: string; detail?: string }>(url, '/auth/login', { method: 'POST', body: who });

export async function adminToken(url: string): Promise<string> {
  const res = await loginAs(url);
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  return res.body.access_token;
}

export const taskBody = (trailerId: string) => ({
  title: 'Mover',
  origin: 'Muelle 3',
  destination: 'Campa B-7',
  trailer_id: trailerId,
  vehicle_type: 'swap',
});

export const createTask = (url: string, token: string, trailerId: string) =>
  api<{ id: string; detail?: string }>(url, '/tasks', { method: 'POST', token, body: taskBody(trailerId) });

type HealthAnswer = { checks: Record<string, { status: string; message: string }> };
export async function databaseHealth(
  url: string,
  token: string,
): Promise<{ status: string; message: string }> {
  const res = await api<HealthAnswer>(url, '/admin/system/health-check', { token });
  if (res.status !== 200) throw new Error(`health-check answered ${res.status}`);
  return res.body.checks.database;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
