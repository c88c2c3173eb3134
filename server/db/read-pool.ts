// Long reads off the event loop (issue 31). better-sqlite3 runs a statement on the calling thread, so a
// read of tens of milliseconds (a search, a report, the indicators, an export) used to hold the event
// loop, and the stats of a screen or a driver's completion waited behind it on one core. On PostgreSQL
// the query itself leaves the loop, but building a 500-row page and encoding its JSON did not. Here such
// a read runs on one of READ_THREADS worker threads instead, each with a read-only connection of its own
// to the server's database: SQLite's file (./sqlite.ts openReadOnlyDb; in WAL mode it reads beside the
// one writer) or PostgreSQL's DATABASE_URL (./postgres.ts openPostgresReader, a small pool). Either way
// each statement sees every transaction committed before it starts, as the server's own reader does
// (CONTRACT §23: a read that starts after a write's answer reflects it). What a thread runs is the
// server's own code (server/reads/thread.ts imports the same service modules), one read at a time.
//
// The threads start with the first long read of the process and stay, idle and unref'd, until it ends:
// loading the services into a thread takes seconds, and tests open hundreds of databases in a process.
// Their connections do not stay: they close with the server's database (closeDb, closePostgres), and a
// thread opens the database of its next job. An in-memory SQLite database has no threads: its reads run
// inline.
import { fileURLToPath } from 'node:url';
import { Worker, parentPort, type Transferable } from 'node:worker_threads';
import type { Engine, Session } from '.';
import { isPostgres } from './engine';
import { closeDb, openReadOnlyDb } from './sqlite';
import { closePostgres, openPostgresReader } from './postgres';

/** Threads for long reads: the second core, and a second read while one export runs for seconds. */
export const READ_THREADS = 2;

/** How a thread starts: tsx registered (the server and its tests run TypeScript), then its module. */
const TSX_API = import.meta.resolve('tsx/esm/api');
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
const bootOf = (module: string) =>
  `import(${JSON.stringify(TSX_API)}).then(({ register }) => {
    register({ tsconfig: ${JSON.stringify(TSCONFIG)} });
    return import(${JSON.stringify(module)});
  })`;

type ToThread = { database: string; payload: unknown } | { release: true };
type FromThread = { reply: unknown } | { error: ThreadErrorFields };

/** What crosses the threads of an error: enough for the error handler to answer it as it would inline. */
interface ThreadErrorFields {
  message: string;
  stack?: string;
  /** The driver's code, from the error or its cause (a storage failure is a 503). */
  code?: string;
  /** An HttpError's status and Spanish detail. */
  status?: number;
  detail?: string;
}

/** An error a read thread met, as it reached the pool (server/reads/ turns a refusal back into its HttpError). */
export class ReadThreadError extends Error {
  override name = 'ReadThreadError';
  readonly code?: string;
  readonly status?: number;
  readonly detail?: string;
  constructor(fields: ThreadErrorFields) {
    super(fields.message);
    if (fields.stack) this.stack = fields.stack;
    this.code = fields.code;
    this.status = fields.status;
    this.detail = fields.detail;
  }
}

interface Job {
  database: string;
  payload: unknown;
  resolve: (reply: unknown) => void;
  reject: (err: unknown) => void;
}

interface Thread {
  worker: Worker;
  job?: Job;
}

/**
 * Threads running `module` (a module that calls serveReadThread), at most `size`, started as jobs need
 * them; each job runs on the database the pool is bound to when it is queued.
 */
export class ReadPool {
  /** The database the threads read (SQLite's file, PostgreSQL's URL); undefined while none is open. */
  private database: string | undefined;
  private readonly threads: Thread[] = [];
  private readonly queue: Job[] = [];

  constructor(
    private readonly module: string,
    private readonly size: number,
  ) {}

  /** Called as the server opens (its file or URL) and closes (undefined) its database. */
  bind(database: string | undefined): void {
    if (database === this.database) return;
    this.database = database;
    // Reads of the closed database fail as they would inline: those queued now, those in flight at their
    // next statement. The next job opens the new database.
    for (const job of this.queue.splice(0)) job.reject(new Error('database not open'));
    for (const thread of this.threads) thread.worker.postMessage({ release: true } satisfies ToThread);
  }

  /** True while bound to a database: jobs run on the threads. */
  get available(): boolean {
    return this.database !== undefined;
  }

