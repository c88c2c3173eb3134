// Spanish texts of Sistema (CONTRACT §10): the health check's cards and messages, the maintenance
// actions' answers and their activity-log rows.
import type { HealthCheckName } from '../schemas/admin';
import { LOCALE } from '../constants';
import { formatDuration } from '../time';
import { plural } from './common';

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

/** A wait or an age given in minutes, written as every duration is (CONTRACT §15): '12 min', '3 h 05 min'. */
const duration = (minutes: number): string => formatDuration(minutes * 60_000);

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

/** On PostgreSQL backups are the database's (CONTRACT §18): the backup endpoint's 409, the health check. */
const POSTGRES_BACKUPS = 'Las copias de PostgreSQL se hacen con pg_dump o con la recuperación a un instante';

/** The `message` of each health check. */
export const HEALTH_MSG = {
  checkFailed: (check: string) => `No se pudo comprobar: ${check}`,
  databaseOk: (size: number) => `Integridad correcta (${formatBytes(size)})`,
  databaseCorrupt: (problem: string) => `La comprobación de integridad encontró errores: ${problem}`,
  databaseMissing:
    'El archivo de la base de datos ya no está en su sitio (borrado o movido): no se guarda nada',
  databaseReplaced:
    'El archivo de la base de datos no es el que abrió el servidor (fue sustituido): no se guarda nada',
  databaseReadOnly: 'La base de datos está en un disco de solo lectura: no se guarda nada',
  databaseFull: (free: number) =>
    `Sin espacio para la base de datos (${formatBytes(free)} libres): no se guarda nada`,
  databaseWriteFailed: (code: string) => `La base de datos no admite escrituras (${code})`,
  /** PostgreSQL's facts instead of SQLite's file (CONTRACT §18); the oldest transaction is another's. */
  databasePostgres: (
    version: string,
    size: number,
    connections: number,
    maxConnections: number,
    oldestTransactionMs: number | null,
  ) =>
    `PostgreSQL ${version}, ${formatBytes(size)}; ${connections} de ${maxConnections} conexiones; ${
      oldestTransactionMs === null
        ? 'ninguna transacción abierta'
        : `la transacción abierta más antigua lleva ${formatDuration(oldestTransactionMs)}`
    }`,
  disk: (free: number, total: number, percent: number) =>
    `${formatBytes(free)} libres de ${formatBytes(total)} (${decimal.format(percent)} %)`,
  memory: (rss: number, heapUsed: number, heapLimit: number, percent: number) =>
    `Proceso ${formatBytes(rss)}; heap ${formatBytes(heapUsed)} de ${formatBytes(heapLimit)} (${decimal.format(percent)} %)`,
  eventLoop: (p99Ms: number, meanMs: number) =>
    `Retardo p99 ${decimal.format(p99Ms)} ms (media ${decimal.format(meanMs)} ms) desde la comprobación anterior`,
  eventLoopNoData: 'Sin mediciones todavía',
  websocket: (clients: number) => plural(clients, 'cliente conectado', 'clientes conectados'),
  websocketOff: 'El servidor de tiempo real no está activo',
  autoIdle: 'Ninguna tarea espera en la bolsa (automáticas ni Swap)',
  /** CONTRACT §20: Swap tasks (claimed by hand) waiting count too, said apart. */
  autoWaiting: (count: number, swap: number, trailerId: string, minutes: number) =>
    `${plural(count, 'tarea', 'tareas')} en la bolsa (${plural(count - swap, 'automática', 'automáticas')}, ${swap} Swap); la más antigua (${trailerId}) espera desde hace ${duration(minutes)}`,
  backupRecent: (file: string, minutes: number) => `Última copia hace ${duration(minutes)} (${file})`,
  backupStale: (file: string, minutes: number) =>
    `La última copia es de hace ${duration(minutes)} (${file}); debería haber una cada día`,
  backupNoneYet: 'Aún no hay copias; la primera se hará automáticamente al poco de arrancar',
  backupNone: 'No hay ninguna copia de seguridad',
  backupPostgres: POSTGRES_BACKUPS,
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
  /** The 409 of `POST /admin/system/backup` on PostgreSQL. */
  backupPostgres: POSTGRES_BACKUPS,
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

/** Where the restore steps are written down; start-up messages point there. */
export const RESTORE_DOC = 'docs/OPERATIONS.md, «Restore from a backup»';
const restoreSteps = (backup: string, dbPath: string) =>
  `con el servidor parado, cp "${backup}" "${dbPath}" && rm -f "${dbPath}-wal" "${dbPath}-shm" (${RESTORE_DOC})`;

/** Start-up refusals (CONTRACT §14): each is the one line on stderr before the exit with code 1. */
export const STARTUP_ERR = {
  jwtSecretShort: (length: number) =>
    `JWT_SECRET es demasiado corto (${length} caracteres): necesita al menos 32. Genera uno con «openssl rand -hex 32» o quítalo y el servidor creará uno`,
  adminEmail: (problem: string) => `ADMIN_EMAIL no sirve para una cuenta: ${problem}`,
  adminPassword: (problem: string) => `ADMIN_PASSWORD no sirve para una cuenta: ${problem}`,
  port: (value: string) => `PORT debe ser un número de puerto entre 0 y 65535 (es «${value}»)`,
  apiKeyRate: (value: string) => `API_KEY_RATE_PER_MIN debe ser un número entero mayor que 0 (es «${value}»)`,
  bcryptCost: (value: string) => `BCRYPT_COST debe ser un número entero entre 4 y 31 (es «${value}»)`,
  trustProxy: (value: string) =>
    `TRUST_PROXY debe ser un número de saltos o una lista de direcciones o redes separadas por comas (es «${value}»)`,
  proxySecretShort: (length: number) =>
    `PROXY_SECRET es demasiado corto (${length} caracteres): necesita al menos 32. Genera uno con «openssl rand -hex 32»`,
  logLevel: (value: string, levels: readonly string[]) =>
    `LOG_LEVEL debe ser uno de ${levels.join(', ')} (es «${value}»)`,
  tlsPair: 'TLS_CERT y TLS_KEY van juntas: define las dos (HTTPS) o ninguna (HTTP)',
  tlsFile: (file: string, code: string) => `No se puede leer el archivo TLS ${file} (${code})`,
  tlsInvalid: (problem: string) =>
    `TLS_CERT o TLS_KEY no es un certificado o una clave PEM válidos: ${problem}`,
  vapidPair:
    'VAPID_PUBLIC_KEY y VAPID_PRIVATE_KEY van juntas: define las dos o ninguna (el servidor creará un par)',
  vapidKeys:
    'VAPID_PUBLIC_KEY o VAPID_PRIVATE_KEY no es una clave P-256 en base64url: genera un par con «npx web-push generate-vapid-keys»',
  vapidSubject: (value: string) =>
    `VAPID_SUBJECT debe ser una dirección mailto: o una URL https: (es «${value}»)`,
  vapidFile: (file: string, code: string) =>
    `No se pueden leer ni crear las claves de los avisos ${file} (${code}): revisa los permisos de la carpeta de datos o define VAPID_PUBLIC_KEY y VAPID_PRIVATE_KEY`,
  postgresUnreachable: (server: string, reason: string) =>
    `No se puede usar la base de datos PostgreSQL ${server} (${reason}): revisa DATABASE_URL, que el servidor esté en marcha y que el usuario pueda entrar y crear tablas`,
  secretFile: (file: string, code: string) =>
    `No se puede leer ni crear el secreto de las sesiones ${file} (${code}): revisa los permisos de la carpeta de datos o define JWT_SECRET`,
  emptyDb: (dbPath: string, backup: string | null) =>
    `La base de datos ${dbPath} está vacía (0 bytes) y el servidor no arranca sobre ella. ${
      backup
        ? `Restaura la copia más reciente, ${backup}: ${restoreSteps(backup, dbPath)}`
        : 'Si de verdad quieres empezar con una base de datos nueva, borra ese archivo'
    }`,
  missingDb: (dbPath: string, backup: string) =>
    `La base de datos ${dbPath} no existe, pero hay copias de seguridad: el servidor no arranca con una base de datos vacía. Restaura la más reciente, ${backup}: ${restoreSteps(backup, dbPath)}`,
  corruptDb: (dbPath: string, backup: string | null) =>
    `${dbPath} no es una base de datos válida o está dañada. ${
      backup
        ? `Apártala y restaura la copia más reciente, ${backup}: ${restoreSteps(backup, dbPath)}`
        : 'No hay copias de seguridad: apártala y revísala antes de arrancar'
    }`,
  unreadableDb: (dbPath: string, code: string) =>
    `No se puede abrir la base de datos ${dbPath} (${code}): comprueba que es un archivo y que el usuario del servidor puede leerlo y escribirlo, también su carpeta`,
  readOnlyDb: (dbPath: string) =>
    `La base de datos ${dbPath} es de solo lectura: el servidor necesita escribir en el archivo y en su carpeta`,
  diskFull: (dbPath: string) =>
    `No queda espacio en el disco de ${dbPath}: libera espacio y vuelve a arrancar`,
  portInUse: (port: number, host: string) =>
    `El puerto ${port} ya está en uso en ${host}: ¿hay otro servidor arrancado? Páralo o elige otro PORT`,
  portDenied: (port: number) =>
    `No hay permiso para escuchar en el puerto ${port}: elige un PORT a partir de 1024 o da ese permiso al servidor`,
  hostUnavailable: (host: string) => `HOST ${host} no es una dirección de esta máquina`,
  unexpected: (detail: string) => `No se pudo arrancar el servidor: ${detail}`,
} as const;
