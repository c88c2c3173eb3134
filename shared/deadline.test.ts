import { describe, expect, it } from 'vitest';
import { DEADLINE_TEXT } from './labels/tasks';
import {
  DEADLINE_MAX_AHEAD_MS,
  deadlineLabel,
  dueAtError,
  dueAtFromPicker,
  latenessLabel,
  lateSeconds,
  pickerOf,
  waitTone,
} from './deadline';

const MIN = 60_000;
const at = (iso: string) => Date.parse(iso);

describe('deadline label (CONTRACT §20, Madrid time)', () => {
  // 2026-11-27 is winter time: Madrid = UTC+1.
  const now = at('2026-11-27T17:00:00.000Z'); // 18:00 in Madrid

  it('says the time of a deadline later today, tomorrow, or another day', () => {
    expect(deadlineLabel('2026-11-27T20:30:00.000Z', now)).toEqual({
      text: 'Antes de 21:30',
      tone: 'neutral',
    });
    expect(deadlineLabel('2026-11-28T05:00:00.000Z', now)).toEqual({
      text: 'Antes de mañana 06:00',
      tone: 'neutral',
    });
    expect(deadlineLabel('2026-11-24T20:30:00.000Z', at('2026-11-20T10:00:00.000Z'))).toEqual({
      text: 'Antes del 24/11 21:30',
      tone: 'neutral',
    });
    // Just before Madrid's midnight, 00:30 Madrid is tomorrow (still 23:30 UTC of the same UTC day).
    expect(deadlineLabel('2026-11-27T23:30:00.000Z', at('2026-11-27T21:00:00.000Z')).text).toBe(
      'Antes de mañana 00:30',
    );
    expect(deadlineLabel('2026-11-29T10:00:00.000Z', now).text).toBe('Antes del 29/11 11:00');
  });

  it('counts the last hour (amber in the last 30 min) and the lateness in red', () => {
    expect(deadlineLabel(now + 60 * MIN, now)).toEqual({ text: 'Antes de 19:00', tone: 'neutral' });
    expect(deadlineLabel(now + 59 * MIN, now)).toEqual({ text: 'Faltan 59 min', tone: 'neutral' });
    expect(deadlineLabel(now + 31 * MIN, now)).toEqual({ text: 'Faltan 31 min', tone: 'neutral' });
    expect(deadlineLabel(now + 30 * MIN, now)).toEqual({ text: 'Faltan 30 min', tone: 'amber' });
    expect(deadlineLabel(now + 25 * MIN + 30_000, now)).toEqual({ text: 'Faltan 25 min', tone: 'amber' });
    expect(deadlineLabel(now + 40_000, now)).toEqual({ text: 'Faltan 40 s', tone: 'amber' });
    expect(deadlineLabel(now, now)).toEqual({ text: 'Retrasada 0 s', tone: 'red' });
    expect(deadlineLabel(now - 12 * MIN, now)).toEqual({ text: 'Retrasada 12 min', tone: 'red' });
    expect(deadlineLabel(now - 114 * MIN, now)).toEqual({ text: 'Retrasada 1 h 54 min', tone: 'red' });
  });

  it('is right across the October change (last Sunday: 25 h day, 2026-10-25)', () => {
    // 00:30 Madrid summer time (UTC+2) on the 25th; the deadline 21:30 that day is winter time (UTC+1).
    const night = at('2026-10-24T22:30:00.000Z');
    expect(deadlineLabel('2026-10-25T20:30:00.000Z', night).text).toBe('Antes de 21:30');
    // 23:30 Madrid on the 24th (summer): 06:00 on the 25th (winter) is tomorrow.
    expect(deadlineLabel('2026-10-25T05:00:00.000Z', at('2026-10-24T21:30:00.000Z')).text).toBe(
      'Antes de mañana 06:00',
    );
    // Evening of the 25th (winter): 06:00 on the 26th is tomorrow, not the day after.
    expect(deadlineLabel('2026-10-26T05:00:00.000Z', at('2026-10-25T21:00:00.000Z')).text).toBe(
      'Antes de mañana 06:00',
    );
  });

  it('is right across the March change (last Sunday: 23 h day, 2026-03-29)', () => {
    // 23:00 Madrid winter time on the 28th; 06:00 of the 29th is summer time (UTC+2).
    expect(deadlineLabel('2026-03-29T04:00:00.000Z', at('2026-03-28T22:00:00.000Z')).text).toBe(
      'Antes de mañana 06:00',
    );
    // 00:30 on the 29th (winter, UTC+1): 21:30 that day (summer) is today.
    expect(deadlineLabel('2026-03-29T19:30:00.000Z', at('2026-03-28T23:30:00.000Z')).text).toBe(
      'Antes de 21:30',
    );
    // From the 29th's evening, the 30th is tomorrow and the 31st another day.
    const evening = at('2026-03-29T19:00:00.000Z');
    expect(deadlineLabel('2026-03-30T04:00:00.000Z', evening).text).toBe('Antes de mañana 06:00');
    expect(deadlineLabel('2026-03-31T04:00:00.000Z', evening).text).toBe('Antes del 31/03 06:00');
  });
});

