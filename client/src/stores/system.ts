// The admin's Sistema view (SPEC §2, CONTRACT §10): database status, health check and activity log,
// each loaded on its own (one failing does not blank the others) and read again after every
// maintenance action and on every reconnect. The actions resolve with the server's message.
import { create } from 'zustand';
import { toast } from 'sonner';
import type { LogType } from '@shared/enums';
import type { BackupResult, DbStatus, HealthCheck, LogEntry, MessageResponse } from '@shared/schemas';
import { LOGS_DEFAULT_LIMIT } from '@shared/constants';
import { TOAST } from '@shared/labels';
import { api, ApiError, errorText } from '../api';
import { toastError } from '../toast';
import { onSessionEnd } from './session-end';

export type SystemPart = 'dbStatus' | 'health' | 'logs';

/** The activity log's filters (CONTRACT §15); '' is "any". Days are Madrid days, both inclusive. */
export interface LogFilters {
  type: LogType | '';
  user_id: string;
  date_from: string;
  date_to: string;
}
export const NO_LOG_FILTERS: LogFilters = { type: '', user_id: '', date_from: '', date_to: '' };

interface SystemState {
  dbStatus: DbStatus | null;
  health: HealthCheck | null;
  logs: LogEntry[] | null;
  /** The parts whose last load failed. */
  failed: Partial<Record<SystemPart, boolean>>;
  /** True while a load of every part is in flight (the refresh button spins). */
  refreshing: boolean;
  logFilters: LogFilters;
  /** The last page of logs was full: `Cargar más` may bring older rows. */
  logsMore: boolean;
  /** True while `Cargar más` is in flight. */
  logsLoadingMore: boolean;
  /** Applies new filters and reads the log again from its newest row. */
  setLogFilters: (filters: LogFilters) => Promise<void>;
  /** The next page: the rows older than the last one shown (`before` = its id). */
  loadMoreLogs: () => Promise<void>;
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
  logFilters: NO_LOG_FILTERS,
  logsMore: false,
  logsLoadingMore: false,
};

const SOURCES: Record<SystemPart, { path: string; error: string }> = {
  dbStatus: { path: '/admin/system/db-status', error: TOAST.loadDbStatusError },
  health: { path: '/admin/system/health-check', error: TOAST.loadHealthError },
  logs: { path: '/admin/system/logs', error: TOAST.loadLogsError },
};

/** The logs query: one page, the filters set (empty ones left out), older than `before`. */
const logsQuery = (f: LogFilters, before?: number) => ({
  limit: LOGS_DEFAULT_LIMIT,
  type: f.type || undefined,
  user_id: f.user_id || undefined,
  date_from: f.date_from || undefined,
  date_to: f.date_to || undefined,
  before,
});

export const useSystem = create<SystemState>((set, get) => {
  // Only the latest logs request may write: a filter changed meanwhile makes older answers stale.
  let logsTicket = 0;
  async function loadPart(part: SystemPart): Promise<void> {
    const { path, error } = SOURCES[part];
    const ticket = part === 'logs' ? ++logsTicket : 0;
    try {
      const query = part === 'logs' ? logsQuery(get().logFilters) : undefined;
      const value = await api.get<SystemState[SystemPart]>(path, query);
      if (part === 'logs' && ticket !== logsTicket) return;
      set((s) => ({
        [part]: value,
        failed: { ...s.failed, [part]: false },
        ...(part === 'logs' && { logsMore: (value as LogEntry[]).length === LOGS_DEFAULT_LIMIT }),
      }));
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
    async setLogFilters(filters) {
      set({ logFilters: filters });
      await loadPart('logs');
    },
    async loadMoreLogs() {
      const { logs, logFilters } = get();
      const last = logs?.at(-1);
      if (!logs || !last) return;
      const ticket = logsTicket;
      set({ logsLoadingMore: true });
      try {
        const page = await api.get<LogEntry[]>(SOURCES.logs.path, logsQuery(logFilters, last.id));
        if (ticket !== logsTicket) return;
        set((s) => ({ logs: [...(s.logs ?? []), ...page], logsMore: page.length === LOGS_DEFAULT_LIMIT }));
      } catch (err) {
        toastError(err, TOAST.loadLogsError);
      } finally {
        set({ logsLoadingMore: false });
      }
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
