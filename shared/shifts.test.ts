// Shifts (CONTRACT §20): windows of a Madrid date in UTC, DST nights included, and the shift of an instant.
import { describe, expect, it } from 'vitest';
import {
  nextShift,
  parseShift,
  parseShiftStarts,
  previousShift,
  shiftAt,
  shiftRange,
  SHIFT_STARTS_DEFAULT,
} from './shifts';

const iso = (r: { from: number; to: number }) => [
  new Date(r.from).toISOString(),
  new Date(r.to).toISOString(),
];
const H = 3_600_000;

describe('shift windows', () => {
  it('cuts a winter day at 06:00, 14:00 and 22:00 Madrid (UTC+1)', () => {
    expect(iso(shiftRange({ shift: 'manana', date: '2026-11-24' }))).toEqual([
      '2026-11-24T05:00:00.000Z',
      '2026-11-24T13:00:00.000Z',
    ]);
    expect(iso(shiftRange({ shift: 'tarde', date: '2026-11-24' }))).toEqual([
      '2026-11-24T13:00:00.000Z',
      '2026-11-24T21:00:00.000Z',
    ]);
    expect(iso(shiftRange({ shift: 'noche', date: '2026-11-24' }))).toEqual([
      '2026-11-24T21:00:00.000Z',
      '2026-11-25T05:00:00.000Z',
    ]);
  });

  it('a summer day is UTC+2', () => {
    expect(iso(shiftRange({ shift: 'manana', date: '2026-07-01' }))).toEqual([
      '2026-07-01T04:00:00.000Z',
      '2026-07-01T12:00:00.000Z',
    ]);
  });

  it('the spring night (2026-03-28 → 29) lasts 7 h, the autumn one (2026-10-24 → 25) 9 h', () => {
    const spring = shiftRange({ shift: 'noche', date: '2026-03-28' });
    expect(iso(spring)).toEqual(['2026-03-28T21:00:00.000Z', '2026-03-29T04:00:00.000Z']);
    expect(spring.to - spring.from).toBe(7 * H);
    const autumn = shiftRange({ shift: 'noche', date: '2026-10-24' });
    expect(iso(autumn)).toEqual(['2026-10-24T20:00:00.000Z', '2026-10-25T05:00:00.000Z']);
    expect(autumn.to - autumn.from).toBe(9 * H);
    // The days themselves: their mañana and tarde are 8 h, their noche normal again.
    const m = shiftRange({ shift: 'manana', date: '2026-03-29' });
    expect(m.to - m.from).toBe(8 * H);
    const n = shiftRange({ shift: 'noche', date: '2026-10-25' });
    expect(n.to - n.from).toBe(8 * H);
  });

  it('other starts, with minutes', () => {
    const starts = parseShiftStarts('07:30,15:30,23:15')!;
    expect(iso(shiftRange({ shift: 'noche', date: '2026-11-24' }, starts))).toEqual([
      '2026-11-24T22:15:00.000Z',
      '2026-11-25T06:30:00.000Z',
    ]);
    expect(shiftAt(Date.parse('2026-11-25T06:29:00Z'), starts)).toEqual({
      shift: 'noche',
      date: '2026-11-24',
    });
    expect(shiftAt(Date.parse('2026-11-25T06:30:00Z'), starts)).toEqual({
      shift: 'manana',
      date: '2026-11-25',
    });
  });
});

describe('the shift of an instant', () => {
  it('early hours belong to the previous date’s noche', () => {
    expect(shiftAt(Date.parse('2026-11-25T04:59:59Z'))).toEqual({ shift: 'noche', date: '2026-11-24' });
    expect(shiftAt(Date.parse('2026-11-25T05:00:00Z'))).toEqual({ shift: 'manana', date: '2026-11-25' });
    expect(shiftAt(Date.parse('2026-11-25T13:00:00Z'))).toEqual({ shift: 'tarde', date: '2026-11-25' });
    expect(shiftAt(Date.parse('2026-11-25T21:00:00Z'))).toEqual({ shift: 'noche', date: '2026-11-25' });
    expect(shiftAt(Date.parse('2026-11-25T23:30:00Z'))).toEqual({ shift: 'noche', date: '2026-11-25' });
  });

  it('on the DST nights, both 02:00s and the missing hour', () => {
    // 2026-03-29 01:30 UTC = 03:30 CEST: still the noche of the 28th.
    expect(shiftAt(Date.parse('2026-03-29T01:30:00Z'))).toEqual({ shift: 'noche', date: '2026-03-28' });
    expect(shiftAt(Date.parse('2026-03-29T04:00:00Z'))).toEqual({ shift: 'manana', date: '2026-03-29' });
    // 2026-10-25: 00:30 and 01:30 UTC are both 02:30 Madrid.
    expect(shiftAt(Date.parse('2026-10-25T00:30:00Z'))).toEqual({ shift: 'noche', date: '2026-10-24' });
    expect(shiftAt(Date.parse('2026-10-25T01:30:00Z'))).toEqual({ shift: 'noche', date: '2026-10-24' });
    expect(shiftAt(Date.parse('2026-10-25T05:00:00Z'))).toEqual({ shift: 'manana', date: '2026-10-25' });
  });

  it('every instant of a range maps back to its shift', () => {
    for (const date of ['2026-03-28', '2026-03-29', '2026-10-24', '2026-10-25'])
      for (const shift of ['manana', 'tarde', 'noche'] as const) {
        const r = shiftRange({ shift, date });
        for (let t = r.from; t < r.to; t += 15 * 60_000) expect(shiftAt(t)).toEqual({ shift, date });
        expect(shiftAt(r.to)).toEqual(nextShift({ shift, date }));
      }
  });
});

describe('names and neighbours', () => {
  it('parses the query’s names', () => {
    expect(parseShift('manana')).toBe('manana');
    expect(parseShift('mañana')).toBe('manana');
    expect(parseShift('man\u0303ana')).toBe('manana');
    expect(parseShift('Tarde')).toBe('tarde');
    expect(parseShift('noche')).toBe('noche');
    expect(parseShift('madrugada')).toBeNull();
    expect(parseShift('')).toBeNull();
    expect(parseShift(undefined)).toBeNull();
  });

  it('validates SHIFT_STARTS', () => {
    expect(parseShiftStarts(SHIFT_STARTS_DEFAULT)).toEqual([360, 840, 1320]);
    expect(parseShiftStarts(' 6:00, 14:00 ,22:00')).toEqual([360, 840, 1320]);
    for (const bad of [
      '06:00,14:00',
      '06:00,14:00,22:00,23:00',
      '14:00,06:00,22:00',
      '06:00,06:00,22:00',
      '24:00,1:00,2:00',
      'a,b,c',
      '',
    ])
      expect(parseShiftStarts(bad), bad).toBeNull();
  });

  it('previous and next cross the date at the noche', () => {
    expect(previousShift({ shift: 'manana', date: '2026-03-01' })).toEqual({
      shift: 'noche',
      date: '2026-02-28',
    });
    expect(previousShift({ shift: 'noche', date: '2026-03-01' })).toEqual({
      shift: 'tarde',
      date: '2026-03-01',
    });
    expect(nextShift({ shift: 'noche', date: '2026-12-31' })).toEqual({
      shift: 'manana',
      date: '2027-01-01',
    });
    expect(nextShift({ shift: 'manana', date: '2026-12-31' })).toEqual({
      shift: 'tarde',
      date: '2026-12-31',
    });
  });
});
