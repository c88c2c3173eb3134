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

/**
 * A pooled connection as a transaction uses it. The pool's connections pipeline (node-postgres
 * `pipeline: true`): a statement leaves at once, without waiting for the answers of those before it, and
 * PostgreSQL answers them in order. So a transaction's control statements (BEGIN, SAVEPOINT) and the
 * statements whose answer nothing reads (locks, history and log rows: `sendAhead`) leave with those that
 * follow them instead of costing a round trip each; the next statement that is awaited (or the step's
 * end, or COMMIT) takes their answers with its own and fails with the first of their failures. A
 * savepoint whose step succeeded is not released: COMMIT ends it with the transaction, nothing goes back
 * to it, and the statements after it run inside it unchanged. (docs/PERFORMANCE.md, sessions 18 and 21.)
 */
class TxConnection {
  /** Control statements not sent yet: sent with the next statement, in one message when it can be. */
  private waiting: string[] = [];
  /** Statements sent whose answers nobody has taken yet, in the order they left. */
  private unanswered: Promise<unknown>[] = [];
  /** Whether BEGIN has reached the server (a transaction that never ran a statement sends nothing). */
  private begun = false;
  readonly session: Session;

  constructor(private readonly client: pg.PoolClient) {
    // drizzle sends its statements through this object: what waits goes first.
    const sending = {
      query: (...args: Parameters<pg.PoolClient['query']>) => {
        this.flush();
        return this.answer((client.query as (...a: typeof args) => Promise<unknown>)(...args));
      },
    };
    this.session = {
      db: drizzle({ client: sending as unknown as pg.PoolClient }) as unknown as Db,
      all: async <T>(text: string, params: readonly unknown[] = []) =>
        (await this.query(text, params)).rows as T[],
      run: async (text: string, params: readonly unknown[] = []) =>
        (await this.query(text, params)).rowCount ?? 0,
      sendAhead: (text: string, params: readonly unknown[] = []) => {
        if (params.length === 0 && this.waiting.length)
          this.send(this.client.query([...this.take(), toPostgresSql(text)].join('; ')));
        else {
          this.flush();
          this.send(this.client.query(statement(text, params)));
        }
      },
    };
  }

  begin(first: string): void {
    this.waiting = [first];
    this.unanswered = [];
    this.begun = false;
  }

  /** Opens a savepoint once what was sent before it is answered: a failure there is not the step's. */
  async savepoint(name: string): Promise<void> {
    await this.settle();
    this.waiting.push(`SAVEPOINT ${name}`);
  }

  async undoSavepoint(name: string): Promise<void> {
    // What the step sent is undone with it, failures included.
    await this.dropAnswers();
    const at = this.waiting.indexOf(`SAVEPOINT ${name}`);
    // Never sent: nothing ran under it (nor under the savepoints queued after it).
    if (at >= 0) this.waiting.length = at;
    else {
      // What waits was queued after it was sent: nested in it, undone with it.
      this.waiting = [];
      await this.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
    }
  }

  /** Takes the answers of what was sent: the first failure among them is thrown. */
  settle(): Promise<void> {
    return this.answer(Promise.resolve()).then(() => {});
  }

  async commit(): Promise<void> {
    this.waiting = [];
    if (!this.begun) return;
    const answer = (await this.answer(this.client.query('COMMIT'))) as pg.QueryResult;
    // PostgreSQL ends a failed transaction's COMMIT as a ROLLBACK, without an error.
    if (answer.command !== 'COMMIT') throw new Error('la transacción falló y se deshizo al confirmarla');
  }

  /** ROLLBACK, once what was sent is answered: nothing at all when no statement ever left. */
  async rollback(): Promise<void> {
    this.waiting = [];
    await this.dropAnswers();
    if (this.begun) await this.client.query('ROLLBACK');
  }

  private async query(text: string, params: readonly unknown[]): Promise<pg.QueryResult> {
    if (params.length === 0 && this.waiting.length) {
      // One message, several statements: the answer of the last is the statement's.
      const answers = (await this.answer(
        this.client.query([...this.take(), toPostgresSql(text)].join('; ')),
      )) as unknown as pg.QueryResult | pg.QueryResult[];
      return Array.isArray(answers) ? answers[answers.length - 1]! : answers;
    }
    this.flush();
    return this.answer(this.client.query(statement(text, params)));
  }

