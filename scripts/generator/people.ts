// The yard's people: an admin, gestores, managers, drivers with their task types, and a few
// registrations still waiting for approval.
import { DEFAULT_TASK_TYPES } from '@shared/constants';
import { VEHICLE_TYPES, type Role, type VehicleType } from '@shared/enums';
import type { Rng } from './random';
import { personName } from './vocabulary';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Person {
  id: string;
  name: string;
  email: string;
  role: Role;
  taskTypes: VehicleType[];
  isApproved: boolean;
  createdAt: number;
  approvedAt: number | null;
}

export interface Staff {
  admins: Person[];
  gestores: Person[];
  managers: Person[];
  drivers: Person[];
  pending: Person[];
}

export interface PeopleCounts {
  admins: number;
  gestores: number;
  managers: number;
  drivers: number;
  pendingUsers: number;
}

/** Every driver moves semi-trailers; some also take Out KM0 moves and/or swap bodies. */
function driverTypes(rng: Rng): VehicleType[] {
  const types: VehicleType[] = ['semiremolque'];
  if (rng.chance(0.4)) types.push('semiremolque_out_km0');
  if (rng.chance(0.45)) types.push('swap');
  return types;
}

export function makePeople(
  rng: Rng,
  counts: PeopleCounts,
  opts: { nowMs: number; historyStart: number; emailDomain: string },
): Staff {
  const taken = new Set<string>();
  const email = (local: string) => {
    let candidate = `${local}@${opts.emailDomain}`;
    for (let n = 2; taken.has(candidate); n++) candidate = `${local}${n}@${opts.emailDomain}`;
    taken.add(candidate);
    return candidate;
  };
  /** An approved account, opened some weeks or months before the history starts. */
  const approved = (role: Role, local?: string): Person => {
    const who = personName(rng);
    const createdAt = opts.historyStart - rng.between(7, 400) * DAY;
    return {
      id: rng.uuid(),
      name: who.name,
      email: email(local ?? who.emailLocal),
      role,
      taskTypes: role === 'conductor' ? driverTypes(rng) : [],
      isApproved: true,
      createdAt,
      // The first admin exists from the start; everybody else waited for an admin's approval.
      approvedAt: role === 'admin' ? createdAt : createdAt + rng.between(0.2, 20) * HOUR,
    };
  };
  const many = (n: number, role: Role) => Array.from({ length: n }, () => approved(role));

  const admins = Array.from({ length: counts.admins }, (_, i) =>
    approved('admin', i === 0 ? 'admin' : undefined),
  );
  const gestores = many(counts.gestores, 'gestor');
  const managers = many(counts.managers, 'manager');
  const drivers = many(counts.drivers, 'conductor');
  // Every task type has at least one driver, so no type waits forever.
  if (drivers.length) {
    for (const type of ['semiremolque_out_km0', 'swap'] as const)
      if (!drivers.some((d) => d.taskTypes.includes(type))) rng.pick(drivers).taskTypes.push(type);
    for (const d of drivers) d.taskTypes.sort((a, b) => VEHICLE_TYPES.indexOf(a) - VEHICLE_TYPES.indexOf(b));
  }
  const pending = Array.from({ length: counts.pendingUsers }, (_, i): Person => {
    const who = personName(rng);
    const role: Role = i % 3 === 1 ? 'gestor' : 'conductor';
    return {
      id: rng.uuid(),
      name: who.name,
      email: email(who.emailLocal),
      role,
      taskTypes: role === 'conductor' ? [...DEFAULT_TASK_TYPES] : [],
      isApproved: false,
      createdAt: opts.nowMs - rng.between(0.5, 40) * HOUR,
      approvedAt: null,
    };
  });
  return { admins, gestores, managers, drivers, pending };
}
