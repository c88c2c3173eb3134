// The server under test, always a SEPARATE process (its CPU and memory are read from /proc/<pid>), and
// the few client-side calls every section needs: log in, call the API, seed bench accounts.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcrypt';
import type { Role, VehicleType } from '@shared/enums';
import { db, tx } from '../../server/db';
import { users } from '../../server/db/tables';
import type { BenchDatabase } from './database';
import { inBatches } from './stats';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_PASSWORD = 'bench-password';

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  stop: () => Promise<void>;
}

/** Temporary folders not removed yet: removed when this process exits (the bench interrupted). */
const folders = new Set<string>();
process.once('exit', () => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder for one section's database; removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `torre-bench-${prefix}-`));
  folders.add(dir);
  return {
    dir,
    remove: () => {
      fs.rmSync(dir, { recursive: true, force: true });
      folders.delete(dir);
    },
  };
}

/** Servers still running: stopped when this process exits (the bench interrupted, a section failing). */
const servers = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of servers) child.kill('SIGKILL');
});

/**
 * `node --import tsx server/index.ts` over `database` (its DB_PATH or DATABASE_URL) on a random loopback
 * port (TEST_CLOCK off, as in production); resolves once it prints its URL. `env` adds variables
 * (CLIENT_DIST for the render test).
 */
export function startServer(database: BenchDatabase, env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...database.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SERVE_CLIENT: '0',
    ...env,
  };
  delete fullEnv.TEST_CLOCK;
  // BENCH_PROF=<folder>: the server writes a V8 CPU profile there (where a section's time goes).
  const profile = process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [];
  return startProcess('server/index.ts', fullEnv, profile);
}

/** The bare Socket.IO server the fan-out is compared with (bare-socket-server.ts). */
export const startBareSocketServer = (): Promise<ServerProcess> =>
  startProcess(path.join('scripts', 'bench', 'bare-socket-server.ts'), process.env);

/** `node [flags] --import tsx <entry>`; resolves once it prints `lista en <url>`, as the product's server does. */
function startProcess(entry: string, env: NodeJS.ProcessEnv, flags: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', entry], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  servers.add(child);
  child.once('exit', () => servers.delete(child));
  const stop = (): Promise<void> =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (out.length > 10_000) return;
      out += chunk;
      const match = /lista en (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, pid: child.pid!, url: match[1].replace('localhost', '127.0.0.1'), stop });
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited before listening (code ${code})`)));
  });
}

let clockTicks: number | undefined;
/** Kernel clock ticks per second (utime/stime in /proc/<pid>/stat are counted in them). */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
}

/** Resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export async function api<T>(url: string, method: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login ${email} → ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export interface BenchAccount {
  email: string;
  role: Role;
}

/**
 * Bench accounts straight into the database (through the server's database layer, opened on it here,
 * while its server may be running), with a cheap hash (cost 4: hashing 500 passwords at the production
 * cost would dominate the run); each then logs in through the API like a real client. Drivers get
 * `taskTypes`.
 */
export async function seedAccounts(
  database: BenchDatabase,
  roles: Role[],
  taskTypes: VehicleType[] = ['semiremolque'],
  tag = 'bench',
): Promise<BenchAccount[]> {
  const passwordHash = bcrypt.hashSync(BENCH_PASSWORD, 4);
  const createdAt = new Date();
  const rows = roles.map((role, i) => ({
    id: crypto.randomUUID(),
    email: `${tag}-${i}@bench.local`,
    name: `${role === 'conductor' ? 'Conductor' : 'Supervisor'} ${tag} ${i}`,
    passwordHash,
    role,
    isApproved: true,
    taskTypes: role === 'conductor' ? taskTypes : [],
    createdAt,
    approvedAt: createdAt,
  }));
  await database.use(() =>
    tx(async () => {
      for (let i = 0; i < rows.length; i += 100) await db.insert(users).values(rows.slice(i, i + 100));
    }),
  );
  return rows.map((r) => ({ email: r.email, role: r.role }));
}

export const loginAll = (url: string, accounts: { email: string }[]): Promise<string[]> =>
  inBatches(accounts, (a) => login(url, a.email, BENCH_PASSWORD));
