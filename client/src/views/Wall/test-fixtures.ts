// Test data for the wall screen's and the Attention list's component tests.
import type { Task } from '@shared/schemas';

/** The tests' fixed now (fake timers start here). */
export const WALL_NOW = Date.parse('2026-03-10T10:00:00.000Z');
const minutesAgo = (m: number) => new Date(WALL_NOW - m * 60_000).toISOString();

let n = 0;
/** A pool task made a minute before WALL_NOW, unless `fields` say otherwise. */
export function wallTask(fields: Partial<Task> = {}): Task {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    title: 'Mover',
    description: null,
    origin: 'Muelle 3',
    destination: 'Campa Norte',
    trailer_id: `W-${1000 + n}`,
    priority: 'normal',
    status: 'bolsa_trabajo',
    vehicle_type: 'swap',
    assigned_to: null,
    assigned_to_name: null,
    created_by: 'g1',
    created_by_name: 'Marta Gestora',
    created_at: minutesAgo(1),
    updated_at: minutesAgo(1),
    assigned_at: null,
    completed_at: null,
    status_since: minutesAgo(1),
    return_reason: null,
    on_hold: false,
    hold_reason: null,
    last_return_reason: null,
    assignee_online: null,
    assignee_offline_since: null,
    version: 1,
    ...fields,
  };
}
