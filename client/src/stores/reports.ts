// Informes de Operaciones (SPEC §2, CONTRACT §8). The report regenerates whenever its type, period,
// date or hour changes (with SPEC §8's toast), and quietly keeps up with the yard while it is open:
// after task changes (socket) and every minute, since a task still waiting becomes late by itself.
import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { toast } from 'sonner';
import type { ReportPeriod, ReportType } from '@shared/enums';
import type { DeficienciesReport, DelayedAssignmentsReport } from '@shared/schemas';
import { TOAST } from '@shared/labels';
import { madridDay, madridWall } from '@shared/time';
import { api } from '../api';
import { onResync, useSocketEvent } from '../socket';
import { toastError } from '../toast';
import { latestRequests } from './latest';
import { onSessionEnd } from './session-end';

export interface ReportParams {
  type: ReportType;
  period: ReportPeriod;
  /** Madrid day 'YYYY-MM-DD' (day and hour periods). */
  date: string;
  /** Madrid hour 0–23 (hour period). */
  hour: number;
}

/** A report as answered, with the params it was generated for. */
export type Report = { params: ReportParams } & (
  | ({ type: 'deficiencies' } & DeficienciesReport)
  | ({ type: 'delayed-assignments' } & DelayedAssignmentsReport)
);

interface ReportsState {
  params: ReportParams;
  report: Report | null;
  loading: boolean;
  failed: boolean;
  setParams: (patch: Partial<ReportParams>) => void;
  /**
   * Generates the report of the current params; resolves with its incident count, or null when a
   * newer run superseded it (the params changed meanwhile: only the latest answer is shown).
   */
  generate: (quiet?: boolean) => Promise<number | null>;
}

const initialParams = (): ReportParams => ({
  type: 'deficiencies',
  period: '24h',
  date: madridDay(Date.now()),
  hour: madridWall(Date.now()).hour,
});
const initial = () => ({ params: initialParams(), report: null, loading: false, failed: false });

/** The query of GET /admin/reports/{type}: the date only for day/hour, the hour only for hour. */
export const reportQuery = (p: ReportParams) => ({
  period: p.period,
  date: p.period === '24h' ? undefined : p.date,
  hour: p.period === 'hour' ? p.hour : undefined,
});

const requests = latestRequests();

export const useReports = create<ReportsState>((set, get) => ({
  ...initial(),
  setParams: (patch) => set((s) => ({ params: { ...s.params, ...patch } })),

  async generate(quiet = false) {
    const params = get().params;
    const isLatest = requests.begin();
    if (!quiet) set({ loading: true });
    try {
      const body = await api.get<DeficienciesReport | DelayedAssignmentsReport>(
        `/admin/reports/${params.type}`,
        reportQuery(params),
      );
      if (!isLatest()) return null;
      const report = { params, type: params.type, ...body } as Report;
      set({ report, failed: false });
      return report.summary.total_incidents;
    } catch (err) {
      if (!isLatest()) return null;
      set({ failed: true });
      throw err;
    } finally {
      if (isLatest()) set({ loading: false });
    }
  },
}));

// A late answer of the session that ended is dropped.
onSessionEnd(() => {
  requests.forget();
  useReports.setState(initial());
});

/** The incidents of a report, whatever its type, with the instant that places each in an hour. */
export function incidentTimes(report: Report): number[] {
  return report.type === 'deficiencies'
    ? report.incidents.map((i) => Date.parse(i.created_at))
    : report.assignments.map((a) => Date.parse(a.assigned_at));
}

const QUIET_REFRESH_MS = 60_000;
const TASK_DEBOUNCE_MS = 2000;

/**
 * The run the user asked for (a param changed, Actualizar): SPEC §8's toasts. The run that opens the
 * view (`announce` false) only says so when it fails: nobody asked for a report by visiting Informes.
 */
export async function generateReport(announce = true): Promise<void> {
  try {
    const incidents = await useReports.getState().generate();
    if (incidents !== null && announce) toast.success(TOAST.reportGenerated(incidents));
  } catch (err) {
    toastError(err, TOAST.reportError);
  }
}

/** A run the user did not ask for: no toast, no spinner, and none while a requested run is on its way. */
function refreshQuietly(): void {
  const reports = useReports.getState();
  if (reports.loading) return;
  reports.generate(true).catch((err: unknown) => console.warn(TOAST.reportError, err));
}

let taskTimer: ReturnType<typeof setTimeout> | undefined;
/** A burst of task changes makes one quiet run, shortly after the last. */
function refreshSoon(): void {
  clearTimeout(taskTimer);
  taskTimer = setTimeout(refreshQuietly, TASK_DEBOUNCE_MS);
}

/** Mount in the Informes view. */
export function useReportsFeed(): void {
  const { type, period, date, hour } = useReports(useShallow((s) => s.params));
  // The first run (opening the view, and React's development re-run of it) is quiet; a change is asked.
  const last = useRef<string | null>(null);
  useEffect(() => {
    const key = [type, period, date, hour].join('|');
    void generateReport(last.current !== null && last.current !== key);
    last.current = key;
  }, [type, period, date, hour]);
  // Only reconnects: the first load is the run above.
  useEffect(() => onResync(refreshQuietly), []);
  useSocketEvent('task:created', refreshSoon);
  useSocketEvent('task:updated', refreshSoon);
  useSocketEvent('task:deleted', refreshSoon);
  useEffect(() => {
    const timer = setInterval(refreshQuietly, QUIET_REFRESH_MS);
    return () => {
      clearInterval(timer);
      clearTimeout(taskTimer);
    };
  }, []);
}
