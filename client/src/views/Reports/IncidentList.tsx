import type { ReactNode } from 'react';
import { ListChecks } from 'lucide-react';
import { DEFICIENCY_REASON_LABELS, UI_DEADLINE, UI_REPORTS } from '@shared/labels';
import type { DeficiencyIncident, DelayedAssignment } from '@shared/schemas';
import { formatDateTime } from '@shared/time';
import { Badge, PriorityBadge, StatusBadge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { DeadlineChip } from '../../components/board/DeadlineChip';
import { EmptyState } from '../../components/EmptyState';
import { cn } from '../../components/cn';
import { delayTone, type Tone } from '../../components/tones';
import type { Report } from '../../stores/reports';
import { formatDelay } from './format';

const R = UI_REPORTS;
const F = R.fields;

/** The left edge of an incident, in its delay colour (SPEC §9: >30 red, >20 orange, else yellow). */
const EDGE: Partial<Record<Tone, string>> = {
  red: 'border-l-red-500',
  orange: 'border-l-orange-500',
  yellow: 'border-l-yellow-400',
};

export function IncidentList({ report }: { report: Report }) {
  const items =
    report.type === 'deficiencies'
      ? report.incidents.map((i) => <DeficiencyItem key={i.task_id} incident={i} />)
      : report.assignments.map((a) => <DelayedItem key={a.task_id} assignment={a} />);
  return (
    <Card
      title={R.incidents}
      icon={<ListChecks aria-hidden className="size-5" />}
      actions={<Badge tone={items.length ? 'red' : 'green'}>{R.count(items.length)}</Badge>}
    >
      {items.length === 0 ? (
        <EmptyState title={R.empty} hint={R.emptyHint} />
      ) : (
        <>
          <Legend />
          <ul aria-label={R.incidents} className="space-y-2">
            {items}
          </ul>
        </>
      )}
    </Card>
  );
}

function Legend() {
  return (
    <p className="mb-3 flex flex-wrap gap-2 text-xs">
      <Badge tone="red" solid>
        {R.legend.red}
      </Badge>
      <Badge tone="orange" solid>
        {R.legend.orange}
      </Badge>
      <Badge tone="yellow" solid>
        {R.legend.yellow}
      </Badge>
    </p>
  );
}

function Incident({
  delay,
  delayLabel,
  title,
  badges,
  children,
}: {
  delay: number;
  delayLabel: string;
  title: string;
  badges: ReactNode;
  children: ReactNode;
}) {
  const tone = delayTone(delay);
  return (
    <li
      data-testid="incident"
      data-tone={tone}
      className={cn('rounded-lg border border-l-4 border-slate-200 bg-white px-4 py-3', EDGE[tone])}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold text-slate-900">{title}</h3>
        {badges}
        <span className="ml-auto flex items-center gap-2 text-xs text-slate-500">
          {delayLabel}
          <Badge tone={tone} solid className="text-sm tabular-nums">
            {formatDelay(delay)}
          </Badge>
        </span>
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1.5 text-sm sm:grid-cols-5">{children}</dl>
    </li>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="truncate text-slate-800">{children}</dd>
    </div>
  );
}

/** CONTRACT §20: the deadline as it stands, or a finished task's lateness; a dash without one. */
const deadline = (task: Pick<DeficiencyIncident, 'due_at' | 'late_s' | 'status'>) => (
  <Item label={UI_DEADLINE.field}>{task.due_at ? <DeadlineChip task={task} /> : '—'}</Item>
);

const when = (iso: string | null) =>
  iso ? (
    <time dateTime={iso}>{formatDateTime(iso)}</time>
  ) : (
    <span className="text-slate-500">{F.notYet}</span>
  );

function DeficiencyItem({ incident: i }: { incident: DeficiencyIncident }) {
  return (
    <Incident
      delay={i.delay_minutes}
      delayLabel={F.delay}
      title={i.task_title}
      badges={<PriorityBadge priority={i.priority} />}
    >
      {/* CONTRACT §22: the detail says why (who returned it, or whether drivers were on shift). */}
      <Item label={F.reason}>
        <span title={DEFICIENCY_REASON_LABELS[i.reason]}>{i.reason_detail}</span>
      </Item>
      <Item label={F.trailer}>
        <span className="font-mono font-semibold">{i.trailer_id}</span>
      </Item>
      <Item label={F.created}>{when(i.created_at)}</Item>
      <Item label={F.assigned}>{when(i.timestamp)}</Item>
      {deadline(i)}
    </Incident>
  );
}

function DelayedItem({ assignment: a }: { assignment: DelayedAssignment }) {
  return (
    <Incident
      delay={a.completion_delay_minutes}
      delayLabel={F.completionDelay}
      title={a.task_title}
      badges={
        <>
          <PriorityBadge priority={a.priority} />
          <StatusBadge status={a.status} />
        </>
      }
    >
      <Item label={F.assignee}>{a.assigned_to_name ?? '—'}</Item>
      <Item label={F.trailer}>
        <span className="font-mono font-semibold">{a.trailer_id}</span>
      </Item>
      <Item label={F.assigned}>{when(a.assigned_at)}</Item>
      <Item label={F.completed}>{when(a.completed_at)}</Item>
      {deadline(a)}
    </Incident>
  );
}
