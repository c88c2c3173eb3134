// `tsx scripts/generator/cli.ts --db ./data/demo.db --seed 42 [--tasks 100000]`: migrates a new
// database, fills it with a generated yard and prints the logins and what it holds.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROLE_LABELS } from '@shared/labels';
import { config } from '../../server/config';
import { closeDb, openDb, runMigrations } from '../../server/db';
import { driversFor, generateYard, type YardOptions } from './index';

const USAGE = `Uso: tsx scripts/generator/cli.ts --db FICHERO [--seed N] [--tasks N] [--drivers N]
       [--gestores N] [--managers N] [--days N] [--open N] [--clocked-in N] [--force]
  --db :memory: genera sin escribir ningún fichero (para medir el tiempo).`;

function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} debe ser un entero ≥ 0`);
  return n;
}

/** A new database file: never the server's own, and an existing one only with --force. */
function prepareFile(db: string, force: boolean): string {
  if (db === ':memory:') return db;
  const file = path.resolve(db);
  if (file === path.resolve(config.dbPath))
    throw new Error(`${db} es la base de datos del servidor (DB_PATH)`);
  if (fs.existsSync(file)) {
    if (!force) throw new Error(`${db} ya existe: usa --force para reemplazarla`);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  }
  return file;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string' },
      seed: { type: 'string', default: '42' },
      tasks: { type: 'string' },
      drivers: { type: 'string' },
      gestores: { type: 'string' },
      managers: { type: 'string' },
      days: { type: 'string' },
      open: { type: 'string' },
      'clocked-in': { type: 'string' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.db) {
    console.log(USAGE);
    process.exitCode = values.help ? 0 : 1;
    return;
  }
  const historyDays = int('days', values.days);
  const historicalTasks = int('tasks', values.tasks);
  const options: YardOptions = {
    seed: int('seed', values.seed) ?? 42,
    historyDays,
    historicalTasks,
    // Given only a volume, enough drivers to do it without queues of hours.
    drivers:
      int('drivers', values.drivers) ??
      (historicalTasks === undefined ? undefined : driversFor(historicalTasks, historyDays)),
    gestores: int('gestores', values.gestores),
    managers: int('managers', values.managers),
    openTasks: int('open', values.open),
    clockedInDrivers: int('clocked-in', values['clocked-in']),
  };

  const started = performance.now();
  openDb(prepareFile(values.db, values.force));
  runMigrations();
  const { logins, counts } = await generateYard(options);
  closeDb();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  console.log(`Patio generado en ${values.db} (semilla ${options.seed}, ${seconds} s)\n`);
  console.log('Accesos:');
  const drivers = logins.filter((l) => l.role === 'conductor');
  const listed = drivers.length > 10 ? 5 : drivers.length;
  const shown = [...logins.filter((l) => l.role !== 'conductor'), ...drivers.slice(0, listed)];
  const width = Math.max(...shown.map((l) => l.email.length));
  for (const l of shown)
    console.log(
      `  ${ROLE_LABELS[l.role].padEnd(13)} ${l.email.padEnd(width)}  ${l.password.padEnd(13)}  ${l.name}`,
    );
  if (drivers.length > listed)
    console.log(`  … y ${drivers.length - listed} conductores más, con la contraseña ${drivers[0].password}`);

  const users = Object.entries(counts.users).map(([role, n]) => `${n} ${role}`);
  const { tasks } = counts;
  console.log('\nContenido:');
  console.log(
    `  usuarios: ${users.join(', ')}; pendientes de aprobación: ${counts.pendingUsers}; ` +
      `fichados ahora: ${counts.clockedInDrivers}`,
  );
  console.log(
    `  tareas: ${tasks.bolsa_trabajo} en bolsa, ${tasks.en_proceso} en proceso, ${tasks.finalizada} finalizadas, ` +
      `${counts.deletedTasks} eliminadas; ${counts.trailers} remolques`,
  );
  console.log(
    `  historial: ${counts.taskEvents} eventos de tarea, ${counts.punches} fichajes, ` +
      `${counts.presenceIntervals} conexiones, ${counts.notifications} notificaciones, ` +
      `${counts.activityLog} registros de actividad, ${counts.gateVisits} visitas de portería`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
