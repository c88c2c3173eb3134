// Environment → typed configuration (CONTRACT §2). Read once; tests may override with configure().
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import express from 'express';
import { PUSH_STARTUP_ERR, STARTUP_ERR } from '@shared/labels';
import { email, newPassword } from '@shared/schemas/auth';
import { HANDOVER_ERR } from '@shared/labels/handover';
import { API_KEY_RATE_PER_MIN_DEFAULT } from '@shared/constants';
import { DEFAULT_SHIFT_STARTS, parseShiftStarts, type ShiftStarts } from '@shared/shifts';

/**
 * An operator's mistake found at start-up (CONTRACT §14): server/index.ts prints its message, one
 * Spanish line on stderr, and exits with code 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** The shortest JWT_SECRET accepted: HS256 keys shorter than the hash (32 bytes) are guessable. */
export const JWT_SECRET_MIN = 32;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface Config {
  port: number;
  host: string;
  dbPath: string;
  /** DATABASE_URL (CONTRACT §18): PostgreSQL instead of the SQLite file at dbPath. */
  databaseUrl: string | undefined;
  dataDir: string;
  jwtSecret: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  corsOrigin: string | undefined;
  /** TRUST_PROXY (CONTRACT §14): off, a hop count, or Express's comma list of addresses/CIDRs. */
  trustProxy: number | string | false;
  /**
   * PROXY_SECRET (CONTRACT §23): set by `npm run cluster` for its nodes. X-Forwarded-* is then believed only
   * from a request carrying it in PROXY_SECRET_HEADER (what the proxy adds), so a request sent straight to a
   * node's port cannot pick the address the login limits count it by.
   */
  proxySecret: string | undefined;
  logLevel: string;
  bcryptCost: number;
  testClock: boolean;
  serveClient: boolean;
  /** Web Push (CONTRACT §16): VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY, else generated once (services/push.ts). */
  vapidPublicKey: string | undefined;
  vapidPrivateKey: string | undefined;
  vapidSubject: string;
  /** TLS_CERT + TLS_KEY (CONTRACT §16): PEM files; with them the server speaks HTTPS itself. */
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  /**
   * PUSH_ALLOWED_HOSTS (CONTRACT §23): push services besides the browsers' own, as the URL parser writes
   * their host names; any port, trusted as listed (services/push.ts).
   */
  pushAllowedHosts: string[];
  /** PUSH_PROXY: an http(s) proxy the pushes go through (web-push's `proxy` option). */
  pushProxy: string | undefined;
  /**
   * SHIFT_STARTS (CONTRACT §20, §22): where the shifts start, minutes after Madrid midnight (shared/shifts.ts);
   * empty when the variable is not three ascending HH:mm (checkConfig refuses it).
   */
  shiftStarts: ShiftStarts;
  /** WEBHOOK_ALLOW_LOOPBACK=1 (CONTRACT §21, tests only): webhooks may go to loopback, never link-local. */
  webhookAllowLoopback: boolean;
  /** API_KEY_RATE_PER_MIN (CONTRACT §21): requests a minute per API key, across nodes. */
  apiKeyRatePerMin: number;
}

/** Who the push services may contact about this server's pushes, unless VAPID_SUBJECT says otherwise. */
export const DEFAULT_VAPID_SUBJECT = 'mailto:admin@torre.local';

function readEnv(env: NodeJS.ProcessEnv): Omit<Config, 'jwtSecret'> & { jwtSecret?: string } {
  const dbPath = env.DB_PATH ?? './data/torre.db';
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dbPath,
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    dataDir: dbPath === ':memory:' ? path.resolve('./data') : path.dirname(path.resolve(dbPath)),
    jwtSecret: env.JWT_SECRET,
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD,
    corsOrigin: env.CORS_ORIGIN,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    proxySecret: env.PROXY_SECRET?.trim() || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    bcryptCost: Number(env.BCRYPT_COST ?? 12),
    testClock: env.TEST_CLOCK === '1',
    serveClient: env.SERVE_CLIENT !== '0',
    vapidPublicKey: env.VAPID_PUBLIC_KEY?.trim() || undefined,
    vapidPrivateKey: env.VAPID_PRIVATE_KEY?.trim() || undefined,
    vapidSubject: env.VAPID_SUBJECT?.trim() || DEFAULT_VAPID_SUBJECT,
    tlsCert: env.TLS_CERT?.trim() || undefined,
    tlsKey: env.TLS_KEY?.trim() || undefined,
    pushAllowedHosts: (env.PUSH_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean)
      .map((h) => hostName(h) ?? h),
    pushProxy: env.PUSH_PROXY?.trim() || undefined,
    apiKeyRatePerMin: Number(env.API_KEY_RATE_PER_MIN ?? API_KEY_RATE_PER_MIN_DEFAULT),
    shiftStarts: env.SHIFT_STARTS?.trim() ? (parseShiftStarts(env.SHIFT_STARTS) ?? []) : DEFAULT_SHIFT_STARTS,
    webhookAllowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === '1',
  };
}

