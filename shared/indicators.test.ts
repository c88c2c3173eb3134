import { describe, expect, it } from 'vitest';
import { changePercent, changeTone } from './indicators';
import { formatChange, formatIndicator } from './labels/indicators';

describe('indicators: change against the previous period', () => {
  it('is whole percent, none without a base', () => {
    expect(changePercent(12, 10)).toBe(20);
    expect(changePercent(750, 1000)).toBe(-25);
    expect(changePercent(0.9, 0.75)).toBe(20);
    expect(changePercent(5, 0)).toBeNull();
    expect(changePercent(null, 3)).toBeNull();
    expect(changePercent(3, null)).toBeNull();
  });

  it('is green when the figure moved the way it should', () => {
    expect(changeTone('moves_completed', 20)).toBe('good');
    expect(changeTone('moves_completed', -5)).toBe('bad');
    expect(changeTone('pool_wait_p90_s', -5)).toBe('good');
    expect(changeTone('trucks_over_1h', 5)).toBe('bad');
    expect(changeTone('late', 0)).toBe('level');
    expect(changeTone('late', null)).toBe('level');
  });

  it('reads as the view shows it', () => {
    expect(formatChange(12)).toBe('▲ 12 %');
    expect(formatChange(-8)).toBe('▼ 8 %');
    expect(formatChange(0)).toBe('= 0 %');
    expect(formatChange(null)).toBeNull();
    expect(formatIndicator('on_time_rate', 0.875).replace('\u00a0', ' ')).toBe('87,5 %');
    expect(formatIndicator('moves_per_driver_hour', 3.25)).toBe('3,25');
    expect(formatIndicator('move_p50_s', 3900)).toBe('1 h 05 min');
    expect(formatIndicator('gate_entries', 1234)).toBe('1234');
    expect(formatIndicator('scan_rate', null)).toBe('—');
  });
});
