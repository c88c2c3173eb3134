import { useEffect, useState } from 'react';
import { Clock, FileSpreadsheet, LogIn, LogOut, Plus, Timer, UserCheck, Users, X } from 'lucide-react';
import { DAILY_SUMMARY_STATUSES, type DailySummaryStatus } from '@shared/enums';
import { SHORT_ID_LENGTH } from '@shared/constants';
import {
  CLOCK_TYPE_LABELS,
  DAILY_STATUS_LABELS,
  EXPORT_FILE_NAMES,
  TOAST,
  UI_EXPORT,
  UI_TIME_CONTROL,
  UNKNOWN_LABEL,
} from '@shared/labels';
import type { DailySummary, Punch, PunchCorrection } from '@shared/schemas';
import { formatDateTime, formatDuration, formatTimeNear } from '@shared/time';
import { Badge } from '../../components/Badge';
import { HeaderAction } from '../../components/HeaderAction';
import { ListCard } from '../../components/ListCard';
import { EmptyState } from '../../components/EmptyState';
import { StatGrid } from '../../components/StatCard';
import { hoursTone, type Tone } from '../../components/tones';
import { hoursNow, loadTimeControl, useTimeControl, useTimeControlFeed } from '../../stores/timeControl';
import { serverNow } from '../../stores/timeclock';
import { ExcelExportDialog, type ExcelExport } from './ExcelExportDialog';
import { AddPunchDialog, RemovePunchDialog } from './PunchCorrectionDialogs';

const C = UI_TIME_CONTROL;

export const TIMECLOCK_EXPORT: ExcelExport = {
  ...UI_EXPORT.timeclock,
  path: '/admin/timeclock/export-excel',
  fileName: EXPORT_FILE_NAMES.timeclock,
  successToast: TOAST.excelDownloaded,
  errorToast: TOAST.exportError,
};

/** The daily-summary status colours (working green, finished blue, not started grey, incomplete red). */
const STATUS_TONE: Record<DailySummaryStatus, Tone> = {
  working: 'green',
  clocked_out: 'blue',
  not_started: 'slate',
  incomplete: 'red',
};

/** SPEC §4: the four statuses by label; anything else the server might send is 'Desconocido'. */
export function statusLabel(status: string): { label: string; tone: Tone } {
  const known = (DAILY_SUMMARY_STATUSES as readonly string[]).includes(status);
  return known
    ? {
        label: DAILY_STATUS_LABELS[status as DailySummaryStatus],
        tone: STATUS_TONE[status as DailySummaryStatus],
      }
    : { label: UNKNOWN_LABEL, tone: 'slate' };
}

