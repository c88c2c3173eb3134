import { TrailerMarks } from '../../components/trailers/TrailerMarks';
import type { ReactNode } from 'react';
import { CheckCircle2, Circle, CircleDot, PauseCircle, RotateCcw } from 'lucide-react';
import { shortId, UI_ATTENTION, UI_DEADLINE, UI_SEARCH } from '@shared/labels';
import type { SearchTask } from '@shared/schemas';
import { formatDateTime } from '@shared/time';
import { PriorityBadge, StatusBadge, VehicleBadge } from '../../components/Badge';
import { DeadlineChip } from '../../components/board/DeadlineChip';
import { DroppedAt } from '../../components/board/DroppedAt';
import { cn } from '../../components/cn';
import { returnCount, timelineSteps, type StepState, type TimelineStep } from './timeline';

const F = UI_SEARCH.fields;

/** One result: badges, the task's fields and its Creada → Asignada → Finalizada timeline. */
export function SearchResultCard({ task }: { task: SearchTask }) {
  const returns = returnCount(task);
  return (
    <li
      data-testid="search-result"
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-xs"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="mr-auto text-base font-semibold text-slate-900">{task.title}</h3>
        <StatusBadge status={task.status} />
        <PriorityBadge priority={task.priority} />
        <VehicleBadge type={task.vehicle_type} />
      </div>

      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
        <Item label={F.id}>
          <span className="font-mono" title={task.id}>
            {shortId(task.id)}
          </span>
        </Item>
        <Item label={F.trailer}>
          <span className="font-mono font-semibold">{task.trailer_id}</span>{' '}
          <TrailerMarks marks={task.trailer} />
        </Item>
        <Item label={F.createdBy}>{task.created_by_name ?? '—'}</Item>
        <Item label={F.createdAt}>
          <time dateTime={task.created_at}>{formatDateTime(task.created_at)}</time>
        </Item>
        <Item label={F.origin}>{task.origin}</Item>
        <Item label={F.destination}>{task.destination}</Item>
        {task.due_at && (
          // CONTRACT §20: the deadline, and how it stands now (or the finished task's lateness).
          <Item label={UI_DEADLINE.field}>
            <time dateTime={task.due_at} data-testid="search-due-at">
              {formatDateTime(task.due_at)}
            </time>{' '}
            <DeadlineChip task={task} />
          </Item>
        )}
      </dl>

      {task.on_hold && (
        <p className="flex items-center gap-1.5 rounded-lg bg-violet-100 px-3 py-2 text-sm font-semibold text-violet-900">
          <PauseCircle aria-hidden className="size-4" />
          {UI_ATTENTION.held(task.hold_reason)}
        </p>
      )}

      <DroppedAt task={task} />

      {task.description && (
        <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          <span className="sr-only">{F.description}: </span>
          {task.description}
        </p>
      )}

      <Timeline steps={timelineSteps(task)} />
      {returns > 0 && (
        <p className="flex items-center gap-1.5 text-xs text-amber-800">
          <RotateCcw aria-hidden className="size-3.5" />
          {UI_SEARCH.timeline.returns(returns)}
        </p>
      )}
    </li>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="truncate text-slate-800">{children}</dd>
    </div>
  );
}

const STEP_ICON: Record<StepState, ReactNode> = {
  done: <CheckCircle2 aria-hidden className="size-5 text-emerald-600" />,
  current: <CircleDot aria-hidden className="size-5 text-blue-600" />,
  waiting: <Circle aria-hidden className="size-5 text-slate-300" />,
};

function Timeline({ steps }: { steps: TimelineStep[] }) {
  return (
    <ol
      aria-label={UI_SEARCH.timeline.label}
      className="grid grid-cols-3 gap-2 border-t border-slate-100 pt-3"
      data-testid="search-timeline"
    >
      {steps.map((step, i) => (
        <li
          key={step.key}
          data-state={step.state}
          className="relative flex min-w-0 flex-col items-start gap-1"
        >
          <div className="flex w-full items-center gap-2">
            {STEP_ICON[step.state]}
            {i < steps.length - 1 && (
              <span
                aria-hidden
                className={cn(
                  'h-0.5 flex-1 rounded',
                  step.state === 'done' ? 'bg-emerald-200' : 'bg-slate-200',
                )}
              />
            )}
          </div>
          <p
            className={cn(
              'text-sm font-semibold',
              step.state === 'current'
                ? 'text-blue-700'
                : step.state === 'done'
                  ? 'text-slate-900'
                  : 'text-slate-500',
            )}
          >
            {step.label}
          </p>
          {step.detail && <p className="w-full truncate text-xs text-slate-600">{step.detail}</p>}
          {step.at && (
            <time dateTime={step.at} className="text-xs text-slate-500">
              {formatDateTime(step.at)}
            </time>
          )}
        </li>
      ))}
    </ol>
  );
}
