// Environment → typed configuration (CONTRACT §2). Read once; tests may override with configure().
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

export interface Config {
  port: number;
  host: string;
  dbPath: string;
  dataDir: string;
  jwtSecret: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  corsOrigin: string | undefined;
  logLevel: string;
  bcryptCost: number;
  testClock: boolean;
  serveClient: boolean;
}

function readEnv(env: NodeJS.ProcessEnv): Omit<Config, 'jwtSecret'> & { jwtSecret?: string } {
  const dbPath = env.DB_PATH ?? './data/torre.db';
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dbPath,
    dataDir: dbPath === ':memory:' ? path.resolve('./data') : path.dirname(path.resolve(dbPath)),
    jwtSecret: env.JWT_SECRET,
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD,
    corsOrigin: env.CORS_ORIGIN,
    logLevel: env.LOG_LEVEL ?? 'info',
    bcryptCost: Number(env.BCRYPT_COST ?? 12),
    testClock: env.TEST_CLOCK === '1',
    serveClient: env.SERVE_CLIENT !== '0',
  };
}

/** The JWT secret: from the environment, else generated once and kept in the data folder. */
function resolveSecret(fromEnv: string | undefined, dataDir: string, inMemory: boolean): string {
  if (fromEnv) return fromEnv;
  if (inMemory) return crypto.randomBytes(32).toString('hex');
  const file = path.join(dataDir, 'jwt-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString('hex');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const base = readEnv(env);
  return { ...base, jwtSecret: resolveSecret(base.jwtSecret, base.dataDir, base.dbPath === ':memory:') };
}

export let config: Config = loadConfig();

export function configure(overrides: Partial<Config>): Config {
  config = { ...config, ...overrides };
  return config;
}
