// Test data for the wall screen's and the Attention list's component tests.
import type { Task } from '@shared/schemas';
import { makeTask } from '../../test/tasks';

/** The tests' fixed now (fake timers start here). */
export const WALL_NOW = Date.parse('2026-03-10T10:00:00.000Z');
const minutesAgo = (m: number) => new Date(WALL_NOW - m * 60_000).toISOString();

/** A Swap pool task made a minute before WALL_NOW, unless `fields` say otherwise. */
export const wallTask = (fields: Partial<Task> = {}): Task =>
  makeTask({
    vehicle_type: 'swap',
    created_at: minutesAgo(1),
    updated_at: minutesAgo(1),
    status_since: minutesAgo(1),
    ...fields,
  });
