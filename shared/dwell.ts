// How long a trailer has stood at its place (CONTRACT §17: the Patio colours each trailer by it). One rule
// for the map's chips, the trailer list, the trailer panel and the legend.

const HOUR_MS = 3_600_000;
/** From this long at its place a trailer is amber: it has been there for a shift or more. */
export const DWELL_LONG_MS = 4 * HOUR_MS;
/** Beyond this long it is red: a day or more, someone should know why. */
export const DWELL_STALE_MS = 24 * HOUR_MS;

export const DWELL_LEVELS = ['fresh', 'long', 'stale'] as const;
export type DwellLevel = (typeof DWELL_LEVELS)[number];

/** `< 4 h` fresh, `4–24 h` long (both ends included), `> 24 h` stale. */
export function dwellLevel(dwellMs: number): DwellLevel {
  if (dwellMs < DWELL_LONG_MS) return 'fresh';
  return dwellMs <= DWELL_STALE_MS ? 'long' : 'stale';
}

/** The thresholds in whole hours, for the legend's texts. */
export const DWELL_HOURS = { long: DWELL_LONG_MS / HOUR_MS, stale: DWELL_STALE_MS / HOUR_MS } as const;
