// A report of a range of Madrid days (Indicadores, Informes › Tiempos de espera): the range, the latest
// answer, its Excel. One store per report, made here so they load, keep and reset the same way.
import { create } from 'zustand';
import { presetRange, type DayRange } from '@shared/periods';
import { madridDay } from '@shared/time';
import { api } from '../api';
import { latestRequests } from './latest';
import { onSessionEnd } from './session-end';
import { serverNow } from './timeclock';

export interface RangeReportState<R> extends DayRange {
  report: R | null;
  loading: boolean;
  failed: boolean;
}

interface RangeReportOptions<E> {
  /** The report's GET; its Excel is the same path + `/export-excel`, with the same range. */
  path: string;
  fileName: (from: string, to: string) => string;
  /** What else the view keeps (the indicators' chosen figure), back to this at the session's end. */
  extra: E;
}

/** The default range: the last 7 Madrid days through today, by the server's clock. */
export const defaultRange = (now = serverNow()): DayRange => presetRange('last7', madridDay(now));

export function createRangeReport<R, E extends object = object>({
  path,
  fileName,
  extra,
}: RangeReportOptions<E>) {
  const initial = (): RangeReportState<R> & E => ({
    ...defaultRange(),
    report: null,
    loading: false,
    failed: false,
    ...extra,
  });
  const useReport = create<RangeReportState<R> & E>(() => initial());
  const requests = latestRequests();
  // The report's own fields: TypeScript cannot tell they are not among the extra ones.
  const patch = (fields: Partial<RangeReportState<R>>) =>
    useReport.setState(fields as Partial<RangeReportState<R> & E>);

  /** GET the current range; only the latest answer is kept. Rejects on failure. */
  async function load(): Promise<void> {
    const { from, to } = useReport.getState();
    const isLatest = requests.begin();
    patch({ loading: true });
    try {
      const report = await api.get<R>(path, { from, to });
      if (isLatest()) patch({ report, failed: false });
    } catch (err) {
      if (isLatest()) patch({ failed: true });
      throw err;
    } finally {
      if (isLatest()) patch({ loading: false });
    }
  }

  /** A new range (an empty day keeps the last one: the server needs both). */
  function setRange(range: Partial<DayRange>): void {
    patch(Object.fromEntries(Object.entries(range).filter(([, v]) => v)));
  }

  /** The Excel of the current range: the browser downloads the workbook. */
  function exportExcel(): Promise<string> {
    const { from, to } = useReport.getState();
    return api.download(`${path}/export-excel`, fileName(from, to), { from, to });
  }

  onSessionEnd(() => {
    requests.forget();
    useReport.setState(initial());
  });

  return { useReport, load, setRange, exportExcel };
}
