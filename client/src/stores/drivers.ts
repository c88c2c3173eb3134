// Online drivers and the ranking (SPEC §2 sidebar, CONTRACT §6): both lists come whole, over REST and in
// every `drivers:updated` push; polled only while the socket is down. The sidebar shows the first
// ONLINE_DRIVERS_SHOWN and RANKING_SHOWN.
import { create } from 'zustand';
import type { OnlineDriver, RankingEntry } from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { api } from '../api';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { onSessionEnd } from './session-end';
import { reportLoadError, reportLoadOk } from './tasks';

interface DriversState {
  online: OnlineDriver[];
  rankings: RankingEntry[];
  loaded: boolean;
  load: () => Promise<void>;
  received: (online: OnlineDriver[], rankings: RankingEntry[]) => void;
}

const initial = { online: [] as OnlineDriver[], rankings: [] as RankingEntry[], loaded: false };

export const useDrivers = create<DriversState>((set) => ({
  ...initial,
  async load() {
    const [online, rankings] = await Promise.all([
      api.get<OnlineDriver[]>('/dashboard/online-drivers'),
      api.get<RankingEntry[]>('/dashboard/rankings'),
    ]);
    set({ online, rankings, loaded: true });
  },
  received: (online, rankings) => set({ online, rankings, loaded: true }),
}));

onSessionEnd(() => useDrivers.setState(initial));

const loadDrivers = () => useDrivers.getState().load().then(reportLoadOk, reportLoadError);

export function useDriversFeed(): void {
  useResync(loadDrivers);
  useSocketEvent('drivers:updated', ({ online_drivers, rankings }) =>
    useDrivers.getState().received(online_drivers, rankings),
  );
  usePollingFallback(loadDrivers, POLL_MS.dashboard);
}
