import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { ERR } from '@shared/labels';
import { zodDetail } from '@shared/schemas';
import { isStorageFailure } from '../db';
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
  // A disk that refuses (read-only, full, failing, the file gone): 503, never a 500 (CONTRACT §3, §14).
  if (isStorageFailure(err)) {
    logger.error({ err, method: req.method, url: req.originalUrl }, 'el almacenamiento no acepta escrituras');
    res.status(503).json({ detail: ERR.storageUnavailable });
    return;
  }
  logger.error({ err, method: req.method, url: req.originalUrl }, 'unhandled error');
  res.status(500).json({ detail: ERR.internal });
};
