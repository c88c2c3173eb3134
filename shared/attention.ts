// What needs a person in the control room (CONTRACT §15), for the board's and the wall's Attention
// lists: one rule, computed where the tasks already are (the client keeps them live).
import { ATTENTION } from './constants';
import { isAutoAssigned } from './enums';
import type { Task } from './schemas';
import { plateKey } from './text';

export const ATTENTION_KINDS = [
  'duplicate_trailer',
  'on_hold',
  'driver_offline',
  'in_progress_long',
  'pool_waiting',
] as const;
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
  const clashes = duplicateTrailers(tasks);
  for (const task of tasks) {
    const since = clashes.get(task.id);
    const item: AttentionItem | undefined = since
      ? { kind: 'duplicate_trailer', task, since }
      : attentionOf(task, nowMs);
    if (item) items.push(item);
  }
  return items.sort((a, b) => ms(a.since) - ms(b.since));
}

const isOpen = (t: Task) => t.status === 'bolsa_trabajo' || t.status === 'en_proceso';

/**
 * CONTRACT §19: open tasks that share a plate key with another open task (`R-4136-FVR` and `r4136fvr`,
 * both open since before plates were keyed): each of them, since the later one was created.
 */
function duplicateTrailers(tasks: readonly Task[]): Map<string, string> {
  const byKey = new Map<string, Task[]>();
  for (const task of tasks)
    if (isOpen(task)) {
      const key = plateKey(task.trailer_id);
      byKey.set(key, [...(byKey.get(key) ?? []), task]);
    }
  const since = new Map<string, string>();
  for (const group of byKey.values())
    if (group.length > 1) {
      const latest = group.map((t) => t.created_at).reduce((a, b) => (ms(a) >= ms(b) ? a : b));
      for (const task of group) since.set(task.id, latest);
    }
  return since;
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
