// Spanish texts of supervision: searcher, Control Conductores, Informes, driver analytics and the
// Excel workbooks they export (SPEC §2, CONTRACT §5, §7, §8).
import type { ClockType, DeficiencyReason, ReportType } from '../enums';

/** Details of the 400s the supervision endpoints answer beyond ERR (errors.ts). */
export const SUPERVISION_ERR = {
  last24hOrDate: 'Indica last_24h o una fecha, no ambas',
  rangeTooLong: (days: number) => `El rango de fechas no puede superar ${days} días`,
  /** Punch corrections (CONTRACT §15). */
  punchNotFound: 'Fichaje no encontrado',
  punchNotDriver: 'Solo se pueden corregir los fichajes de un conductor aprobado',
  punchInFuture: 'La hora del fichaje no puede ser posterior a la hora actual',
  punchDuplicate: 'Ese conductor ya tiene un fichaje de ese tipo a esa hora',
} as const;

/** The answers and the activity log of punch corrections (CONTRACT §15). */
export const PUNCH_CORRECTION = {
  added: 'Fichaje añadido',
  removed: 'Fichaje eliminado',
  log: {
    action: { added: 'Añadir fichaje', removed: 'Eliminar fichaje' },
    details: (
      action: 'added' | 'removed',
      driver: string,
      clockType: ClockType,
      when: string,
      reason: string,
    ) =>
      `${action === 'added' ? 'Añadida' : 'Eliminada'} la ${clockType} de ${driver} del ${when}. Motivo: ${reason}`,
  },
} as const;

export const REPORT_TYPE_LABELS: Record<ReportType, string> = {
  deficiencies: 'Deficiencias de Conductores',
  'delayed-assignments': 'Asignaciones Retrasadas',
};

export const DEFICIENCY_REASON_LABELS: Record<DeficiencyReason, string> = {
  no_drivers_available: 'Sin conductores disponibles',
  other: 'Otro',
};

/** CONTRACT §22 `reason_detail`: why a deficiency's task waited, in words. */
export const DEFICIENCY_REASON_DETAIL = {
  noDrivers: 'Sin conductores disponibles',
  driversBusy: 'Conductores ocupados',
  returned: (driver: string, motive: string | null) => `Devuelta por ${driver}${motive ? `: ${motive}` : ''}`,
} as const;

export const CLOCK_TYPE_LABELS: Record<ClockType, string> = { entrada: 'Entrada', salida: 'Salida' };

const dayLabel = (day: string): string => {
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
};
const hh = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;

/** The readable `summary.period` of a report: 'Últimas 24 horas', '22/11/2026', '22/11/2026 09:00–10:00'. */
export const REPORT_PERIOD_LABEL = {
  last24h: 'Últimas 24 horas',
  day: dayLabel,
  hour: (day: string, hour: number) => `${dayLabel(day)} ${hh(hour)}–${hh(hour + 1)}`,
} as const;

/** Download names (CONTRACT §8); the server's Content-Disposition and the client's download use these. */
export const EXPORT_FILE_NAMES = {
  timeclock: (from: string, to: string) => `control_horario_${from}_to_${to}.xlsx`,
  analytics: (from: string, to: string) => `analytics_tareas_${from}_to_${to}.xlsx`,
} as const;

/** Sheet names and column headers of the exported workbooks. */
export const EXCEL = {
  timeclock: {
    daily: {
      sheet: 'Resumen diario',
      headers: {
        date: 'Fecha',
        driver: 'Conductor',
        shortId: 'ID',
        status: 'Estado',
        clockIn: 'Primera entrada',
        clockOut: 'Última salida',
        hours: 'Horas trabajadas',
        punches: 'Fichajes',
        corrected: 'Corregido',
      },
    },
    totals: {
      sheet: 'Totales por conductor',
      headers: {
        driver: 'Conductor',
        email: 'Email',
        daysWorked: 'Días con fichajes',
        hours: 'Horas trabajadas',
        incompleteDays: 'Días incompletos',
      },
    },
    punches: {
      sheet: 'Fichajes',
      headers: { driver: 'Conductor', type: 'Tipo', at: 'Fecha y hora', corrected: 'Corregido' },
    },
    corrections: {
      sheet: 'Correcciones',
      headers: {
        driver: 'Conductor',
        action: 'Corrección',
        type: 'Tipo',
        punchAt: 'Fichaje',
        reason: 'Motivo',
        by: 'Corregido por',
        at: 'Fecha de la corrección',
      },
    },
    /** The marker of a corrected day or punch, and the corrections' actions. */
    corrected: 'Corregido',
    correctionActions: { added: 'Añadido', removed: 'Eliminado' },
  },
  analytics: {
    drivers: {
      sheet: 'Rendimiento por conductor',
      headers: {
        driver: 'Conductor',
        email: 'Email',
        tasks: 'Tareas finalizadas',
        avgMinutes: 'Tiempo promedio (min)',
        totalMinutes: 'Tiempo total (min)',
        hoursWorked: 'Horas trabajadas',
        efficiency: 'Eficiencia (tareas/hora)',
      },
    },
    tasks: {
      sheet: 'Tareas finalizadas',
      headers: {
        shortId: 'ID corto',
        id: 'ID',
        title: 'Movimiento',
        trailer: 'Remolque',
        origin: 'Origen',
        destination: 'Destino',
        priority: 'Prioridad',
        vehicleType: 'Tipo',
        driver: 'Conductor',
        createdAt: 'Creada',
        assignedAt: 'Asignada',
        completedAt: 'Finalizada',
        minutes: 'Duración (min)',
      },
    },
  },
} as const;

