// Who may name a client's address (CONTRACT §14, §23). Express believes X-Forwarded-For from the proxies
// TRUST_PROXY names; on one machine (`npm run cluster`) that is loopback, which any local program can also
// reach a node's port from. With PROXY_SECRET set, the forwarded headers are believed only from a request
// that carries the secret the proxy adds: anything else is taken as coming from its socket's own address.
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

/** The header the cluster's proxy puts the shared secret in (dropped before any route sees it). */
export const PROXY_SECRET_HEADER = 'x-torre-proxy-secret';

const sameSecret = (given: string, secret: string): boolean => {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(secret).digest();
  return crypto.timingSafeEqual(a, b);
};

/** Drops X-Forwarded-* from a request that does not prove it came through the proxy; drops the proof. */
export function screenForwarded(req: IncomingMessage, secret: string | undefined): void {
  if (secret === undefined) return;
  const given = req.headers[PROXY_SECRET_HEADER];
  delete req.headers[PROXY_SECRET_HEADER];
  if (typeof given === 'string' && sameSecret(given, secret)) return;
  for (const name of Object.keys(req.headers)) if (name.startsWith('x-forwarded-')) delete req.headers[name];
}

/** The Express middleware of screenForwarded, first in the chain (before anything reads req.ip). */
export const forwardedFromProxyOnly =
  (secret: string | undefined): RequestHandler =>
  (req, _res, next) => {
    screenForwarded(req, secret);
    next();
  };
