// indicadores_{from}_{to}.xlsx (CONTRACT §22): the figures of GET /admin/indicators, one sheet per bucket
// kind (Días, Horas, Turnos) and the totals against the previous period; durations in minutes, rates in %.
import type ExcelJS from 'exceljs';
import type { IndicatorFigures, Indicators } from '@shared/schemas';
import { INDICATOR_FIGURES, INDICATOR_RULES } from '@shared/indicators';
import { INDICATOR_LABELS, INDICATORS_EXCEL } from '@shared/labels';
import { SHIFT_NAMES } from '@shared/shifts';
import { addTableSheet, newWorkbook, type SheetColumn } from './workbook';

const { headers } = INDICATORS_EXCEL;

/** One column per figure, in the view's order, after the bucket's own first column; by the figure's kind. */
function figureColumns<R extends IndicatorFigures>(): SheetColumn<R>[] {
  return INDICATOR_FIGURES.map((figure): SheetColumn<R> => {
    const label = INDICATOR_LABELS[figure];
    switch (INDICATOR_RULES[figure].kind) {
      case 'seconds':
        return { header: headers.minutes(label), kind: 'minutes', value: (r) => minutes(r[figure]) };
      case 'rate':
        return { header: headers.percent(label), kind: 'decimal', value: (r) => percent(r[figure]) };
      case 'per_hour':
        return { header: label, kind: 'decimal', value: (r) => r[figure] };
      case 'count':
        return { header: label, kind: 'integer', value: (r) => r[figure] };
    }
  });
}

const minutes = (s: number | null) => (s === null ? null : s / 60);
const percent = (rate: number | null) => (rate === null ? null : Math.round(rate * 10_000) / 100);
const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

export function indicatorsWorkbook(report: Indicators): ExcelJS.Workbook {
  const wb = newWorkbook();
  type Day = Indicators['days'][number];
  type Hour = Indicators['by_hour'][number];
  type ShiftRow = Indicators['by_shift'][number];
  type Total = IndicatorFigures & { period: string };
  addTableSheet<Day>(
    wb,
    INDICATORS_EXCEL.daysSheet,
    [{ header: headers.date, kind: 'text', value: (d) => d.date }, ...figureColumns<Day>()],
    report.days,
  );
  addTableSheet<Hour>(
    wb,
    INDICATORS_EXCEL.hoursSheet,
    [{ header: headers.hour, kind: 'text', value: (h) => hourText(h.hour) }, ...figureColumns<Hour>()],
    report.by_hour,
  );
  addTableSheet<ShiftRow>(
    wb,
    INDICATORS_EXCEL.shiftsSheet,
    [
      { header: headers.shift, kind: 'text', value: (s) => SHIFT_NAMES[s.shift] },
      ...figureColumns<ShiftRow>(),
    ],
    report.by_shift,
  );
  const { from, to, ...previous } = report.previous;
  addTableSheet<Total>(
    wb,
    INDICATORS_EXCEL.totalsSheet,
    [{ header: headers.period, kind: 'text', value: (t) => t.period }, ...figureColumns<Total>()],
    [
      { period: headers.periodOf(report.period.from, report.period.to), ...report.totals },
      { period: headers.periodOf(from, to), ...previous },
    ],
  );
  return wb;
}
