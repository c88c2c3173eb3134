// A task on the wall (CONTRACT §15), read from 5 m at 1920×1080: the trailer at 30 px, the places at
// 22 px, everything else at 18 px or more; the driver's full name wraps, never cut. Read-only.
import { AlarmClock, CirclePause, Clock, TriangleAlert, User, WifiOff } from 'lucide-react';
import type { Task } from '@shared/schemas';
import { PRIORITY_LABELS, UI_ATTENTION, UI_WALL, VEHICLE_BADGES, UI_BOARD } from '@shared/labels';
import { formatDuration } from '@shared/time';
import { cn } from '../../components/cn';
import { deadlineLabel, waitTone, type DeadlineTone } from '@shared/deadline';
import { WallPlaces } from '../../components/WallPlaces';

const PRIORITY_EDGE = {
  high: 'border-l-red-500',
  normal: 'border-l-sky-400',
  low: 'border-l-slate-400',
} as const;

/** The wall's strong colours of a waiting timer or a deadline (shared waitTone / deadlineLabel). */
const TIME_TONE: Record<DeadlineTone, string> = {
  neutral: 'bg-slate-200 text-slate-900',
  amber: 'bg-amber-400 text-amber-950',
  red: 'bg-red-600 text-white',
};

export function WallCard({ task, now }: { task: Task; now: number }) {
  const inState = now - Date.parse(task.status_since);
  const tone = waitTone(inState);
  const deadline = task.due_at ? deadlineLabel(task.due_at, now) : null;
  const offline = task.status === 'en_proceso' && task.assignee_online === false;
  return (
    <article
      aria-label={`${task.title} ${task.trailer_id}`}
      data-testid="wall-card"
      data-task-id={task.id}
      data-status={task.status}
      data-priority={task.priority}
      data-on-hold={task.on_hold || undefined}
      className={cn(
        'flex-1 rounded-lg border-l-8 px-4 py-3 shadow',
        task.on_hold ? 'bg-slate-300 text-slate-800' : 'bg-white text-slate-900',
        PRIORITY_EDGE[task.priority],
      )}
    >
      <p data-wall="trailer" className="break-all font-mono text-3xl font-bold leading-tight">
        {task.trailer_id}
      </p>
      <WallPlaces task={task} className="font-medium" arrowClass="text-slate-500" />
      <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-lg font-semibold">
        <span
          className={cn(
            'rounded px-2',
            task.priority === 'high' ? 'bg-red-600 text-white' : 'bg-slate-200 text-slate-800',
          )}
        >
          {PRIORITY_LABELS[task.priority]}
        </span>
        <span>{task.title}</span>
        <span className="text-slate-600">{VEHICLE_BADGES[task.vehicle_type]}</span>
        <span
          className={cn(
            'ml-auto inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-md px-2 text-xl font-bold tabular-nums',
            TIME_TONE[tone],
          )}
          data-testid="wall-time"
          data-tone={tone}
        >
          <Clock aria-hidden className="size-5" />
          {formatDuration(inState)}
        </span>
      </div>
      {deadline && (
        <p
          data-testid="wall-deadline"
          data-tone={deadline.tone}
          className={cn(
            'mt-1.5 inline-flex items-center gap-2 rounded-md px-2 text-xl font-bold tabular-nums',
            TIME_TONE[deadline.tone],
          )}
        >
          <AlarmClock aria-hidden className="size-5 shrink-0" />
          {deadline.text}
        </p>
      )}
      {task.status === 'en_proceso' && (
        <p className="mt-1.5 flex items-start gap-2 text-xl font-semibold text-blue-800">
          <User aria-hidden className="mt-0.5 size-6 shrink-0" />
          <span data-wall="driver" className="min-w-0 break-words">
            {task.assigned_to_name ?? UI_WALL.unassigned}
          </span>
        </p>
      )}
      {offline && (
        <p className="mt-1.5 flex items-start gap-2 rounded-md bg-red-600 px-2 py-1 text-lg font-bold text-white">
          <WifiOff aria-hidden className="mt-0.5 size-5 shrink-0" />
          {UI_BOARD.card.offlineSince(
            formatDuration(now - Date.parse(task.assignee_offline_since ?? task.status_since)),
          )}
        </p>
      )}
      {task.on_hold && (
        <p className="mt-1.5 flex items-start gap-2 rounded-md bg-amber-400 px-2 py-1 text-lg font-bold text-amber-950">
          <CirclePause aria-hidden className="mt-0.5 size-5 shrink-0" />
          {UI_ATTENTION.held(task.hold_reason)}
        </p>
      )}
      {!task.on_hold && task.status === 'bolsa_trabajo' && task.return_reason && (
        <p className="mt-1.5 flex items-start gap-2 rounded-md bg-amber-100 px-2 py-1 text-lg font-semibold text-amber-900">
          <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0" />
          {UI_WALL.returned(task.return_reason)}
        </p>
      )}
    </article>
  );
}
