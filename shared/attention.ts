// What needs a person in the control room (CONTRACT §15), for the board's and the wall's Attention
// lists: one rule, computed where the tasks already are (the client keeps them live).
import { ATTENTION } from './constants';
import { isAutoAssigned } from './enums';
import type { Task } from './schemas';

export const ATTENTION_KINDS = ['on_hold', 'driver_offline', 'in_progress_long', 'pool_waiting'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

export interface AttentionItem {
  kind: AttentionKind;
  task: Task;
  /** Since when the condition holds (ISO): the list shows how long. */
  since: string;
}

const ms = (iso: string) => Date.parse(iso);

/** The tasks that need a person now, the longest-standing first. A task appears once, by its first kind. */
export function attentionItems(tasks: readonly Task[], nowMs: number): AttentionItem[] {
  const items: AttentionItem[] = [];
  for (const task of tasks) {
    const item = attentionOf(task, nowMs);
    if (item) items.push(item);
  }
  return items.sort((a, b) => ms(a.since) - ms(b.since));
}

function attentionOf(task: Task, nowMs: number): AttentionItem | undefined {
  if (task.status === 'bolsa_trabajo') {
    if (task.on_hold) return { kind: 'on_hold', task, since: task.status_since };
    if (isAutoAssigned(task.vehicle_type) && nowMs - ms(task.status_since) > ATTENTION.poolWaitMs)
      return { kind: 'pool_waiting', task, since: task.status_since };
    return undefined;
  }
  if (task.status !== 'en_proceso') return undefined;
  const offlineSince = task.assignee_online === false ? task.assignee_offline_since : null;
  if (offlineSince && nowMs - ms(offlineSince) > ATTENTION.driverOfflineMs)
    return { kind: 'driver_offline', task, since: offlineSince };
  const started = task.assigned_at ?? task.status_since;
  if (nowMs - ms(started) > ATTENTION.inProgressMs) return { kind: 'in_progress_long', task, since: started };
  return undefined;
}
