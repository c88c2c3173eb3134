// Test data for the driver screen's component tests.
import type { SessionUser, Task, TimeclockStatus } from '@shared/schemas';
import { makeTask } from '../../test/tasks';

export const DRIVER: SessionUser = {
  id: 'd1',
  name: 'Luis Gómez',
  email: 'luis@patio.es',
  role: 'conductor',
};

/** A Swap task in the pool: what the driver's Swap list shows. */
export const swapTask = (over: Partial<Task> = {}): Task => makeTask({ vehicle_type: 'swap', ...over });

/** A task assigned to DRIVER and in progress. */
export const makeActive = (over: Partial<Task> = {}): Task =>
  makeTask({
    status: 'en_proceso',
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