/** Re-renders every minute, so a working driver's hours keep counting on screen. */
function useMinuteTick(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** SPEC §2 Control Conductores (admin, manager): always the last 24 hours, live from punches. */
export function TimeControlView() {
  useTimeControlFeed();
  const { rows, loaded, failed, loadedAt } = useTimeControl();
  const now = Math.max(useMinuteTick(), loadedAt);
  const [exportOpen, setExportOpen] = useState(false);
  const [adding, setAdding] = useState<DailySummary | null>(null);
  const [removing, setRemoving] = useState<{ row: DailySummary; punch: Punch } | null>(null);

  const hours = rows.map((r) => hoursNow(r, loadedAt, now));
  return (
    <div className="space-y-4">
      <Stats rows={rows} hours={hours} />
      <ListCard
        title={C.title}
        icon={<Clock aria-hidden className="size-5" />}
        actions={
          <>
            <Badge tone="blue" className="text-sm">
              {C.last24h}
            </Badge>
            <HeaderAction
              variant="success"
              icon={FileSpreadsheet}
              label={UI_EXPORT.open}
              onClick={() => setExportOpen(true)}
            />
          </>
        }
        load={loadTimeControl}
        loaded={loaded}
        failed={failed}
        errorTitle={TOAST.loadTimeControlError}
        empty={
          rows.length === 0 && (
            <EmptyState title={C.empty} hint={C.emptyHint} icon={<Clock aria-hidden className="size-6" />} />
          )
        }
      >
        <PunchTable
          rows={rows}
          hours={hours}
          onAdd={setAdding}
          onRemove={(row, punch) => setRemoving({ row, punch })}
        />
      </ListCard>
      <ExcelExportDialog open={exportOpen} onOpenChange={setExportOpen} exportSpec={TIMECLOCK_EXPORT} />
      <AddPunchDialog driver={adding} onClose={() => setAdding(null)} />
      <RemovePunchDialog target={removing} onClose={() => setRemoving(null)} />
    </div>
  );
}

function Stats({ rows, hours }: { rows: DailySummary[]; hours: number[] }) {
  const S = C.stats;
  // The average is over the drivers who punched: counting the ones who did not work would hide a short day.
  const worked = hours.filter((_, i) => rows[i].status !== 'not_started');
  const average = worked.length ? worked.reduce((a, b) => a + b, 0) / worked.length : 0;
  return (
    <StatGrid
      items={[
        { label: S.total, value: rows.length, tone: 'slate', icon: Users },
        {
          label: S.working,
          value: rows.filter((r) => r.status === 'working').length,
          tone: 'green',
          icon: UserCheck,
        },
        {
          label: S.finished,
          value: rows.filter((r) => r.status === 'clocked_out').length,
          tone: 'blue',
          icon: LogOut,
        },
        {
          label: S.avgHours,
          value: formatDuration(average * 3_600_000),
          hint: S.avgHoursHint,
          tone: 'amber',
          icon: Timer,
        },
      ]}
    />
  );
}

const COLUMNS = [
  C.columns.driver,
  C.columns.status,
  C.columns.firstEntry,
  C.columns.lastExit,
  C.columns.hours,
  C.columns.punches,
  C.columns.actions,
];

interface TableProps {
  rows: DailySummary[];
  hours: number[];
  /** CONTRACT §15: the supervisor adds a forgotten punch to a driver… */
  onAdd: (row: DailySummary) => void;
  /** …or removes a wrong one. */
  onRemove: (row: DailySummary, punch: Punch) => void;
}

function PunchTable({ rows, hours, onAdd, onRemove }: TableProps) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[860px] text-left text-sm">
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
          {rows.map((row, i) => (
            <PunchRow
              key={row.user_id}
              row={row}
              hours={hours[i]}
              onAdd={() => onAdd(row)}
              onRemove={(p) => onRemove(row, p)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

const when = (iso: string | null) =>
  iso ? (
    <time dateTime={iso} className="tabular-nums">
      {formatDateTime(iso)}
    </time>
  ) : (
    <span className="text-slate-400">{C.none}</span>
  );

/** 'Añadido por Marta el 21/11/2026, 09:15: Olvidó fichar'. */
const correctionText = (c: PunchCorrection) =>
  C.correctionDetail(c.action, c.actor_name, formatDateTime(c.at), c.reason);

interface RowProps {
  row: DailySummary;
  hours: number;
  onAdd: () => void;
  onRemove: (punch: Punch) => void;
}

function PunchRow({ row, hours, onAdd, onRemove }: RowProps) {
  const status = statusLabel(row.status);
  // Older answers (before CONTRACT §15) carry no corrections.
  const corrections = row.corrections ?? [];
  const corrected = corrections.length > 0;
  return (
    <tr data-testid="timecontrol-row" className="align-top hover:bg-slate-50/60">
      <td className="px-4 py-3">
        <p className="font-semibold text-slate-900">{row.user_name}</p>
        <p className="font-mono text-xs text-slate-500">#{row.user_id.slice(-SHORT_ID_LENGTH)}</p>
      </td>
      <td className="px-4 py-3">
        <div className="flex flex-wrap gap-1.5">
          <Badge tone={status.tone}>{status.label}</Badge>
          {corrected && (
            <span title={corrections.map(correctionText).join('\n')} data-testid="row-corrected">
              <Badge tone="amber">{C.corrected}</Badge>
            </span>
          )}
        </div>
      </td>
      <td className="px-4 py-3 text-slate-700">{when(row.clock_in)}</td>
      <td className="px-4 py-3 text-slate-700">{when(row.clock_out)}</td>
      <td className="px-4 py-3">
        <Badge tone={hoursTone(hours)} className="text-sm tabular-nums">
          <span data-testid="hours-worked" data-tone={hoursTone(hours)}>
            {formatDuration(hours * 3_600_000)}
          </span>
        </Badge>
      </td>
      <td className="px-4 py-3">
        {row.punches.length === 0 ? (
          <span className="text-slate-400">{C.none}</span>
        ) : (
          <ul className="flex flex-wrap gap-1.5">
            {row.punches.map((p) => (
              <PunchChip
                key={p.id ?? `${p.clock_type}-${p.timestamp}`}
                punch={p}
                correction={corrections.find((c) => c.punch_id === p.id && c.action === 'added')}
                onRemove={() => onRemove(p)}
              />
            ))}
          </ul>
        )}
        {corrected && (
          <ul aria-label={C.corrections} className="mt-2 space-y-0.5 text-xs text-amber-800">
            {corrections.map((c) => (
              <li key={`${c.punch_id}-${c.action}`}>
                {c.action === 'removed' && (
                  <span className="line-through">
                    {C.removedPunch(
                      CLOCK_TYPE_LABELS[c.clock_type],
                      formatTimeNear(c.punch_timestamp, serverNow()),
                    )}
                  </span>
                )}{' '}
                {correctionText(c)}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td className="px-4 py-3">
        <button
          type="button"
          onClick={onAdd}
          aria-label={`${C.addPunch}: ${row.user_name}`}
          className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-semibold text-blue-700 ring-1 ring-inset ring-blue-200 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-500"
        >
          <Plus aria-hidden className="size-3.5" />
          {C.addPunch}
        </button>
      </td>
    </tr>
  );
}

function PunchChip({
  punch: p,
  correction,
  onRemove,
}: {
  punch: Punch;
  correction?: PunchCorrection;
  onRemove: () => void;
}) {
  const label = CLOCK_TYPE_LABELS[p.clock_type];
  const shown = formatTimeNear(p.timestamp, serverNow());
  const title = [formatDateTime(p.timestamp), correction && correctionText(correction)]
    .filter(Boolean)
    .join('\n');
  return (
    <li title={title} className="inline-flex items-center gap-0.5" data-corrected={p.corrected || undefined}>
      <Badge
        tone={p.corrected ? 'amber' : p.clock_type === 'entrada' ? 'green' : 'slate'}
        className="font-medium"
      >
        {p.clock_type === 'entrada' ? (
          <LogIn aria-hidden className="size-3" />
        ) : (
          <LogOut aria-hidden className="size-3" />
        )}
        {label}
        <time dateTime={p.timestamp} className="tabular-nums">
          {shown}
        </time>
        {p.corrected && <span className="font-semibold">· {C.corrected}</span>}
        {p.offline && <span>· {C.offline}</span>}
      </Badge>
      <button
        type="button"
        onClick={onRemove}
        aria-label={C.removePunch(label, shown)}
        title={C.removePunch(label, shown)}
        // 20 px under a mouse, 44 px where the pointer is a finger.
        className="grid size-5 place-items-center rounded pointer-coarse:size-11 text-slate-400 hover:bg-red-50 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-blue-500"
      >
        <X aria-hidden className="size-3.5" />
      </button>
    </li>
  );
}
