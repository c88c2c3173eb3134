// Builds the Express app (no listen): API under /api, then the built client with an SPA fallback.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import helmet from 'helmet';
import { JSON_BODY_LIMIT, LOCATION_IMPORT_BODY_LIMIT } from '@shared/constants';
import { config } from './config';
import { errorHandler, notFoundHandler } from './http/errors';
import { forwardedFromProxyOnly } from './http/forwarded';
import { idempotency, keepRawBody } from './http/idempotency';
import { apiRoutes } from './routes';

/** The built client; CLIENT_DIST lets parallel test runs serve their own build. */
export const CLIENT_DIST =
  process.env.CLIENT_DIST ?? fileURLToPath(new URL('../dist/client', import.meta.url));

/** The origin of a configured URL (`https://api.example.com/x` → `https://api.example.com`), if any. */
function originOf(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? [] : [origin];
  } catch {
    return [];
  }
}

export function createApp(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // CONTRACT §14: X-Forwarded-For is believed only from the proxies TRUST_PROXY names (off by default),
  // so nobody picks the address the login limits count by.
  app.set('trust proxy', config.trustProxy);
  app.use(forwardedFromProxyOnly(config.proxySecret));
  // Where the page may connect: itself (a same-origin WebSocket included) and the configured API / client
  // origins (an https: origin also allows its wss: socket), never any ws:/wss: host.
  const connectSrc = [
    ...new Set(["'self'", ...originOf(config.corsOrigin), ...originOf(process.env.VITE_API_URL)]),
  ];
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'blob:'],
          'connect-src': connectSrc,
          'media-src': ["'self'", 'data:', 'blob:'],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: false,
    }),
  );
  // API answers are per user and change all the time: no browser or proxy keeps a copy (errors too).
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  if (config.corsOrigin) {
    const origin = config.corsOrigin;
    app.use('/api', (req, res, next) => {
      if (req.headers.origin === origin) {
        res.setHeader('Access-Control-Allow-Origin', origin);
        res.setHeader('Vary', 'Origin');
        res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key');
        res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS');
        res.setHeader('Access-Control-Expose-Headers', 'Content-Disposition');
      }
      if (req.method === 'OPTIONS') return void res.sendStatus(204);
      next();
    });
  }
  // CONTRACT §16, §23: every authenticated POST honours an Idempotency-Key (server/http/idempotency.ts),
  // bound to its raw body: the parsers keep it (keepRawBody) for the key's fingerprint.
  // A yard's whole catalogue as CSV may exceed the other requests' limit (the JSON parser below then
  // finds the body read already).
  app.use(
    '/api/admin/locations/import',
    express.json({ limit: LOCATION_IMPORT_BODY_LIMIT, verify: keepRawBody }),
  );
  app.use(
    '/api',
    express.json({ limit: JSON_BODY_LIMIT, verify: keepRawBody }),
    idempotency,
    apiRoutes,
    notFoundHandler,
  );

  if (config.serveClient && fs.existsSync(path.join(CLIENT_DIST, 'index.html'))) {
    app.use(
      express.static(CLIENT_DIST, {
        index: false,
        maxAge: '1h',
        // The service worker and the manifest are looked up again on every visit (CONTRACT §16): a new
        // release reaches the phones at their next launch; hashed build files never change.
        setHeaders(res, file) {
          const name = path.basename(file);
          if (name === 'sw.js' || name === 'manifest.webmanifest') res.setHeader('Cache-Control', 'no-cache');
          else if (file.includes(`${path.sep}assets${path.sep}`))
            res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        },
      }),
    );
    app.get(/^\/(?!api\/|socket\.io\/).*/, (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path.join(CLIENT_DIST, 'index.html'));
    });
  }
  app.use(errorHandler);
  return app;
}
