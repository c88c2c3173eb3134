// Where the demo lives: its own database (never the server's default ./data/torre.db, whatever DB_PATH
// says), its own data folder for backups, and its port.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface DemoSettings {
  dbPath: string;
  /** Backups of the demo go here, apart from the real server's data/backups. */
  dataDir: string;
  port: number;
  /** Generate a new yard even if the demo database exists. */
  fresh: boolean;
  /** No line per simulated action. */
  quiet: boolean;
  seed: number;
}

export const DEMO_DB = path.join(ROOT, 'data', 'demo.db');
export const DEMO_DATA_DIR = path.join(ROOT, 'data', 'demo');
export const DEMO_DEFAULT_PORT = 3000;

export const DEMO_USAGE = `Uso: npm run demo [-- --fresh] [-- --quiet]
  --fresh  genera un patio nuevo aunque ${path.relative(ROOT, DEMO_DB)} ya exista
  --quiet  no escribe una línea por cada acción simulada
  DEMO_PORT=3100 npm run demo   otro puerto (por defecto ${DEMO_DEFAULT_PORT})`;

export function demoSettings(env: NodeJS.ProcessEnv, argv: string[]): DemoSettings {
  const port = Number(env.DEMO_PORT ?? DEMO_DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error('DEMO_PORT debe ser un puerto válido');
  const seed = Number(env.DEMO_SEED ?? 42);
  return {
    dbPath: DEMO_DB,
    dataDir: DEMO_DATA_DIR,
    port,
    fresh: argv.includes('--fresh'),
    quiet: argv.includes('--quiet'),
    seed: Number.isInteger(seed) ? seed : 42,
  };
}

/** What the server's config module must read: set before it is first imported. */
export function demoEnv(env: NodeJS.ProcessEnv, settings: DemoSettings): void {
  env.DB_PATH = settings.dbPath;
  env.PORT = String(settings.port);
  env.LOG_LEVEL ??= 'warn';
  delete env.TEST_CLOCK;
}
