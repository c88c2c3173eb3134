import { AlarmClock, CalendarRange, FileText, Gauge, RefreshCw, TriangleAlert } from 'lucide-react';
import { REPORT_PERIODS, REPORT_TYPES } from '@shared/enums';
import { INCIDENT_THRESHOLD_MIN } from '@shared/constants';
import { REPORT_TYPE_LABELS, TOAST, UI_COMMON, UI_REPORTS } from '@shared/labels';
import { HeaderAction } from '../../components/HeaderAction';
import { Card } from '../../components/Card';
import { LoadFallback } from '../../components/LoadFallback';
import { Field, inputClass } from '../../components/Field';
import { Select } from '../../components/Select';
import { StatCard } from '../../components/StatCard';
import { generateReport, useReports, useReportsFeed } from '../../stores/reports';
import { IncidentList } from './IncidentList';
import { IncidentsChart } from './IncidentsChart';
import { formatDelay } from './format';
import { TruckStays } from './TruckStays';

const R = UI_REPORTS;
const TYPE_OPTIONS = REPORT_TYPES.map((value) => ({ value, label: REPORT_TYPE_LABELS[value] }));
const PERIOD_OPTIONS = REPORT_PERIODS.map((value) => ({ value, label: R.periods[value] }));
const HOUR_OPTIONS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: R.hourOption(h) }));

/** SPEC §2 Informes de Operaciones (admin, manager). */
export function ReportsView() {
  useReportsFeed();
  const report = useReports((s) => s.report);
  const loading = useReports((s) => s.loading);
  const failed = useReports((s) => s.failed);

  return (
    <div className="space-y-4">
      <Controls />
      {report && <Summary />}
      {!report ? (
        <Card>
          <LoadFallback
            failed={failed && !loading}
            errorTitle={TOAST.reportError}
            onRetry={() => void generateReport()}
            icon={<TriangleAlert aria-hidden className="size-6" />}
          />
        </Card>
      ) : (
        <div className="grid items-start gap-4 xl:grid-cols-3">
          <div className="min-w-0 xl:col-span-2">
            <IncidentList report={report} />
          </div>
          <IncidentsChart report={report} />
        </div>
      )}
      <TruckStays />
    </div>
  );
}

function Controls() {
  const params = useReports((s) => s.params);
  const setParams = useReports((s) => s.setParams);
  const loading = useReports((s) => s.loading);
  return (
    <Card
      title={R.title}
      icon={<FileText aria-hidden className="size-5" />}
      // On a phone the button shows only its icon, so the card title keeps its room.
      actions={
        <HeaderAction
          icon={RefreshCw}
          label={UI_COMMON.refresh}
          loading={loading}
          onClick={() => void generateReport()}
        />
      }
    >
      <p className="mb-3 text-sm text-slate-500">
        {R.subtitle}. {R.threshold(INCIDENT_THRESHOLD_MIN)}
      </p>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={R.type}>
          {({ id }) => (
            <Select
              id={id}
              value={params.type}
              onChange={(type) => setParams({ type })}
              options={TYPE_OPTIONS}
            />
          )}
        </Field>
        <Field label={R.period}>
          {({ id }) => (
            <Select
              id={id}
              value={params.period}
              onChange={(period) => setParams({ period })}
              options={PERIOD_OPTIONS}
            />
          )}
        </Field>
        {params.period !== '24h' && (
          <Field label={R.date}>
            {(control) => (
              <input
                {...control}
                type="date"
                required
                value={params.date}
                // A cleared date input would ask for a report that cannot exist: keep the last day.
                onChange={(e) => e.target.value && setParams({ date: e.target.value })}
                className={inputClass}
              />
            )}
          </Field>
        )}
        {params.period === 'hour' && (
          <Field label={R.hour}>
            {({ id }) => (
              <Select
                id={id}
                value={String(params.hour)}
                onChange={(h) => setParams({ hour: Number(h) })}
                options={HOUR_OPTIONS}
              />
            )}
          </Field>
        )}
      </div>
    </Card>
  );
}

function Summary() {
  const summary = useReports((s) => s.report?.summary);
  if (!summary) return null;
  const S = R.summary;
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <StatCard
        label={S.total}
        value={<span data-testid="report-total">{summary.total_incidents}</span>}
        tone={summary.total_incidents ? 'red' : 'green'}
        icon={<TriangleAlert aria-hidden className="size-5" />}
      />
      <StatCard
        label={S.avg}
        value={formatDelay(summary.avg_delay_minutes)}
        tone="amber"
        icon={<Gauge aria-hidden className="size-5" />}
      />
      <StatCard
        label={S.max}
        value={formatDelay(summary.max_delay_minutes)}
        tone="orange"
        icon={<AlarmClock aria-hidden className="size-5" />}
      />
      <StatCard
        label={S.period}
        value={<span className="text-lg">{summary.period}</span>}
        tone="blue"
        icon={<CalendarRange aria-hidden className="size-5" />}
      />
    </div>
  );
}
