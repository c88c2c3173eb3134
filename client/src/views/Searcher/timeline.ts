// The three steps of a result's timeline (SPEC §2): Creada; Asignada (assignee or 'Sin asignar');
// Finalizada, or where the task is now (En progreso / Pendiente). The task row holds the current
// assignment (kept on completion); the history (task_events) adds how often it came back to the pool.
import { UNASSIGNED, UI_SEARCH } from '@shared/labels';
import type { SearchTask } from '@shared/schemas';

export type StepState = 'done' | 'current' | 'waiting';

export interface TimelineStep {
  key: 'created' | 'assigned' | 'final';
  label: string;
  state: StepState;
  /** When the step happened (or since when the task waits in it). */
  at: string | null;
  detail: string | null;
}

const T = UI_SEARCH.timeline;

export function timelineSteps(task: SearchTask): TimelineStep[] {
  const created: TimelineStep = {
    key: 'created',
    label: T.created,
    state: 'done',
    at: task.created_at,
    detail: task.created_by_name ? T.by(task.created_by_name) : null,
  };

  const assignee = task.status === 'bolsa_trabajo' ? null : task.assigned_to_name;
  const assigned: TimelineStep = {
    key: 'assigned',
    label: T.assigned,
    state: assignee ? 'done' : 'waiting',
    at: assignee ? task.assigned_at : null,
    detail: assignee ?? UNASSIGNED,
  };

  const final: TimelineStep =
    task.status === 'finalizada'
      ? { key: 'final', label: T.finished, state: 'done', at: task.completed_at, detail: null }
      : {
          key: 'final',
          label: task.status === 'en_proceso' ? T.inProgress : T.pending,
          state: 'current',
          at: task.status_since,
          detail: null,
        };

  return [created, assigned, final];
}

/** How many times the task came back to the pool (driver returns), from its history. */
export const returnCount = (task: SearchTask): number =>
  task.timeline.filter((e) => e.type === 'returned').length;
