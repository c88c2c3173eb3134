import { useEffect } from 'react';

/**
 * Keeps the phone's screen on while `enabled` (the driver is clocked in), where the Wake Lock API
 * exists. The browser drops the lock whenever the page is hidden, so it is asked for again each time
 * the page becomes visible. A refusal (battery saver, no permission) only means the screen may sleep.
 */
export function useWakeLock(enabled: boolean): void {
  useEffect(() => {
    if (!enabled || typeof navigator === 'undefined' || !('wakeLock' in navigator)) return;
    let sentinel: WakeLockSentinel | null = null;
    let stopped = false;
    const acquire = async () => {
      if (document.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
      try {
        const lock = await navigator.wakeLock.request('screen');
        if (stopped) void lock.release();
        else sentinel = lock;
      } catch {
        /* refused: the screen may sleep, nothing else changes */
      }
    };
    const onVisibility = () => void acquire();
    void acquire();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', onVisibility);
      if (sentinel && !sentinel.released) void sentinel.release();
    };
  }, [enabled]);
}
