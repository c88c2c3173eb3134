// The SQLite engine (CONTRACT §1): WAL, synchronous=NORMAL, foreign keys, busy_timeout; migrations from
// migrations/ applied at start-up. Two connections to the file: the writer, which runs one transaction
// at a time (a queue: a body awaits between its statements, and nothing else may write meanwhile), and a
// reader for everything outside a transaction — in WAL mode it sees committed data only, without
// waiting for the writer. Raw statements are prepared once per connection and text. A read thread
// (./read-pool.ts) opens the same file read-only instead (openReadOnlyDb).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { plateKey } from '@shared/text';
import * as schema from './schema';
import { useEngine, type Db, type Engine, type Session, type TxSession } from '.';
import { readOnlyEngine, readThreads } from './read-pool';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

/** The write connection; set by openDb(). SQLite-only code (backups, pragmas, scripts) uses it. */
export let sqlite: Database.Database;
let reader: Database.Database | undefined;

function configureConnection(conn: Database.Database, access: 'read-write' | 'read-only'): void {
  // The file's journal mode and what a write does are the read-write connections' to set.
  if (access === 'read-write') {
    conn.pragma('journal_mode = WAL');
    conn.pragma('synchronous = NORMAL');
    conn.pragma('foreign_keys = ON');
  }
  conn.pragma('busy_timeout = 5000');
  // 64 MiB of page cache (SQLite's default is 2 MiB): a year of a yard's history stays in memory.
  conn.pragma('cache_size = -65536');
  // The migration that keyed the trailers (migrations/0011_trailers.sql) calls shared/text.ts's plateKey().
  conn.function('plate_key', { deterministic: true }, (s: unknown) =>
    typeof s === 'string' ? plateKey(s) : null,
  );
}

