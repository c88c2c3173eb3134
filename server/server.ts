// Opens the database, migrates, ensures the first admin, and serves HTTP + Socket.IO on one port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { config } from './config';
import { openDb, runMigrations, closeDb } from './db';
import { startCheckpointer } from './db/checkpointer';
import { createApp } from './app';
import { attachRealtime } from './realtime/io';
import type { IoServer } from './realtime/emit';
import { presence } from './services/presence';
import { registerPresenceEffects } from './services/presence-effects';
import { ensureFirstAdmin } from './services/bootstrap';
import { startBackgroundJobs } from './services/jobs';
import { logger } from './logger';

export interface RunningServer {
  url: string;
  port: number;
  http: http.Server;
  io: IoServer;
  close: () => Promise<void>;
}

export async function startServer(
  opts: { port?: number; host?: string; print?: (l: string) => void } = {},
): Promise<RunningServer> {
  openDb(config.dbPath);
  runMigrations();
  presence.reset();
  await ensureFirstAdmin(config.adminEmail, config.adminPassword, opts.print);
  if (config.testClock)
    logger.warn('TEST_CLOCK=1: POST /api/test/clock mueve el reloj del servidor. Nunca en producción.');

  const server = http.createServer(createApp());
  const io = attachRealtime(server);
  const stopJobs = startBackgroundJobs();
  const stopCheckpointer = config.dbPath === ':memory:' ? undefined : startCheckpointer(config.dbPath);
  const stopPresenceEffects = registerPresenceEffects();
  await new Promise<void>((resolve) =>
    server.listen(opts.port ?? config.port, opts.host ?? config.host, resolve),
  );
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    http: server,
    io,
    close: async () => {
      stopJobs();
      stopPresenceEffects();
      // Polling pages keep HTTP connections alive: close them, or shutdown would wait forever.
      const closed = new Promise<void>((resolve) => io.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await stopCheckpointer?.();
      closeDb();
    },
  };
}
