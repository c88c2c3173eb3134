import { ScrollText } from 'lucide-react';
import type { LogType } from '@shared/enums';
import { LOG_TYPE_LABELS, TOAST, UI_SYSTEM } from '@shared/labels';
import type { LogEntry } from '@shared/schemas';
import { formatDateTime } from '@shared/time';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import type { Tone } from '../../components/tones';
import { PanelState } from './PanelState';

const T = UI_SYSTEM.logs;
const TYPE_TONE: Record<LogType, Tone> = {
  auth: 'sky',
  task: 'indigo',
  user: 'purple',
  timeclock: 'teal',
  system: 'slate',
};
const TH =
  'sticky top-0 bg-slate-50 shadow-[inset_0_-1px_0_var(--color-slate-200)] px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500';

/** SPEC §2 Sistema recent activity: newest first (as the server sends it), scrollable. */
export function ActivityLog({
  logs,
  failed,
  className,
}: {
  logs: LogEntry[] | null;
  failed?: boolean;
  className?: string;
}) {
  return (
    <Card
      title={T.title}
      icon={<ScrollText aria-hidden className="size-5" />}
      className={className}
      bodyClassName="p-0"
      actions={logs && <Badge>{T.count(logs.length)}</Badge>}
    >
      {!logs ? (
        <PanelState failed={failed} error={TOAST.loadLogsError} />
      ) : logs.length === 0 ? (
        <EmptyState title={T.empty} />
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
              {logs.map((log, i) => (
                <tr key={`${log.timestamp}-${i}`} className="align-top">
                  <td className="px-3 py-2">
                    <Badge tone={TYPE_TONE[log.type] ?? 'slate'}>
                      {LOG_TYPE_LABELS[log.type] ?? log.type}
                    </Badge>
                  </td>
                  <td className="whitespace-nowrap px-3 py-2 font-medium text-slate-900">{log.user}</td>
                  <td className="whitespace-nowrap px-3 py-2 text-slate-700">{log.action}</td>
                  <td className="px-3 py-2 text-slate-600">{log.details}</td>
                  <td className="whitespace-nowrap px-3 py-2 tabular-nums text-slate-600">
                    <time dateTime={log.timestamp}>{formatDateTime(log.timestamp)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
