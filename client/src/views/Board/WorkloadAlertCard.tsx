// SPEC §2 workload alert: hidden while the status is normal; severity 2 red, any other yellow; the
// message, the four metrics and the recommendations (CONTRACT §6).
import { Lightbulb, TriangleAlert } from 'lucide-react';
import { UI_BOARD } from '@shared/labels';
import { cn } from '../../components/cn';
import { useStats } from '../../stores/stats';

const LOOK = {
  red: {
    box: 'bg-red-50 ring-red-300',
    icon: 'bg-red-600 text-white',
    title: 'text-red-900',
    metric: 'bg-white/70 ring-red-200',
  },
  yellow: {
    box: 'bg-yellow-50 ring-yellow-300',
    icon: 'bg-yellow-400 text-yellow-950',
    title: 'text-yellow-900',
    metric: 'bg-white/70 ring-yellow-200',
  },
};

export function WorkloadAlertCard() {
  const alert = useStats((s) => s.stats?.workload_alert);
  if (!alert || alert.status === 'normal') return null;
  const critical = alert.severity === 2;
  const look = critical ? LOOK.red : LOOK.yellow;
  const t = UI_BOARD.alert;
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
      data-severity={alert.severity}
      className={cn('rounded-xl p-4 shadow-sm ring-1', look.box)}
    >
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start">
        <div className="flex min-w-0 flex-1 gap-3">
          <span className={cn('grid size-10 shrink-0 place-items-center rounded-lg', look.icon)}>
            <TriangleAlert aria-hidden className="size-6" />
          </span>
          <div className="min-w-0">
            <h2 className={cn('font-bold', look.title)}>{critical ? t.critical : t.warning}</h2>
            <p className="text-sm text-slate-800">{alert.message}</p>
            {alert.recommendations.length > 0 && (
              <div className="mt-2">
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
          </div>
        </div>
        <dl className="grid shrink-0 grid-cols-2 gap-2 sm:grid-cols-4 lg:w-[28rem]">
          {metrics.map(([label, value]) => (
            <div key={label} className={cn('rounded-lg px-3 py-2 ring-1', look.metric)}>
              <dt className="text-xs font-medium text-slate-600">{label}</dt>
              <dd className="text-xl font-bold tabular-nums text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
