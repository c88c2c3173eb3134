// The health check (CONTRACT §10): every check measures the running box for real. The thresholds
// are documented in docs/OPERATIONS.md; change them there too.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { HealthStatus } from '@shared/enums';
import { BACKUP_MAX_AGE_MS, DELAY_RED_MIN, INCIDENT_THRESHOLD_MIN } from '@shared/constants';
import { HEALTH_CHECK_LABELS, HEALTH_MSG } from '@shared/labels';
import { HEALTH_CHECK_NAMES, type HealthCheck, type HealthCheckName } from '@shared/schemas';
import { config } from '../config';
import {
  db,
  execute,
  isPostgres,
  probeWrite,
  query,
  sqlite,
  storageFreeBytes,
  storageProblem,
  tx,
  type StorageProblem,
} from '../db';
import { tasks } from '../db/tables';
import { nowMs } from '../clock';
import { socketsServing } from '../realtime/io';
import { adapterUp } from '../realtime/cluster';
import { logger } from '../logger';
import { newestBackup } from './backups';

export const HEALTH_THRESHOLDS = {
  /** Free disk where the database lives: warning below either figure, error below either of these. */
  diskWarnBytes: 1024 ** 3,
  diskWarnPercent: 10,
  diskErrorBytes: 200 * 1024 ** 2,
  diskErrorPercent: 2,
  /** V8 heap used over its limit (the process dies at 100 %). */
  heapWarnPercent: 75,
  heapErrorPercent: 90,
  /** p99 event-loop delay: every request and socket event waits this long at worst. */
  eventLoopWarnMs: 100,
  eventLoopErrorMs: 500,
  /** The oldest wait in the pool (automatic and Swap tasks, not held): the reports' incident and red thresholds. */
  autoWaitWarnMin: INCIDENT_THRESHOLD_MIN,
  autoWaitErrorMin: DELAY_RED_MIN,
  /** A server younger than this without any backup is fine: its first backup comes soon. */
  backupGraceMs: 24 * 60 * 60 * 1000,
} as const;

type Check = { status: HealthStatus; message: string };
const RANK: Record<HealthStatus, number> = { healthy: 0, warning: 1, error: 2 };

/** Status of a value that is bad when high: over error → error, over warn → warning. */
const whenAbove = (value: number, warn: number, error: number): HealthStatus =>
  value > error ? 'error' : value > warn ? 'warning' : 'healthy';

// Module load is the server's start, in server-clock time (so tests that move the clock age it).
const startedAt = nowMs();

// Sampled all the time; each health check reads what happened since the previous one, then resets.
const LOOP_RESOLUTION_MS = 20;
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loopDelay.enable();

const STORAGE_MSG: Record<StorageProblem, () => string> = {
  missing: () => HEALTH_MSG.databaseMissing,
  replaced: () => HEALTH_MSG.databaseReplaced,
  readonly: () => HEALTH_MSG.databaseReadOnly,
  full: () => HEALTH_MSG.databaseFull(storageFreeBytes()),
};

/** A write the database refused: the check's error, with the driver's code (SQLite's or a SQLSTATE). */
function writeFailed(err: unknown): Check {
  logger.warn({ err }, 'la prueba de escritura en la base de datos falló');
  const code = (err as { code?: unknown }).code;
  return {
    status: 'error',
    message: HEALTH_MSG.databaseWriteFailed(typeof code === 'string' ? code : String(err)),
  };
}

/**
 * Can the database keep a write (CONTRACT §14)? The file at DB_PATH must still be the one opened, on a
 * writable disk with room, and a real commit (the probe) must succeed; then the integrity check.
 * PostgreSQL (CONTRACT §18): a real commit too, then the server's own facts instead of the file's.
 */
async function database(): Promise<Check> {
  if (isPostgres) return postgresDatabase();
  const problem = storageProblem(0);
  if (problem) return { status: 'error', message: STORAGE_MSG[problem]() };
  try {
    // Waits for the writer's turn: between transactions, never inside one.
    await probeWrite();
  } catch (err) {
    return writeFailed(err);
  }
  // SQLite's own facts, read-only: straight on its connection.
  const rows = sqlite.pragma('quick_check') as { quick_check: string }[];
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length) return { status: 'error', message: HEALTH_MSG.databaseCorrupt(problems[0]) };
  const pages = sqlite.pragma('page_count', { simple: true }) as number;
  const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
  return { status: 'healthy', message: HEALTH_MSG.databaseOk(pages * pageSize) };
}

