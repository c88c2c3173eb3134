// SQLite connection (CONTRACT §1): WAL, synchronous=NORMAL, foreign keys, busy_timeout; migrations
// from migrations/ applied at start-up. tx() is the one write transaction, and it refuses (503) when the
// storage cannot keep what it would acknowledge (CONTRACT §14): see "The storage" below.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema';
import { logger } from '../logger';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

/** The open database; set by openDb() before the app serves anything. */
export let db: Db;
export let sqlite: Database.Database;

/** Opens the database; a file SQLite cannot open, write or read as a database throws its SqliteError. */
export function openDb(dbPath: string): Db {
  if (dbPath !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
  const conn = new Database(dbPath);
  try {
    conn.pragma('journal_mode = WAL');
    conn.pragma('synchronous = NORMAL');
    conn.pragma('foreign_keys = ON');
    conn.pragma('busy_timeout = 5000');
    // 64 MiB of page cache (SQLite's default is 2 MiB): a year of a yard's history stays in memory.
    conn.pragma('cache_size = -65536');
    // Reads the schema: a file that is not a database, or is damaged at its start, fails here.
    conn.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (err) {
    conn.close();
    throw err;
  }
  forgetOpenedFile();
  sqlite = conn;
  db = drizzle(sqlite, { schema }) as Db;
  if (dbPath !== ':memory:') rememberOpenedFile(dbPath);
  return db;
}

/** Applies pending migrations; returns how many were applied. Idempotent. */
export function runMigrations(): number {
  const count = () =>
    (
      sqlite
        .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type='table' AND name='__drizzle_migrations'")
        .get() as { n: number }
    ).n
      ? (sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n
      : 0;
  const before = count();
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return count() - before;
}

export function closeDb(): void {
  forgetOpenedFile();
  sqlite?.close();
}

let writeHook: (() => void) | undefined;

/**
 * Registers what every write transaction does first, inside it (server/services/idempotency.ts: the
 * placeholder row of the request's Idempotency-Key, so the key commits or rolls back with the effect).
 */
export function onWriteTransaction(fn: () => void): void {
  writeHook = fn;
}

// ---- After the commit ----------------------------------------------------------------------------
// What a change tells the world (socket pushes, Web Push, timers) is said only once it is kept: a
// transaction body registers it with afterCommit() and has no side effect of its own, so a body that
// throws (or is rolled back) leaves nothing behind. One frame per transaction level: a savepoint that
// fails drops what it registered; one that succeeds hands it to the level above; the outermost commit
// runs it all, in order.
const pending: (() => void)[][] = [];

/** Runs fn once the current transaction has committed (at once when none is open). */
export function afterCommit(fn: () => void): void {
  const frame = pending.at(-1);
  if (frame) frame.push(fn);
  else fn();
}

function runCommitted(effects: (() => void)[]): void {
  for (const effect of effects) {
    try {
      effect();
    } catch (err) {
      // The change is kept: a failed push must not turn it into an error for the caller.
      logger.error({ err }, 'fallo al avisar de un cambio ya guardado');
    }
  }
}

/**
 * Runs fn in one IMMEDIATE transaction (takes the write lock up front, so no upgrade deadlocks), then
 * what it registered with afterCommit(). Inside an open transaction it is a savepoint of it: its failure
 * undoes only its own writes and effects. Refused with StorageUnavailableError (503) when the storage
 * cannot keep the write (see storageProblem()).
 */
export function tx<T>(fn: () => T): T {
  if (pending.length) return savepoint(fn);
  const problem = storageProblem();
  if (problem) throw new StorageUnavailableError(problem);
  const effects: (() => void)[] = [];
  pending.push(effects);
  let result: T;
  try {
    result = sqlite
      .transaction(() => {
        // The request's Idempotency-Key (CONTRACT §16) is written in the same transaction as its effect.
        writeHook?.();
        const done = fn();
        // SQLite rolls the whole transaction back by itself after SQLITE_FULL or an I/O error, even when
        // the failing statement ran under a savepoint whose error was caught: nothing of it was kept.
        if (!sqlite.inTransaction) throw new StorageUnavailableError('aborted');
        return done;
      })
      .immediate();
  } finally {
    pending.pop();
  }
  runCommitted(effects);
  return result;
}

function savepoint<T>(fn: () => T): T {
  // After SQLITE_FULL or an I/O error SQLite may have rolled the whole transaction back: outside one,
  // better-sqlite3 would BEGIN and COMMIT this step on its own, a write the caller then answers 503.
  if (!sqlite.inTransaction) throw new StorageUnavailableError('aborted');
  const effects: (() => void)[] = [];
  pending.push(effects);
  try {
    const result = sqlite.transaction(fn)();
    pending.at(-2)!.push(...effects);
    return result;
  } finally {
    pending.pop();
  }
}

// ---- The storage (CONTRACT §14) ----------------------------------------------------------------
// SQLite reports a read-only or full disk itself (SQLITE_READONLY, SQLITE_FULL, SQLITE_IOERR…), and the
// error handler answers those with 503. Two failures it does not report: a database file deleted (or
// its folder removed) while open — SQLite keeps writing into the unlinked file and every write "works",
// to be lost at the next start — and a disk so full that writes only succeed while they fit in the
// WAL's old pages. So before a write transaction, tx() checks that the file at DB_PATH is still the one
// opened (device + inode), that the path is writable (a read-only remount) and that there is room. The
// verdict is kept for up to a second; a watch on the file drops it at once when the file is unlinked,
// renamed or touched, so a write right after a deletion is refused too.

/** Why the storage cannot take a write. */
export type StorageProblem = 'missing' | 'replaced' | 'readonly' | 'full';

/**
 * A write refused because the storage cannot keep it: the API answers 503 (server/http/errors.ts).
 * `aborted`: SQLite rolled the transaction back itself after a storage error inside it.
 */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
  constructor(readonly problem: StorageProblem | 'aborted') {
    super(`storage unavailable: ${problem}`);
  }
}

/**
 * SQLite's codes for storage that refuses (read-only, full, I/O errors, unopenable, not a database), and
 * the system's (a backup or another file written beside the database).
 */
const STORAGE_CODES =
  /^(SQLITE_(READONLY|FULL|IOERR|CANTOPEN|CORRUPT|NOTADB)(_|$)|(ENOSPC|EROFS|EIO|EDQUOT)$)/;

/** True for an error that means the storage failed (drizzle wraps the driver's error in `cause`). */
export function isStorageFailure(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StorageUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && STORAGE_CODES.test(code)) return true;
  }
  return false;
}