describe('deadline rules (CONTRACT §20)', () => {
  const now = at('2026-11-27T17:00:00.000Z');

  it('refuses a new deadline in the past or more than 30 days ahead', () => {
    expect(dueAtError(now - 1000, now)).toBe(DEADLINE_TEXT.past);
    expect(dueAtError(now, now)).toBe(DEADLINE_TEXT.past);
    expect(dueAtError(now + 1000, now)).toBeNull();
    expect(dueAtError(new Date(now + DEADLINE_MAX_AHEAD_MS).toISOString(), now)).toBeNull();
    expect(dueAtError(now + DEADLINE_MAX_AHEAD_MS + 1000, now)).toBe(DEADLINE_TEXT.tooFar);
    expect(DEADLINE_TEXT.past).toBe('La hora límite ya ha pasado');
    expect(DEADLINE_TEXT.tooFar).toBe('La hora límite es demasiado lejana');
  });

  it('records whole seconds late, 0 on time, null without a deadline', () => {
    expect(lateSeconds(now, now - 12 * MIN)).toBe(720);
    expect(lateSeconds(now, now - 1_499)).toBe(1);
    expect(lateSeconds(now, now + MIN)).toBe(0);
    expect(lateSeconds(now, null)).toBeNull();
  });
});

describe('the waiting timer colour (issue 28: no alarm on a fresh task)', () => {
  it('is neutral up to §20 espera (20 min), amber after, red past 40 min', () => {
    expect(waitTone(0)).toBe('neutral');
    expect(waitTone(20 * MIN)).toBe('neutral');
    expect(waitTone(20 * MIN + 1000)).toBe('amber');
    expect(waitTone(40 * MIN)).toBe('amber');
    expect(waitTone(40 * MIN + 1000)).toBe('red');
  });
});

describe('lateness of a finished task', () => {
  it('says Retrasada in red, A tiempo, or nothing without a deadline', () => {
    expect(latenessLabel(12 * 60 + 30)).toEqual({ text: 'Retrasada 12 min', tone: 'red' });
    expect(latenessLabel(0)).toEqual({ text: 'A tiempo', tone: 'neutral' });
    expect(latenessLabel(null)).toBeNull();
  });
});

describe('the Hora límite picker (Madrid time, Hoy / Mañana)', () => {
  it('turns a Madrid HH:mm today or tomorrow into a UTC instant (winter: UTC+1)', () => {
    const now = at('2026-11-27T17:00:00.000Z'); // 18:00 Madrid
    expect(dueAtFromPicker('today', '21:30', now)).toBe('2026-11-27T20:30:00.000Z');
    expect(dueAtFromPicker('tomorrow', '06:00', now)).toBe('2026-11-28T05:00:00.000Z');
    expect(dueAtFromPicker('today', '25:00', now)).toBeNull();
    expect(dueAtFromPicker('today', '', now)).toBeNull();
    // Late evening in Madrid is already the next UTC day's eve: "today" is Madrid's day.
    const lateEvening = at('2026-11-27T23:30:00.000Z'); // 00:30 Madrid on the 28th
    expect(dueAtFromPicker('today', '08:00', lateEvening)).toBe('2026-11-28T07:00:00.000Z');
  });

  it('is right across daylight saving (tomorrow is the 29 March 2026 spring change)', () => {
    const now = at('2026-03-28T12:00:00.000Z'); // Saturday 13:00 CET
    // Sunday 10:00 is summer time (UTC+2).
    expect(dueAtFromPicker('tomorrow', '10:00', now)).toBe('2026-03-29T08:00:00.000Z');
    // 01:30 is still winter time (UTC+1).
    expect(dueAtFromPicker('tomorrow', '01:30', now)).toBe('2026-03-29T00:30:00.000Z');
    // Autumn: Sunday 25 October 2026, 10:00 is winter time again (UTC+1).
    expect(dueAtFromPicker('tomorrow', '10:00', at('2026-10-24T12:00:00.000Z'))).toBe(
      '2026-10-25T09:00:00.000Z',
    );
  });

  it('shows a deadline of today or tomorrow, and none for a later day', () => {
    const now = at('2026-11-27T17:00:00.000Z');
    expect(pickerOf('2026-11-27T20:30:00.000Z', now)).toEqual({ day: 'today', time: '21:30' });
    expect(pickerOf('2026-11-28T05:00:00.000Z', now)).toEqual({ day: 'tomorrow', time: '06:00' });
    expect(pickerOf('2026-11-29T05:00:00.000Z', now)).toBeNull();
  });
});