  /** Runs one job on the next free thread; resolves with the thread's reply, rejects with a ReadThreadError. */
  run(payload: unknown): Promise<unknown> {
    const database = this.database;
    if (database === undefined) return Promise.reject(new Error('database not open'));
    return new Promise((resolve, reject) => {
      this.queue.push({ database, payload, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length) {
      let thread = this.threads.find((t) => !t.job);
      if (!thread) {
        if (this.threads.length >= this.size) return;
        thread = this.startThread();
      }
      const job = this.queue.shift()!;
      thread.job = job;
      // A read in flight keeps the process up, as a query would; an idle thread does not.
      thread.worker.ref();
      thread.worker.postMessage({ database: job.database, payload: job.payload } satisfies ToThread);
    }
  }

  private startThread(): Thread {
    const thread: Thread = { worker: new Worker(bootOf(this.module), { eval: true }) };
    this.threads.push(thread);
    const settle = (settleJob: (job: Job) => void) => {
      const { job } = thread;
      thread.job = undefined;
      thread.worker.unref();
      if (job) settleJob(job);
      this.dispatch();
    };
    thread.worker.on('message', (message: FromThread) =>
      settle((job) =>
        'error' in message ? job.reject(new ReadThreadError(message.error)) : job.resolve(message.reply),
      ),
    );
    // A thread that fails outside a job's handling (it could not load, say) is replaced at the next job.
    const lose = (err: Error) => {
      const at = this.threads.indexOf(thread);
      if (at < 0) return;
      this.threads.splice(at, 1);
      settle((job) => job.reject(err));
    };
    thread.worker.on('error', lose);
    thread.worker.on('exit', (code) => lose(new Error(`read thread exited (${code})`)));
    return thread;
  }
}

/** The server's long reads (server/reads/long-reads.ts), bound to its database as it opens and closes it. */
export const readThreads = new ReadPool(new URL('../reads/thread.ts', import.meta.url).href, READ_THREADS);

// ---- In a read thread ------------------------------------------------------------------------------

/** The engine of a read thread's connection: reads only (a read thread never writes). */
export function readOnlyEngine(reader: Session): Engine {
  return {
    reader,
    begin: () => Promise.reject(new Error('a read thread never writes')),
    retryable: () => false,
  };
}

/**
 * Serves the pool's jobs in a read thread: each on a read-only connection to its database (opened at the
 * first job for it, closed when the server closes its database), answered by `handle` with its reply and
 * the buffers to move rather than copy.
 */
export function serveReadThread(
  handle: (payload: unknown) => Promise<{ reply: unknown; transfer: Transferable[] }>,
): void {
  const port = parentPort!;
  let open: string | undefined;
  const close = async () => {
    const was = open;
    open = undefined;
    if (was !== undefined) await (isPostgres ? closePostgres() : closeDb());
  };
  const serve = async (message: ToThread) => {
    if ('release' in message) return close();
    try {
      if (message.database !== open) {
        await close();
        if (isPostgres) openPostgresReader(message.database);
        else openReadOnlyDb(message.database);
        open = message.database;
      }
      const { reply, transfer } = await handle(message.payload);
      port.postMessage({ reply } satisfies FromThread, transfer);
    } catch (err) {
      port.postMessage({ error: errorFields(err) } satisfies FromThread);
    }
  };
  // One message after the other: closing a PostgreSQL pool takes a round trip the next job must await.
  let last: Promise<unknown> = Promise.resolve();
  port.on('message', (message: ToThread) => {
    // A pool that fails to end (its database dropped) is let go: the next job opens its own.
    last = last.then(() => serve(message)).catch(() => {});
  });
}

function errorFields(err: unknown): ThreadErrorFields {
  const { status, detail } = (err ?? {}) as { status?: unknown; detail?: unknown };
  let code: string | undefined;
  // drizzle wraps the driver's error (and its code) in `cause`.
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4 && !code; depth++) {
    const value = (e as { code?: unknown }).code;
    if (typeof value === 'string') code = value;
    e = (e as { cause?: unknown }).cause;
  }
  return {
    message: err instanceof Error ? err.message : String(err),
    stack: err instanceof Error ? err.stack : undefined,
    code,
    status: typeof status === 'number' ? status : undefined,
    detail: typeof detail === 'string' ? detail : undefined,
  };
}
