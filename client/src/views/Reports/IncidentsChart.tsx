// Incidents per hour (SPEC §2 Informes): plain CSS bars, one per Madrid hour of the report's span —
// the last 24 clock hours, or the chosen day (23, 24 or 25 hours long: the bars follow the real hours,
// so a daylight-saving day shows its missing or repeated 02:00). The hour period highlights its hour.
import { ChartColumn } from 'lucide-react';
import { UI_REPORTS } from '@shared/labels';
import { madridDayRange, madridHourRange, madridWall } from '@shared/time';
import { Card } from '../../components/Card';
import { cn } from '../../components/cn';
import { delayTone, type Tone } from '../../components/tones';
import { incidentTimes, type Report } from '../../stores/reports';

const HOUR_MS = 3_600_000;
const R = UI_REPORTS;

const BAR: Partial<Record<Tone, string>> = {
  red: 'bg-red-500',
  orange: 'bg-orange-500',
  yellow: 'bg-yellow-400',
};
const SEVERITY: Tone[] = ['yellow', 'orange', 'red'];

export interface HourBucket {
  start: number;
  /** Madrid wall hour '14:00'. */
  label: string;
  count: number;
  /** The colour of the worst delay in the hour. */
  tone: Tone | null;
  highlighted: boolean;
}

const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
const hourLabel = (ms: number) => R.hourOption(madridWall(ms).hour);

/** The report's incidents counted per real hour of its span. */
export function hourBuckets(report: Report, nowMs: number): HourBucket[] {
  const times = incidentTimes(report);
  const delays =
    report.type === 'deficiencies'
      ? report.incidents.map((i) => i.delay_minutes)
      : report.assignments.map((a) => a.completion_delay_minutes);
  const { period, date, hour } = report.params;

  let span: { start: number; end: number };
  if (period === '24h') {
    // Ends with the current hour (or the latest incident's, should the server's clock run ahead).
    const end = floorHour(Math.max(nowMs, ...times)) + HOUR_MS;
    span = { start: end - 24 * HOUR_MS, end };
  } else span = madridDayRange(date);
  const selected = period === 'hour' ? madridHourRange(date, hour) : null;

  const buckets: HourBucket[] = [];
  for (let start = span.start; start < span.end; start += HOUR_MS)
    buckets.push({
      start,
      label: hourLabel(start),
      count: 0,
      tone: null,
      highlighted: selected !== null && start >= selected.start && start < selected.end,
    });
  times.forEach((t, i) => {
    const b = buckets[Math.floor((t - span.start) / HOUR_MS)];
    if (!b) return;
    b.count++;
    const tone = delayTone(delays[i]);
    if (!b.tone || SEVERITY.indexOf(tone) > SEVERITY.indexOf(b.tone)) b.tone = tone;
  });
  return buckets;
}

export function IncidentsChart({ report }: { report: Report }) {
  const buckets = hourBuckets(report, Date.now());
  const max = Math.max(1, ...buckets.map((b) => b.count));
  return (
    <Card title={R.chart} icon={<ChartColumn aria-hidden className="size-5" />}>
      <ol
        aria-label={R.chart}
        className="flex h-48 items-end gap-[3px] border-b border-slate-200"
        data-testid="chart"
      >
        {buckets.map((b) => (
          <li
            key={b.start}
            aria-label={R.chartBar(b.label, b.count)}
            title={R.chartBar(b.label, b.count)}
            className={cn(
              'relative flex h-full min-w-0 flex-1 flex-col justify-end rounded-t',
              b.highlighted && 'bg-blue-50 ring-1 ring-blue-200',
            )}
          >
            {b.count > 0 && (
              <span className="mb-0.5 text-center text-[10px] font-semibold tabular-nums text-slate-600">
                {b.count}
              </span>
            )}
            <span
              className={cn('block w-full rounded-t', b.tone ? BAR[b.tone] : 'bg-slate-200')}
              style={{ height: b.count ? `${(b.count / max) * 80}%` : '2px' }}
            />
          </li>
        ))}
      </ol>
      <div aria-hidden className="mt-1 flex gap-[3px]">
        {buckets.map((b, i) => (
          <span key={b.start} className="min-w-0 flex-1 text-center text-[10px] tabular-nums text-slate-500">
            {/* Every third hour: a day from its 00, the last 24 h back from the current hour. */}
            {(report.params.period === '24h' ? buckets.length - 1 - i : i) % 3 === 0
              ? b.label.slice(0, 2)
              : ''}
          </span>
        ))}
      </div>
    </Card>
  );
}
