// Spanish texts of the admin's Usuarios and Sistema views (SPEC §2, §5, §8; CONTRACT §4, §10).
// Enum labels (roles, task types, health) are in common.ts; the SPEC §8 toasts in ui.ts (TOAST).
import type { LogType } from '../enums';
import { plural, shortId } from './common';

export const UI_USERS = {
  title: 'Usuarios',
  stats: { total: 'Total usuarios', online: 'En línea', pending: 'Pendientes', drivers: 'Conductores' },
  columns: {
    user: 'Usuario',
    email: 'Email',
    role: 'Rol',
    status: 'Estado',
    movements: 'Movimientos',
    taskTypes: 'Tipos de tarea',
    actions: 'Acciones',
  },
  /** The short id beside the name (SPEC §9: last 8 characters). */
  shortId,
  noTaskTypes: 'Sin tipos',
  notApplicable: '—',
  actions: { role: 'Rol', taskTypes: 'Tareas', account: 'Cuenta', delete: 'Eliminar' },
  actionLabels: {
    role: (name: string) => `Rol de ${name}`,
    taskTypes: (name: string) => `Tareas de ${name}`,
    account: (name: string) => `Cuenta de ${name}`,
    delete: (name: string) => `Eliminar a ${name}`,
  },
  /** The row's Cuenta menu (CONTRACT §14). */
  accountMenu: {
    edit: 'Editar nombre y email',
    sessions: 'Sesiones abiertas',
    resetPassword: 'Restablecer contraseña',
  },
  /** Resetting your own password would end your own session while the temporary one is on screen. */
  resetSelf: 'La tuya debe restablecerla otro administrador',
  you: 'Tú',
  empty: 'No hay usuarios',
  emptyHint: 'Las cuentas nuevas aparecerán aquí en cuanto se registren.',
  roleDialog: {
    title: 'Cambiar rol',
    description: (name: string) => `Elige el nuevo rol de ${name}.`,
    legend: 'Rol',
    current: 'actual',
    warning: 'Sus sesiones abiertas se cerrarán y tendrá que iniciar sesión de nuevo con el nuevo rol.',
    driverWarning: 'Si tiene una tarea activa, volverá a la bolsa de trabajo.',
    confirm: 'Cambiar rol',
  },
  taskTypesDialog: {
    title: 'Tipos de tarea',
    description: (name: string) => `Tipos de tarea que ${name} puede recibir.`,
    legend: 'Tipos de tarea habilitados',
    automatic: 'Asignación automática',
    manual: 'Se la auto-asigna el conductor',
    /** SPEC §5: unchecking the last one is refused. */
    lastOne: 'Debe haber al menos un tipo de tarea seleccionado',
    keepsTask: 'Su tarea activa, si tiene una, sigue siendo suya.',
    confirm: 'Guardar',
  },
  editDialog: {
    title: 'Editar usuario',
    description: (name: string) => `Corrige el nombre o el email de ${name}.`,
    name: 'Nombre completo',
    email: 'Email',
    emailHint: 'Con este email inicia sesión.',
    confirm: 'Guardar',
    saved: (name: string) => `Datos de ${name} actualizados`,
  },
  sessionsDialog: {
    title: 'Sesiones abiertas',
    description: (name: string) => `Dispositivos en los que ${name} tiene la sesión iniciada.`,
    count: (n: number) => plural(n, 'sesión abierta', 'sesiones abiertas'),
    empty: 'No tiene sesiones abiertas',
    emptyHint: 'Aparecerán aquí cuando inicie sesión en algún dispositivo.',
    loadError: 'No se pudieron cargar las sesiones',
    current: 'Esta sesión',
    ip: 'IP',
    unknownIp: 'IP desconocida',
    started: 'Inicio',
    lastActive: 'Última actividad',
    unknownDevice: 'Dispositivo desconocido',
    end: 'Cerrar sesión',
    endLabel: (device: string) => `Cerrar la sesión de ${device}`,
    confirmTitle: 'Cerrar sesión',
    confirmMessage: (name: string, device: string) =>
      `Se cerrará la sesión de ${name} en ${device}. Ese dispositivo volverá a la pantalla de inicio de sesión.`,
    confirmCurrent:
      'Es la sesión que estás usando ahora: tú también volverás a la pantalla de inicio de sesión.',
    confirm: 'Cerrar sesión',
  },
  resetDialog: {
    title: 'Restablecer contraseña',
    message: (name: string, email: string) =>
      `Se generará una contraseña temporal para ${name} (${email}). Su contraseña actual dejará de servir y se cerrarán todas sus sesiones abiertas.`,
    confirm: 'Restablecer',
  },
  temporaryPassword: {
    title: 'Contraseña temporal',
    description: (name: string) => `Nueva contraseña de ${name}`,
    label: 'Contraseña temporal',
    copy: 'Copiar',
    copied: 'Copiada',
    onlyOnce: 'Solo se muestra ahora: cópiala o anótala antes de cerrar esta ventana.',
    mustChange: (name: string) =>
      `Dásela a ${name}. Al iniciar sesión con ella tendrá que elegir una contraseña nueva.`,
    sessionsClosed: 'Se han cerrado todas sus sesiones abiertas.',
    done: 'Hecho',
  },
  deleteDialog: {
    title: 'Eliminar usuario',
    message: (name: string, email: string) =>
      `Se eliminará la cuenta de ${name} (${email}). Sus sesiones se cerrarán y, si tiene una tarea activa, volverá a la bolsa de trabajo.`,
    irreversible: 'Esta acción no se puede deshacer.',
    confirm: 'Eliminar',
  },
} as const;

