// The gate's history (CONTRACT §19 "Gate visits", issue 27): trucks of the carriers come and go, most
// dropping a loaded or empty trailer at a campa slot or the outside car park and many taking one that an
// earlier truck left. Every visit is closed before now, and every trailer it dropped was taken again, so
// the yard as it stands now is the tasks' own (settleAllTrailers() keeps these records where the gate
// left them: out of the yard). Waits follow Spain's 1-hour rule's counting (from the agreed time or the
// arrival, whichever is later): most under 1 h, some over, a few over 2 h.
import { GATE_LOG } from '@shared/labels';
import { carrierKey, plateKey } from '@shared/text';
import { madridOffsetMs } from '@shared/time';
import type { LoadState } from '@shared/enums';
import type { Person } from './people';
import type { Rng } from './random';
import { CARRIERS, personName, plate, truckPlate } from './vocabulary';
import type { Writer } from './writer';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** Trucks a day through the gate, on a weekday (Sunday first: quieter at the weekend). */
const VISITS_PER_DAY: readonly [number, number] = [10, 18];
const WEEKDAY_WEIGHT = [0.3, 1, 1, 1, 1, 1, 0.6];
/** Madrid hours the gate sees trucks enter. */
const OPEN_HOURS: readonly [number, number] = [5, 22];
/** Minutes of wait, as [range, weight]: most under 1 h, some over 1 h, a few over 2 h. */
const WAIT: readonly (readonly [readonly [number, number], number])[] = [[[8, 58], 78], [[62, 118], 16], [[122, 200], 6]]; // prettier-ignore
const APPOINTMENT_CHANCE = 0.45;
const DROP_CHANCE = 0.8;
const PICK_CHANCE = 0.75;
/** The history's visits all left this long before now. */
const QUIET_BEFORE_NOW = 20 * MIN;

export interface GatePlace {
  id: string;
  name: string;
  kind: string;
}

interface Dropped {
  plate: string;
  loadState: LoadState;
  seal: string | null;
  place: GatePlace;
  carrier: string;
  at: number;
  by: Person;
  /** When the truck that takes it leaves (null: nobody did). */
  pickedAt: number | null;
}

interface Visit {
  id: string;
  truck: string;
  carrier: string;
  driver: string | null;
  appointmentAt: number | null;
  enteredAt: number;
  exitedAt: number;
  dropped: Dropped | null;
  picked: Dropped | null;
  exitSeal: string | null;
  enteredBy: Person;
  exitedBy: Person;
}

/**
 * Writes the closed visits of the history days and the records of the trailers they dropped; returns
 * how many visits. `taken` tells the fleet's plates apart (a visiting trailer never is one of them).
 */
