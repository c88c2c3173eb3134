// Opens the database, migrates, ensures the first admin, and serves HTTP + Socket.IO on one port.
// An operator's mistake found on the way (CONTRACT §14) is a StartupError: server/index.ts prints it as
// one line and exits 1. close() is the graceful shutdown of SIGTERM: stop accepting, answer what is in
// flight, send the sockets to reconnect, close the database cleanly.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { STARTUP_ERR } from '@shared/labels';
import { StartupError, checkConfig, config } from './config';
import {
  openDb,
  runMigrations,
  closeDb,
  isPostgres,
  withWriteConnection,
  StorageUnavailableError,
} from './db';
import { closePostgres, openPostgres } from './db/postgres';
import { startCheckpointer } from './db/checkpointer';
import { createApp } from './app';
import { attachRealtime } from './realtime/io';
import type { IoServer } from './realtime/emit';
import { presence } from './services/presence';
import { registerPresenceEffects } from './services/presence-effects';
import { ensureFirstAdmin } from './services/bootstrap';
import { dropForeignSubscriptions } from './services/push';
import { sharedSetting } from './services/settings';
import { JWT_SECRET_SETTING, newJwtSecret } from './config';
import { startBackgroundJobs } from './services/jobs';
import { stopEvaluations } from './services/escalation';
import { startWebhookSender, stopWebhookSender } from './services/webhooks/sender';
import { creationsWritten } from './tasks';
import { assignmentsSettled, startAssignmentSweep } from './tasks/assignment';
import { startRateLimitSweep } from './http/rate-limit';
import { setDraining } from './services/health';
import { backupsDir, newestBackup } from './services/backups';
import { logger } from './logger';

/** How long a shutdown waits for the requests in flight before it cuts their connections. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServer {
  url: string;
  port: number;
  http: http.Server;
  io: IoServer;
  /** The graceful shutdown; calling it again returns the same promise. */
  close: () => Promise<void>;
}

export async function startServer(
  opts: { port?: number; host?: string; print?: (l: string) => void } = {},
): Promise<RunningServer> {
  checkConfig();
  const prepare = async () => {
    await presence.reset();
    await ensureFirstAdmin(config.adminEmail, config.adminPassword, opts.print);
    // CONTRACT §23: no push goes to an endpoint outside the push services (stored before the list).
    await dropForeignSubscriptions();
  };
  if (isPostgres) await openPostgresDatabase(prepare);
  else await openDatabase(config.dbPath, prepare);
  if (config.testClock)
    logger.warn('TEST_CLOCK=1: POST /api/test/clock mueve el reloj del servidor. Nunca en producción.');

  // Every API answer in flight, so a shutdown can wait for them (Socket.IO's polling is not counted:
  // Engine.IO takes its requests before this listener).
  const inFlight = new Set<http.ServerResponse>();
  let draining = false;
  setDraining(false);
  const app = createApp();
  const handle: http.RequestListener = (req, res) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    // While shutting down, each answer closes its connection: the client's next request goes elsewhere.
    if (draining) res.setHeader('Connection', 'close');
    void app(req, res);
  };
  const server = createHttpServer(handle);
  const io = attachRealtime(server);
  const port = opts.port ?? config.port;
  const host = opts.host ?? config.host;
  try {
    await listen(server, port, host);
  } catch (err) {
    await io.close();
    closeDb();
    throw err;
  }
  const stopJobs = startBackgroundJobs();
  // Timers every node runs, safe side by side (CONTRACT §18): nothing is lost when one node stops.
  const stopSweeps = [startAssignmentSweep(), startRateLimitSweep()];
  const stopCheckpointer =
    isPostgres || config.dbPath === ':memory:' ? undefined : startCheckpointer(config.dbPath);
  const stopPresenceEffects = registerPresenceEffects();
  // CONTRACT §21: this node's webhook sender; what a restart left pending goes now.
  startWebhookSender();

  async function shutdown(): Promise<void> {
    const deadline = performance.now() + SHUTDOWN_GRACE_MS;
    draining = true;
    setDraining(true);
    stopJobs();
    for (const stop of stopSweeps) stop();
    // Stop accepting connections; idle keep-alive ones close now, busy ones after their answer.
    const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    server.closeIdleConnections();
    // Close the sockets' transports rather than disconnecting them: a Socket.IO client reconnects by
    // itself after a lost transport (to this server once it is back), never after a server disconnect.
    io.close().catch((err: unknown) => logger.warn({ err }, 'al cerrar Socket.IO'));
    // Answer every request in flight (their writes are committed or about to be), up to the grace.
    while (inFlight.size > 0 && performance.now() < deadline) {
      await sleep(20);
      server.closeIdleConnections();
    }
    if (inFlight.size > 0) logger.warn({ requests: inFlight.size }, 'cierre: peticiones sin terminar');
    server.closeAllConnections();
    await Promise.race([httpClosed, sleep(Math.max(100, deadline - performance.now()))]);
    // Creations batched for the next turn of the event loop (tasks/commands/create.ts) are written before the
    // database closes.
    await creationsWritten();
    stopPresenceEffects();
    // …and so are the engine rounds the last commits started, and the presence of the sockets closed.
    await assignmentsSettled();
    // …and the escalation evaluation running, if any (CONTRACT §20).
    await stopEvaluations();
    // …and the webhook attempts in flight are recorded (their leases given back).
    await stopWebhookSender();
    await presence.leave();
    await stopCheckpointer?.();
    if (isPostgres) {
      // The pool waits for the transactions still in flight to give their connections back.
      await closePostgres();
      return;
    }
    // The writer's turn comes once the transactions still in flight (a presence change, say) have
    // finished; the database closes within it, so none starts after the final checkpoint.
    await withWriteConnection((conn) => {
      try {
        // The WAL copied back into the database file: the file alone is the whole database.
        conn.pragma('wal_checkpoint(TRUNCATE)');
      } catch (err) {
        logger.warn({ err }, 'cierre: el checkpoint final del WAL falló; se aplicará al arrancar');
      }
      closeDb();
    });
  }

  let closing: Promise<void> | undefined;
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `${config.tlsCert ? 'https' : 'http'}://127.0.0.1:${actualPort}`,
    port: actualPort,
    http: server,
    io,
    close: () => (closing ??= shutdown()),
  };
}

