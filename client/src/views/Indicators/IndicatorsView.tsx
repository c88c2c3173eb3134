// Indicadores (CONTRACT §22, §24: admin and manager): the yard's figures of a period — a tile per figure
// with its total and the change against the period just before (green or red by whether up is good),
// the chosen figure's charts over the days, by hour of day and by shift, the day table and its Excel.
import { useMemo } from 'react';
import { TrendingUp } from 'lucide-react';
import { indicatorsQuerySchema, type IndicatorFigure, type Indicators } from '@shared/schemas';
import { formatChange, formatIndicator, INDICATOR_LABELS, UI_INDICATORS } from '@shared/labels';
import { changePercent, changeTone, INDICATOR_FIGURES, type ChangeTone } from '@shared/indicators';
import { madridDay } from '@shared/time';
import { Card } from '../../components/Card';
import { cn } from '../../components/cn';
import { ExcelButton } from '../../components/ExcelButton';
import { FormAlert } from '../../components/FormAlert';
import { PeriodPicker } from '../../components/PeriodPicker';
import { Spinner } from '../../components/Spinner';
import { useRangeReport } from '../../components/useRangeReport';
import {
  exportIndicators,
  loadIndicators,
  setIndicatorsRange,
  showFigure,
  useIndicators,
} from '../../stores/indicators';
import { serverNow } from '../../stores/timeclock';
import { IndicatorChart, type ChartSeries } from './IndicatorChart';

const T = UI_INDICATORS;

const TONE_CLASS: Record<ChangeTone, string> = {
  good: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  bad: 'bg-red-50 text-red-700 ring-red-200',
  level: 'bg-slate-50 text-slate-600 ring-slate-200',
};

/** One figure's total, its change, and the button that puts it on the charts. */
function FigureTile({
  figure,
  report,
  selected,
}: {
  figure: IndicatorFigure;
  report: Indicators;
  selected: boolean;
}) {
  const value = report.totals[figure];
  const change = changePercent(value, report.previous[figure]);
  const text = formatChange(change);
  return (
    <button
      type="button"
      aria-pressed={selected}
      data-testid={`indicator-${figure}`}
      onClick={() => showFigure(figure)}
      className={cn(
        'flex min-h-24 flex-col justify-between gap-2 rounded-xl bg-white p-3 text-left shadow-sm ring-1 transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500',
        selected ? 'ring-2 ring-blue-500' : 'ring-slate-200 hover:ring-slate-300',
      )}
    >
      <span className="text-sm font-medium text-slate-500">{INDICATOR_LABELS[figure]}</span>
      <span className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-2xl font-bold tabular-nums text-slate-900">
          {formatIndicator(figure, value)}
        </span>
        <span
          data-testid="indicator-change"
          className={cn(
            'rounded-md px-1.5 py-0.5 text-xs font-semibold tabular-nums ring-1 ring-inset',
            TONE_CLASS[changeTone(figure, change)],
          )}
        >
          {text ?? T.noComparison}
        </span>
      </span>
    </button>
  );
}

/** The chosen figure over the days, the hours of the day and the shifts. */
function Charts({ figure, report }: { figure: IndicatorFigure; report: Indicators }) {
  const name = INDICATOR_LABELS[figure];
  const series = useMemo(() => {
    const of = <R extends Indicators['totals']>(rows: R[], label: (r: R) => string): ChartSeries => ({
      labels: rows.map(label),
      values: rows.map((r) => r[figure]),
    });
    return {
      days: of(report.days, (d) => T.dayShort(d.date)),
      hours: of(report.by_hour, (h) => T.hour(h.hour)),
      shifts: of(report.by_shift, (s) => T.shift(s.shift)),
    };
  }, [figure, report]);

  return (
    <Card title={name} icon={<TrendingUp aria-hidden className="size-5" />}>
      <div className="space-y-6">
        <IndicatorChart
          title={T.perDay(name)}
          axis={T.date}
          figure={figure}
          series={series.days}
          shape="line"
        />
        <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
          <IndicatorChart
            title={T.perHour(name)}
            axis={T.hourAxis}
            figure={figure}
            series={series.hours}
            shape="bars"
          />
          <IndicatorChart
            title={T.perShift(name)}
            axis={T.shiftAxis}
            figure={figure}
            series={series.shifts}
            shape="bars"
          />
        </div>
      </div>
    </Card>
  );
}

/** The days as the Excel has them: a row a day, a column a figure. */
function DayTable({ report }: { report: Indicators }) {
  return (
    <Card title={T.table}>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" aria-label={T.table}>
          <thead className="border-b border-slate-200">
            <tr>
              <th className="sticky left-0 bg-white px-3 py-2 text-left font-semibold text-slate-600">
                {T.date}
              </th>
              {INDICATOR_FIGURES.map((f) => (
                <th key={f} className="min-w-32 px-3 py-2 text-right font-semibold text-slate-600">
                  {INDICATOR_LABELS[f]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {report.days.map((d) => (
              <tr key={d.date} data-testid="indicator-day">
                <th
                  scope="row"
                  className="sticky left-0 bg-white px-3 py-2 text-left font-medium text-slate-900"
                >
                  {T.day(d.date)}
                </th>
                {INDICATOR_FIGURES.map((f) => (
                  <td key={f} className="px-3 py-2 text-right tabular-nums whitespace-nowrap">
                    {formatIndicator(f, d[f])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

export function IndicatorsView() {
  const { from, to, shown, failed, loading, problem } = useRangeReport(
    useIndicators,
    loadIndicators,
    indicatorsQuerySchema,
    T.loadError,
  );
  const figure = useIndicators((s) => s.figure);
  const today = madridDay(serverNow());
  return (
    <div className="space-y-4">
      <Card
        title={T.title}
        icon={<TrendingUp aria-hidden className="size-5" />}
        actions={
          <ExcelButton
            download={exportIndicators}
            texts={{ label: T.exportExcel, done: T.exported, failed: T.exportError }}
            disabled={problem !== null}
          />
        }
      >
        <div className="space-y-3">
          <p className="text-sm text-slate-500">{T.subtitle}</p>
          <PeriodPicker value={{ from, to }} today={today} onChange={setIndicatorsRange} />
          {shown && (
            <p className="text-xs text-slate-500">{T.previous(shown.previous.from, shown.previous.to)}</p>
          )}
          {problem && <FormAlert>{problem}</FormAlert>}
          {!problem && failed && !shown && <FormAlert>{T.loadError}</FormAlert>}
        </div>
      </Card>
      {!shown && loading && (
        <div className="flex items-center gap-2 p-4 text-sm text-slate-500" role="status">
          <Spinner /> {T.loading}
        </div>
      )}
      {shown && (
        <>
          <section aria-label={T.title} className="grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-8">
            {INDICATOR_FIGURES.map((f) => (
              <FigureTile key={f} figure={f} report={shown} selected={f === figure} />
            ))}
          </section>
          <Charts figure={figure} report={shown} />
          <DayTable report={shown} />
        </>
      )}
    </div>
  );
}
