import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, presetOf, presetRange } from './periods';

describe('period presets', () => {
  it('gives each preset its Madrid days', () => {
    expect(presetRange('today', '2026-03-01')).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(presetRange('yesterday', '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(presetRange('last7', '2026-03-29')).toEqual({ from: '2026-03-23', to: '2026-03-29' });
    expect(presetRange('last30', '2026-11-28')).toEqual({ from: '2026-10-30', to: '2026-11-28' });
    expect(presetRange('month', '2026-11-28')).toEqual({ from: '2026-11-01', to: '2026-11-28' });
  });

  it('counts days across a DST change and a year', () => {
    expect(daysBetween('2026-10-24', '2026-10-26')).toBe(3);
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(3);
    expect(daysBetween('2025-12-31', '2026-01-01')).toBe(2);
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });

  it('names the preset a range is, and none for another range', () => {
    expect(presetOf({ from: '2026-11-22', to: '2026-11-28' }, '2026-11-28')).toBe('last7');
    expect(presetOf({ from: '2026-11-01', to: '2026-11-01' }, '2026-11-01')).toBe('today');
    expect(presetOf({ from: '2026-11-02', to: '2026-11-28' }, '2026-11-28')).toBeNull();
  });
});
