// jsdom test helper: one Task as the server sends it (shared/schemas/tasks.ts), for every client test.
import { DEFAULT_TRAILER_MARKS, type Task } from '@shared/schemas';

let n = 0;

/**
 * A pool task ('Mover', Semiremolque, normal priority, nobody assigned, version 1) created, changed and put in
 * its state five minutes ago. Every call has its own id (a valid UUID that sorts by creation) and trailer;
 * `overrides` set any field.
 */
export function makeTask(overrides: Partial<Task> = {}): Task {
  n += 1;
  const at = new Date(Date.now() - 5 * 60_000).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    title: 'Mover',
    description: null,
    origin: 'Muelle 3',
    destination: 'Campa Norte',
    origin_location_id: null,
    destination_location_id: null,
    trailer_id: `R-${1000 + n}`,
    load_state_after: null,
    due_at: null,
    late_s: null,
    proof: null,
    dropped_at_location_id: null,
    dropped_at_location_name: null,
    priority: 'normal',
    status: 'bolsa_trabajo',
    vehicle_type: 'semiremolque',
    assigned_to: null,
    assigned_to_name: null,
    created_by: 'g1',
    created_by_name: 'Marta Gestora',
    created_by_client_id: null,
    external_ref: null,
    created_at: at,
    updated_at: at,
    assigned_at: null,
    completed_at: null,
    status_since: at,
    return_reason: null,
    on_hold: false,
    hold_reason: null,
    hold_source: null,
    last_return_reason: null,
    assignee_online: null,
    assignee_offline_since: null,
    trailer: DEFAULT_TRAILER_MARKS,
    version: 1,
    ...overrides,
  };
}
