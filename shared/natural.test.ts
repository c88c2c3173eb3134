import { describe, expect, it } from 'vitest';
import { compareNatural } from './natural';

describe('compareNatural (CONTRACT §19)', () => {
  it('orders the numbers inside names by value: Muelle 2 before Muelle 10', () => {
    const names = ['Muelle 10', 'Muelle 2', 'Muelle 1', 'Campa B-12', 'Campa B-3', 'Muelle 21'];
    expect([...names].sort(compareNatural)).toEqual([
      'Campa B-3',
      'Campa B-12',
      'Muelle 1',
      'Muelle 2',
      'Muelle 10',
      'Muelle 21',
    ]);
  });

  it('ignores accents and case, and orders Ñ after N as Spanish does', () => {
    expect(compareNatural('Báscula', 'bascula')).toBe(0);
    expect(compareNatural('MUELLE 3', 'muelle 3')).toBe(0);
    expect(['Ñandú', 'Oeste', 'Norte'].sort(compareNatural)).toEqual(['Norte', 'Ñandú', 'Oeste']);
    expect(compareNatural('Muelle 2', 'Muelle 10')).toBeLessThan(0);
    expect(compareNatural('Muelle 10', 'Muelle 2')).toBeGreaterThan(0);
  });
});
