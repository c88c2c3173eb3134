// The PostgreSQL engine (CONTRACT §18): a pool of connections to DATABASE_URL, migrated at start under an
// advisory lock (./migrate-pg.ts). Reads outside a transaction go to the pool; a transaction holds one
// pooled connection (READ COMMITTED) from BEGIN to COMMIT. Counts, sums and epoch-millisecond columns
// (bigint, numeric) come back as JavaScript numbers: the pool's type parsers convert them once for every
// query, so no service sees a string where SQLite gives a number.
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { useEngine, type Db, type Engine, type Session, type TxOptions, type TxSession } from '.';
import { SHOWN_WRITER_SQL } from './engine';
import { migratePostgres } from './migrate-pg';
import { readOnlyEngine, readThreads } from './read-pool';

/** Connections per node (each transaction holds one while it runs). */
export const POOL_SIZE = 20;
/** Connections of each read thread (./read-pool.ts): its one read at a time, and a spare for a second query. */
const READ_THREAD_POOL_SIZE = 2;

const INT8 = 20;
const NUMERIC = 1700;
const parsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    // Epoch milliseconds and counts fit a double exactly (below 2^53); averages are fractional numbers.
    if (oid === INT8) return (v: string) => Number(v);
    if (oid === NUMERIC) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * The services' raw SQL, shared with SQLite, as PostgreSQL reads it: `?` placeholders become `$1…$n`,
 * and SQLite's `INDEXED BY` planner hints are dropped (PostgreSQL's planner takes no hints; its own
 * statistics choose the same indexes).
 */
const translated = new Map<string, string>();
export function toPostgresSql(text: string): string {
  let out = translated.get(text);
  if (out === undefined) {
    let n = 0;
    // The services' SQL has no `?` inside string literals; `??`-style operators are not used either.
    out = text.replace(/\s+INDEXED BY \w+/gi, '').replace(/\?/g, () => `$${++n}`);
    translated.set(text, out);
  }
  return out;
}

let pool: pg.Pool | undefined;

type Queryable = pg.Pool | pg.PoolClient;

/**
 * Each distinct raw SQL text runs as a named statement: PostgreSQL parses and plans it once per
 * connection (node-postgres remembers which connection has prepared which name).
 */
const statementNames = new Map<string, string>();
function statement(text: string, params: readonly unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (name === undefined) statementNames.set(text, (name = `torre_${statementNames.size + 1}`));
  return { name, text: toPostgresSql(text), values: params as unknown[] };
}

function clientSession(client: Queryable): Session {
  return {
    db: drizzle({ client }) as unknown as Db,
    all: async <T>(text: string, params: readonly unknown[] = []) =>
      (await client.query(statement(text, params))).rows as T[],
    run: async (text: string, params: readonly unknown[] = []) =>
      (await client.query(statement(text, params))).rowCount ?? 0,
  };
}

/** The session of each pooled connection (the pool hands the same connections out again and again). */
const connectionSessions = new WeakMap<pg.PoolClient, Session>();
function sessionOf(client: pg.PoolClient): Session {
  let found = connectionSessions.get(client);
  if (!found) connectionSessions.set(client, (found = clientSession(client)));
  return found;
}

/** SQLSTATEs after which a transaction may run again: serialization failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);

/** The first SQLSTATE along an error's `cause` chain (drizzle wraps the driver's errors). */
export function sqlState(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

function postgresEngine(p: pg.Pool): Engine {
  return {
    reader: clientSession(p),
    async begin(opts?: TxOptions): Promise<TxSession> {
      const client = await p.connect();
      let broken: Error | undefined;
      try {
        // One round trip for both (the simple query protocol runs several statements).
        await client.query(opts?.shownWriter ? `BEGIN; ${SHOWN_WRITER_SQL}` : 'BEGIN');
      } catch (err) {
        client.release(err as Error);
        throw err;
      }
      const exec = async (text: string) => {
        await client.query(text);
      };
      return {
        ...sessionOf(client),
        exec,
        commit: () => exec('COMMIT'),
        rollback: () =>
          exec('ROLLBACK').catch((err: unknown) => {
            // A connection that cannot roll back is not given back to the pool.
            broken = err as Error;
          }),
        release: () => client.release(broken),
      };
    },
    retryable: (err) => RETRYABLE.has(sqlState(err) ?? ''),
  };
}

function newPool(url: string, max: number): pg.Pool {
  const next = new pg.Pool({ connectionString: url, max, types: parsers });
  // An idle connection that breaks (the server restarted) is dropped from the pool, not a crash.
  next.on('error', () => {});
  return next;
}

/** Connects to DATABASE_URL and migrates it (once, even with several nodes starting together). */
export async function openPostgres(url: string): Promise<pg.Pool> {
  const next = newPool(url, POOL_SIZE);
  try {
    await migratePostgres(next);
  } catch (err) {
    await next.end();
    throw err;
  }
  pool = next;
  useEngine(postgresEngine(next));
  readThreads.bind(url);
  return next;
}

/** A read thread's database (./read-pool.ts): a small pool to the server's URL that only reads. */
export function openPostgresReader(url: string): void {
  pool = newPool(url, READ_THREAD_POOL_SIZE);
  useEngine(readOnlyEngine(clientSession(pool)));
}

export async function closePostgres(): Promise<void> {
  readThreads.bind(undefined);
  useEngine(undefined);
  const p = pool;
  pool = undefined;
  await p?.end();
}

/** The open pool (health facts, tests). */
export function postgresPool(): pg.Pool {
  if (!pool) throw new Error('PostgreSQL not open');
  return pool;
}