/** How long a storage verdict is trusted before a write transaction looks again (~8 µs of syscalls). */
export const STORAGE_CHECK_EVERY_MS = 1_000;
/** With less free space than this where the database lives, writes are refused: the disk is full. */
export const STORAGE_MIN_FREE_BYTES = 1024 ** 2;

interface OpenedFile {
  path: string;
  dir: string;
  dev: number;
  ino: number;
  watcher?: fs.FSWatcher;
}
let opened: OpenedFile | undefined;
let verdict: { at: number; problem: StorageProblem | null } = { at: -Infinity, problem: null };

function rememberOpenedFile(dbPath: string): void {
  const file = path.resolve(dbPath);
  const { dev, ino } = fs.statSync(file);
  opened = { path: file, dir: path.dirname(file), dev, ino };
  verdict = { at: -Infinity, problem: null };
  try {
    // Any event on the file (an unlink changes its link count) makes the next write look again.
    opened.watcher = fs.watch(file, { persistent: false }, () => void (verdict.at = -Infinity));
    opened.watcher.on('error', () => void (verdict.at = -Infinity));
  } catch {
    // No file watching here: the verdict's age alone bounds how late a deletion is noticed.
  }
}

function forgetOpenedFile(): void {
  opened?.watcher?.close();
  opened = undefined;
}

/** Free bytes where the database lives (what this process may use: root may use the reserve too). */
export function storageFreeBytes(): number {
  if (!opened) return Infinity;
  try {
    const s = fs.statfsSync(opened.dir);
    return (process.getuid?.() === 0 ? s.bfree : s.bavail) * s.bsize;
  } catch {
    return Infinity; // cannot measure: SQLite still reports SQLITE_FULL itself
  }
}

function inspect(file: OpenedFile): StorageProblem | null {
  let stats: fs.Stats | undefined;
  try {
    stats = fs.statSync(file.path, { throwIfNoEntry: false });
  } catch {
    stats = undefined;
  }
  if (!stats) return 'missing';
  if (stats.dev !== file.dev || stats.ino !== file.ino) return 'replaced';
  try {
    // access(2) says EROFS for a read-only mount even to root, whom file modes do not stop.
    fs.accessSync(file.path, fs.constants.W_OK);
    fs.accessSync(file.dir, fs.constants.W_OK);
  } catch {
    return 'readonly';
  }
  if (storageFreeBytes() < STORAGE_MIN_FREE_BYTES) return 'full';
  return null;
}

/**
 * What stops the storage from keeping a write, or null (always null for an in-memory database).
 * `maxAgeMs` 0 looks now (the health check); writes accept a verdict up to STORAGE_CHECK_EVERY_MS old.
 */
export function storageProblem(maxAgeMs = STORAGE_CHECK_EVERY_MS): StorageProblem | null {
  if (!opened) return null;
  const t = performance.now();
  if (t - verdict.at >= maxAgeMs) verdict = { at: t, problem: inspect(opened) };
  return verdict.problem;
}

/** The health check's write probe: rewrites the header's user_version with its own value, a real commit. */
export function probeWrite(): void {
  const version = sqlite.pragma('user_version', { simple: true }) as number;
  sqlite.transaction(() => sqlite.pragma(`user_version = ${version}`)).immediate();
}
