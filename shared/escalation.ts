// Escalation (CONTRACT §20): the three rules a task can meet — `espera`, `plazo`, `retraso` — as one set
// of predicates, used by the server (which notifies staff once per task and rule: server/services/
// escalation.ts) and by the client's Attention lists (shared/attention.ts), so both see the same tasks.
import { ESCALATION } from './constants';
import type { EscalationRule, TaskStatus } from './enums';
import { UI_ATTENTION } from './labels/wall';
import { formatDuration, formatTime } from './time';

/** What the rules read of a task: epoch milliseconds (the server's rows and the client's ISO alike). */
export interface EscalationFacts {
  status: TaskStatus;
  onHold: boolean;
  /** When it entered its status (the pool: since it (last) entered it). */
  statusSinceMs: number;
  dueAtMs: number | null;
}

/** `espera`: a pool task not held, waiting more than 20 minutes since it entered the pool (Swap included). */
export const waitsTooLong = (t: EscalationFacts, nowMs: number): boolean =>
  t.status === 'bolsa_trabajo' && !t.onHold && nowMs - t.statusSinceMs > ESCALATION.waitMs;

/** `plazo`: a pool task, held or not, whose deadline is less than 20 minutes away (or already past). */
export const dueSoon = (t: EscalationFacts, nowMs: number): boolean =>
  t.status === 'bolsa_trabajo' && t.dueAtMs !== null && t.dueAtMs - nowMs < ESCALATION.dueWithinMs;

/** `retraso`: an en_proceso task past its deadline. */
export const runsLate = (t: EscalationFacts, nowMs: number): boolean =>
  t.status === 'en_proceso' && t.dueAtMs !== null && nowMs > t.dueAtMs;

const MET: Record<EscalationRule, (t: EscalationFacts, nowMs: number) => boolean> = {
  espera: waitsTooLong,
  plazo: dueSoon,
  retraso: runsLate,
};

/** The rules the task meets now, in ESCALATION_RULES' order. */
export function rulesMet(t: EscalationFacts, nowMs: number): EscalationRule[] {
  return (Object.keys(MET) as EscalationRule[]).filter((rule) => MET[rule](t, nowMs));
}

/** Since when a rule has held (a met rule: never after now): the Attention lists order by it. */
export function ruleSince(rule: EscalationRule, t: EscalationFacts): number {
  switch (rule) {
    case 'espera':
      return t.statusSinceMs + ESCALATION.waitMs;
    case 'plazo':
      return t.dueAtMs! - ESCALATION.dueWithinMs;
    case 'retraso':
      return t.dueAtMs!;
  }
}

/**
 * The Spanish line of a met rule at `now` (the notification's message and the Attention item's text):
 * `Lleva 21 min en la bolsa`, `Vence a las 21:30` (Madrid), `Retrasada 12 min` (§15's durations).
 */
export function ruleText(rule: EscalationRule, t: EscalationFacts, nowMs: number): string {
  switch (rule) {
    case 'espera':
      return UI_ATTENTION.waiting(formatDuration(nowMs - t.statusSinceMs));
    case 'plazo':
      return UI_ATTENTION.dueSoon(formatTime(t.dueAtMs!));
    case 'retraso':
      return UI_ATTENTION.late(formatDuration(nowMs - t.dueAtMs!));
  }
}

/** The facts of a task as the API gives it (ISO times). */
export const factsOf = (t: {
  status: TaskStatus;
  on_hold: boolean;
  status_since: string;
  due_at: string | null;
}): EscalationFacts => ({
  status: t.status,
  onHold: t.on_hold,
  statusSinceMs: Date.parse(t.status_since),
  dueAtMs: t.due_at === null ? null : Date.parse(t.due_at),
});
