// Indicadores (CONTRACT §22, §24: admin and manager): the yard's figures of a range of Madrid days
// (GET /admin/indicators), the figure the charts draw, and the Excel of the same range.
import type { IndicatorFigure, Indicators } from '@shared/schemas';
import { INDICATORS_EXCEL } from '@shared/labels';
import { createRangeReport } from './range-report';

export const {
  useReport: useIndicators,
  load: loadIndicators,
  setRange: setIndicatorsRange,
  exportExcel: exportIndicators,
} = createRangeReport<Indicators, { figure: IndicatorFigure }>({
  path: '/admin/indicators',
  fileName: INDICATORS_EXCEL.fileName,
  extra: { figure: 'moves_completed' },
});

export function showFigure(figure: IndicatorFigure): void {
  useIndicators.setState({ figure });
}
