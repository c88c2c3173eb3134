// The database as the services see it (CONTRACT §1, §18): one `db` and one `tx()` whatever the engine.
// SQLite (./sqlite.ts) is the embedded default; PostgreSQL (./postgres.ts) runs when DATABASE_URL is set.
// Services are async and engine-free: drizzle's query builders, awaited (typed against the PostgreSQL
// schema through ./tables.ts), and raw SQL with `?` placeholders through query()/execute() for what the
// builders cannot say. What only one engine has sits in a seam chosen at start (ENGINE).
import { AsyncLocalStorage } from 'node:async_hooks';
import { getTableColumns, getTableName, type Column, type Table } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type * as pgSchema from './schema-pg';
import { logger } from '../logger';

export { ENGINE, isPostgres } from './engine';
export {
  openDb,
  runMigrations,
  closeDb,
  sqlite,
  withWriteConnection,
  probeWrite,
  storageProblem,
  storageFreeBytes,
  StorageUnavailableError,
  isStorageFailure,
  STORAGE_CHECK_EVERY_MS,
  STORAGE_MIN_FREE_BYTES,
  type StorageProblem,
} from './sqlite';

/** drizzle's PostgreSQL database type: promise-only builders, which both engines run. */
export type Db = NodePgDatabase<typeof pgSchema>;

/** A connection as the services use it: drizzle's builders, and raw SQL with `?` placeholders. */
export interface Session {
  readonly db: Db;
  all<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement; resolves with the number of rows it changed. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Sends a statement whose answer nothing reads without waiting for it (PostgreSQL in a transaction:
   * pipelined, its failure brought by the next statement's answer). Absent: sendAhead() runs it.
   */
  sendAhead?(text: string, params?: readonly unknown[]): void;
  /** Throws when the session may no longer run statements (SQLite after aborting a transaction). */
  assertUsable?(): void;
}

/**
 * A query drizzle builds once: SQLite keeps it compiled per connection (drizzle's prepared query, its SQL
 * text built once); PostgreSQL runs it as a named statement, planned once per pooled connection. Values
 * come through `sql.placeholder(name)`. For the queries every request or every write runs.
 */
export interface Preparable<R> {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> };
}

export function prepared<R>(
  name: string,
  build: (db: Db) => Preparable<R>,
): (values?: Record<string, unknown>) => Promise<R> {
  const compiled = new WeakMap<Db, { execute(values?: Record<string, unknown>): Promise<R> }>();
  return (values) => {
    const s = session();
    s.assertUsable?.();
    let query = compiled.get(s.db);
    // Sessions live as long as their connection (PostgreSQL's pooled ones are handed out again).
    if (!query) compiled.set(s.db, (query = build(s.db).prepare(name)));
    return query.execute(values);
  };
}

/** One transaction's connection, held from begin() until release(). */
export interface TxSession extends Session {
  /** Opens the savepoint `name` (nested steps: tx() inside tx()). */
  savepoint(name: string): Promise<void>;
  /** The step under `name` succeeded: its writes join the enclosing level. */
  keepSavepoint(name: string): Promise<void>;
  /** The step under `name` failed: its writes are undone, the transaction goes on. */
  undoSavepoint(name: string): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  release(): void;
}

export interface TxOptions {
  /**
   * The transaction changes what shared answers show (services/shared-answers.ts): PostgreSQL takes the
   * shown writers' lock with BEGIN (db/engine.ts). Ignored for a nested transaction (a savepoint): the
   * caller marks the outer one (db/dialect.ts markShownWriter).
   */
  shownWriter?: boolean;
}

/** What an engine gives the transaction machinery below. */
export interface Engine {
  /** Reads outside a transaction: committed data only. */
  readonly reader: Session;
  /** Opens a write transaction (SQLite: waits for the one writer's turn). */
  begin(opts?: TxOptions): Promise<TxSession>;
  /** A failure after which the whole transaction may simply run again (serialization, deadlock). */
  retryable(err: unknown): boolean;
}

let engine: Engine | undefined;

/** Set by the engine that opened the database (openDb / openPostgres). */
export function useEngine(next: Engine | undefined): void {
  engine = next;
}

function current(): Engine {
  if (!engine) throw new Error('database not open');
  return engine;
}

interface Frame {
  readonly session: TxSession;
  /** What runs once the outermost transaction has committed (afterCommit), in order. */
  readonly effects: (() => void)[];
  /** Savepoint names are unique per transaction. */
  savepoints: { next: number };
  /** What this level recorded of its changes (server/changes/), made on first use. */
  changes?: object;
}
const frames = new AsyncLocalStorage<Frame>();

/** The session of the running transaction, or the engine's reader outside one. */
export function session(): Session {
  return frames.getStore()?.session ?? current().reader;
}

/** True while a database is open (a timer may fire after it closed: tests, shutdown). */
export function isDatabaseOpen(): boolean {
  return engine !== undefined;
}