  /** Sends what waits, without waiting for its answer. */
  private flush(): void {
    if (this.waiting.length) this.send(this.client.query(this.take().join('; ')));
  }

  private send(answer: Promise<unknown>): void {
    // Taken (and its failure thrown) by the next answer(): never an unhandled rejection meanwhile.
    answer.catch(() => {});
    this.unanswered.push(answer);
  }

  /**
   * The answer of the statement just sent, once every statement sent before it is answered too (they are,
   * in order): the first failure among them is the transaction's, whatever the later ones then say
   * ("current transaction is aborted").
   */
  private async answer<T>(last: Promise<T>): Promise<T> {
    const earlier = this.unanswered;
    this.unanswered = [];
    if (earlier.length) {
      const failed = (await Promise.allSettled(earlier)).find((a) => a.status === 'rejected');
      if (failed) {
        last.catch(() => {});
        throw failed.reason;
      }
    }
    return last;
  }

  private async dropAnswers(): Promise<void> {
    const sent = this.unanswered;
    this.unanswered = [];
    await Promise.allSettled(sent);
  }

  private take(): string[] {
    const sent = this.waiting;
    this.waiting = [];
    this.begun = true;
    return sent;
  }
}

/** The transaction side of each pooled connection (the pool hands the same connections out again). */
const connections = new WeakMap<pg.PoolClient, TxConnection>();
function txConnection(client: pg.PoolClient): TxConnection {
  let found = connections.get(client);
  if (!found) connections.set(client, (found = new TxConnection(client)));
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
      const conn = txConnection(client);
      conn.begin(opts?.shownWriter ? `BEGIN; ${SHOWN_WRITER_SQL}` : 'BEGIN');
      let broken: Error | undefined;
      return {
        ...conn.session,
        savepoint: (name) => conn.savepoint(name),
        // The step's writes sent but not yet answered are its own: their failure is the step's.
        keepSavepoint: () => conn.settle(),
        undoSavepoint: (name) => conn.undoSavepoint(name),
        commit: () => conn.commit(),
        rollback: () =>
          conn.rollback().catch((err: unknown) => {
            // A connection that cannot roll back is not given back to the pool.
            broken = err as Error;
          }),
        release: () => client.release(broken),
      };
    },
    retryable: (err) => RETRYABLE.has(sqlState(err) ?? ''),
  };
}

/** node-postgres's socket to the server (not in its typings): the protocol's messages are written to it. */
interface ClientInternals {
  connection: { stream: { write: (...args: never[]) => boolean; cork(): void; uncork(): void } };
}

/**
 * What a connection sends in one turn of the event loop leaves in one write. node-postgres writes each
 * statement as soon as it is asked for (its messages corked together), so a pipelined transaction wrote
 * once per statement: BEGIN, then the statement it goes with; the rows sent ahead, then the next
 * statement; the sockets' three reads. On a loopback socket each write is a system call that also wakes
 * the server's process: a large part of a write's cost under load (docs/PERFORMANCE.md, session 22).
 * Corked at the turn's first write, uncorked at the next tick (process.nextTick: when the write came from a
 * promise's continuation, once the continuations due with it have run): nothing waits past its turn.
 */
function writeOncePerTurn(client: pg.PoolClient): void {
  const stream = (client as unknown as ClientInternals).connection.stream;
  const write = stream.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  stream.write = function (this: unknown, ...args: never[]) {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    return write.apply(this, args);
  };
}

function newPool(url: string, max: number, options?: string): pg.Pool {
  const next = new pg.Pool({ connectionString: url, max, types: parsers, options, pipeline: true });
  // An idle connection that breaks (the server restarted) is dropped from the pool, not a crash.
  next.on('error', () => {});
  next.on('connect', writeOncePerTurn);
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

/**
 * A read thread's database (./read-pool.ts): a small pool to the server's URL that only reads. Its named
 * statements are planned for their values at every run: after five runs PostgreSQL may keep a generic
 * plan, which neither sees a term's selectivity nor folds it once (the search's page for "muelle" over
 * 100,000 tasks: 13.5 ms, torre_fold() again for every row tested, against 0.9 ms of planning + 5.5 ms),
 * and a long read's planning is small beside its run.
 */
export function openPostgresReader(url: string): void {
  pool = newPool(url, READ_THREAD_POOL_SIZE, '-c plan_cache_mode=force_custom_plan');
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
