// The colours of a trailer's time at its place (shared/dwell.ts), solid so they read from across the
// control room: the map's chips, the list's time column and the legend.
import type { DwellLevel } from '@shared/dwell';

export const DWELL_CHIP: Record<DwellLevel, string> = {
  fresh: 'bg-emerald-600 text-white',
  long: 'bg-amber-400 text-amber-950',
  stale: 'bg-red-600 text-white',
};
