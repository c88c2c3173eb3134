// The admin's Sistema view (SPEC §2, CONTRACT §10): database status, health check and activity log,
// each loaded on its own (one failing does not blank the others) and read again after every
// maintenance action and on every reconnect. The actions resolve with the server's message.
import { create } from 'zustand';
import { toast } from 'sonner';
import type { BackupResult, DbStatus, HealthCheck, LogEntry, MessageResponse } from '@shared/schemas';
import { LOGS_DEFAULT_LIMIT } from '@shared/constants';
import { TOAST } from '@shared/labels';
import { api, ApiError, errorText } from '../api';
import { onSessionEnd } from './session-end';

export type SystemPart = 'dbStatus' | 'health' | 'logs';

interface SystemState {
  dbStatus: DbStatus | null;
  health: HealthCheck | null;
  logs: LogEntry[] | null;
  /** The parts whose last load failed. */
  failed: Partial<Record<SystemPart, boolean>>;
  /** True while a load of every part is in flight (the refresh button spins). */
  refreshing: boolean;
  /** Loads the three parts; each failure gets its own SPEC §8 toast. */
  refresh: () => Promise<void>;
  runMigrations: () => Promise<string>;
  clearAllTokens: () => Promise<string>;
  backup: () => Promise<string>;
}

const initial = {
  dbStatus: null,
  health: null,
  logs: null,
  failed: {},
  refreshing: false,
};

const SOURCES: Record<SystemPart, { path: string; query?: Record<string, number>; error: string }> = {
  dbStatus: { path: '/admin/system/db-status', error: TOAST.loadDbStatusError },
  health: { path: '/admin/system/health-check', error: TOAST.loadHealthError },
  logs: { path: '/admin/system/logs', query: { limit: LOGS_DEFAULT_LIMIT }, error: TOAST.loadLogsError },
};

export const useSystem = create<SystemState>((set, get) => {
  async function loadPart(part: SystemPart): Promise<void> {
    const { path, query, error } = SOURCES[part];
    try {
      const value = await api.get<SystemState[SystemPart]>(path, query);
      set((s) => ({ [part]: value, failed: { ...s.failed, [part]: false } }));
    } catch (err) {
      set((s) => ({ failed: { ...s.failed, [part]: true } }));
      if (!(err instanceof ApiError && err.sessionEnded)) toast.error(errorText(err, error), { id: path });
    }
  }

  /** After an action: its effects show in all three parts. */
  const afterAction = async <T>(action: Promise<T>): Promise<T> => {
    const result = await action;
    void get().refresh();
    return result;
  };

  return {
    ...initial,
    async refresh() {
      set({ refreshing: true });
      await Promise.all((Object.keys(SOURCES) as SystemPart[]).map(loadPart));
      set({ refreshing: false });
    },
    async runMigrations() {
      return (await afterAction(api.post<MessageResponse>('/admin/system/run-migrations'))).message;
    },
    async clearAllTokens() {
      return (await afterAction(api.post<MessageResponse>('/admin/system/clear-all-tokens'))).message;
    },
    async backup() {
      return (await afterAction(api.post<BackupResult>('/admin/system/backup'))).message;
    },
  };
});

onSessionEnd(() => useSystem.setState(initial));