/**
 * The open database as an object identity: what is cached per database (server/services/shared-answers.ts)
 * is never served from another one (a test's fresh database, a reopened file).
 */
export function databaseIdentity(): object {
  return current();
}

/** True inside tx(). */
export function inTransaction(): boolean {
  return frames.getStore() !== undefined;
}

/**
 * The services' handle: the running transaction's connection inside tx(), the reader outside. A query
 * is bound to the connection when it is built, so build and await it in the same place.
 */
export const db = new Proxy({} as Db, {
  get(_, key) {
    const handle = session().db;
    const value: unknown = Reflect.get(handle, key);
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(handle) : value;
  },
});

/** Rows of a raw SQL query (`?` placeholders), on the current session. */
export function query<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
  return session().all<T>(text, params);
}

/** Runs a raw SQL statement on the current session; resolves with the rows it changed. */
export function execute(text: string, params: readonly unknown[] = []): Promise<number> {
  return session().run(text, params);
}

/**
 * Runs a statement whose answer nothing reads (a lock, rows added to a history): on PostgreSQL inside a
 * transaction it leaves without a round trip of its own, pipelined with the next statement (db/postgres.ts),
 * and its failure fails the transaction, or the step it ran in, at the next statement awaited, at the step's
 * end or at COMMIT. Elsewhere it simply runs.
 */
export async function sendAhead(text: string, params: readonly unknown[] = []): Promise<void> {
  const s = session();
  if (s.sendAhead) s.sendAhead(text, params);
  else await s.run(text, params);
}

/** INSERT texts by table, columns and row count: built once, then compiled or planned once per connection. */
const insertTexts = new Map<string, { text: string; columns: Column[] }>();

/**
 * Inserts rows (each with the same keys) in one statement, without drizzle building it again for every
 * batch: what the hottest writes use (a batch of creations, every change's history and log rows). Values
 * are converted by each column's own mapping, so a row reads back as drizzle's insert would have written
 * it; columns left out take the database's defaults.
 */
export async function insertRows<T extends Table>(
  table: T,
  rows: readonly T['$inferInsert'][],
): Promise<void> {
  if (rows.length) await execute(...insertStatement(table, rows));
}

/** insertRows() for rows nothing reads back before the commit (history, activity log, outbox): sent ahead. */
export async function appendRows<T extends Table>(
  table: T,
  rows: readonly T['$inferInsert'][],
): Promise<void> {
  if (rows.length) await sendAhead(...insertStatement(table, rows));
}

function insertStatement<T extends Table>(table: T, rows: readonly T['$inferInsert'][]): [string, unknown[]] {
  const keys = Object.keys(rows[0]!);
  const cacheKey = `${getTableName(table)}(${keys.join()})×${rows.length}`;
  let insert = insertTexts.get(cacheKey);
  if (!insert) {
    const byKey: Record<string, Column> = getTableColumns(table);
    const columns = keys.map((key) => byKey[key]!);
    const tuple = `(${keys.map(() => '?').join(', ')})`;
    const text = `INSERT INTO "${getTableName(table)}" (${columns.map((c) => `"${c.name}"`).join(', ')}) VALUES ${Array<string>(rows.length).fill(tuple).join(', ')}`;
    insertTexts.set(cacheKey, (insert = { text, columns }));
  }
  const { text, columns } = insert;
  const params: unknown[] = [];
  for (const row of rows as readonly Record<string, unknown>[])
    keys.forEach((key, i) => {
      const value = row[key];
      params.push(value === null || value === undefined ? null : columns[i]!.mapToDriverValue(value));
    });
  return [text, params];
}

/**
 * Maps raw rows (keyed by column name, as `SELECT *` gives them) to the table's rows as drizzle's select
 * would, through each column's own mapping: for the hottest reads, where drizzle's generic result mapping
 * costs more than the query itself.
 */
