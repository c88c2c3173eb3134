// The order of urgency (CONTRACT §15): what the wall screen, and anything else that lists open tasks
// for a person to act on, shows first. One rule, so the server or another view can reuse it.
import type { Priority } from './enums';
import type { Task } from './schemas';

const PRIORITY_RANK: Record<Priority, number> = { high: 0, normal: 1, low: 2 };

type PoolFields = Pick<Task, 'on_hold' | 'priority' | 'created_at' | 'id'>;
type RunningFields = Pick<Task, 'status_since' | 'created_at' | 'id'>;

/** The pool by urgency: tasks on hold last, then high priority first, then the oldest first. */
export const byUrgency = (a: PoolFields, b: PoolFields): number =>
  Number(a.on_hold) - Number(b.on_hold) ||
  PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] ||
  Date.parse(a.created_at) - Date.parse(b.created_at) ||
  a.id.localeCompare(b.id);

/** En Proceso: the longest running first (in its state since the earliest). */
export const longestRunningFirst = (a: RunningFields, b: RunningFields): number =>
  Date.parse(a.status_since) - Date.parse(b.status_since) ||
  Date.parse(a.created_at) - Date.parse(b.created_at) ||
  a.id.localeCompare(b.id);
