// Admin Analytics de Conductores (SPEC §2, §7, §9). Its figures run with the clock (online minutes in
// the last 24 h, last activity), which no event announces: SPEC §9's 30-second polling stays on while
// the view is open, and `drivers:updated` (movements, presence) refreshes it at once.
import { useEffect } from 'react';
import { create } from 'zustand';
import { toast } from 'sonner';
import { MEDAL_COUNT, POLL_MS } from '@shared/constants';
import { TOAST } from '@shared/labels';
import type { DriverAnalyticsRow, MessageResponse } from '@shared/schemas';
import { api, ApiError, errorText } from '../api';
import { useResync, useSocketEvent } from '../socket';
import { latestRequests } from './latest';
import { onSessionEnd } from './session-end';

interface AnalyticsState {
  rows: DriverAnalyticsRow[];
  loaded: boolean;
  failed: boolean;
  load: () => Promise<void>;
  /** POST /admin/reset-rankings; resolves with the server's message and reloads. */
  resetRankings: () => Promise<string>;
}

const initial = { rows: [] as DriverAnalyticsRow[], loaded: false, failed: false };

const requests = latestRequests();

export const useDriverAnalytics = create<AnalyticsState>((set, get) => ({
  ...initial,
  async load() {
    const isLatest = requests.begin();
    try {
      const rows = await api.get<DriverAnalyticsRow[]>('/admin/analytics/drivers');
      if (isLatest()) set({ rows, loaded: true, failed: false });
    } catch (err) {
      if (isLatest()) set({ failed: true });
      throw err;
    }
  },
  async resetRankings() {
    const { message } = await api.post<MessageResponse>('/admin/reset-rankings');
    void get()
      .load()
      .catch(() => undefined);
    return message;
  },
}));

// A late answer of the session that ended is dropped.
onSessionEnd(() => {
  requests.forget();
  useDriverAnalytics.setState(initial);
});

/** Most movements first (ties by name); the first MEDAL_COUNT with any movement get a medal and #rank. */
export function rankDrivers(rows: DriverAnalyticsRow[]): { row: DriverAnalyticsRow; medal: number | null }[] {
  const byName = new Intl.Collator('es', { sensitivity: 'base' });
  return [...rows]
    .sort((a, b) => b.movements_count - a.movements_count || byName.compare(a.name, b.name))
    .map((row, i) => ({ row, medal: i < MEDAL_COUNT && row.movements_count > 0 ? i + 1 : null }));
}

const LOAD_ERROR_TOAST = 'analytics-load-error';

/** Loads, toasting SPEC §8's 'Error al cargar analytics de conductores' (silent when the session ended). */
export const loadAnalytics = () =>
  useDriverAnalytics
    .getState()
    .load()
    .catch((err: unknown) => {
      if (err instanceof ApiError && err.sessionEnded) return;
      toast.error(errorText(err, TOAST.loadAnalyticsError), { id: LOAD_ERROR_TOAST });
    });

const DRIVERS_DEBOUNCE_MS = 500;
let driversTimer: ReturnType<typeof setTimeout> | undefined;
/** A burst of driver changes (a shift starting) makes one reload. */
function reloadSoon(): void {
  clearTimeout(driversTimer);
  driversTimer = setTimeout(() => void loadAnalytics(), DRIVERS_DEBOUNCE_MS);
}

/** Mount in the Analytics view. */
export function useDriverAnalyticsFeed(): void {
  useResync(() => void loadAnalytics());
  useSocketEvent('drivers:updated', reloadSoon);
  useEffect(() => {
    const timer = setInterval(() => void loadAnalytics(), POLL_MS.driverAnalytics);
    return () => {
      clearInterval(timer);
      clearTimeout(driversTimer);
    };
  }, []);
}