/** db-status `collections` keys (table names) as the Sistema view shows them; unknown ones go raw. */
export const COLLECTION_LABELS: Record<string, string> = {
  users: 'Usuarios',
  tasks: 'Tareas',
  task_events: 'Historial de tareas',
  notifications: 'Notificaciones',
  punches: 'Fichajes',
  presence_intervals: 'Intervalos de conexión',
  activity_log: 'Registro de actividad',
  sessions: 'Sesiones',
  punch_corrections: 'Correcciones de fichajes',
  idempotency_keys: 'Acciones repetibles (Idempotency-Key)',
  push_subscriptions: 'Suscripciones de avisos',
  gate_visits: 'Visitas de portería',
  api_clients: 'Integraciones (claves de API)',
  webhooks: 'Webhooks',
  webhook_deliveries: 'Entregas de webhooks',
};

export const LOG_TYPE_LABELS: Record<LogType, string> = {
  auth: 'Sesión',
  task: 'Tarea',
  user: 'Usuario',
  timeclock: 'Fichaje',
  system: 'Sistema',
  gate: 'Portería',
  integration: 'Integración',
};

export const UI_SYSTEM = {
  title: 'Sistema',
  subtitle: 'Salud del servidor, base de datos, mantenimiento y actividad',
  health: {
    title: 'Estado del sistema',
    overall: 'Estado general',
  },
  db: {
    title: 'Estado de la base de datos',
    collections: 'Registros por tabla',
    usersByRole: 'Usuarios por rol',
    tasksByStatus: 'Tareas por estado',
    integrityOk: 'Sin problemas de integridad',
    /** SPEC §2 data-integrity warning. */
    integrityIssue: (n: number) => `${plural(n, 'conductor', 'conductores')} sin tipos de tarea`,
    integrityHint:
      'No pueden recibir ninguna tarea. Ejecuta las migraciones para darles el tipo por defecto (Semi).',
  },
  actions: {
    title: 'Mantenimiento',
    migrations: {
      label: 'Ejecutar migraciones',
      hint: 'Aplica las migraciones pendientes y repara los conductores sin tipos de tarea.',
      confirmTitle: 'Ejecutar migraciones',
      confirmMessage:
        'Se aplicarán las migraciones pendientes de la base de datos y se repararán los problemas de integridad detectados.',
      confirm: 'Ejecutar',
    },
    clearTokens: {
      label: 'Cerrar todas las sesiones',
      hint: 'Todos los usuarios, salvo tú, tendrán que iniciar sesión de nuevo.',
      confirmTitle: 'Cerrar todas las sesiones',
      confirmMessage:
        'Se cerrarán las sesiones de todos los usuarios salvo la tuya: las pantallas abiertas (también las de los conductores) volverán a la pantalla de inicio de sesión.',
      confirm: 'Cerrar sesiones',
    },
    backup: {
      label: 'Crear copia de seguridad',
      hint: 'Copia completa de la base de datos en data/backups/ (se guardan las 7 últimas).',
      confirmTitle: 'Crear copia de seguridad',
      confirmMessage: 'Se hará ahora una copia completa de la base de datos, sin detener el servicio.',
      confirm: 'Crear copia',
      /** Not in SPEC §8 (the backup action is CONTRACT §10's): the fallback when no detail comes. */
      error: 'Error al crear copia de seguridad',
    },
  },
  logs: {
    title: 'Actividad reciente',
    columns: {
      type: 'Tipo',
      user: 'Usuario',
      action: 'Acción',
      details: 'Detalles',
      timestamp: 'Fecha y hora',
    },
    count: (n: number) => plural(n, 'registro', 'registros'),
    empty: 'No hay actividad registrada',
    /** CONTRACT §15: filters and pages. */
    filters: {
      label: 'Filtros del registro de actividad',
      type: 'Tipo',
      anyType: 'Todos los tipos',
      user: 'Usuario',
      anyUser: 'Todos los usuarios',
      dateFrom: 'Desde',
      dateTo: 'Hasta',
      clear: 'Limpiar filtros',
    },
    emptyFiltered: 'No hay actividad con estos filtros',
    loadMore: 'Cargar más',
    end: 'No hay registros más antiguos',
  },
} as const;
