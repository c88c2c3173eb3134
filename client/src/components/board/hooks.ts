// Small hooks of the board. One shared ticking clock for every card's "time in state": a single interval however many cards are
// shown, and a card re-renders only when its own minute count changes.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { create } from 'zustand';

const TICK_MS = 15_000;
const useTick = create<{ now: number }>(() => ({ now: Date.now() }));
let users = 0;
let timer: ReturnType<typeof setInterval> | undefined;

function useTicking(): void {
  useEffect(() => {
    if (users++ === 0) {
      useTick.setState({ now: Date.now() });
      timer = setInterval(() => useTick.setState({ now: Date.now() }), TICK_MS);
    }
    return () => {
      if (--users === 0) clearInterval(timer);
    };
  }, []);
}

/** Whole minutes from an ISO instant to now (never negative). */
export function useMinutesSince(iso: string): number {
  useTicking();
  const since = Date.parse(iso);
  return useTick((s) => Math.max(0, Math.floor((s.now - since) / 60_000)));
}

/** The current time, re-read every tick (the wall screen's clock). */
export function useNow(): number {
  useTicking();
  return useTick((s) => s.now);
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