// ---- the supervision views (client) ----------------------------------------------------------------

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** SPEC §2 Searcher (Buscador Tareas). Status/priority/vehicle badges are the enum labels of common.ts. */
export const UI_SEARCH = {
  title: 'Buscador Tareas',
  subtitle: 'Cualquier movimiento del historial, por ID, remolque, origen o destino',
  term: 'Término de búsqueda',
  termPlaceholder: 'ID, matrícula, origen o destino…',
  searchIn: 'Buscar en',
  searchTypes: { all: 'Todo', id: 'ID', trailer: 'Remolque', origin: 'Origen', destination: 'Destino' },
  dateFrom: 'Fecha desde',
  dateTo: 'Fecha hasta',
  search: 'Buscar',
  clear: 'Limpiar',
  results: 'Resultados',
  count: (n: number) => count(n, 'tarea', 'tareas'),
  capped: (max: number) => `Se muestran las ${max} más recientes: acota la búsqueda para ver el resto.`,
  intro: 'Escribe un término o elige un rango de fechas y pulsa Buscar.',
  introHint: 'Mayúsculas y acentos dan igual: «camion» encuentra «Camión». Las fechas son días de Madrid.',
  empty: 'No se encontraron tareas',
  emptyHint: 'Prueba con otro término, busca en otro campo o amplía el rango de fechas.',
  fields: {
    id: 'ID',
    trailer: 'Remolque',
    createdBy: 'Creada por',
    createdAt: 'Fecha de creación',
    origin: 'Origen',
    destination: 'Destino',
    description: 'Descripción',
  },
  timeline: {
    label: 'Cronología de la tarea',
    created: 'Creada',
    assigned: 'Asignada',
    finished: 'Finalizada',
    inProgress: 'En progreso',
    pending: 'Pendiente',
    by: (name: string) => `por ${name}`,
    returns: (n: number) => `Devuelta a la bolsa ${n === 1 ? '1 vez' : `${n} veces`}`,
  },
  location: {
    title: 'Ubicación actual del remolque',
    at: 'en',
    since: (time: string) => `desde ${time}`,
    none: 'Sin movimientos finalizados todavía',
  },
} as const;

/** The Excel export dialogs of Control Conductores and Analytics (SPEC §2, §5). */
export const UI_EXPORT = {
  open: 'Exportar Excel',
  dateFrom: 'Fecha Desde',
  dateTo: 'Fecha Hasta',
  download: 'Descargar Excel',
  contents: 'El informe incluye',
  timezone: 'Fechas y horas en hora de Madrid.',
  timeclock: {
    title: 'Exportar control horario',
    description: 'Fichajes de todos los conductores entre las dos fechas, ambas incluidas.',
    contents: [
      'Resumen diario por conductor: estado, primera entrada, última salida y horas trabajadas',
      'Totales por conductor: días con fichajes, horas trabajadas y días incompletos',
      'Todos los fichajes (entrada/salida) con su fecha y hora',
      'Correcciones de fichajes: quién, cuándo y por qué',
    ],
  },
  analytics: {
    title: 'Exportar Analytics de Conductores',
    description: 'Rendimiento de los conductores entre las dos fechas, ambas incluidas.',
    contents: [
      'Tareas finalizadas por conductor',
      'Tiempo medio de finalización',
      'Tiempo total invertido',
      'Eficiencia (tareas por hora)',
    ],
  },
} as const;

