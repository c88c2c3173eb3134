// SPEC §2 sidebar: the workload alert and the unread notifications first (CONTRACT §15: here, beside the
// board, they never move it), the admin's component or the gestor/manager's, then 'Conductores Online'
// (first 5) and 'Ranking de Conductores' (top 10, medals for the top 3; hidden for gestor).
// Admin: the drivers' state (the accounts waiting for approval are the board's one line). Gestor/manager:
// the waiting queue by priority and the task that has waited longest.
import { Circle, Gauge, ListOrdered, Medal, Trophy, Users } from 'lucide-react';
import { useShallow } from 'zustand/react/shallow';
import type { Priority, Role } from '@shared/enums';
import { MEDAL_COUNT, ONLINE_DRIVERS_SHOWN, RANKING_SHOWN } from '@shared/constants';
import { PRIORITY_LABELS, UI_BOARD } from '@shared/labels';
import { PriorityBadge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { AttentionList } from '../../components/attention/AttentionList';
import { cn } from '../../components/cn';
import { NotificationBanners } from '../../components/NotificationBanners';
import { TimeInState } from '../../components/board/TaskCard';
import { can } from '../../permissions';
import { useDrivers } from '../../stores/drivers';
import { useStats } from '../../stores/stats';
import { selectColumn, useTasks } from '../../stores/tasks';
import { WorkloadAlertCard } from './WorkloadAlertCard';

const t = UI_BOARD.sidebar;

export function Sidebar({ role }: { role: Role }) {
  return (
    <aside aria-label={t.label} className="space-y-4" data-testid="sidebar">
      <WorkloadAlertCard />
      {/* Pending users are the board's one line, not a banner each (CONTRACT §15). */}
      <NotificationBanners exclude={PENDING_ONLY} />
      <AttentionList variant="board" />
      {can(role, 'approveUsers') ? <AdminSummary /> : <QueueSummary />}
      <OnlineDrivers />
      {can(role, 'seeRanking') && <Ranking />}
    </aside>
  );
}

const PENDING_ONLY = ['user_pending'] as const;

function Figure({ label, value, tone }: { label: string; value: number | string; tone: string }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className={cn('text-xl font-bold tabular-nums', tone)}>{value}</dd>
    </div>
  );
}

function AdminSummary() {
  const stats = useStats((s) => s.stats);
  if (!stats) return null;
  const { metrics } = stats.workload_alert;
  return (
    <Card title={t.adminTitle} icon={<Gauge aria-hidden className="size-5" />} bodyClassName="space-y-3 p-3">
      <dl className="grid grid-cols-3 gap-2">
        <Figure label={t.online} value={stats.online_drivers} tone="text-slate-900" />
        <Figure label={t.available} value={stats.available_drivers} tone="text-emerald-600" />
        <Figure label={t.busy} value={stats.busy_drivers} tone="text-blue-600" />
      </dl>
      <div>
        <div className="flex justify-between text-xs font-medium text-slate-600">
          <span>{t.utilization}</span>
          <span className="tabular-nums">{metrics.driver_utilization}%</span>
        </div>
        <div
          role="meter"
          aria-label={t.utilization}
          aria-valuenow={metrics.driver_utilization}
          aria-valuemin={0}
          aria-valuemax={100}
          className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className={cn(
              'h-full rounded-full',
              metrics.driver_utilization >= 80
                ? 'bg-red-500'
                : metrics.driver_utilization >= 50
                  ? 'bg-amber-500'
                  : 'bg-emerald-500',
            )}
            style={{ width: `${metrics.driver_utilization}%` }}
          />
        </div>
      </div>
    </Card>
  );
}

const selectPool = selectColumn('bolsa_trabajo');
const PRIORITY_ORDER: Priority[] = ['high', 'normal', 'low'];
const PRIORITY_BAR: Record<Priority, string> = {
  high: 'bg-red-500',
  normal: 'bg-sky-500',
  low: 'bg-slate-400',
};

