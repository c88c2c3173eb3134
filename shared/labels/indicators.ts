// Spanish texts of the indicators (CONTRACT §22): each figure's name (the view's tiles and charts, the
// Excel's headers), the view's texts and how a value and its change against the previous period read.
import type { Shift } from '../enums';
import type { IndicatorFigure } from '../schemas/indicators';
import { INDICATOR_RULES } from '../indicators';
import type { PeriodPreset } from '../periods';
import { SHIFT_NAMES } from '../shifts';
import { formatDuration } from '../time';

export const INDICATOR_LABELS: Record<IndicatorFigure, string> = {
  moves_completed: 'Movimientos',
  moves_per_driver_hour: 'Movimientos por hora de conductor',
  pool_wait_p50_s: 'Espera en bolsa p50',
  pool_wait_p90_s: 'Espera en bolsa p90',
  move_p50_s: 'Duración del movimiento p50',
  move_p90_s: 'Duración del movimiento p90',
  on_time_rate: 'A tiempo',
  late: 'Retrasadas',
  returns: 'Devueltas',
  holds: 'Retenidas',
  gate_entries: 'Entradas en portería',
  gate_exits: 'Salidas en portería',
  truck_stay_p50_s: 'Espera de camiones p50',
  truck_stay_p90_s: 'Espera de camiones p90',
  trucks_over_1h: 'Camiones más de 1 h',
  scan_rate: 'Completadas con escaneo',
};

export const PERIOD_PRESET_LABELS: Record<PeriodPreset, string> = {
  today: 'Hoy',
  yesterday: 'Ayer',
  last7: '7 días',
  last30: '30 días',
  month: 'Este mes',
};

/** The period picker's own texts (the Indicadores view and the Excel exports). */
export const UI_PERIOD = { period: 'Periodo', custom: 'Personalizado', from: 'Desde', to: 'Hasta' } as const;

const dayText = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

export const UI_INDICATORS = {
  title: 'Indicadores',
  subtitle: 'Las cifras del patio por día, hora y turno, frente al periodo anterior.',
  exportExcel: 'Exportar Excel',
  exported: 'Indicadores descargados',
  exportError: 'Error al exportar los indicadores',
  loadError: 'Error al cargar los indicadores',
  loading: 'Cargando indicadores…',
  figure: 'Indicador',
  table: 'Tabla por día',
  date: 'Fecha',
  hourAxis: 'Hora',
  shiftAxis: 'Turno',
  /** `2026-11-23` → `23/11` on a chart's axis, `23/11/2026` in the table. */
  dayShort: (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`,
  day: dayText,
  previous: (from: string, to: string) => `Frente al periodo anterior: ${dayText(from)} – ${dayText(to)}`,
  perDay: (figure: string) => `${figure} por día`,
  perHour: (figure: string) => `${figure} por hora del día`,
  perShift: (figure: string) => `${figure} por turno`,
  noComparison: 'sin comparación',
  hour: (h: number) => `${String(h).padStart(2, '0')} h`,
  shift: (s: Shift) => SHIFT_NAMES[s],
} as const;

const count = new Intl.NumberFormat('es-ES');
const perHour = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat('es-ES', { style: 'percent', maximumFractionDigits: 1 });

/** A figure's value as the view shows it: `12`, `3,25`, `87,5 %`, `12 min`; `—` when nothing counts. */
export function formatIndicator(figure: IndicatorFigure, value: number | null): string {
  if (value === null) return '—';
  switch (INDICATOR_RULES[figure].kind) {
    case 'count':
      return count.format(value);
    case 'per_hour':
      return perHour.format(value);
    case 'rate':
      return percent.format(value);
    case 'seconds':
      return formatDuration(value * 1000);
  }
}

/** `▲ 12 %`, `▼ 8 %`, `= 0 %`; null without a comparison. */
export function formatChange(change: number | null): string | null {
  if (change === null) return null;
  if (change === 0) return '= 0 %';
  return `${change > 0 ? '▲' : '▼'} ${Math.abs(change)} %`;
}

/** indicadores_{from}_{to}.xlsx: one sheet per bucket kind; seconds are written as minutes, rates as %. */
export const INDICATORS_EXCEL = {
  fileName: (from: string, to: string) => `indicadores_${from}_${to}.xlsx`,
  daysSheet: 'Días',
  hoursSheet: 'Horas',
  shiftsSheet: 'Turnos',
  totalsSheet: 'Totales',
  headers: {
    date: 'Fecha',
    hour: 'Hora',
    shift: 'Turno',
    period: 'Periodo',
    /** The Totales sheet's rows: the period asked for, then the one before it. */
    periodOf: (from: string, to: string) => `${from} – ${to}`,
    minutes: (label: string) => `${label} (min)`,
    percent: (label: string) => `${label} (%)`,
  },
} as const;
