// What the Attention lists read (CONTRACT §15): the board's tasks with the assignee's presence kept
// current from `drivers:updated` (a task's own `assignee_online` is only as fresh as its last push), a
// clock that re-evaluates the rule every few seconds, and the rule itself (shared/attention.ts).
import { useEffect, useMemo, useState } from 'react';
import {
  attentionEntries,
  attentionItems,
  overfullItems,
  type AttentionEntry,
  type AttentionItem,
} from '@shared/attention';
import type { RankingEntry, Task } from '@shared/schemas';
import { useDrivers } from '../../stores/drivers';
import { useTasks } from '../../stores/tasks';
import { useYard } from '../../stores/yard';
import { serverNow, useTimeclock } from '../../stores/timeclock';

/** How often time-based rules and durations are re-read. */
export const ATTENTION_TICK_MS = 5_000;

/**
 * The server's current time as this device sees it (the device clock plus the offset measured where a
 * screen syncs it, as the wall does), re-read every `everyMs`: durations are measured against the
 * server's timestamps, so a kiosk with a wrong clock still shows them right.
 */
export function useClock(everyMs = ATTENTION_TICK_MS): number {
  // A new offset (the wall synced with the server) is read at once, not at the next tick.
  const offset = useTimeclock((s) => s.offsetMs);
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    setNow(serverNow());
    const id = setInterval(() => setNow(serverNow()), everyMs);
    return () => clearInterval(id);
  }, [everyMs, offset]);
  return now;
}

/** Drivers this client saw going offline (from a presence push), and since when. */
const noticedOffline = new Map<string, string>();

/**
 * The tasks with their assignee's presence as the latest `drivers:updated` says (every approved
 * conductor is in the ranking, with `is_online`). A driver seen going offline here counts from when it
 * was seen; one the server already reported offline keeps the server's time.
 */
export function withPresence(
  tasks: readonly Task[],
  rankings: readonly RankingEntry[] | null,
  nowMs: number,
): Task[] {
  if (!rankings) return [...tasks];
  const online = new Map(rankings.map((r) => [r.id, r.is_online]));
  for (const [id, isOnline] of online) if (isOnline) noticedOffline.delete(id);
  return tasks.map((t) => {
    if (!t.assigned_to || t.status !== 'en_proceso') return t;
    const live = online.get(t.assigned_to);
    if (live === undefined || live === t.assignee_online) return t;
    if (live) return { ...t, assignee_online: true, assignee_offline_since: null };
    let since = noticedOffline.get(t.assigned_to);
    if (!since) {
      since = new Date(nowMs).toISOString();
      noticedOffline.set(t.assigned_to, since);
    }
    return { ...t, assignee_online: false, assignee_offline_since: since };
  });
}

/** The board's tasks, presence kept live. */
export function useLiveTasks(): Task[] {
  const byId = useTasks((s) => s.byId);
  const rankings = useDrivers((s) => s.rankings);
  const loaded = useDrivers((s) => s.loaded);
  return useMemo(
    () => withPresence(Object.values(byId), loaded ? rankings : null, serverNow()),
    [byId, rankings, loaded],
  );
}

/** What needs a person now, re-evaluated on every task or presence change and every few seconds. */
export function useAttentionItems(now: number): AttentionItem[] {
  const tasks = useLiveTasks();
  return useMemo(() => attentionItems(tasks, now), [tasks, now]);
}

/** …and the places holding more trailers than their capacity (CONTRACT §20), from the yard store. */
export function useAttentionEntries(now: number): AttentionEntry[] {
  const items = useAttentionItems(now);
  const places = useYard((s) => s.places);
  return useMemo(() => attentionEntries(items, overfullItems(places)), [items, places]);
}
