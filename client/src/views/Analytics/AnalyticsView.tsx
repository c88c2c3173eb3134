import { useState } from 'react';
import { Activity, ChartColumn, FileSpreadsheet, Medal, RotateCcw, Truck, Users, Wifi } from 'lucide-react';
import { toast } from 'sonner';
import { EXPORT_FILE_NAMES, NOT_AVAILABLE, TOAST, UI_ANALYTICS, UI_EXPORT } from '@shared/labels';
import type { DriverAnalyticsRow } from '@shared/schemas';
import { formatDateTime, formatDuration } from '@shared/time';
import { Badge } from '../../components/Badge';
import { HeaderAction } from '../../components/HeaderAction';
import { ListCard } from '../../components/ListCard';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { StatGrid } from '../../components/StatCard';
import { cn } from '../../components/cn';
import {
  loadAnalytics,
  rankDrivers,
  useDriverAnalytics,
  useDriverAnalyticsFeed,
} from '../../stores/driverAnalytics';
import { toastError } from '../../toast';
import { ExcelExportDialog, type ExcelExport } from '../TimeControl/ExcelExportDialog';

const A = UI_ANALYTICS;

export const ANALYTICS_EXPORT: ExcelExport = {
  ...UI_EXPORT.analytics,
  path: '/admin/analytics/export-excel',
  fileName: EXPORT_FILE_NAMES.analytics,
  successToast: TOAST.analyticsDownloaded,
  errorToast: TOAST.exportAnalyticsError,
};

/** SPEC §2 Admin Analytics de Conductores (admin only). */
export function AnalyticsView() {
  useDriverAnalyticsFeed();
  const { rows, loaded, failed } = useDriverAnalytics();
  const [exportOpen, setExportOpen] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);

  const reset = async () => {
    try {
      toast.success(await useDriverAnalytics.getState().resetRankings());
    } catch (err) {
      toastError(err, TOAST.resetRankingsError);
      throw err;
    }
  };

  return (
    <div className="space-y-4">
      <Stats rows={rows} />
      <ListCard
        title={A.title}
        icon={<ChartColumn aria-hidden className="size-5" />}
        actions={
          <>
            <HeaderAction
              variant="success"
              icon={FileSpreadsheet}
              label={UI_EXPORT.open}
              onClick={() => setExportOpen(true)}
            />
            <HeaderAction
              variant="danger"
              icon={RotateCcw}
              label={A.reset}
              onClick={() => setResetOpen(true)}
            />
          </>
        }
        refreshLabel={A.refresh}
        load={loadAnalytics}
        loaded={loaded}
        failed={failed}
        errorTitle={TOAST.loadAnalyticsError}
        empty={
          rows.length === 0 && (
            <EmptyState title={A.empty} hint={A.emptyHint} icon={<Users aria-hidden className="size-6" />} />
          )
        }
      >
        <DriversTable rows={rows} />
      </ListCard>

      <ExcelExportDialog open={exportOpen} onOpenChange={setExportOpen} exportSpec={ANALYTICS_EXPORT} />
      <ConfirmDialog
        open={resetOpen}
        onOpenChange={setResetOpen}
        title={A.resetDialog.title}
        message={A.resetDialog.message}
        confirmLabel={A.resetDialog.confirm}
        onConfirm={reset}
      >
        <p className="font-semibold text-red-700">{A.resetDialog.irreversible}</p>
      </ConfirmDialog>
    </div>
  );
}

function Stats({ rows }: { rows: DriverAnalyticsRow[] }) {
  const S = A.stats;
  const movements = rows.reduce((sum, r) => sum + r.movements_count, 0);
  return (
    <StatGrid
      items={[
        { label: S.total, value: rows.length, tone: 'slate', icon: Users },
        { label: S.online, value: rows.filter((r) => r.is_online).length, tone: 'green', icon: Wifi },
        { label: S.movements, value: movements, tone: 'blue', icon: Truck },
        {
          label: S.average,
          value: rows.length ? Math.round(movements / rows.length) : 0,
          tone: 'purple',
          icon: Activity,
        },
      ]}
    />
  );
}

const COLUMNS = [
  A.columns.driver,
  A.columns.status,
  A.columns.movements,
  A.columns.online24h,
  A.columns.avgTime,
  A.columns.lastActivity,
];

/** Gold, silver, bronze. */
const MEDAL_CLASS = ['text-yellow-500', 'text-slate-400', 'text-amber-700'];

function DriversTable({ rows }: { rows: DriverAnalyticsRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[820px] text-left text-sm">
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col" className="px-4 py-2.5">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rankDrivers(rows).map(({ row, medal }) => (
            <tr key={row.id} data-testid="analytics-row" className="hover:bg-slate-50/60">
              <td className="px-4 py-3">
                <p className="font-semibold text-slate-900">{row.name}</p>
                <p className="text-xs text-slate-500">{row.email}</p>
              </td>
              <td className="px-4 py-3">
                <Badge tone={row.is_online ? 'green' : 'slate'}>
                  <span
                    aria-hidden
                    className={cn('size-1.5 rounded-full', row.is_online ? 'bg-emerald-500' : 'bg-slate-400')}
                  />
                  {row.is_online ? A.online : A.offline}
                </Badge>
              </td>
              <td className="px-4 py-3">
                <span className="inline-flex items-center gap-2">
                  {medal !== null && (
                    <span
                      data-testid="medal"
                      className="inline-flex items-center gap-1 font-semibold text-slate-700"
                    >
                      <Medal
                        role="img"
                        aria-label={A.medal(medal)}
                        className={cn('size-5', MEDAL_CLASS[medal - 1])}
                      />
                      {A.rank(medal)}
                    </span>
                  )}
                  <span className="text-base font-bold tabular-nums text-slate-900">
                    {row.movements_count}
                  </span>
                </span>
              </td>
              <td className="px-4 py-3 tabular-nums text-slate-700">
                {formatDuration(row.total_time_online_24h * 60_000)}
              </td>
              <td className="px-4 py-3 tabular-nums text-slate-700">
                {row.average_task_completion_time === null
                  ? NOT_AVAILABLE
                  : formatDuration(row.average_task_completion_time * 60_000)}
              </td>
              <td className="px-4 py-3 text-slate-700">
                {row.last_activity ? (
                  <time dateTime={row.last_activity}>{formatDateTime(row.last_activity)}</time>
                ) : (
                  NOT_AVAILABLE
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
