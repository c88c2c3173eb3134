// Online SQLite backups (CONTRACT §10): into <dataDir>/backups/torre-<UTC time>.db, the newest
// BACKUPS_KEPT kept. The daily one is started by jobs.ts; Sistema takes one on demand. On PostgreSQL the
// backups are the database's, pg_dump or point-in-time recovery (CONTRACT §18): none is taken here.
import fs from 'node:fs';
import path from 'node:path';
import { BACKUPS_KEPT } from '@shared/constants';
import { SYSTEM_LOG, SYSTEM_MSG } from '@shared/labels';
import { config } from '../config';
import { isPostgres, isStorageFailure, tx, withWriteConnection } from '../db';
import { conflict } from '../http/errors';
import { logger } from '../logger';
import { nowMs } from '../clock';
import { logActivity, type Actor } from './activity';

/** A daily backup is due when the newest is at least this old. */
export const BACKUP_INTERVAL_MS = 24 * 60 * 60 * 1000;

export interface BackupFile {
  file: string;
  /** The server-clock time in its name (not the file's mtime, so tests that move the clock agree). */
  takenAt: number;
  bytes: number;
}

// torre-2026-11-22T08-15-00-123Z.db: ISO UTC with ':' and '.' made file-name safe; sorts by time.
const NAME = /^torre-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.db$/;
const nameFor = (ms: number) => `torre-${new Date(ms).toISOString().replace(/[:.]/g, '-')}.db`;
const PARTIAL = '.partial';

export const backupsDir = (): string => path.join(config.dataDir, 'backups');

/** The finished backups, newest first. */
export function listBackups(): BackupFile[] {
  const dir = backupsDir();
  if (!fs.existsSync(dir)) return [];
  const found: BackupFile[] = [];
  for (const file of fs.readdirSync(dir)) {
    const m = NAME.exec(file);
    if (!m) continue;
    const takenAt = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
    found.push({ file, takenAt, bytes: fs.statSync(path.join(dir, file)).size });
  }
  return found.sort((a, b) => b.takenAt - a.takenAt);
}

export const newestBackup = (): BackupFile | undefined => listBackups()[0];

// One backup at a time: the daily job and a click in Sistema may coincide.
let queue: Promise<unknown> = Promise.resolve();

/**
 * Takes a backup now (actor null = the daily job), prunes the old ones and logs it. On PostgreSQL: 409,
 * the database's own tools take them.
 */
export function takeBackup(actor: Actor | null): Promise<BackupFile> {
  if (isPostgres) return Promise.reject(conflict(SYSTEM_MSG.backupPostgres));
  const run = queue.then(() => backup(actor));
  queue = run.catch(() => undefined);
  return run;
}

/** The daily job's step: a backup only if none is younger than a day (never on PostgreSQL). */
export async function backupIfDue(): Promise<BackupFile | null> {
  if (isPostgres) return null;
  const newest = newestBackup();
  if (newest && nowMs() - newest.takenAt < BACKUP_INTERVAL_MS) return null;
  return takeBackup(null);
}

async function backup(actor: Actor | null): Promise<BackupFile> {
  const dir = backupsDir();
  fs.mkdirSync(dir, { recursive: true });
  // Backups run one at a time, so a partial file here was left by a crash mid-backup.
  for (const f of fs.readdirSync(dir)) if (f.endsWith(PARTIAL)) fs.rmSync(path.join(dir, f), { force: true });

  let at = nowMs();
  while (fs.existsSync(path.join(dir, nameFor(at)))) at += 1; // two in one millisecond
  const file = nameFor(at);
  const target = path.join(dir, file);
  const partial = target + PARTIAL;
  try {
    await onlineBackup(partial);
    fs.renameSync(partial, target);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }

  const pruned = listBackups().slice(BACKUPS_KEPT);
  for (const old of pruned) fs.rmSync(path.join(dir, old.file), { force: true });

  const bytes = fs.statSync(target).size;
  try {
    await tx(async () => {
      await logActivity(
        'system',
        actor,
        actor ? SYSTEM_LOG.backup.action : SYSTEM_LOG.backup.automaticAction,
        SYSTEM_LOG.backup.details(file, bytes, pruned.length),
      );
    });
  } catch (err) {
    // The database can no longer be written (its file deleted, the disk read-only): this copy may be the
    // one to restore from, so it stands without its activity-log row.
    if (!isStorageFailure(err)) throw err;
    logger.warn({ err, file }, 'copia hecha; no se pudo anotar en el registro de actividad');
  }
  return { file, takenAt: at, bytes };
}

/** Pages copied per turn of the event loop (better-sqlite3's default). */
const BACKUP_STEP_PAGES = 100;

/**
 * better-sqlite3's online backup of the write connection (the one that still holds the file should it
 * have been deleted): a snapshot of what is committed, copied a few pages per turn of the event loop
 * while the server keeps writing. SQLite answers a step BUSY while a transaction is open on that
 * connection (the next turn tries again) and carries each commit into the pages already copied, so the
 * copy ends between transactions with committed data only. Its first step must run between transactions
 * too: one answered BUSY there reads as "nothing to copy" and the backup "finishes" with an empty file.
 */
async function onlineBackup(file: string): Promise<void> {
  let copied: Promise<unknown> | undefined;
  await withWriteConnection(
    (conn) =>
      new Promise<void>((started, failed) => {
        // The progress callback runs after each step that leaves pages to copy, the first one included.
        copied = conn.backup(file, {
          progress: () => {
            started();
            return BACKUP_STEP_PAGES;
          },
        });
        copied.then(() => started(), failed);
      }),
  );
  await copied;
}
