// `npm start`: config from the environment, then serve. A start-up refusal (CONTRACT §14) is one
// Spanish line on stderr and exit code 1, never a stack trace; SIGTERM/SIGINT shut down gracefully.
import fs from 'node:fs';
import { STARTUP_ERR } from '@shared/labels';
import { StartupError, checkConfig, config } from './config';
import type { RunningServer } from './server';

/** The one line on stderr, then exit 1. */
function refuse(err: unknown): never {
  const line =
    err instanceof StartupError
      ? err.message
      : STARTUP_ERR.unexpected(err instanceof Error ? err.message : String(err));
  fs.writeSync(2, `${line.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(1);
}

let server: RunningServer;
try {
  // Checked before anything else loads: the logger, for one, needs a valid LOG_LEVEL.
  checkConfig();
  const { startServer } = await import('./server');
  server = await startServer();
} catch (err) {
  refuse(err);
}

const { logger } = await import('./logger');
const { isStorageFailure } = await import('./db');
const { SHUTDOWN_GRACE_MS } = await import('./server');
const scheme = config.tlsCert ? 'https' : 'http';
logger.info(`Torre de Control escuchando en ${scheme}://${config.host}:${server.port}`);
console.log(`Torre de Control lista en ${scheme}://localhost:${server.port}`);

// A write the disk refuses from a timer or from work nobody awaits (say, the assignment engine's delayed
// round; a rejection nobody handles arrives here as Node raises it) is logged, not fatal: the server
// keeps serving reads and answering writes 503 (CONTRACT §14). Anything else still ends the process, as
// Node's default would.
process.on('uncaughtException', (err) => {
  if (isStorageFailure(err)) return void logger.error({ err }, 'el almacenamiento rechazó una escritura');
  logger.fatal({ err }, 'excepción no capturada');
  fs.writeSync(2, `${err.stack ?? String(err)}\n`);
  process.exit(1);
});

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) {
    // A second signal while the first one drains: stop now.
    logger.warn({ signal }, 'segunda señal: cierre inmediato');
    process.exit(1);
  }
  stopping = true;
  logger.info({ signal }, 'cerrando');
  // Should anything hang past the grace, the process ends anyway (and says it did not close cleanly).
  setTimeout(() => {
    logger.error('el cierre no terminó a tiempo');
    process.exit(1);
  }, SHUTDOWN_GRACE_MS + 5_000).unref();
  try {
    await server.close();
    logger.info('cerrado');
    process.exit(0);
  } catch (err) {
    logger.error({ err }, 'el cierre falló');
    process.exit(1);
  }
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
