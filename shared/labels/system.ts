// Spanish texts of Sistema (CONTRACT §10): the health check's cards and messages, the maintenance
// actions' answers and their activity-log rows.
import type { HealthCheckName } from '../schemas/admin';
import { LOCALE } from '../constants';
import { formatMinutes } from '../time';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const decimal = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });

/** 1536 → '1,5 KB'; the health check and backup answers show sizes with it. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${decimal.format(value)} ${units[unit]}`;
}

/** A wait or an age in whole minutes: '12 min' under an hour, else '3h 5min'. */
const duration = (minutes: number): string =>
  minutes < 60 ? `${Math.max(0, Math.floor(minutes))} min` : formatMinutes(minutes);

/** The title of each health-check card. */
export const HEALTH_CHECK_LABELS: Record<HealthCheckName, string> = {
  database: 'Base de datos',
  disk: 'Disco',
  memory: 'Memoria',
  event_loop: 'Bucle de eventos',
  websocket: 'Tiempo real',
  auto_assignment: 'Asignación automática',
  backup: 'Copias de seguridad',
};

/** The `message` of each health check. */
export const HEALTH_MSG = {
  checkFailed: (check: string) => `No se pudo comprobar: ${check}`,
  databaseOk: (size: number) => `Integridad correcta (${formatBytes(size)})`,
  databaseCorrupt: (problem: string) => `La comprobación de integridad encontró errores: ${problem}`,
  disk: (free: number, total: number, percent: number) =>
    `${formatBytes(free)} libres de ${formatBytes(total)} (${decimal.format(percent)} %)`,
  memory: (rss: number, heapUsed: number, heapLimit: number, percent: number) =>
    `Proceso ${formatBytes(rss)}; heap ${formatBytes(heapUsed)} de ${formatBytes(heapLimit)} (${decimal.format(percent)} %)`,
  eventLoop: (p99Ms: number, meanMs: number) =>
    `Retardo p99 ${decimal.format(p99Ms)} ms (media ${decimal.format(meanMs)} ms) desde la comprobación anterior`,
  eventLoopNoData: 'Sin mediciones todavía',
  websocket: (clients: number) => plural(clients, 'cliente conectado', 'clientes conectados'),
  websocketOff: 'El servidor de tiempo real no está activo',
  autoIdle: 'Ninguna tarea automática espera en la bolsa',
  autoWaiting: (count: number, trailerId: string, minutes: number) =>
    `${plural(count, 'tarea automática', 'tareas automáticas')} en la bolsa; la más antigua (${trailerId}) espera desde hace ${duration(minutes)}`,
  backupRecent: (file: string, minutes: number) => `Última copia hace ${duration(minutes)} (${file})`,
  backupStale: (file: string, minutes: number) =>
    `La última copia es de hace ${duration(minutes)} (${file}); debería haber una cada día`,
  backupNoneYet: 'Aún no hay copias; la primera se hará automáticamente al poco de arrancar',
  backupNone: 'No hay ninguna copia de seguridad',
} as const;

/** `{message}` answers of the maintenance actions. */
export const SYSTEM_MSG = {
  migrations: (applied: number, repaired: number) =>
    `${
      applied === 0
        ? 'Migraciones al día'
        : `${applied === 1 ? 'Aplicada' : 'Aplicadas'} ${plural(applied, 'migración pendiente', 'migraciones pendientes')}`
    }. ${
      repaired === 0
        ? 'Sin problemas de integridad'
        : `${repaired === 1 ? 'Reparado' : 'Reparados'} ${plural(repaired, 'conductor', 'conductores')} sin tipos de tarea`
    }`,
  tokensCleared: (users: number) =>
    `Sesiones cerradas: ${plural(users, 'usuario deberá', 'usuarios deberán')} iniciar sesión de nuevo`,
  backupDone: (file: string) => `Copia de seguridad creada: ${file}`,
} as const;

/** Activity-log rows `{action, details}` of Sistema (CONTRACT §10). */
export const SYSTEM_LOG = {
  migrations: { action: 'Ejecutar migraciones' },
  tokensCleared: {
    action: 'Cerrar todas las sesiones',
    details: (users: number) =>
      `Se invalidaron los tokens de ${plural(users, 'usuario', 'usuarios')}; todos salvo quien lo pidió deben iniciar sesión de nuevo`,
  },
  backup: {
    action: 'Crear copia de seguridad',
    automaticAction: 'Copia de seguridad automática',
    details: (file: string, size: number, pruned: number) =>
      `Copia ${file} (${formatBytes(size)})${pruned ? `; ${plural(pruned, 'copia antigua eliminada', 'copias antiguas eliminadas')}` : ''}`,
  },
} as const;
