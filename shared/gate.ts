// The gate's rules both sides apply (CONTRACT §19 "Waiting times"): a visit's stay and wait, the tone an
// open visit is shown in, and reading the refusal `El remolque … ya está en el patio (…)`.
import { GATE_WAIT_AMBER_S, GATE_WAIT_RED_S } from './constants';
import { GATE_ERR } from './labels/gate';
import type { GateVisit } from './schemas/visits';

type VisitTimes = Pick<GateVisit, 'entered_at' | 'exited_at' | 'appointment_at'>;

/** The end of a visit's clock: its exit, or now while it is open. */
const endMs = (visit: VisitTimes, nowMs: number): number =>
  visit.exited_at === null ? nowMs : Date.parse(visit.exited_at);

/** Seconds between two instants, whole and never negative. */
const seconds = (fromMs: number, toMs: number): number => Math.max(0, Math.floor((toMs - fromMs) / 1000));

/** A visit's stay in seconds: from its entry to its exit, or to now while open (it ticks). */
export function stayS(visit: VisitTimes, nowMs: number): number {
  return seconds(Date.parse(visit.entered_at), endMs(visit, nowMs));
}

/**
 * A visit's wait in seconds (Spain's 1-hour rule, RDL 3/2022: it counts from the agreed time or the
 * arrival, whichever is later): (exit, or now while open) − max(entered_at, appointment_at); 0 before
 * the appointment.
 */
export function waitS(visit: VisitTimes, nowMs: number): number {
  const entered = Date.parse(visit.entered_at);
  const from = visit.appointment_at === null ? entered : Math.max(entered, Date.parse(visit.appointment_at));
  return seconds(from, endMs(visit, nowMs));
}

/** The nearest-rank percentile (0 < p ≤ 1) of ascending values; 0 for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

export const WAIT_TONES = ['none', 'amber', 'red'] as const;
export type WaitTone = (typeof WAIT_TONES)[number];

/** How an open visit is shown: plain up to 1 h of wait, amber past it, red past 2 h. */
export function waitTone(waitSeconds: number): WaitTone {
  if (waitSeconds > GATE_WAIT_RED_S) return 'red';
  return waitSeconds > GATE_WAIT_AMBER_S ? 'amber' : 'none';
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** GATE_ERR.alreadyInYard as a pattern, built from the label itself so the two never drift apart. */
const ALREADY_IN_YARD = (() => {
  const [before, rest] = GATE_ERR.alreadyInYard('{T}', '{P}').split('{T}');
  const [between, after] = rest.split('{P}');
  return new RegExp(`^${escapeRegExp(before)}(.+)${escapeRegExp(between)}(.+)${escapeRegExp(after)}$`, 's');
})();

/**
 * The trailer and place named by the refusal `El remolque {trailer_id} ya está en el patio ({place})`
 * (POST /gate/entries' 409), or null for any other text.
 */
export function alreadyInYardRefusal(detail: string | null): { trailer_id: string; place: string } | null {
  const match = detail === null ? null : ALREADY_IN_YARD.exec(detail);
  return match ? { trailer_id: match[1], place: match[2] } : null;
}