/** SPEC §2 Control Conductores. Status labels are DAILY_STATUS_LABELS (common.ts). */
export const UI_TIME_CONTROL = {
  title: 'Control Conductores',
  subtitle: 'Fichajes de entrada y salida de cada conductor',
  last24h: 'Últimas 24 horas',
  stats: {
    total: 'Total conductores',
    working: 'Trabajando',
    finished: 'Finalizados',
    avgHours: 'Promedio de horas',
    avgHoursHint: 'de los conductores que ficharon',
  },
  columns: {
    driver: 'Conductor',
    status: 'Estado',
    firstEntry: 'Primera entrada',
    lastExit: 'Última salida',
    hours: 'Horas trabajadas',
    punches: 'Fichajes',
    actions: 'Correcciones',
  },
  none: '—',
  corrected: 'Corregido',
  offline: 'Sin conexión',
  /** The detail of a correction: 'Añadido por Marta el 21/11/2026, 09:15: Olvidó fichar'. */
  correctionDetail: (action: 'added' | 'removed', actor: string, when: string, reason: string) =>
    `${action === 'added' ? 'Añadido' : 'Eliminado'} por ${actor} el ${when}: ${reason}`,
  removedPunch: (type: string, time: string) => `${type} ${time} eliminada`,
  corrections: 'Correcciones',
  addPunch: 'Añadir fichaje',
  removePunch: (type: string, time: string) => `Eliminar ${type.toLowerCase()} de las ${time}`,
  addDialog: {
    title: (driver: string) => `Añadir fichaje de ${driver}`,
    description:
      'Un fichaje que el conductor olvidó. Queda marcado como corregido, con tu nombre y el motivo.',
    type: 'Tipo de fichaje',
    date: 'Fecha',
    time: 'Hora (Madrid)',
    reason: 'Motivo',
    reasonPlaceholder: 'Por qué se añade…',
    submit: 'Añadir fichaje',
    reasonRequired: 'El motivo es obligatorio',
    whenRequired: 'Indica la fecha y la hora',
  },
  removeDialog: {
    title: 'Eliminar fichaje',
    message: (driver: string, type: string, when: string) =>
      `Se eliminará la ${type.toLowerCase()} de ${driver} del ${when}. Dejará de contar en las horas; la corrección queda registrada.`,
    reason: 'Motivo',
    reasonPlaceholder: 'Por qué es un fichaje erróneo…',
    confirm: 'Eliminar fichaje',
  },
  correctionError: 'Error al corregir el fichaje',
  empty: 'No hay datos de fichajes para esta fecha',
  emptyHint: 'Aquí aparecerán los conductores aprobados y sus fichajes de las últimas 24 horas.',
} as const;

/** SPEC §2 Informes de Operaciones. Report types are REPORT_TYPE_LABELS, reasons DEFICIENCY_REASON_LABELS. */
export const UI_REPORTS = {
  title: 'Informes de Operaciones',
  subtitle: 'Retrasos de asignación y de finalización de los movimientos',
  type: 'Tipo de informe',
  period: 'Periodo',
  periods: { '24h': 'Últimas 24h', day: 'Día', hour: 'Hora' },
  date: 'Fecha',
  hour: 'Hora',
  hourOption: (h: number) => `${String(h).padStart(2, '0')}:00`,
  threshold: (min: number) => `Un incidente es un retraso de más de ${min} minutos.`,
  summary: {
    total: 'Total incidentes',
    avg: 'Retraso promedio',
    max: 'Retraso máximo',
    period: 'Periodo',
  },
  incidents: 'Incidentes',
  count: (n: number) => count(n, 'incidente', 'incidentes'),
  chart: 'Incidentes por hora',
  chartBar: (hour: string, n: number) => `${hour}: ${count(n, 'incidente', 'incidentes')}`,
  legend: { red: 'Más de 30 min', orange: 'Más de 20 min', yellow: 'Hasta 20 min' },
  empty: 'Sin incidentes reportados',
  emptyHint: 'Ninguna tarea superó el umbral de retraso en este periodo.',
  fields: {
    priority: 'Prioridad',
    reason: 'Motivo',
    delay: 'Retraso de asignación',
    completionDelay: 'Retraso de finalización',
    trailer: 'Remolque',
    created: 'Creada',
    assigned: 'Asignada',
    completed: 'Finalizada',
    assignee: 'Conductor',
    status: 'Estado',
    notYet: 'Todavía no',
  },
} as const;

/** SPEC §2 Admin Analytics de Conductores. */
export const UI_ANALYTICS = {
  title: 'Analytics de Conductores',
  subtitle: 'Movimientos, conexión y tiempos de cada conductor',
  stats: {
    total: 'Total Conductores',
    online: 'Conductores Online',
    movements: 'Total Movimientos',
    average: 'Promedio Movimientos',
  },
  columns: {
    driver: 'Conductor',
    status: 'Estado',
    movements: 'Movimientos',
    online24h: 'Online 24h',
    avgTime: 'Tiempo Prom.',
    lastActivity: 'Última Actividad',
  },
  online: 'Online',
  offline: 'Offline',
  rank: (n: number) => `#${n}`,
  medal: (n: number) => `Medalla del puesto ${n}`,
  refresh: 'Actualizar',
  reset: 'Reiniciar Rankings',
  empty: 'No hay conductores registrados',
  emptyHint: 'Los conductores aparecerán aquí cuando un administrador apruebe sus cuentas.',
  resetDialog: {
    title: 'Reiniciar Rankings',
    message:
      'Los movimientos de todos los conductores volverán a 0. El historial de tareas se conserva: los informes y las exportaciones no cambian.',
    irreversible: 'Esta acción no se puede deshacer.',
    confirm: 'Reiniciar',
  },
} as const;
