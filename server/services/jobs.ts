// Periodic work of the running server. Returns a function that stops it.
import { config } from '../config';
import { isPostgres } from '../db';
import { logger } from '../logger';
import { ESCALATION } from '@shared/constants';
import { backupIfDue } from './backups';
import { evaluateSoon, stopEvaluations } from './escalation';
import { sweepPhotos } from './gate-photos';

/** The first look after start (a server down over its backup time catches up soon)… */
export const BACKUP_FIRST_CHECK_MS = 60_000;
/** …then hourly: a backup is taken when the newest is a day old, so backups stay daily across restarts. */
export const BACKUP_CHECK_EVERY_MS = 60 * 60 * 1000;
/**
 * The gate's photos past their time (CONTRACT §19: unattached after 24 h, attached after 365 days) go
 * hourly. Every node sweeps: the one DELETE by age gives the same result whoever runs it, and together.
 */
export const PHOTO_SWEEP_EVERY_MS = 60 * 60 * 1000;

export function startBackgroundJobs(): () => void {
  const timers: NodeJS.Timeout[] = [];
  // An in-memory database dies with the process: nothing to back up on a schedule. PostgreSQL's backups
  // are the database's (pg_dump, point-in-time recovery: CONTRACT §18), not this server's.
  if (!isPostgres && config.dbPath !== ':memory:') {
    const check = () =>
      void backupIfDue().catch((err: unknown) => logger.error({ err }, 'la copia de seguridad diaria falló'));
    timers.push(setTimeout(check, BACKUP_FIRST_CHECK_MS), setInterval(check, BACKUP_CHECK_EVERY_MS));
  }
  const sweep = () =>
    void sweepPhotos().catch((err: unknown) =>
      logger.warn({ err }, 'no se pudieron borrar las fotos caducadas'),
    );
  timers.push(setTimeout(sweep, BACKUP_FIRST_CHECK_MS), setInterval(sweep, PHOTO_SWEEP_EVERY_MS));
  // CONTRACT §20: the escalation rules at least every 15 s, whatever else happens.
  timers.push(setInterval(() => void evaluateSoon(), ESCALATION.everyMs));
  for (const t of timers) t.unref();
  // The evaluation running is awaited by the shutdown (server.ts) before the database closes.
  return () => {
    timers.forEach(clearInterval);
    void stopEvaluations();
  };
}
