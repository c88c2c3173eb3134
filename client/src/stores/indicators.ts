// Indicadores (CONTRACT §22, §24: admin and manager): the yard's figures of a range of Madrid days
// (GET /admin/indicators), the figure the charts draw, and the Excel of the same range.
import { create } from 'zustand';
import type { IndicatorFigure, Indicators } from '@shared/schemas';
import { INDICATORS_EXCEL } from '@shared/labels';
import { presetRange, type DayRange } from '@shared/periods';
import { madridDay } from '@shared/time';
import { api } from '../api';
import { onSessionEnd } from './session-end';
import { serverNow } from './timeclock';

interface IndicatorsState extends DayRange {
  figure: IndicatorFigure;
  report: Indicators | null;
  loading: boolean;
  failed: boolean;
}

const initial = (): IndicatorsState => ({
  ...presetRange('last7', madridDay(serverNow())),
  figure: 'moves_completed',
  report: null,
  loading: false,
  failed: false,
});

export const useIndicators = create<IndicatorsState>(() => initial());

let latest = 0;

/** GET /admin/indicators for the current range; only the latest answer is kept. Rejects on failure. */
export async function loadIndicators(): Promise<void> {
  const { from, to } = useIndicators.getState();
  const ticket = ++latest;
  useIndicators.setState({ loading: true });
  try {
    const report = await api.get<Indicators>('/admin/indicators', { from, to });
    if (ticket === latest) useIndicators.setState({ report, failed: false });
  } catch (err) {
    if (ticket === latest) useIndicators.setState({ failed: true });
    throw err;
  } finally {
    if (ticket === latest) useIndicators.setState({ loading: false });
  }
}

export function setIndicatorsRange(range: Partial<DayRange>): void {
  useIndicators.setState(range);
}

export function showFigure(figure: IndicatorFigure): void {
  useIndicators.setState({ figure });
}

/** GET /admin/indicators/export-excel of the current range: the browser downloads the workbook. */
export function exportIndicators(): Promise<string> {
  const { from, to } = useIndicators.getState();
  return api.download('/admin/indicators/export-excel', INDICATORS_EXCEL.fileName(from, to), { from, to });
}

onSessionEnd(() => {
  latest++;
  useIndicators.setState(initial());
});