/** Opens the database; a file SQLite cannot open, write or read as a database throws its SqliteError. */
export function openDb(dbPath: string): void {
  if (dbPath !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
  const conn = new Database(dbPath);
  let readConn: Database.Database | undefined;
  try {
    configureConnection(conn, 'read-write');
    // Reads the schema: a file that is not a database, or is damaged at its start, fails here.
    conn.prepare('SELECT count(*) FROM sqlite_master').get();
    if (dbPath !== ':memory:') {
      readConn = new Database(dbPath);
      configureConnection(readConn, 'read-write');
      readConn.pragma('query_only = 1');
    }
  } catch (err) {
    readConn?.close();
    conn.close();
    throw err;
  }
  forgetOpenedFile();
  sqlite = conn;
  reader = readConn;
  useEngine(sqliteEngine(conn, readConn ?? conn));
  if (dbPath !== ':memory:') rememberOpenedFile(dbPath);
  // An in-memory database exists on this connection only: its long reads run inline.
  readThreads.bind(opened?.path);
}

/**
 * A read thread's database (./read-pool.ts): one read-only connection to the server's file, which every
 * read outside a transaction uses; a transaction is refused (a read thread never writes). In WAL mode it
 * reads beside the server's writer and sees every transaction committed before each statement starts.
 */
export function openReadOnlyDb(file: string): void {
  const conn = new Database(file, { readonly: true, fileMustExist: true });
  try {
    configureConnection(conn, 'read-only');
  } catch (err) {
    conn.close();
    throw err;
  }
  reader = conn;
  useEngine(readOnlyEngine(connectionSession(conn)));
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
  migrate(drizzle(sqlite, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  return count() - before;
}

export function closeDb(): void {
  readThreads.bind(undefined);
  forgetOpenedFile();
  useEngine(undefined);
  reader?.close();
  reader = undefined;
  sqlite?.close();
}

// ---- Sessions and the writer's turn ----------------------------------------------------------------

type Statement = Database.Statement<unknown[]>;

/** A statement cache by SQL text: SQLite compiles a statement once per connection, not per use. */
function statementCache(conn: Database.Database): (text: string) => Statement {
  const statements = new Map<string, Statement>();
  return (text) => {
    let stmt = statements.get(text);
    if (!stmt) statements.set(text, (stmt = conn.prepare(text)));
    return stmt;
  };
}

/**
 * The connection as drizzle sees it, its statements compiled once: drizzle prepares every query it runs,
 * and the same builder always produces the same SQL text. A statement drizzle switched to raw rows is
 * switched back before it is handed out again.
 */
function withStatementCache(conn: Database.Database): Database.Database {
  const cached = statementCache(conn);
  const prepare = (text: string) => {
    const stmt = cached(text);
    if (stmt.reader) stmt.raw(false);
    return stmt;
  };
  return new Proxy(conn, {
    get(target, key) {
      if (key === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The column names of each statement that returns rows, as its raw arrays give them. */
const columnNames = new WeakMap<Statement, string[]>();

/**
 * A statement's rows as objects keyed by column name. better-sqlite3 builds such objects natively, one
 * property at a time; building them here from its raw arrays takes about two thirds of the time on wide
 * rows (the searcher's page of 500 tasks: 3.4 → 2.3 ms).
 */
function rowsOf(stmt: Statement, params: readonly unknown[]): Record<string, unknown>[] {
  if (!stmt.reader) return stmt.all(...params) as Record<string, unknown>[]; // refuses, as better-sqlite3 does
  let names = columnNames.get(stmt);
  if (!names)
    columnNames.set(
      stmt,
      (names = stmt
        .raw(true)
        .columns()
        .map((c) => c.name)),
    );
  const rows = stmt.all(...params) as unknown[][];
  // A schema change recompiles the statement: `SELECT *` may then give more columns.
  if (rows.length && rows[0].length !== names.length)
    columnNames.set(stmt, (names = stmt.columns().map((c) => c.name)));
  const objects = new Array<Record<string, unknown>>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const object: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) object[names[c]] = row[c];
    objects[r] = object;
  }
  return objects;
}

function connectionSession(conn: Database.Database): Session {
  const prepared = statementCache(conn);
  return {
    db: drizzle(withStatementCache(conn), { schema }) as unknown as Db,
    all: <T>(text: string, params: readonly unknown[] = []) =>
      Promise.resolve(rowsOf(prepared(text), params) as T[]),
    run: (text: string, params: readonly unknown[] = []) =>
      Promise.resolve(prepared(text).run(...params).changes),
  };
}

/** The end of the queue of writers: each transaction starts once the one before it has released. */
let lastTurn: Promise<void> = Promise.resolve();

/** Waits for the write connection's turn; resolves with the function that gives it back. */
async function takeTurn(): Promise<() => void> {
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const before = lastTurn;
  lastTurn = before.then(() => mine);
  await before;
  return release;
}

/**
 * Runs fn on the write connection when no transaction is open on it (a checkpoint, the health check's
 * write probe, a backup's final step): between transactions, never inside one.
 */
export async function withWriteConnection<T>(fn: (conn: Database.Database) => T | Promise<T>): Promise<T> {
  const release = await takeTurn();
  try {
    return await fn(sqlite);
  } finally {
    release();
  }
}

function sqliteEngine(writeConn: Database.Database, readConn: Database.Database): Engine {
  const writer = connectionSession(writeConn);
  const readSession = readConn === writeConn ? writer : connectionSession(readConn);
  // After SQLITE_FULL or an I/O error SQLite may roll the whole transaction back by itself, even when the
  // failing statement ran under a savepoint whose error was caught. From then on a statement would run
  // in a transaction of its own and be kept: every use of the transaction's session refuses instead.
  const live = () => {
    if (!writeConn.inTransaction) throw new StorageUnavailableError('aborted');
  };
  const exec = (text: string) => {
    live();
    writeConn.exec(text);
    return Promise.resolve();
  };
  const txSession: Session = {
    db: new Proxy(writer.db, {
      get(target, key) {
        live();
        return Reflect.get(target, key) as unknown;
      },
    }),
    all: (text, params) => {
      live();
      return writer.all(text, params);
    },
    run: (text, params) => {
      live();
      return writer.run(text, params);
    },
    assertUsable: live,
  };
  return {
    reader: readSession,
    async begin(): Promise<TxSession> {
      const release = await takeTurn();
      try {
        const problem = storageProblem();
        if (problem) throw new StorageUnavailableError(problem);
        writeConn.exec('BEGIN IMMEDIATE');
      } catch (err) {
        release();
        throw err;
      }
      return {
        ...txSession,
        savepoint: (name) => exec(`SAVEPOINT ${name}`),
        keepSavepoint: (name) => exec(`RELEASE SAVEPOINT ${name}`),
        undoSavepoint: (name) => exec(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`),
        // Nothing of a transaction SQLite rolled back itself was kept: its COMMIT refuses (503).
        commit: () => exec('COMMIT'),
        rollback: () => (writeConn.inTransaction ? exec('ROLLBACK') : Promise.resolve()),
        release,
      };
    },
    // One writer at a time: SQLite never makes a transaction fail for another's sake.
    retryable: () => false,
  };
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
export function probeWrite(): Promise<void> {
  return withWriteConnection((conn) => {
    const version = conn.pragma('user_version', { simple: true }) as number;
    conn.transaction(() => conn.pragma(`user_version = ${version}`)).immediate();
  });
}
