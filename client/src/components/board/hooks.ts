// Small hooks of the board. One shared ticking clock for every card's "time in state": a single interval however many cards are
// shown, and a card re-renders only when its own shown duration changes. The clock is the server's (the
// device clock plus the offset measured by stores/timeclock), so ages computed from server instants are right
// on a device whose clock is off.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { create } from 'zustand';
import type { Task } from '@shared/schemas';
import { deadlineLabel, latenessLabel, type DeadlineLabel, type DeadlineTone } from '@shared/deadline';
import { serverNow, useTimeclock } from '../../stores/timeclock';

const TICK_MS = 15_000;
const useTick = create<{ now: number }>(() => ({ now: serverNow() }));
// A newly measured server offset moves every clock at once, not at the next tick.
useTimeclock.subscribe((s, prev) => {
  if (s.offsetMs !== prev.offsetMs) useTick.setState({ now: serverNow() });
});
let users = 0;
let timer: ReturnType<typeof setInterval> | undefined;

function useTicking(): void {
  useEffect(() => {
    if (users++ === 0) {
      useTick.setState({ now: serverNow() });
      timer = setInterval(() => useTick.setState({ now: serverNow() }), TICK_MS);
    }
    return () => {
      if (--users === 0) clearInterval(timer);
    };
  }, []);
}

/**
 * Milliseconds from an ISO instant to now (never negative), in the steps a duration is shown in: the
 * clock's tick under a minute, whole minutes after (formatDuration shows no seconds past a minute).
 */
export function useElapsed(iso: string): number {
  useTicking();
  const since = Date.parse(iso);
  return useTick((s) => {
    const ms = Math.max(0, s.now - since);
    const step = ms < 60_000 ? TICK_MS : 60_000;
    return ms - (ms % step);
  });
}

/** Whether a CSS media query matches, following changes (the driver board's phone tabs). */
export function useMediaQuery(query: string): boolean {
  // jsdom (and very old browsers) have no matchMedia: treat it as a desktop.
  const supported = typeof window.matchMedia === 'function';
  return useSyncExternalStore(
    (notify) => {
      if (!supported) return () => {};
      const mql = window.matchMedia(query);
      mql.addEventListener('change', notify);
      return () => mql.removeEventListener('change', notify);
    },
    () => supported && window.matchMedia(query).matches,
    () => false,
  );
}

/**
 * Renders a long list a page at a time: the first `page` items at once, the next page when the end of
 * what is shown scrolls within reach of `root` (the column's scroll box; the page itself where the column
 * does not scroll, as on a phone). A 300-card board then mounts
 * only what can be seen, and the rest follows as the user scrolls. Without IntersectionObserver
 * (jsdom), everything is shown.
 */
export function usePaged<T>(items: T[], page: number) {
  const [limit, setLimit] = useState(page);
  const [root, setRoot] = useState<HTMLElement | null>(null);
  const [sentinel, setSentinel] = useState<HTMLElement | null>(null);
  const supported = typeof IntersectionObserver === 'function';
  const more = supported && items.length > limit;
  useEffect(() => {
    if (!more || !sentinel) return;
    const io = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && setLimit((l) => l + page),
      {
        root: root && getComputedStyle(root).overflowY !== 'visible' ? root : null,
        rootMargin: '0px 0px 600px 0px',
      },
    );
    io.observe(sentinel);
    return () => io.disconnect();
  }, [more, sentinel, root, page, limit]);
  return { shown: more ? items.slice(0, limit) : items, more, rootRef: setRoot, sentinelRef: setSentinel };
}

/**
 * What a card says of a task's deadline now (CONTRACT §20): `Antes de 21:30`, `Faltan 25 min`,
 * `Retrasada 12 min`, re-rendered on the shared clock's ticks; a finished task's lateness
 * (`Retrasada 12 min` / `A tiempo`); null without a deadline.
 */
export function useDeadline(task: Pick<Task, 'due_at' | 'late_s' | 'status'>): DeadlineLabel | null {
  useTicking();
  const due = task.status === 'finalizada' ? null : task.due_at;
  // A string, so the selector's value is stable between ticks that do not change the text.
  const key = useTick((s) => {
    if (!due) return '';
    const l = deadlineLabel(due, s.now);
    return `${l.tone}|${l.text}`;
  });
  if (task.status === 'finalizada') return latenessLabel(task.late_s);
  if (!key) return null;
  const [tone, text] = key.split('|') as [DeadlineTone, string];
  return { tone, text };
}