/**
 * A bare host (a name or an address, `[…]` for IPv6) as the WHATWG URL parser writes it (lower case,
 * IPv4 in dotted decimal), or null when it is more than a host (a port, a path, credentials) or none.
 */
export function hostName(entry: string): string | null {
  try {
    const url = new URL(`https://${entry}`);
    const bare = url.host === url.hostname && url.pathname === '/' && !url.username && !url.password;
    return bare && !url.search && !url.hash && !entry.includes('/') ? url.hostname : null;
  } catch {
    return null;
  }
}

/** Off unless set: only a proxy named here makes X-Forwarded-For believed (`1` = one hop). */
export function parseTrustProxy(value: string | undefined): number | string | false {
  const v = value?.trim() ?? '';
  if (v === '' || v === '0' || v.toLowerCase() === 'false') return false;
  return /^\d+$/.test(v) ? Number(v) : v;
}

/** The JWT secret: from the environment, else generated once and kept in the data folder. */
function resolveSecret(fromEnv: string | undefined, dataDir: string, inMemory: boolean): string {
  if (fromEnv) return fromEnv;
  if (inMemory) return crypto.randomBytes(32).toString('hex');
  const file = path.join(dataDir, 'jwt-secret');
  try {
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = newJwtSecret();
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  } catch (err) {
    throw new StartupError(STARTUP_ERR.secretFile(file, (err as NodeJS.ErrnoException).code ?? String(err)));
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const base = readEnv(env);
  // On PostgreSQL a secret JWT_SECRET does not give is kept in the database (CONTRACT §18), so that every
  // node shares it: the server reads it once connected (server.ts). Empty until then.
  if (base.databaseUrl) return { ...base, jwtSecret: base.jwtSecret ?? '' };
  return { ...base, jwtSecret: resolveSecret(base.jwtSecret, base.dataDir, base.dbPath === ':memory:') };
}

/** Where a generated JWT secret is kept on PostgreSQL (app_settings). */
export const JWT_SECRET_SETTING = 'jwt_secret';
export const newJwtSecret = (): string => crypto.randomBytes(48).toString('hex');

// Importing this module never throws: a refusal found while loading waits for checkConfig(), so
// server/index.ts can print it as one line.
let loadRefusal: StartupError | undefined;
function loadAtImport(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof StartupError)) throw err;
    loadRefusal = err;
    return { ...readEnv(process.env), jwtSecret: '' };
  }
}

export let config: Config = loadAtImport();

