// Control Conductores (SPEC §2, CONTRACT §7): every approved driver's punches over the last 24 hours
// (SPEC §9: this view always uses the last 24 h). Reloaded when a driver punches (`timeclock:changed`,
// managers and admins), on every reconnect, and by SPEC §9's polling only while the socket is down.
import { useEffect } from 'react';
import { create } from 'zustand';
import { toast } from 'sonner';
import { POLL_MS } from '@shared/constants';
import { TOAST } from '@shared/labels';
import type { AddPunchInput, DailySummary, PunchCorrectionResponse } from '@shared/schemas';
import { api, ApiError, errorText } from '../api';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { latestRequests } from './latest';
import { onSessionEnd } from './session-end';

interface TimeControlState {
  rows: DailySummary[];
  loaded: boolean;
  failed: boolean;
  /** When the rows were read (Date.now()): a working driver's hours grow from there (see hoursNow). */
  loadedAt: number;
  load: () => Promise<void>;
}

const initial = { rows: [] as DailySummary[], loaded: false, failed: false, loadedAt: 0 };

const requests = latestRequests();

export const useTimeControl = create<TimeControlState>((set) => ({
  ...initial,
  async load() {
    const isLatest = requests.begin();
    try {
      const rows = await api.get<DailySummary[]>('/admin/timeclock/daily', { last_24h: true });
      if (isLatest()) set({ rows, loaded: true, failed: false, loadedAt: Date.now() });
    } catch (err) {
      if (isLatest()) set({ failed: true });
      throw err;
    }
  },
}));

// A late answer of the session that ended is dropped.
onSessionEnd(() => {
  requests.forget();
  useTimeControl.setState(initial);
});

/**
 * Hours worked as of `nowMs`: the server counts an open shift up to the moment it answered, so a
 * working driver's figure keeps growing on screen without asking again.
 */
export const hoursNow = (row: DailySummary, loadedAt: number, nowMs: number): number =>
  row.status === 'working' ? row.total_hours + Math.max(0, nowMs - loadedAt) / 3_600_000 : row.total_hours;

// One toast id: a load that keeps failing (fallback polling) replaces its toast instead of stacking.
const LOAD_ERROR_TOAST = 'timecontrol-load-error';

/** Loads, toasting SPEC §8's 'Error al cargar control de conductores' (silent when the session ended). */
export const loadTimeControl = () =>
  useTimeControl
    .getState()
    .load()
    .catch((err: unknown) => {
      if (err instanceof ApiError && err.sessionEnded) return;
      toast.error(errorText(err, TOAST.loadTimeControlError), { id: LOAD_ERROR_TOAST });
    });

const PUNCH_DEBOUNCE_MS = 300;
let punchTimer: ReturnType<typeof setTimeout> | undefined;
/** A shift change brings many punches at once: one reload shortly after the last of a burst. */
function reloadSoon(): void {
  clearTimeout(punchTimer);
  punchTimer = setTimeout(() => void loadTimeControl(), PUNCH_DEBOUNCE_MS);
}

/**
 * CONTRACT §15: a supervisor adds a forgotten punch or removes a wrong one; the table is read again
 * at once (the `timeclock:changed` push would also bring it). Resolves with the server's message.
 */
export async function addPunch(input: AddPunchInput): Promise<string> {
  const res = await api.post<PunchCorrectionResponse>('/admin/timeclock/punches', input);
  void loadTimeControl();
  return res.message;
}

export async function removePunch(punchId: string, reason: string): Promise<string> {
  const res = await api.del<PunchCorrectionResponse>(`/admin/timeclock/punches/${punchId}`, { reason });
  void loadTimeControl();
  return res.message;
}

/** Mount in the Control Conductores view. */
export function useTimeControlFeed(): void {
  useResync(() => void loadTimeControl());
  useSocketEvent('timeclock:changed', reloadSoon);
  usePollingFallback(() => void loadTimeControl(), POLL_MS.timeclockStatus);
  useEffect(() => () => clearTimeout(punchTimer), []);
}
