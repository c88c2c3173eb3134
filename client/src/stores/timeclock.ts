// The driver's time clock (SPEC §2 Control de Horario, CONTRACT §7): the status and flags from the
// server, the punch in flight, and the offset between this device's clock and the server's, so the
// widget's live clock (and every "now" on the driver screen) shows the server's Madrid time.
import { create } from 'zustand';
import type { ClockType } from '@shared/enums';
import type { PunchResponse, ServerTime, TimeclockStatus } from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { UI_DRIVER } from '@shared/labels';
import { api } from '../api';
import { forgetSnapshot, readSnapshot, writeSnapshot } from '../offline/snapshot';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { useOutbox } from './outbox';
import { useSession } from './session';
import { onSessionEnd } from './session-end';

interface TimeclockState {
  status: TimeclockStatus | null;
  /** The punch being sent; both buttons stay disabled meanwhile (SPEC §5). */
  punching: ClockType | null;
  /** Server clock minus this device's clock, in ms. */
  offsetMs: number;
  load: () => Promise<void>;
  syncServerTime: () => Promise<void>;
  /**
   * Punches, then reloads the status (SPEC §4). CONTRACT §16: without a server the punch is kept on the
   * phone with its time ('queued') and the status follows it at once. Null when a punch is already in
   * flight; ApiError when refused.
   */
  punch: (type: ClockType) => Promise<PunchResponse | 'queued' | null>;
  received: (status: TimeclockStatus) => void;
}

const initial = { status: null as TimeclockStatus | null, punching: null as ClockType | null };
const me = () => useSession.getState().user?.id ?? null;
/**
 * CONTRACT §16: the clock state and the server's clock offset as last seen on this phone, used before
 * (or without) the server.
 */
function lastKnown() {
  const { timeclock, offset_ms } = readSnapshot(me());
  return { ...initial, status: timeclock ?? null, offsetMs: offset_ms ?? 0 };
}

/** The status after a punch the server has not seen yet (the same rules it applies). */
export function afterPunch(status: TimeclockStatus | null, type: ClockType, at: string): TimeclockStatus {
  const clockedIn = type === 'entrada';
  return {
    status: clockedIn ? 'clocked_in' : 'clocked_out',
    can_clock_in: !clockedIn,
    can_clock_out: clockedIn,
    last_entrada: clockedIn ? at : (status?.last_entrada ?? null),
    last_salida: clockedIn ? (status?.last_salida ?? null) : at,
    punches_today: (status?.punches_today ?? 0) + 1,
  };
}

export const useTimeclock = create<TimeclockState>((set, get) => ({
  ...lastKnown(),

  async load() {
    set({ status: await api.get<TimeclockStatus>('/timeclock/status') });
  },

  async syncServerTime() {
    const sent = Date.now();
    const { epoch_ms } = await api.get<ServerTime>('/server-time');
    // The answer was true about half-way through the round trip.
    set({ offsetMs: epoch_ms - (sent + Date.now()) / 2 });
  },

  async punch(type) {
    if (get().punching) return null;
    set({ punching: type });
    try {
      const actedAt = serverNow();
      const outcome = await useOutbox.getState().submit<PunchResponse>(
        {
          kind: 'punch',
          path: '/timeclock/punch',
          query: { clock_type: type },
          body: {},
          task_id: null,
          label: UI_DRIVER.offline.punchLabel(type),
        },
        actedAt,
      );
      if (outcome.status === 'queued') {
        set((s) => ({ status: afterPunch(s.status, type, new Date(actedAt).toISOString()) }));
        return 'queued';
      }
      await get()
        .load()
        .catch(() => undefined);
      return outcome.response;
    } finally {
      set({ punching: null });
    }
  },

  received(status) {
    set({ status });
  },
}));

useTimeclock.subscribe((s, prev) => {
  const userId = me();
  if (!userId) return;
  if (s.status && s.status !== prev.status) writeSnapshot(userId, { timeclock: s.status });
  if (s.offsetMs !== prev.offsetMs) writeSnapshot(userId, { offset_ms: s.offsetMs });
});
onSessionEnd((userId) => {
  if (userId) forgetSnapshot(userId);
  useTimeclock.setState(initial);
});
useSession.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id && s.user) useTimeclock.setState(lastKnown());
});

/** The server's "now" as this device sees it. */
export const serverNow = (): number => Date.now() + useTimeclock.getState().offsetMs;

/** SPEC §2 / CONTRACT §7: minutes worked today = now − last entrada, only while clocked in. */
export function workedMinutes(status: TimeclockStatus | null, nowMs: number): number | null {
  if (status?.status !== 'clocked_in' || !status.last_entrada) return null;
  return Math.max(0, (nowMs - Date.parse(status.last_entrada)) / 60_000);
}

/** Whether each button may be pressed now: the server's flag, and no punch in flight. */
export function punchAllowed(status: TimeclockStatus | null, punching: ClockType | null) {
  return {
    entrada: Boolean(status?.can_clock_in) && !punching,
    salida: Boolean(status?.can_clock_out) && !punching,
  };
}

const logError = (what: string) => (err: unknown) => console.warn(what, err);
const load = () =>
  void useTimeclock.getState().load().catch(logError('Error al cargar el estado de fichaje'));
const sync = () =>
  void useTimeclock.getState().syncServerTime().catch(logError('Error al leer la hora del servidor'));

/**
 * Staff screens that show durations (the board, the wall, the Patio) count them against the server's
 * clock, whatever the screen's own says: the offset is read again on every (re)connect.
 */
export function useServerClockSync(): void {
  useResync(sync);
}

/** Mount once on the driver screen: status + server time on (re)connect, pushes, 60 s polling while down. */
export function useTimeclockFeed(): void {
  useResync(() => {
    load();
    sync();
  });
  useSocketEvent('timeclock:updated', ({ status }) => useTimeclock.getState().received(status));
  usePollingFallback(load, POLL_MS.timeclockStatus);
}