/**
 * HTTP, or HTTPS with TLS_CERT / TLS_KEY (CONTRACT §16: the phone's service worker and push need a
 * secure context). An https.Server serves the same request and connection API, so the rest of the
 * server (Socket.IO, the shutdown) treats both alike.
 */
function createHttpServer(handle: http.RequestListener): http.Server {
  if (!config.tlsCert || !config.tlsKey) return http.createServer(handle);
  try {
    const tls = { cert: fs.readFileSync(config.tlsCert), key: fs.readFileSync(config.tlsKey) };
    return https.createServer(tls, handle) as unknown as http.Server;
  } catch (err) {
    throw new StartupError(STARTUP_ERR.tlsInvalid((err as Error).message));
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const refuse = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new StartupError(STARTUP_ERR.portInUse(port, host)));
      else if (err.code === 'EACCES') reject(new StartupError(STARTUP_ERR.portDenied(port)));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
        reject(new StartupError(STARTUP_ERR.hostUnavailable(host)));
      else reject(err);
    };
    server.once('error', refuse);
    server.listen(port, host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
}

// ---- the database at start-up (CONTRACT §14) -----------------------------------------------------

/** The newest backup's full path, if the data folder holds any. */
function newestBackupPath(): string | null {
  try {
    const newest = newestBackup();
    return newest ? path.join(backupsDir(), newest.file) : null;
  } catch {
    return null; // an unreadable backups folder: the database's own checks still run
  }
}

/**
 * Opens and migrates the database, then `prepare` (the first admin), refusing what must not be served:
 * a 0-byte file, a missing file while backups exist (both look like data lost, and SQLite would
 * silently start an empty database), and a file SQLite cannot open, write or read as a database.
 */
async function openDatabase(dbPath: string, prepare: () => Promise<void>): Promise<void> {
  const file = dbPath === ':memory:' ? dbPath : path.resolve(dbPath);
  const backup = dbPath === ':memory:' ? null : newestBackupPath();
  if (dbPath !== ':memory:') {
    let size: number | undefined;
    try {
      size = fs.statSync(file, { throwIfNoEntry: false })?.size;
    } catch (err) {
      throw new StartupError(STARTUP_ERR.unreadableDb(file, errorCode(err) ?? String(err)));
    }
    if (size === 0) throw new StartupError(STARTUP_ERR.emptyDb(file, backup));
    if (size === undefined && backup) throw new StartupError(STARTUP_ERR.missingDb(file, backup));
  }
  try {
    openDb(dbPath);
    runMigrations();
    await prepare();
  } catch (err) {
    closeDb();
    throw databaseRefusal(err, file, backup);
  }
}

/**
 * Connects to DATABASE_URL and migrates it (CONTRACT §18), takes the JWT secret kept in the database when
 * JWT_SECRET gives none, then `prepare`. A server PostgreSQL refuses (unreachable, wrong password, no such
 * database) is a start-up refusal: one line naming the server, never the password.
 */
async function openPostgresDatabase(prepare: () => Promise<void>): Promise<void> {
  const url = config.databaseUrl!;
  try {
    await openPostgres(url);
  } catch (err) {
    throw new StartupError(STARTUP_ERR.postgresUnreachable(postgresServerOf(url), postgresReason(err)));
  }
  try {
    if (!config.jwtSecret) config.jwtSecret = await sharedSetting(JWT_SECRET_SETTING, newJwtSecret);
    await prepare();
  } catch (err) {
    await closePostgres();
    throw err;
  }
}

/** `host:port/database` of a connection string, without its credentials. */
function postgresServerOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

function postgresReason(err: unknown): string {
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  return code ? `${code}: ${message}` : message;
}

/** The first `code` along an error's `cause` chain (drizzle wraps the driver's errors). */
function errorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function databaseRefusal(err: unknown, file: string, backup: string | null): unknown {
  if (err instanceof StorageUnavailableError) {
    if (err.problem === 'full') return new StartupError(STARTUP_ERR.diskFull(file));
    if (err.problem === 'readonly') return new StartupError(STARTUP_ERR.readOnlyDb(file));
    return err;
  }
  const code = errorCode(err) ?? '';
  if (/^SQLITE_(NOTADB|CORRUPT)/.test(code)) return new StartupError(STARTUP_ERR.corruptDb(file, backup));
  if (/^SQLITE_READONLY/.test(code) || code === 'EROFS')
    return new StartupError(STARTUP_ERR.readOnlyDb(file));
  if (/^SQLITE_FULL/.test(code) || code === 'ENOSPC') return new StartupError(STARTUP_ERR.diskFull(file));
  if (/^SQLITE_(CANTOPEN|IOERR|PERM|AUTH)/.test(code) || /^E(ACCES|PERM|NOTDIR|ISDIR)$/.test(code))
    return new StartupError(STARTUP_ERR.unreadableDb(file, code));
  return err;
}
