// Period presets (CONTRACT §22 "period presets", issue 30 item 3): the Madrid-day ranges a user picks from
// instead of typing two dates — the Indicadores view and the Excel exports of Control Conductores offer
// the same ones. Pure: the caller passes today's Madrid date (the server's clock on the client).

export const PERIOD_PRESETS = ['today', 'yesterday', 'last7', 'last30', 'month'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export interface DayRange {
  from: string;
  to: string;
}

/** `YYYY-MM-DD` moved by whole calendar days. */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000) + 1;
}

/** The range of a preset, `today` being the Madrid date now. */
export function presetRange(preset: PeriodPreset, today: string): DayRange {
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const day = addDays(today, -1);
      return { from: day, to: day };
    }
    case 'last7':
      return { from: addDays(today, -6), to: today };
    case 'last30':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 8)}01`, to: today };
  }
}

/** The preset a range is, if any (so the picker lights the right button after a reload). */
export function presetOf(range: DayRange, today: string): PeriodPreset | null {
  return (
    PERIOD_PRESETS.find((p) => {
      const r = presetRange(p, today);
      return r.from === range.from && r.to === range.to;
    }) ?? null
  );
}