/** The key PostgreSQL's write probe inserts and deletes again in one transaction. */
const WRITE_PROBE_KEY = 'health_probe';

/**
 * PostgreSQL's facts of this database: the server's version, the database's size, the client
 * connections to it (every node's pool) against the server's limit, and how long the oldest transaction
 * open on it (another connection's: this one is in the middle of its own) has run, by PostgreSQL's clock.
 */
const POSTGRES_FACTS = `
  SELECT current_setting('server_version') AS version,
         pg_database_size(current_database()) AS bytes,
         current_setting('max_connections')::int AS max_connections,
         count(*) AS connections,
         extract(epoch FROM clock_timestamp() - min(xact_start) FILTER (WHERE pid <> pg_backend_pid()))
           * 1000 AS oldest_ms
    FROM pg_stat_activity
   WHERE datname = current_database() AND backend_type = 'client backend'`;

async function postgresDatabase(): Promise<Check> {
  try {
    // A real commit through the services' own path (a pooled connection, BEGIN … COMMIT) that leaves no
    // row behind: refused by a read-only server, a full disk, a lost connection or revoked rights.
    await tx(async () => {
      await execute('INSERT INTO app_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [
        WRITE_PROBE_KEY,
        String(nowMs()),
      ]);
      await execute('DELETE FROM app_settings WHERE key = ?', [WRITE_PROBE_KEY]);
    });
  } catch (err) {
    return writeFailed(err);
  }
  const [facts] = await query<{
    version: string;
    bytes: number;
    max_connections: number;
    connections: number;
    oldest_ms: number | null;
  }>(POSTGRES_FACTS);
  return {
    status: 'healthy',
    message: HEALTH_MSG.databasePostgres(
      facts.version.split(' ')[0],
      facts.bytes,
      facts.connections,
      facts.max_connections,
      facts.oldest_ms,
    ),
  };
}

