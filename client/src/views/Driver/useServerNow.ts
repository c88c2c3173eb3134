import { useEffect, useState } from 'react';
import { CLOCK_TICK_MS } from '@shared/constants';
import { serverNow, useTimeclock } from '../../stores/timeclock';

/**
 * The server's "now" (device clock + measured offset), re-rendered every `tickMs`. Ticks are aligned
 * to the server's second boundary, so a seconds display flips with the server's clock.
 */
export function useServerNow(tickMs: number = CLOCK_TICK_MS): number {
  const offset = useTimeclock((s) => s.offsetMs);
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const t = serverNow();
      setNow(t);
      timer = setTimeout(tick, tickMs - (t % tickMs));
    };
    tick();
    return () => clearTimeout(timer);
  }, [tickMs, offset]);
  return now;
}
