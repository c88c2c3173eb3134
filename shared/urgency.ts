// The order of urgency (CONTRACT §20, which overrides §15's wall order and §16's Swap order): what the
// wall, the desktop pool column and the driver's Swap list show first. One rule, applied by the client;
// `GET /tasks` keeps §5's order.
import { DEADLINE_SOON_MS } from './deadline';
import type { Task } from './schemas';

type PoolFields = Pick<Task, 'on_hold' | 'priority' | 'created_at' | 'id' | 'due_at'>;
type RunningFields = Pick<Task, 'status_since' | 'created_at' | 'id'>;

/** The steps of the rule, most urgent first (held tasks come after all of them). */
const Step = { Overdue: 0, DueSoon: 1, High: 2, Deadline: 3, None: 4 } as const;
type Step = (typeof Step)[keyof typeof Step];

const stepOf = (t: PoolFields, due: number | null, now: number): Step => {
  if (due !== null && due <= now) return Step.Overdue;
  if (due !== null && due - now < DEADLINE_SOON_MS) return Step.DueSoon;
  if (t.priority === 'high') return Step.High;
  return due !== null ? Step.Deadline : Step.None;
};

const dueMs = (t: PoolFields): number | null => (t.due_at ? Date.parse(t.due_at) : null);

/**
 * The pool by urgency at `now` (ms): held tasks last; before them overdue tasks (most overdue first),
 * then tasks due within 60 minutes (soonest first), then high priority, then other deadlines (soonest
 * first), then no deadline; ties oldest first. Held tasks are ordered among themselves by the same rule.
 * A comparator factory: `tasks.sort(byUrgency(now))`.
 */
export const byUrgency =
  (now: number) =>
  (a: PoolFields, b: PoolFields): number => {
    const dueA = dueMs(a);
    const dueB = dueMs(b);
    const stepA = stepOf(a, dueA, now);
    const stepB = stepOf(b, dueB, now);
    const byDeadline = stepA === stepB && stepA !== Step.High && stepA !== Step.None;
    return (
      Number(a.on_hold) - Number(b.on_hold) ||
      stepA - stepB ||
      (byDeadline ? dueA! - dueB! : 0) ||
      Date.parse(a.created_at) - Date.parse(b.created_at) ||
      a.id.localeCompare(b.id)
    );
  };

/** En Proceso: the longest running first (in its state since the earliest). */
export const longestRunningFirst = (a: RunningFields, b: RunningFields): number =>
  Date.parse(a.status_since) - Date.parse(b.status_since) ||
  Date.parse(a.created_at) - Date.parse(b.created_at) ||
  a.id.localeCompare(b.id);
