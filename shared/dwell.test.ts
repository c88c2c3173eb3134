import { describe, expect, it } from 'vitest';
import { DWELL_LONG_MS, DWELL_STALE_MS, dwellLevel } from './dwell';

describe('dwellLevel', () => {
  it('is fresh under 4 h, long from 4 h to 24 h included, stale beyond', () => {
    expect(dwellLevel(0)).toBe('fresh');
    expect(dwellLevel(DWELL_LONG_MS - 1)).toBe('fresh');
    expect(dwellLevel(DWELL_LONG_MS)).toBe('long');
    expect(dwellLevel(DWELL_STALE_MS)).toBe('long');
    expect(dwellLevel(DWELL_STALE_MS + 1)).toBe('stale');
  });
});
