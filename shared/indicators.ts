// How each indicator reads (CONTRACT §22): what kind of number it is (for formatting) and whether up is
// good (for the ▲/▼ against the previous period). The view and the Excel take them from here.
import type { IndicatorFigure, IndicatorFigures } from './schemas/indicators';

export type IndicatorKind = 'count' | 'seconds' | 'rate' | 'per_hour';

export interface IndicatorRule {
  kind: IndicatorKind;
  /** True when a higher value is better (more moves, more on time); false when lower is (waits, lateness). */
  upIsGood: boolean;
}

export const INDICATOR_RULES: Record<IndicatorFigure, IndicatorRule> = {
  moves_completed: { kind: 'count', upIsGood: true },
  moves_per_driver_hour: { kind: 'per_hour', upIsGood: true },
  pool_wait_p50_s: { kind: 'seconds', upIsGood: false },
  pool_wait_p90_s: { kind: 'seconds', upIsGood: false },
  move_p50_s: { kind: 'seconds', upIsGood: false },
  move_p90_s: { kind: 'seconds', upIsGood: false },
  on_time_rate: { kind: 'rate', upIsGood: true },
  late: { kind: 'count', upIsGood: false },
  returns: { kind: 'count', upIsGood: false },
  holds: { kind: 'count', upIsGood: false },
  gate_entries: { kind: 'count', upIsGood: true },
  gate_exits: { kind: 'count', upIsGood: true },
  truck_stay_p50_s: { kind: 'seconds', upIsGood: false },
  truck_stay_p90_s: { kind: 'seconds', upIsGood: false },
  trucks_over_1h: { kind: 'count', upIsGood: false },
  scan_rate: { kind: 'rate', upIsGood: true },
};

/** The figures in the order the view and the Excel list them. */
export const INDICATOR_FIGURES = Object.keys(INDICATOR_RULES) as IndicatorFigure[];

/** A period with nothing in it: its counts are 0, and the rest (waits, rates, per hour) have no value. */
export const EMPTY_FIGURES = Object.fromEntries(
  INDICATOR_FIGURES.map((f) => [f, INDICATOR_RULES[f].kind === 'count' ? 0 : null]),
) as IndicatorFigures;

/** The change against the previous period in whole percent; null when either side is missing or was 0. */
export function changePercent(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return Math.round(((current - previous) / Math.abs(previous)) * 100);
}

export type ChangeTone = 'good' | 'bad' | 'level';

/** Green when the figure moved the way it should, red when not. */
export function changeTone(figure: IndicatorFigure, change: number | null): ChangeTone {
  if (!change) return 'level';
  return change > 0 === INDICATOR_RULES[figure].upIsGood ? 'good' : 'bad';
}
