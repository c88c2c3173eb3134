// The dashboard figures (SPEC §2 stat cards and workload alert, CONTRACT §6): loaded over REST, then
// replaced by every `stats:updated` push (coalesced by the server); polled only while the socket is down.
import { create } from 'zustand';
import type { DashboardStats } from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { api } from '../api';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { onSessionEnd } from './session-end';
import { reportLoadError, reportLoadOk } from './tasks';

interface StatsState {
  stats: DashboardStats | null;
  load: () => Promise<void>;
  received: (stats: DashboardStats) => void;
}

export const useStats = create<StatsState>((set) => ({
  stats: null,
  async load() {
    set({ stats: await api.get<DashboardStats>('/dashboard/stats') });
  },
  received: (stats) => set({ stats }),
}));

onSessionEnd(() => useStats.setState({ stats: null }));

const loadStats = () => useStats.getState().load().then(reportLoadOk, reportLoadError);

export function useStatsFeed(): void {
  useResync(loadStats);
  useSocketEvent('stats:updated', ({ stats }) => useStats.getState().received(stats));
  usePollingFallback(loadStats, POLL_MS.dashboard);
}