export function rowReader<T extends Table>(table: T): (row: Record<string, unknown>) => T['$inferSelect'] {
  const columns = Object.entries(getTableColumns(table) as Record<string, Column>);
  return (row) => {
    const mapped: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = row[column.name];
      mapped[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return mapped as T['$inferSelect'];
  };
}

let writeHook: (() => Promise<void>) | undefined;

/**
 * Registers what every write transaction does first, inside it (server/services/idempotency.ts: the
 * placeholder row of the request's Idempotency-Key, so the key commits or rolls back with the effect).
 */
export function onWriteTransaction(fn: () => Promise<void>): void {
  writeHook = fn;
}

// ---- The change log ------------------------------------------------------------------------------
// Each transaction level may hold a set of the changes it made (server/changes/change-set.ts), made on
// first use: a savepoint's joins the level around it once it succeeds and is dropped with it when it fails;
// the outermost's is processed before the commit (inside the transaction) and right after it, before the
// effects registered with afterCommit(). The database layer knows no more of it than these hooks.

export interface ChangeLogHooks<C extends object> {
  /** A savepoint's set, once the savepoint succeeded, joins the set of the level around it. */
  absorb(into: C, step: C): void;
  /** Inside the outermost transaction, once its body is done (the before-commit processors). */
  beforeCommit(changes: C): Promise<void>;
  /** Once it has committed, before the afterCommit() effects (the after-commit processors). */
  afterCommit(changes: C): void;
}

let changeLog: ChangeLogHooks<object> | undefined;

/** Set once by server/changes/commit.ts. */
export function useChangeLog<C extends object>(hooks: ChangeLogHooks<C>): void {
  changeLog = hooks as unknown as ChangeLogHooks<object>;
}

/** The change set of the running transaction level (made by `create` on first use); undefined outside one. */
export function transactionChanges<C extends object>(create: () => C): C | undefined {
  const frame = frames.getStore();
  if (!frame) return undefined;
  return (frame.changes ??= create()) as C;
}

// ---- After the commit ----------------------------------------------------------------------------
// What a change tells the world (socket pushes, Web Push, timers) is said only once it is kept: a
// transaction body records it in its change set (pushes, Web Push: server/changes/) or registers it with
// afterCommit() (timers, the engine's round) and has no side effect of its own, so a body that
// throws, is rolled back or is run again (PostgreSQL's serialization failures) leaves nothing behind.
// Effects are synchronous: what they need is read inside the transaction; work that needs the database
// (an engine round) starts its own transaction from the effect. One frame per transaction level: a
// savepoint that fails drops what it registered; the outermost commit runs it all, in order.

/** Runs fn once the current transaction has committed (at once when none is open). */
export function afterCommit(fn: () => void): void {
  const frame = frames.getStore();
  if (frame) frame.effects.push(fn);
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

let committed = 0;

/**
 * How many write transactions this process has committed: a cheap "has anything changed" for caches of
 * figures computed from the database (services/dashboard.ts).
 */
export function commitCount(): number {
  return committed;
}

/**
 * A failure after which tx() runs the whole transaction again (PostgreSQL's serialization failure or
 * deadlock): a step that catches errors must let these through.
 */
export function isRetryable(err: unknown): boolean {
  return current().retryable(err);
}

/** How many times a transaction that hit a serialization failure or a deadlock is run in all. */
export const TX_ATTEMPTS = 5;

/**
 * Runs fn in one write transaction — its change set processed before the commit and right after it (see
 * "The change log" above) — then what it registered with afterCommit(). Inside an open
 * transaction it is a savepoint of it: its failure undoes only its own writes and effects. SQLite: one
 * transaction at a time on the one write connection (BEGIN IMMEDIATE), so nothing interleaves with a
 * body across its awaits; refused with StorageUnavailableError (503) when the storage cannot keep the
 * write. PostgreSQL: READ COMMITTED on a pooled connection, the whole body run again on a
 * serialization failure or a deadlock (bodies have no side effects).
 */
export async function tx<T>(fn: () => Promise<T>, opts?: TxOptions): Promise<T> {
  const outer = frames.getStore();
  if (outer) return savepoint(outer, fn);
  const eng = current();
  for (let attempt = 1; ; attempt++) {
    const txSession = await eng.begin(opts);
    const frame: Frame = { session: txSession, effects: [], savepoints: { next: 0 } };
    let result: T;
    try {
      result = await frames.run(frame, async () => {
        // The request's Idempotency-Key (CONTRACT §16) is written in the same transaction as its effect.
        await writeHook?.();
        const done = await fn();
        if (frame.changes) await changeLog!.beforeCommit(frame.changes);
        return done;
      });
      await txSession.commit();
      committed++;
    } catch (err) {
      await txSession.rollback().catch((rollbackErr: unknown) => {
        logger.warn({ err: rollbackErr }, 'rollback fallido');
      });
      txSession.release();
      if (attempt < TX_ATTEMPTS && eng.retryable(err)) continue;
      throw err;
    }
    // Effects run before the next transaction may start (SQLite): pushes leave in commit order.
    try {
      const changes = frame.changes;
      runCommitted(changes ? [() => changeLog!.afterCommit(changes), ...frame.effects] : frame.effects);
    } finally {
      txSession.release();
    }
    return result;
  }
}

async function savepoint<T>(outer: Frame, fn: () => Promise<T>): Promise<T> {
  const name = `sp${++outer.savepoints.next}`;
  await outer.session.savepoint(name);
  const frame: Frame = { ...outer, effects: [], changes: undefined };
  try {
    const result = await frames.run(frame, fn);
    await outer.session.keepSavepoint(name);
    outer.effects.push(...frame.effects);
    if (frame.changes) {
      if (outer.changes) changeLog!.absorb(outer.changes, frame.changes);
      else outer.changes = frame.changes;
    }
    return result;
  } catch (err) {
    await outer.session.undoSavepoint(name).catch(() => {
      // The engine gave the whole transaction up (SQLite after a storage error): the outer commit fails.
    });
    throw err;
  }
}
