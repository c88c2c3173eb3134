// The one clock of the server (CONTRACT §2). Business code calls now()/nowMs(), never Date.now(),
// so tests can move time (in-process with advanceClock, from outside with TEST_CLOCK=1).
let offsetMs = 0;
const listeners = new Set<() => Promise<void>>();

export const nowMs = (): number => Date.now() + offsetMs;
export const now = (): Date => new Date(nowMs());

/**
 * Moves the clock forward and runs what depends on time (token expiry, presence, assignment); resolves
 * once that work is done, so a test (or POST /test/clock) sees its outcome.
 */
export async function advanceClock(ms: number): Promise<void> {
  offsetMs += ms;
  await Promise.all([...listeners].map((fn) => fn()));
}

export function resetClock(): void {
  offsetMs = 0;
}

/** Registers work that must run right after the clock jumps; returns an unsubscribe function. */
export function onClockAdvance(fn: () => Promise<void>): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
