// The demo's database: a generated yard (scripts/generator), made once and reused by the next runs, and
// the accounts to print and to simulate, read back from it.
import fs from 'node:fs';
import { ROLES, type Role, type VehicleType } from '@shared/enums';
import { closeDb, openDb, query, runMigrations } from '../../server/db';
import { DEFAULT_PASSWORDS, generateYard } from '../generator';
import { DEMO_TEXT } from './texts';

export interface DemoAccount {
  role: Role;
  name: string;
  email: string;
  /** The generator's password of the role (a human may have changed it in the demo since). */
  password: string;
  taskTypes: VehicleType[];
}

const ROLE_ORDER: Role[] = ['admin', 'gestor', 'manager', 'conductor'];

/** Generates the yard into `dbPath` unless it is there already (or `fresh`); returns its accounts. */
export async function prepareDemoYard(
  opts: { dbPath: string; fresh: boolean; seed: number },
  say: (line: string) => void,
): Promise<{ generated: boolean; accounts: DemoAccount[] }> {
  const generated = opts.fresh || !fs.existsSync(opts.dbPath);
  say(generated ? DEMO_TEXT.generating(opts.dbPath) : DEMO_TEXT.reusing(opts.dbPath));
  if (generated) for (const f of ['', '-wal', '-shm']) fs.rmSync(`${opts.dbPath}${f}`, { force: true });
  openDb(opts.dbPath);
  try {
    runMigrations();
    if (generated) await generateYard({ seed: opts.seed });
    const rows = await query<{ role: Role; name: string; email: string; task_types: string }>(
      `SELECT role, name, email, task_types FROM users
        WHERE is_approved = 1 AND deleted_at IS NULL ORDER BY email`,
    );
    const accounts = rows
      .filter((r) => (ROLES as readonly string[]).includes(r.role))
      .map((r) => ({
        role: r.role,
        name: r.name,
        email: r.email,
        password: DEFAULT_PASSWORDS[r.role],
        taskTypes: JSON.parse(r.task_types) as VehicleType[],
      }))
      .sort((a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role));
    return { generated, accounts };
  } finally {
    closeDb();
  }
}

/** Drivers left to humans: one with the Swap type (to try the Swap panel) and the last ones by email. */
export function splitDrivers(
  drivers: DemoAccount[],
  free: number,
): { simulated: DemoAccount[]; human: DemoAccount[] } {
  const human: DemoAccount[] = [];
  const swap = drivers.find((d) => d.taskTypes.includes('swap'));
  if (swap && free > 0) human.push(swap);
  for (const d of [...drivers].reverse()) if (human.length < free && !human.includes(d)) human.push(d);
  return { simulated: drivers.filter((d) => !human.includes(d)), human };
}
