import { describe, expect, it } from 'vitest';
import type { YardLocation } from '@shared/schemas';
import { foldZone, layoutZones } from './layout';

const place = (n: number, x: number, y: number, zone = 'Campa A'): YardLocation => ({
  id: `p${n}`,
  code: `P-${n}`,
  name: `Plaza ${n}`,
  kind: 'campa',
  zone,
  capacity: 1,
  x,
  y,
  active: true,
  trailers: [],
  incoming: [],
  free: 1,
});

// Two rows of 20: places 1–20 on y 0, 21–40 on y 1.
const wide = layoutZones(Array.from({ length: 40 }, (_, i) => place(i + 1, i % 20, Math.floor(i / 20))))[0];
const at = (zone: ReturnType<typeof foldZone>, n: number) => {
  const cell = zone.cells.find((c) => c.places[0].id === `p${n}`)!;
  return [cell.column, cell.row];
};

describe('foldZone', () => {
  it('leaves a zone that fits as it is', () => {
    expect(foldZone(wide, 20)).toBe(wide);
    expect(foldZone(wide, 25)).toBe(wide);
  });

  it('wraps each row as text wraps, in lines of equal width, keeping the reading order', () => {
    const folded = foldZone(wide, 12);
    expect([folded.columns, folded.rows]).toEqual([10, 4]);
    expect([at(folded, 1), at(folded, 10), at(folded, 11), at(folded, 20)]).toEqual([
      [1, 1],
      [10, 1],
      [1, 2],
      [10, 2],
    ]);
    expect([at(folded, 21), at(folded, 31), at(folded, 40)]).toEqual([
      [1, 3],
      [1, 4],
      [10, 4],
    ]);
    // Three a line on a phone: 20 columns in 7 lines of 3 each.
    const phone = foldZone(wide, 3);
    expect([phone.columns, phone.rows]).toEqual([3, 14]);
    expect(at(phone, 20)).toEqual([2, 7]);
    expect(new Set(phone.cells.map((c) => `${c.column}:${c.row}`)).size).toBe(40);
  });

  it('orders zones in natural order (Campa 2 before Campa 10)', () => {
    const zones = layoutZones([place(1, 0, 0, 'Campa 10'), place(2, 0, 0, 'Campa 2')]);
    expect(zones.map((z) => z.zone)).toEqual(['Campa 2', 'Campa 10']);
  });
});
