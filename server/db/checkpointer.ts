// WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside whichever COMMIT
// crosses the threshold, so one request in every few dozen pays for copying the WAL back into the
// database (and its fsync). Here a worker thread with its own connection checkpoints every second
// instead (PASSIVE: it never blocks the server's reads or writes); the server's own automatic
// checkpoint stays on, with a high threshold, as the safety net should the worker ever stop.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { logger } from '../logger';
import { sqlite } from '.';

export const CHECKPOINT_EVERY_MS = 1_000;
/** Pages (4 KiB) the WAL may grow to before the server checkpoints by itself: the safety net. */
const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

// Plain CommonJS so the worker needs no TypeScript loader.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage(String(err && err.message));
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** Starts checkpointing the open file database; returns the function that stops it. */
export function startCheckpointer(file: string): () => Promise<void> {
  // The same driver the server loaded, whatever the working directory.
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { file, driver, everyMs: CHECKPOINT_EVERY_MS },
  });
  worker.unref();
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: string) => logger.warn({ message }, 'el checkpoint del WAL falló'));
  worker.on('error', (err) => logger.error({ err }, 'el hilo de checkpoints del WAL se detuvo'));
  return () => {
    worker.postMessage('stop');
    return exited;
  };
}
