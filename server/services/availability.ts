// The one definition of a driver's availability (CONTRACT §5): approved conductor, online, clocked in
// (latest punch of the last 24 h is an entrada), holding no active task; per task: having its type.
// Stats, the board's driver picker and the assignment engine all read it from here.
import type { VehicleType } from '@shared/enums';
import { TIMECLOCK_WINDOW_MS } from '@shared/constants';
import { query } from '../db';
import { TRUE } from '../db/dialect';
import { nowMs } from '../clock';

export interface DriverState {
  id: string;
  name: string;
  taskTypes: VehicleType[];
  isOnline: boolean;
  clockedIn: boolean;
  busy: boolean;
  available: boolean;
  idleSince: number | null;
  movementsCount: number;
}

interface Row {
  id: string;
  name: string;
  task_types: string;
  // 0/1 from SQLite, true/false from PostgreSQL.
  is_online: number | boolean;
  idle_since: number | null;
  movements_count: number;
  busy: number | boolean;
  last_punch: string | null;
}

const BUSY = `EXISTS (SELECT 1 FROM tasks t WHERE t.assigned_to = u.id AND t.status = 'en_proceso' AND t.deleted_at IS NULL)`;
// The latest punch of the last 24 h is the latest punch, if it is of the last 24 h. Asked that way, the
// window's start leaves the plan alone: PostgreSQL plans the statement once, not at every run for its
// value (a custom plan, ~0.3 ms of the engine's round).
const SQL = `
  SELECT u.id, u.name, u.task_types, u.is_online, u.idle_since, u.movements_count, ${BUSY} AS busy,
    (SELECT CASE WHEN p.timestamp > ? THEN p.clock_type END FROM punches p WHERE p.user_id = u.id
      AND p.deleted_at IS NULL ORDER BY p.timestamp DESC, p.rowid DESC LIMIT 1) AS last_punch
  FROM users u
  WHERE u.role = 'conductor' AND u.is_approved = ${TRUE} AND u.deleted_at IS NULL`;
const VARIANTS = {
  all: SQL,
  online: `${SQL} AND u.is_online = ${TRUE}`,
  // The engine's question: who is online and free? When the whole shift is busy, that is one index
  // probe per online driver and nothing else.
  free: `${SQL} AND u.is_online = ${TRUE} AND NOT ${BUSY}`,
};
type Scope = keyof typeof VARIANTS;

/**
 * Approved conductors with the flags that make them available or not: `all` of them, only the `online`
 * ones (all an available driver can be, so a big yard's offline drivers cost nothing), or only the
 * online ones holding no task (`free`; `available` still needs the clock-in). Read on the current
 * session: inside a transaction (the engine's round), what it decides on.
 */
export async function driverStates(scope: Scope = 'all'): Promise<DriverState[]> {
  const rows = await query<Row>(VARIANTS[scope], [nowMs() - TIMECLOCK_WINDOW_MS]);
  return rows.map((r) => {
    const clockedIn = r.last_punch === 'entrada';
    const isOnline = Boolean(r.is_online);
    const busy = Boolean(r.busy);
    return {
      id: r.id,
      name: r.name,
      taskTypes: JSON.parse(r.task_types) as VehicleType[],
      isOnline,
      clockedIn,
      busy,
      available: isOnline && clockedIn && !busy,
      idleSince: r.idle_since,
      movementsCount: r.movements_count,
    };
  });
}
