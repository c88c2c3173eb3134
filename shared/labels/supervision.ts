// Spanish texts of supervision: searcher, Control Conductores, Informes, driver analytics and the
// Excel workbooks they export (SPEC §2, CONTRACT §5, §7, §8).
import type { ClockType, DeficiencyReason, ReportType } from '../enums';

/** Details of the 400s the supervision endpoints answer beyond ERR (errors.ts). */
export const SUPERVISION_ERR = {
  last24hOrDate: 'Indica last_24h o una fecha, no ambas',
  rangeTooLong: (days: number) => `El rango de fechas no puede superar ${days} días`,
} as const;

export const REPORT_TYPE_LABELS: Record<ReportType, string> = {
  deficiencies: 'Deficiencias de Conductores',
  'delayed-assignments': 'Asignaciones Retrasadas',
};

export const DEFICIENCY_REASON_LABELS: Record<DeficiencyReason, string> = {
  no_drivers_available: 'Sin conductores disponibles',
  other: 'Otro motivo',
};

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
      headers: { driver: 'Conductor', type: 'Tipo', at: 'Fecha y hora' },
    },
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
