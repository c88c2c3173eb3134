import { useEffect } from 'react';
import { ScrollText } from 'lucide-react';
import { useShallow } from 'zustand/react/shallow';
import { LOG_TYPES, type LogType } from '@shared/enums';
import { LOG_TYPE_LABELS, ROLE_LABELS, TOAST, UI_SYSTEM } from '@shared/labels';
import type { LogEntry } from '@shared/schemas';
import { formatDate, formatTimeWithSeconds } from '@shared/time';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Field, inputClass } from '../../components/Field';
import { Select } from '../../components/Select';
import type { Tone } from '../../components/tones';
import { NO_LOG_FILTERS, useSystem, type LogFilters } from '../../stores/system';
import { useUsers } from '../../stores/users';
import { PanelState } from './PanelState';

const T = UI_SYSTEM.logs;
const TYPE_TONE: Record<LogType, Tone> = {
  auth: 'sky',
  task: 'indigo',
  user: 'purple',
  timeclock: 'teal',
  system: 'slate',
  gate: 'amber',
  integration: 'blue',
};
const TH =
  'sticky top-0 bg-slate-50 shadow-[inset_0_-1px_0_var(--color-slate-200)] px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500';

const ANY = 'all';
/** Madrid date and time with seconds: 21/11/2026, 09:15:07 (CONTRACT §15). */
const stamp = (iso: string) => `${formatDate(iso)}, ${formatTimeWithSeconds(iso)}`;
const filtered = (f: LogFilters) => Object.values(f).some(Boolean);

/** CONTRACT §15: type, user and Madrid days; every change reads the log again from its newest row. */
function LogFiltersBar() {
  const F = T.filters;
  const filters = useSystem((s) => s.logFilters);
  const setFilters = useSystem((s) => s.setLogFilters);
  const users = useUsers((s) => s.users);
  // The user filter lists the accounts (the admin's users list), loaded once if nobody has yet.
  useEffect(() => {
    const { loaded, load } = useUsers.getState();
    if (!loaded) load().catch(() => {});
  }, []);
  const change = (patch: Partial<LogFilters>) => void setFilters({ ...filters, ...patch });
  const typeOptions = [
    { value: ANY, label: F.anyType },
    ...LOG_TYPES.map((t) => ({ value: t, label: LOG_TYPE_LABELS[t] })),
  ];
  const userOptions = [
    { value: ANY, label: F.anyUser },
    ...users.map((u) => ({ value: u.id, label: `${u.name} · ${ROLE_LABELS[u.role]}` })),
  ];
  return (
    <div
      role="group"
      aria-label={F.label}
      className="grid gap-3 border-b border-slate-100 px-4 py-3 sm:grid-cols-2 lg:grid-cols-[1fr_1.4fr_1fr_1fr_auto] lg:items-end"
    >
      <Field label={F.type}>
        {({ id }) => (
          <Select
            id={id}
            value={filters.type || ANY}
            options={typeOptions}
            onChange={(v) => change({ type: v === ANY ? '' : (v as LogType) })}
          />
        )}
      </Field>
      <Field label={F.user}>
        {({ id }) => (
          <Select
            id={id}
            value={filters.user_id || ANY}
            options={userOptions}
            onChange={(v) => change({ user_id: v === ANY ? '' : v })}
          />
        )}
      </Field>
      <Field label={F.dateFrom}>
        {(control) => (
          <input
            {...control}
            type="date"
            className={inputClass}
            value={filters.date_from}
            max={filters.date_to || undefined}
            onChange={(e) => change({ date_from: e.target.value })}
          />
        )}
      </Field>
      <Field label={F.dateTo}>
        {(control) => (
          <input
            {...control}
            type="date"
            className={inputClass}
            value={filters.date_to}
            min={filters.date_from || undefined}
            onChange={(e) => change({ date_to: e.target.value })}
          />
        )}
      </Field>
      <Button variant="ghost" disabled={!filtered(filters)} onClick={() => change(NO_LOG_FILTERS)}>
        {F.clear}
      </Button>
    </div>
  );
}

/** SPEC §2 Sistema recent activity: newest first (as the server sends it), filtered, paged, scrollable. */
export function ActivityLog({
  logs,
  failed,
  className,
}: {
  logs: LogEntry[] | null;
  failed?: boolean;
  className?: string;
}) {
  const { filters, more, loadingMore, loadMore } = useSystem(
    useShallow((s) => ({
      filters: s.logFilters,
      more: s.logsMore,
      loadingMore: s.logsLoadingMore,
      loadMore: s.loadMoreLogs,
    })),
  );
  return (
    <Card
      title={T.title}
      icon={<ScrollText aria-hidden className="size-5" />}
      className={className}
      bodyClassName="p-0"
      actions={logs && <Badge>{T.count(logs.length)}</Badge>}
    >
      <LogFiltersBar />
      {!logs ? (
        <PanelState failed={failed} error={TOAST.loadLogsError} />
      ) : logs.length === 0 ? (
        <EmptyState title={filtered(filters) ? T.emptyFiltered : T.empty} />
      ) : (
        <div className="max-h-[34rem] overflow-auto" tabIndex={0} aria-label={T.title}>
          <table className="w-full min-w-[760px] text-sm">
            <thead>
              <tr>
                <th scope="col" className={TH}>
                  {T.columns.type}
                </th>
                <th scope="col" className={TH}>
                  {T.columns.user}
                </th>
                <th scope="col" className={TH}>
                  {T.columns.action}
                </th>
                <th scope="col" className={TH}>
                  {T.columns.details}
                </th>
                <th scope="col" className={TH}>
                  {T.columns.timestamp}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100" data-testid="activity-log">
              {logs.map((log) => (
                <tr key={log.id} className="align-top">
                  <td className="px-3 py-2">
                    <Badge tone={TYPE_TONE[log.type] ?? 'slate'}>
                      {LOG_TYPE_LABELS[log.type] ?? log.type}
                    </Badge>
                  </td>
                  <td className="whitespace-nowrap px-3 py-2 font-medium text-slate-900">{log.user}</td>
                  <td className="whitespace-nowrap px-3 py-2 text-slate-700">{log.action}</td>
                  <td className="px-3 py-2 text-slate-600">{log.details}</td>
                  <td className="whitespace-nowrap px-3 py-2 tabular-nums text-slate-600">
                    <time dateTime={log.timestamp}>{stamp(log.timestamp)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="flex justify-center border-t border-slate-100 px-4 py-3">
            {more ? (
              <Button variant="secondary" size="sm" loading={loadingMore} onClick={() => void loadMore()}>
                {T.loadMore}
              </Button>
            ) : (
              <p className="text-xs text-slate-400">{T.end}</p>
            )}
          </div>
        </div>
      )}
    </Card>
  );
}