/** Refuses a configuration the server must not start with (CONTRACT §14); the server calls it first. */
export function checkConfig(c: Config = config): void {
  if (loadRefusal && c.jwtSecret === '') throw loadRefusal;
  // On PostgreSQL without JWT_SECRET the secret comes from the database once connected.
  const fromDatabase = c.databaseUrl !== undefined && c.jwtSecret === '';
  if (!fromDatabase && c.jwtSecret.length < JWT_SECRET_MIN)
    throw new StartupError(STARTUP_ERR.jwtSecretShort(c.jwtSecret.length));
  // The first admin's credentials pass the rules a registration must pass.
  const adminEmail = c.adminEmail === undefined ? undefined : email.safeParse(c.adminEmail);
  if (adminEmail?.error) throw new StartupError(STARTUP_ERR.adminEmail(adminEmail.error.issues[0].message));
  const adminPassword = c.adminPassword === undefined ? undefined : newPassword.safeParse(c.adminPassword);
  if (adminPassword?.error)
    throw new StartupError(STARTUP_ERR.adminPassword(adminPassword.error.issues[0].message));
  if (!Number.isInteger(c.port) || c.port < 0 || c.port > 65535)
    throw new StartupError(STARTUP_ERR.port(process.env.PORT ?? String(c.port)));
  if (!Number.isInteger(c.bcryptCost) || c.bcryptCost < 4 || c.bcryptCost > 31)
    throw new StartupError(STARTUP_ERR.bcryptCost(process.env.BCRYPT_COST ?? String(c.bcryptCost)));
  // The proxy's secret is a password for the right to name a client's address: as long as a JWT secret.
  if (c.proxySecret !== undefined && c.proxySecret.length < JWT_SECRET_MIN)
    throw new StartupError(STARTUP_ERR.proxySecretShort(c.proxySecret.length));
  if (!Number.isInteger(c.apiKeyRatePerMin) || c.apiKeyRatePerMin < 1)
    throw new StartupError(
      STARTUP_ERR.apiKeyRate(process.env.API_KEY_RATE_PER_MIN ?? String(c.apiKeyRatePerMin)),
    );
  if (!(LOG_LEVELS as readonly string[]).includes(c.logLevel))
    throw new StartupError(STARTUP_ERR.logLevel(c.logLevel, LOG_LEVELS));
  if (c.shiftStarts.length !== DEFAULT_SHIFT_STARTS.length)
    throw new StartupError(HANDOVER_ERR.startupShiftStarts(process.env.SHIFT_STARTS ?? ''));
  checkVapid(c);
  checkPush(c);
  checkTls(c);
  // Express compiles the list of addresses/CIDRs when the setting is made: let it judge, once, here.
  try {
    express().set('trust proxy', c.trustProxy);
  } catch {
    throw new StartupError(STARTUP_ERR.trustProxy(String(c.trustProxy)));
  }
}

/** base64url of exactly `bytes` bytes (padding tolerated), the shape web-push wants for VAPID keys. */
const isKey = (value: string, bytes: number) =>
  /^[A-Za-z0-9_-]+=*$/.test(value) && Buffer.from(value, 'base64url').length === bytes;

/** The certificate and its key come together, as readable files (their PEM is judged when serving). */
function checkTls(c: Config): void {
  if ((c.tlsCert === undefined) !== (c.tlsKey === undefined)) throw new StartupError(STARTUP_ERR.tlsPair);
  for (const file of [c.tlsCert, c.tlsKey])
    if (file !== undefined)
      try {
        fs.accessSync(file, fs.constants.R_OK);
      } catch (err) {
        throw new StartupError(STARTUP_ERR.tlsFile(file, (err as NodeJS.ErrnoException).code ?? String(err)));
      }
}

/** VAPID keys come in pairs (P-256: 65-byte public, 32-byte private); the subject is mailto: or https:. */
function checkVapid(c: Config): void {
  const { vapidPublicKey: pub, vapidPrivateKey: priv } = c;
  if ((pub === undefined) !== (priv === undefined)) throw new StartupError(STARTUP_ERR.vapidPair);
  if (pub !== undefined && priv !== undefined && (!isKey(pub, 65) || pub[0] !== 'B' || !isKey(priv, 32)))
    throw new StartupError(STARTUP_ERR.vapidKeys);
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(c.vapidSubject))
    throw new StartupError(STARTUP_ERR.vapidSubject(c.vapidSubject));
}

/** PUSH_ALLOWED_HOSTS lists hosts (no ports, paths or credentials); PUSH_PROXY is an http(s) URL. */
function checkPush(c: Config): void {
  const wrong = c.pushAllowedHosts.find((h) => hostName(h) !== h);
  if (wrong !== undefined) throw new StartupError(PUSH_STARTUP_ERR.allowedHosts(wrong));
  if (c.pushProxy === undefined) return;
  let proxy: URL | undefined;
  try {
    proxy = new URL(c.pushProxy);
  } catch {
    proxy = undefined;
  }
  if (proxy?.protocol !== 'http:' && proxy?.protocol !== 'https:')
    throw new StartupError(PUSH_STARTUP_ERR.proxy);
}

export function configure(overrides: Partial<Config>): Config {
  config = { ...config, ...overrides };
  return config;
}
