// jsdom test helpers: catalogue places as GET /locations sends them (shared/schemas/yard.ts).
import type { Location } from '@shared/schemas';

let n = 0;

/** An active dock of capacity 1; every call has its own id, code and grid cell; `overrides` set any field. */
export function makeLocation(overrides: Partial<Location> = {}): Location {
  n += 1;
  return {
    id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    code: `MUELLE-${n}`,
    name: `Muelle ${n}`,
    kind: 'muelle',
    zone: 'Muelles',
    capacity: 1,
    x: n,
    y: 0,
    active: true,
    ...overrides,
  };
}
