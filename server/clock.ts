// The one clock of the server (CONTRACT §2). Business code calls now()/nowMs(), never Date.now(),
// so tests can move time (in-process with advanceClock, from outside with TEST_CLOCK=1).
let offsetMs = 0;
const listeners = new Set<() => Promise<void>>();
const shiftListeners = new Set<() => Promise<void>>();

export const nowMs = (): number => Date.now() + offsetMs;
export const now = (): Date => new Date(nowMs());

/**
 * Moves the clock forward and runs what depends on time (token expiry, presence, assignment); resolves
 * once that work is done, so a test (or POST /test/clock) sees its outcome.
 */
export async function advanceClock(ms: number): Promise<void> {
  await shiftClock(ms);
  await runClockListeners();
}

/**
 * The first half of advanceClock(): the offset, and what must follow it before anything looks at the
 * time (this node's heartbeat). With several nodes every node shifts before any runs its listeners:
 * otherwise the first to sweep would take the others, whose clocks had not moved yet, for dead.
 */
export async function shiftClock(ms: number): Promise<void> {
  offsetMs += ms;
  await Promise.all([...shiftListeners].map((fn) => fn()));
}

/** The second half: token expiry, presence, assignment at the new time. */
export async function runClockListeners(): Promise<void> {
  await Promise.all([...listeners].map((fn) => fn()));
}

export function resetClock(): void {
  offsetMs = 0;
}

/** How far the clock has been moved (0 unless a test moved it): a read thread runs with the same. */
export const clockOffsetMs = (): number => offsetMs;

/** A read thread's clock, set to the server's for each job (server/reads/thread.ts). */
export function setClockOffset(ms: number): void {
  offsetMs = ms;
}

/** Registers what must run as the clock moves, before any other listener (shiftClock). */
export function onClockShift(fn: () => Promise<void>): () => void {
  shiftListeners.add(fn);
  return () => shiftListeners.delete(fn);
}

/** Registers work that must run right after the clock jumps; returns an unsubscribe function. */
export function onClockAdvance(fn: () => Promise<void>): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