/** The database's folder, or its nearest existing parent (the data folder of an in-memory database). */
function databaseFolder(): string {
  let dir = config.dbPath === ':memory:' ? config.dataDir : path.dirname(path.resolve(config.dbPath));
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

function disk(): Check {
  const fsStats = fs.statfsSync(databaseFolder());
  const free = fsStats.bavail * fsStats.bsize; // what this (non-root) process may still write
  const total = fsStats.blocks * fsStats.bsize;
  const percent = total ? (free / total) * 100 : 0;
  const t = HEALTH_THRESHOLDS;
  const status: HealthStatus =
    free < t.diskErrorBytes || percent < t.diskErrorPercent
      ? 'error'
      : free < t.diskWarnBytes || percent < t.diskWarnPercent
        ? 'warning'
        : 'healthy';
  return { status, message: HEALTH_MSG.disk(free, total, percent) };
}

function memory(): Check {
  const { rss, heapUsed } = process.memoryUsage();
  const limit = v8.getHeapStatistics().heap_size_limit;
  const percent = (heapUsed / limit) * 100;
  return {
    status: whenAbove(percent, HEALTH_THRESHOLDS.heapWarnPercent, HEALTH_THRESHOLDS.heapErrorPercent),
    message: HEALTH_MSG.memory(rss, heapUsed, limit, percent),
  };
}

function eventLoop(): Check {
  if (loopDelay.count === 0) return { status: 'healthy', message: HEALTH_MSG.eventLoopNoData };
  // The histogram records each timer interval (ns), resolution included: the delay is the excess.
  const excess = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
  const p99 = excess(loopDelay.percentile(99));
  const mean = excess(loopDelay.mean);
  loopDelay.reset();
  return {
    status: whenAbove(p99, HEALTH_THRESHOLDS.eventLoopWarnMs, HEALTH_THRESHOLDS.eventLoopErrorMs),
    message: HEALTH_MSG.eventLoop(p99, mean),
  };
}

function websocket(): Check {
  const sockets = socketsServing();
  if (sockets === undefined) return { status: 'error', message: HEALTH_MSG.websocketOff };
  return { status: 'healthy', message: HEALTH_MSG.websocket(sockets) };
}

async function autoAssignment(): Promise<Check> {
  // A task on hold waits on purpose (CONTRACT §15): not the engine's backlog. Swap tasks, claimed by hand,
  // wait too (CONTRACT §20): counted, and said apart.
  const waiting = and(eq(tasks.status, 'bolsa_trabajo'), isNull(tasks.deletedAt), eq(tasks.onHold, false));
  // status_since: when it (last) entered the pool — a returned or reopened task waits from then, a
  // released one from its release.
  const [oldest] = await db
    .select({ trailerId: tasks.trailerId, since: tasks.statusSince })
    .from(tasks)
    .where(waiting)
    .orderBy(asc(tasks.statusSince))
    .limit(1);
  if (!oldest) return { status: 'healthy', message: HEALTH_MSG.autoIdle };
  const [{ n, swap }] = await db
    .select({ n: count(), swap: sql<number>`count(*) FILTER (WHERE ${tasks.vehicleType} = 'swap')` })
    .from(tasks)
    .where(waiting);
  const minutes = (nowMs() - oldest.since.getTime()) / 60_000;
  return {
    status: whenAbove(minutes, HEALTH_THRESHOLDS.autoWaitWarnMin, HEALTH_THRESHOLDS.autoWaitErrorMin),
    message: HEALTH_MSG.autoWaiting(n, Number(swap), oldest.trailerId, minutes),
  };
}

function backup(): Check {
  // PostgreSQL's backups are the database's (CONTRACT §18): nothing of this server's to age.
  if (isPostgres) return { status: 'healthy', message: HEALTH_MSG.backupPostgres };
  const newest = newestBackup();
  if (!newest) {
    const young = nowMs() - startedAt < HEALTH_THRESHOLDS.backupGraceMs;
    return young
      ? { status: 'healthy', message: HEALTH_MSG.backupNoneYet }
      : { status: 'warning', message: HEALTH_MSG.backupNone };
  }
  const age = nowMs() - newest.takenAt;
  const minutes = age / 60_000;
  return age <= BACKUP_MAX_AGE_MS
    ? { status: 'healthy', message: HEALTH_MSG.backupRecent(newest.file, minutes) }
    : { status: 'warning', message: HEALTH_MSG.backupStale(newest.file, minutes) };
}

const CHECKS: Record<HealthCheckName, () => Check | Promise<Check>> = {
  database,
  disk,
  memory,
  event_loop: eventLoop,
  websocket,
  auto_assignment: autoAssignment,
  backup,
};

/** A check that cannot even measure (unreadable disk, broken database file) is itself an error. */
async function attempt(name: HealthCheckName, run: () => Check | Promise<Check>): Promise<Check> {
  try {
    return await run();
  } catch (err) {
    logger.warn({ err, check: name }, 'una comprobación de salud falló');
    return { status: 'error', message: HEALTH_MSG.checkFailed(HEALTH_CHECK_LABELS[name]) };
  }
}

export async function healthCheck(): Promise<HealthCheck> {
  const checks = Object.fromEntries(
    await Promise.all(HEALTH_CHECK_NAMES.map(async (name) => [name, await attempt(name, CHECKS[name])])),
  ) as HealthCheck['checks'];
  const overall = Object.values(checks).reduce<HealthStatus>(
    (worst, c) => (RANK[c.status] > RANK[worst] ? c.status : worst),
    'healthy',
  );
  return { overall_status: overall, checks };
}

// ---- The load balancer's probes (CONTRACT §18) -----------------------------------------------------

let draining = false;

/** From the start of a shutdown: the balancer stops sending new work here while answers finish. */
export function setDraining(value: boolean): void {
  draining = value;
}

/**
 * `GET /health/ready`: this node can take work — not shutting down, the database open and answering,
 * its storage able to keep a write, and (PostgreSQL) its events reaching the other nodes. Cheap (a probe every few seconds): no write, no integrity check.
 */
export async function isReady(): Promise<boolean> {
  if (draining) return false;
  try {
    // A read on the connection requests read through (none when the database is closed).
    await query('SELECT 1');
  } catch {
    return false;
  }
  // Without the adapter's LISTEN, events would reach this node's sockets only (CONTRACT §18).
  return storageProblem() === null && adapterUp();
}
