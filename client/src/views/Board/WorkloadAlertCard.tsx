// SPEC §2 workload alert (CONTRACT §6, §15): severity 2 red, any other yellow; the message, the four
// metrics and the recommendations. It lives at the top of the sidebar, beside the board, so showing or
// hiding it never moves the board. And it is steady: a non-normal status shows once it has held for
// ALERT_HYSTERESIS_MS (`workload_alert.since`, on the server's clock), and the card hides once `normal`
// has held that long; until then the card keeps what it showed. A dashboard opened in a crisis that
// started more than a minute ago shows it at once.
import { useEffect, useRef, useState } from 'react';
import { Lightbulb, TriangleAlert } from 'lucide-react';
import type { AlertStatus } from '@shared/enums';
import type { WorkloadAlert } from '@shared/schemas';
import { ALERT_HYSTERESIS_MS } from '@shared/constants';
import { UI_BOARD } from '@shared/labels';
import { formatDuration } from '@shared/time';
import { cn } from '../../components/cn';
import { useStats } from '../../stores/stats';
import { serverNow } from '../../stores/timeclock';
import { useServerNow } from '../Driver/useServerNow';

const LOOK = {
  red: {
    box: 'bg-red-50 ring-red-400',
    icon: 'bg-red-600 text-white',
    title: 'text-red-900',
    metric: 'bg-white/70 ring-red-200',
  },
  yellow: {
    box: 'bg-yellow-50 ring-yellow-400',
    icon: 'bg-yellow-400 text-yellow-950',
    title: 'text-yellow-900',
    metric: 'bg-white/70 ring-yellow-200',
  },
};

/**
 * The alert the card shows (null: hidden), given the live one. The shown level changes only to a status
 * that has held for ALERT_HYSTERESIS_MS; while it is the live status, its texts and figures are live.
 */
export function useSteadyAlert(alert: WorkloadAlert | undefined): WorkloadAlert | null {
  const [shown, setShown] = useState<WorkloadAlert | null>(null);
  const [tick, wake] = useState(0);
  /** When this client first saw the live status: the start when the server sends no `since`. */
  const seen = useRef<{ status: AlertStatus; at: number } | null>(null);

  useEffect(() => {
    if (!alert) return;
    const now = serverNow();
    if (seen.current?.status !== alert.status) seen.current = { status: alert.status, at: now };
    const parsed = Date.parse(alert.since);
    const since = Number.isNaN(parsed) ? seen.current.at : parsed;
    const live = alert.status === 'normal' ? null : alert;
    const shownStatus = shown?.status ?? 'normal';
    if (alert.status === shownStatus) {
      if (shown !== live) setShown(live);
      return;
    }
    const wait = since + ALERT_HYSTERESIS_MS - now;
    if (wait <= 0) {
      setShown(live);
      return;
    }
    // Not yet steady: look again when it will be (or when the next figures arrive, whichever first).
    const timer = setTimeout(() => wake((n) => n + 1), wait);
    return () => clearTimeout(timer);
  }, [alert, shown, tick]);

  return shown;
}

export function WorkloadAlertCard({ className }: { className?: string }) {
  const alert = useSteadyAlert(useStats((s) => s.stats?.workload_alert));
  if (!alert) return null;
  return <AlertCard alert={alert} className={className} />;
}

function AlertCard({ alert, className }: { alert: WorkloadAlert; className?: string }) {
  const now = useServerNow();
  const critical = alert.severity === 2;
  const look = critical ? LOOK.red : LOOK.yellow;
  const t = UI_BOARD.alert;
  const since = Date.parse(alert.since);
  const metrics = [
    [t.pendingTasks, alert.metrics.pending_tasks],
    [t.availableDrivers, alert.metrics.available_drivers],
    [t.busyDrivers, alert.metrics.busy_drivers],
    [t.utilization, `${alert.metrics.driver_utilization}%`],
  ] as const;
  return (
    <section
      role="alert"
      data-testid="workload-alert"
      data-status={alert.status}
      data-severity={alert.severity}
      className={cn('rounded-xl p-3 shadow-sm ring-2', look.box, className)}
    >
      <div className="flex gap-3">
        <span className={cn('grid size-10 shrink-0 place-items-center rounded-lg', look.icon)}>
          <TriangleAlert aria-hidden className="size-6" />
        </span>
        <div className="min-w-0">
          <h2 className={cn('text-base font-bold leading-tight', look.title)}>
            {critical ? t.critical : t.warning}
          </h2>
          {!Number.isNaN(since) && (
            <p className="text-xs font-medium text-slate-600">{t.since(formatDuration(now - since))}</p>
          )}
          <p className="mt-1 text-sm text-slate-800">{alert.message}</p>
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-2">
        {metrics.map(([label, value]) => (
          <div key={label} className={cn('rounded-lg px-2.5 py-1.5 ring-1', look.metric)}>
            <dt className="text-xs font-medium text-slate-600">{label}</dt>
            <dd className="text-lg font-bold tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {alert.recommendations.length > 0 && (
        <div className="mt-3">
          <h3 className="flex items-center gap-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
            <Lightbulb aria-hidden className="size-3.5" />
            {t.recommendations}
          </h3>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-700">
            {alert.recommendations.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
