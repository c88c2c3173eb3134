// The indicators' Spanish names (CONTRACT §22): one per figure, read by the Indicadores view and the Excel.
import type { IndicatorFigure } from '../schemas/indicators';

export const INDICATOR_LABELS: Record<IndicatorFigure, string> = {
  moves_completed: 'Movimientos',
  moves_per_driver_hour: 'Movimientos por hora de conductor',
  pool_wait_p50_s: 'Espera en bolsa p50',
  pool_wait_p90_s: 'Espera en bolsa p90',
  move_p50_s: 'Duración del movimiento p50',
  move_p90_s: 'Duración del movimiento p90',
  on_time_rate: 'A tiempo',
  late: 'Con retraso',
  returns: 'Devoluciones',
  holds: 'Retenciones',
  gate_entries: 'Entradas por puerta',
  gate_exits: 'Salidas por puerta',
  truck_stay_p50_s: 'Espera de camión p50',
  truck_stay_p90_s: 'Espera de camión p90',
  trucks_over_1h: 'Camiones de más de 1 h',
  scan_rate: 'Finalizadas con escaneo',
};

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
