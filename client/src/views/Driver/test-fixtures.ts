// Test data for the driver screen's component tests.
import type { Task, TimeclockStatus } from '@shared/schemas';
import type { SessionUser } from '@shared/schemas';

export const DRIVER: SessionUser = {
  id: 'd1',
  name: 'Luis Gómez',
  email: 'luis@patio.es',
  role: 'conductor',
};

let n = 0;
export function makeTask(over: Partial<Task> = {}): Task {
  n += 1;
  const at = new Date(Date.now() - 5 * 60_000).toISOString();
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    title: 'Mover',
    description: 'Junto a la báscula',
    origin: 'Muelle 3',
    destination: 'Campa Norte',
    trailer_id: `R-${1000 + n}`,
    priority: 'normal',
    status: 'bolsa_trabajo',
    vehicle_type: 'swap',
    assigned_to: null,
    assigned_to_name: null,
    created_by: 'g1',
    created_by_name: 'Marta Gestora',
    created_at: at,
    updated_at: at,
    assigned_at: null,
    completed_at: null,
    status_since: at,
    return_reason: null,
    on_hold: false,
    hold_reason: null,
    last_return_reason: null,
    assignee_online: null,
    assignee_offline_since: null,
    version: 1,
    ...over,
  };
}

/** A task assigned to DRIVER and in progress. */
export const makeActive = (over: Partial<Task> = {}): Task =>
  makeTask({
    status: 'en_proceso',
    vehicle_type: 'semiremolque',
    assigned_to: DRIVER.id,
    assigned_to_name: DRIVER.name,
    assigned_at: new Date().toISOString(),
    ...over,
  });

export const clockStatus = (over: Partial<TimeclockStatus> = {}): TimeclockStatus => ({
  status: 'not_clocked_in',
  can_clock_in: true,
  can_clock_out: false,
  last_entrada: null,
  last_salida: null,
  punches_today: 0,
  ...over,
});
