// The last known state of the driver's screen (CONTRACT §16: the app opens with no network showing the
// active task and the time clock as last seen). Kept per user in local storage — small, and there at once
// when the page starts — and forgotten at logout so the next person on a shared phone sees nothing of it.
import type { Task, TimeclockStatus } from '@shared/schemas';

export interface DriverSnapshot {
  /** The active task as last known; null: none. Absent: never loaded on this phone. */
  active?: Task | null;
  timeclock?: TimeclockStatus | null;
  /** The server's clock minus this phone's, as last measured: "now" on the server while offline. */
  offset_ms?: number;
}

const keyFor = (userId: string) => `torre.snapshot.${userId}`;

export function readSnapshot(userId: string | null): DriverSnapshot {
  if (!userId) return {};
  try {
    const raw = localStorage.getItem(keyFor(userId));
    return raw ? (JSON.parse(raw) as DriverSnapshot) : {};
  } catch {
    return {};
  }
}

export function writeSnapshot(userId: string, part: DriverSnapshot): void {
  try {
    localStorage.setItem(keyFor(userId), JSON.stringify({ ...readSnapshot(userId), ...part }));
  } catch {
    // A full or disabled storage only costs the offline start-up view.
  }
}

export function forgetSnapshot(userId: string): void {
  localStorage.removeItem(keyFor(userId));
}