export function writeGateHistory(
  rng: Rng,
  ids: Rng,
  w: Writer,
  opts: {
    nowMs: number;
    historyStart: number;
    staff: Person[];
    places: readonly GatePlace[];
    taken: (plate: string) => boolean;
  },
): number {
  const campa = opts.places.filter((p) => p.kind === 'campa');
  const parking = opts.places.filter((p) => p.kind === 'aparcamiento');
  if (!opts.staff.length || !campa.length || !parking.length) return 0;
  const until = opts.nowMs - QUIET_BEFORE_NOW;
  const plates = new Set<string>();
  const newPlate = () => {
    let p = plate(rng, false);
    while (plates.has(p) || opts.taken(p)) p = plate(rng, false);
    plates.add(p);
    return p;
  };

  // The arrivals, day by day (Madrid days), oldest first.
  const arrivals: number[] = [];
  for (let day = opts.historyStart - (opts.historyStart % DAY); day < until; day += DAY) {
    const weekday = new Date(day + 12 * HOUR).getUTCDay();
    const n = Math.round(rng.between(...VISITS_PER_DAY) * WEEKDAY_WEIGHT[weekday]);
    const offset = madridOffsetMs(day + 12 * HOUR);
    for (let i = 0; i < n; i++) {
      const t = day - offset + rng.between(OPEN_HOURS[0], OPEN_HOURS[1]) * HOUR;
      if (t >= opts.historyStart && t < until) arrivals.push(t);
    }
  }
  arrivals.sort((a, b) => a - b);

  const visits: Visit[] = [];
  /** Trailers the gate left in the yard, oldest first: the next trucks take them. */
  const waiting: Dropped[] = [];
  for (const enteredAt of arrivals) {
    const appointmentAt = rng.chance(APPOINTMENT_CHANCE)
      ? Math.round((enteredAt + rng.between(-40, 30) * MIN) / (5 * MIN)) * 5 * MIN
      : null;
    const [lo, hi] = rng.weighted(WAIT);
    const exitedAt = Math.max(enteredAt, appointmentAt ?? 0) + rng.between(lo, hi) * MIN;
    if (exitedAt > until) continue;
    const carrier = rng.pick(CARRIERS);
    const enteredBy = rng.pick(opts.staff);
    let dropped: Dropped | null = null;
    if (rng.chance(DROP_CHANCE)) {
      const loadState: LoadState = rng.chance(0.6) ? 'cargado' : 'vacio';
      dropped = {
        plate: newPlate(),
        loadState,
        seal: loadState === 'cargado' ? String(rng.int(100000, 999999)) : null,
        place: rng.pick(loadState === 'cargado' ? campa : parking),
        carrier,
        at: enteredAt,
        by: enteredBy,
        pickedAt: null,
      };
    }
    // A truck takes a trailer an earlier one left (dropped before this one came in).
    let picked: Dropped | null = null;
    if (waiting.length && waiting[0]!.at < enteredAt && rng.chance(PICK_CHANCE)) {
      picked = waiting.shift()!;
      picked.pickedAt = exitedAt;
    }
    if (dropped) waiting.push(dropped);
    visits.push({
      id: ids.uuid(),
      truck: truckPlate(rng),
      carrier,
      driver: rng.chance(0.7) ? personName(rng).name : null,
      appointmentAt,
      enteredAt,
      exitedAt,
      dropped,
      picked,
      exitSeal: picked?.seal ?? null,
      enteredBy,
      exitedBy: rng.pick(opts.staff),
    });
  }
  // The trailers nobody came for: those trucks came without one (the yard now is the tasks' alone).
  for (const v of visits) if (v.dropped && v.dropped.pickedAt === null) v.dropped = null;

  const date = (t: number | null) => (t === null ? null : new Date(Math.round(t)));
  for (const v of visits) {
    w.visit({
      id: v.id,
      truckPlate: v.truck,
      carrier: v.carrier,
      carrierKey: carrierKey(v.carrier),
      driverName: v.driver,
      appointmentAt: date(v.appointmentAt),
      enteredAt: date(v.enteredAt)!,
      exitedAt: date(v.exitedAt),
      droppedTrailerId: v.dropped?.plate ?? null,
      droppedTrailerKey: v.dropped ? plateKey(v.dropped.plate) : null,
      pickedTrailerId: v.picked?.plate ?? null,
      pickedTrailerKey: v.picked ? plateKey(v.picked.plate) : null,
      entrySeal: v.dropped?.seal ?? null,
      exitSeal: v.exitSeal,
      sealMismatch: false,
      enteredBy: v.enteredBy.id,
      exitedBy: v.exitedBy.id,
    });
    w.log(
      'gate',
      v.enteredBy,
      GATE_LOG.entry.action,
      GATE_LOG.entry.details(v.truck, v.carrier, v.dropped?.plate ?? null, v.dropped?.place.name ?? null),
      v.enteredAt,
    );
    w.log(
      'gate',
      v.exitedBy,
      GATE_LOG.exit.action,
      GATE_LOG.exit.details(v.truck, v.carrier, v.picked?.plate ?? null),
      v.exitedAt,
    );
    if (v.picked)
      w.trailerEvent({
        trailerKey: plateKey(v.picked.plate),
        kind: 'exit',
        locationId: null,
        actorId: v.exitedBy.id,
        at: date(v.exitedAt)!,
      });
    const d = v.dropped;
    if (!d) continue;
    // Its record as the gate left it: filled at the entry, out of the yard since the exit that took it.
    const key = plateKey(d.plate);
    const pickedAt = date(d.pickedAt)!;
    w.trailer({
      trailerKey: key,
      trailerId: d.plate,
      kind: d.loadState === 'cargado' && rng.chance(0.3) ? 'frigorifico' : 'lona',
      loadState: d.loadState,
      carrier: d.carrier,
      seal: d.seal,
      locationId: null,
      since: null,
      taskId: null,
      placedAt: pickedAt,
      version: 3,
      createdAt: date(d.at)!,
      updatedAt: pickedAt,
    });
    w.trailerEvent({
      trailerKey: key,
      kind: 'entry',
      locationId: d.place.id,
      actorId: d.by.id,
      at: date(d.at)!,
    });
  }
  return visits.length;
}