function QueueSummary() {
  const pool = useTasks(useShallow(selectPool));
  const byPriority = PRIORITY_ORDER.map(
    (p) => [p, pool.filter((task) => task.priority === p).length] as const,
  );
  // The queue is served high priority first, then oldest: that is the task to watch.
  const oldest = pool.reduce<(typeof pool)[number] | null>(
    (o, task) => (!o || task.status_since < o.status_since ? task : o),
    null,
  );
  return (
    <Card
      title={t.queueTitle}
      icon={<ListOrdered aria-hidden className="size-5" />}
      actions={<span className="text-sm font-bold tabular-nums text-slate-700">{pool.length}</span>}
      bodyClassName="space-y-3 p-3"
    >
      {pool.length === 0 ? (
        <p className="py-2 text-center text-sm text-slate-500">{t.queueEmpty}</p>
      ) : (
        <>
          <ul className="space-y-1.5">
            {byPriority.map(([p, n]) => (
              <li key={p} className="flex items-center gap-2 text-sm">
                <span className="w-14 font-medium text-slate-700">{PRIORITY_LABELS[p]}</span>
                <span className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100">
                  <span
                    className={cn('block h-full rounded-full', PRIORITY_BAR[p])}
                    style={{ width: `${(n / pool.length) * 100}%` }}
                  />
                </span>
                <span className="w-8 text-right font-bold tabular-nums text-slate-900">{n}</span>
              </li>
            ))}
          </ul>
          {oldest && (
            <div className="rounded-lg bg-slate-50 p-2.5 ring-1 ring-slate-200">
              <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">
                {t.oldestWaiting}
              </p>
              <div className="mt-1 flex items-center justify-between gap-2">
                <span className="min-w-0 truncate text-sm font-semibold text-slate-900">
                  {oldest.title} · <span className="font-mono">{oldest.trailer_id}</span>
                </span>
                <TimeInState task={oldest} />
              </div>
              <div className="mt-1 flex items-center gap-2 text-xs text-slate-600">
                <PriorityBadge priority={oldest.priority} />
                <span className="truncate">
                  {oldest.origin} → {oldest.destination}
                </span>
              </div>
            </div>
          )}
        </>
      )}
    </Card>
  );
}

function OnlineDrivers() {
  const online = useDrivers((s) => s.online);
  const shown = online.slice(0, ONLINE_DRIVERS_SHOWN);
  return (
    <Card
      title={t.onlineTitle}
      icon={<Users aria-hidden className="size-5" />}
      actions={<span className="text-sm font-bold tabular-nums text-emerald-600">{online.length}</span>}
      bodyClassName="p-2"
    >
      {shown.length === 0 ? (
        <p className="px-2 py-3 text-center text-sm text-slate-500">{t.onlineEmpty}</p>
      ) : (
        <ul data-testid="online-drivers" className="divide-y divide-slate-100">
          {shown.map((d) => (
            <li key={d.id} className="flex items-center gap-2 px-2 py-2 text-sm">
              <Circle
                aria-label={t.isOnline}
                className="size-2.5 shrink-0 fill-emerald-500 text-emerald-500"
              />
              <span className="min-w-0 flex-1 break-words font-medium text-slate-800">{d.name}</span>
              <span className="shrink-0 tabular-nums text-slate-500">{t.movements(d.movements_count)}</span>
            </li>
          ))}
          {online.length > shown.length && (
            <li className="px-2 pt-2 text-xs text-slate-500">{t.onlineMore(online.length - shown.length)}</li>
          )}
        </ul>
      )}
    </Card>
  );
}

const MEDAL_TONE = ['text-amber-500', 'text-slate-400', 'text-orange-700'];

function Ranking() {
  const rankings = useDrivers((s) => s.rankings);
  const shown = rankings.slice(0, RANKING_SHOWN);
  return (
    <Card title={t.rankingTitle} icon={<Trophy aria-hidden className="size-5" />} bodyClassName="p-2">
      {shown.length === 0 ? (
        <p className="px-2 py-3 text-center text-sm text-slate-500">{t.rankingEmpty}</p>
      ) : (
        <ol data-testid="ranking" className="divide-y divide-slate-100">
          {shown.map((d, i) => {
            const medal = i < MEDAL_COUNT;
            return (
              <li
                key={d.id}
                className={cn('flex items-center gap-2 px-2 py-2 text-sm', medal && 'font-semibold')}
              >
                <span className="flex w-12 shrink-0 items-center gap-0.5 tabular-nums text-slate-500">
                  {medal ? (
                    <>
                      <Medal aria-hidden className={cn('size-4', MEDAL_TONE[i])} />
                      <span className={MEDAL_TONE[i]}>#{i + 1}</span>
                    </>
                  ) : (
                    <span className="pl-1">{i + 1}</span>
                  )}
                </span>
                <Circle
                  role="img"
                  aria-label={d.is_online ? t.isOnline : t.isOffline}
                  className={cn(
                    'size-2.5 shrink-0',
                    d.is_online ? 'fill-emerald-500 text-emerald-500' : 'fill-slate-300 text-slate-300',
                  )}
                />
                <span className="min-w-0 flex-1 break-words text-slate-800">{d.name}</span>
                <span className="shrink-0 tabular-nums text-slate-500">{t.movements(d.movements_count)}</span>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
