import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { ERR } from '@shared/labels';
import { zodDetail } from '@shared/schemas';
import { isStorageFailure } from '../db';
import { uniqueViolation } from '../db/dialect';
import { logger } from '../logger';

/** An expected refusal: its status and the Spanish `detail` the client shows (CONTRACT §3). */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly detail: string,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail: string = ERR.unauthorized) => new HttpError(401, detail);
export const forbidden = (detail: string = ERR.forbidden) => new HttpError(403, detail);
export const notFound = (detail: string) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ detail: ERR.notFoundRoute });
};

// ---- Database errors, the same answers on both engines (CONTRACT §3, §14, §18) -------------------------
// What a database error means for the caller, decided here once for SQLite and PostgreSQL:
//   - the database cannot be reached or cannot keep a write → 503 `storageUnavailable`, never a 500.
//     SQLite: the disk refuses (isStorageFailure). PostgreSQL: the connection is refused, lost or timed
//     out, the server is shutting down or starting (57P01–57P03), out of connections, memory or disk
//     (class 53), an I/O error (class 58), a read-only server (25006: a standby after a failover), or
//     the connection is refused its login or database (classes 28, 3D). Like SQLite's full disk, the
//     request changed nothing (its transaction rolled back) and may simply be sent again.
//   - a value PostgreSQL refuses where SQLite stores or compares it as it is (the data exceptions of an
//     input value: a NUL byte, a number out of range, text for a typed column, a too-long value, a
//     malformed date) → 400, bad input: the input schemas normally refuse such values first (NUL is
//     stripped, numbers are bounded); this is the net under them. A value too large for an index
//     (54000) → 413. Other data exceptions (a division by zero…) are the server's own: 500.
//   - a unique index: the services turn the ones a request can meet into their 409 through
//     uniqueViolation() (the same `table.column` on both engines: accounts, tasks/apply); one that
//     reaches this handler is a bug on both engines alike (500), logged with its index's column.
// Anything else stays a 500 (logged).

/** Node's socket errors of a connection to PostgreSQL that cannot be made or was lost. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's own words for a lost or unobtainable connection (they carry no code). */
const CONNECTION_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end)/;
/** SQLSTATEs of a PostgreSQL that cannot be reached or cannot keep a write (see above). */
const UNAVAILABLE_STATE = /^(?:(?:08|28|3D|53|58)[0-9A-Z]{3}|57P0[123]|25006)$/;

/** The errors along a `cause` chain (drizzle wraps the driver's error). */
function* causes(err: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    yield e as { code?: unknown; message?: unknown };
    e = (e as { cause?: unknown }).cause;
  }
}

/** True when the database cannot be reached or cannot keep a write, on either engine: a 503. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (isStorageFailure(err)) return true;
  for (const { code, message } of causes(err)) {
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_STATE.test(code))) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  }
  return false;
}

/**
 * PostgreSQL's data exceptions for an input value SQLite takes as it is: string too long, number out of
 * range, invalid text for the type, invalid byte sequence (NUL), untranslatable character, invalid or
 * overflowing date-time.
 */
const INPUT_VALUE_STATES = new Set(['22001', '22003', '22P02', '22021', '22P05', '22007', '22008']);

/** The answer for a value PostgreSQL refuses where SQLite takes it (see above), or undefined. */
function refusedValue(err: unknown): HttpError | undefined {
  for (const { code } of causes(err)) {
    if (typeof code !== 'string') continue;
    if (INPUT_VALUE_STATES.has(code)) return new HttpError(400, ERR.invalidJson);
    if (code === '54000') return new HttpError(413, ERR.bodyTooLarge);
  }
  return undefined;
}

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  if (res.headersSent) return;
  if (err instanceof HttpError) {
    res.status(err.status).json({ detail: err.detail });
    return;
  }
  if (err instanceof ZodError) {
    res.status(400).json({ detail: zodDetail(err) });
    return;
  }
  const e = err as BodyParserError;
  if (e?.type === 'entity.parse.failed') {
    res.status(400).json({ detail: ERR.invalidJson });
    return;
  }
  if (e?.type === 'entity.too.large') {
    res.status(413).json({ detail: ERR.bodyTooLarge });
    return;
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    res.status(e.status).json({ detail: ERR.invalidJson });
    return;
  }
  // A disk that refuses (read-only, full, failing, the file gone), a PostgreSQL that cannot be reached:
  // 503, never a 500 (CONTRACT §3, §14, §18).
  if (isDatabaseUnavailable(err)) {
    logger.error({ err, method: req.method, url: req.originalUrl }, 'el almacenamiento no acepta escrituras');
    res.status(503).json({ detail: ERR.storageUnavailable });
    return;
  }
  const refused = refusedValue(err);
  if (refused) {
    logger.warn({ err, method: req.method, url: req.originalUrl }, 'valor rechazado por la base de datos');
    res.status(refused.status).json({ detail: refused.detail });
    return;
  }
  const unique = uniqueViolation(err);
  logger.error({ err, unique, method: req.method, url: req.originalUrl }, 'unhandled error');
  res.status(500).json({ detail: ERR.internal });
};
