// What needs a person in the control room (CONTRACT §15, §20), for the board's and the wall's Attention
// lists: one rule, computed where the tasks already are (the client keeps them live). The escalation
// rules (espera, plazo, retraso) are the server's own predicates (shared/escalation.ts).
import { ATTENTION } from './constants';
import { isAutoAssigned, type EscalationRule } from './enums';
import { factsOf, rulesMet, ruleSince } from './escalation';
import type { Task, YardLocation } from './schemas';
import { plateKey } from './text';

export const ATTENTION_KINDS = [
  'duplicate_trailer',
  'retraso',
  'plazo',
  'on_hold',
  'espera',
  'driver_offline',
  'in_progress_long',
  'pool_waiting',
  'overfull',
] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];
/** The kinds of a task (all but a place's `overfull`). */
export type TaskAttentionKind = Exclude<AttentionKind, 'overfull'>;

export interface AttentionItem {
  kind: TaskAttentionKind;
  task: Task;
  /** Since when the condition holds (ISO): the list shows how long. */
  since: string;
}

/** CONTRACT §20: a place holding more trailers than its capacity (`Sobreocupada`). */
export interface OverfullItem {
  kind: 'overfull';
  place: Pick<YardLocation, 'id' | 'code' | 'name' | 'capacity'> & { occupancy: number };
  /** Since the trailer that overfilled it arrived (ISO). */
  since: string;
}

/** An entry of the Attention lists: a task's or a place's. */
export type AttentionEntry = AttentionItem | OverfullItem;
export const entryKey = (e: AttentionEntry): string =>
  e.kind === 'overfull' ? `place:${e.place.id}` : e.task.id;

/** The places holding more trailers than their capacity (a gate holds none: `free` null), the longest first. */
export function overfullItems(
  places: readonly Pick<YardLocation, 'id' | 'code' | 'name' | 'capacity' | 'trailers' | 'free'>[],
): OverfullItem[] {
  const items: OverfullItem[] = [];
  for (const p of places) {
    if (p.free === null || p.trailers.length <= p.capacity) continue;
    const arrivals = p.trailers.map((t) => t.since).sort((a, b) => ms(a) - ms(b));
    items.push({
      kind: 'overfull',
      place: { id: p.id, code: p.code, name: p.name, capacity: p.capacity, occupancy: p.trailers.length },
      since: arrivals[p.capacity]!,
    });
  }
  return items.sort((a, b) => ms(a.since) - ms(b.since));
}

/** Tasks and places together, the longest-standing first. */
export const attentionEntries = (tasks: AttentionItem[], places: OverfullItem[]): AttentionEntry[] =>
  [...tasks, ...places].sort((a, b) => ms(a.since) - ms(b.since));

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

/** The first escalation rule the task meets (CONTRACT §20), in the lists' order: retraso, plazo, espera. */
const RULE_ORDER: readonly EscalationRule[] = ['retraso', 'plazo', 'espera'];

function attentionOf(task: Task, nowMs: number): AttentionItem | undefined {
  const facts = factsOf(task);
  const met = rulesMet(facts, nowMs);
  const rule = RULE_ORDER.find((r) => met.includes(r) && (r !== 'espera' || !task.on_hold));
  if (rule && rule !== 'espera')
    return { kind: rule, task, since: new Date(ruleSince(rule, facts)).toISOString() };
  if (task.status === 'bolsa_trabajo') {
    if (task.on_hold) return { kind: 'on_hold', task, since: task.status_since };
    if (rule === 'espera') return { kind: 'espera', task, since: task.status_since };
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
