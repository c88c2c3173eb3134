// A task on the board (SPEC §2 Dashboard cards, CONTRACT §5, §11, §15): every field, the badges, the time
// in its current state coloured by the SPEC §9 delay thresholds, the last return reason, whether it is
// held, whether its driver is offline, and the actions the viewer may take. Memoised: the store keeps a task's object until its data changes, so a push re-renders
// only the card it is about.
import { TrailerMarks } from '../trailers/TrailerMarks';
import { memo, useContext, type KeyboardEvent } from 'react';
import { Draggable } from '@hello-pangea/dnd';
import {
  ArrowRight,
  CircleCheck,
  CirclePause,
  CirclePlay,
  Clock,
  Hand,
  Pencil,
  Trash2,
  TriangleAlert,
  Undo2,
  UserCog,
  UserPlus,
  WifiOff,
} from 'lucide-react';
import type { Task } from '@shared/schemas';
import { waitTone } from '@shared/deadline';
import {
  CARD_ACTION_NAME,
  PRIORITY_LABELS,
  STATUS_LABELS,
  UI_ATTENTION,
  UI_BOARD,
  VEHICLE_BADGES,
} from '@shared/labels';
import { formatDuration, formatTime } from '@shared/time';
import { PriorityBadge, VehicleBadge } from '../Badge';
import { cn } from '../cn';
import { BADGE_TONE } from '../tones';
import { BoardContext, type BoardActions, type Density } from './context';
import { DEADLINE_BADGE, DeadlineChip } from './DeadlineChip';
import { DroppedAt } from './DroppedAt';
import { useElapsed } from './hooks';

const PRIORITY_EDGE = {
  high: 'border-l-red-500',
  normal: 'border-l-sky-400',
  low: 'border-l-slate-300',
} as const;

/**
 * The time in the current state: a chip coloured by how long the task waits or runs (shared waitTone: no
 * colour while fresh, amber past §20's `espera`, red past twice that).
 */
export function TimeInState({ task, compact }: { task: Task; compact?: boolean }) {
  const elapsed = useElapsed(task.status_since);
  const finished = task.status === 'finalizada';
  const finishedAt = formatTime(task.completed_at ?? task.status_since);
  const text = finished
    ? compact
      ? finishedAt
      : UI_BOARD.card.finishedAt(finishedAt)
    : formatDuration(elapsed);
  const tone = finished ? 'slate' : DEADLINE_BADGE[waitTone(elapsed)];
  return (
    <span
      title={`${UI_BOARD.card.timeInState}: ${STATUS_LABELS[task.status]}`}
      data-testid="time-in-state"
      data-tone={tone}
      className={cn(
        'inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-md font-semibold tabular-nums ring-1 ring-inset',
        compact ? 'px-1.5 py-0.5 text-sm' : 'px-1.5 py-0.5 text-xs',
        BADGE_TONE[tone],
      )}
    >
      {finished ? (
        <CircleCheck aria-hidden className="size-3.5" />
      ) : (
        <Clock aria-hidden className="size-3.5" />
      )}
      {text}
    </span>
  );
}

interface ActionProps {
  label: string;
  /** The accessible name when the icon alone does not say which task (`Editar tarea R-4136-FVR`). */
  name?: string;
  icon: typeof Pencil;
  onClick: () => void;
  tone?: 'default' | 'danger' | 'primary';
  /** Staff buttons are icons (named for screen readers and on hover); a driver's are spelled out. */
  iconOnly?: boolean;
  /** Shown but not usable, saying why (e.g. 'Asignarme' on a held task). */
  disabledReason?: string;
}

function Action({
  label,
  name,
  icon: Icon,
  onClick,
  tone = 'default',
  iconOnly,
  disabledReason,
}: ActionProps) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={!!disabledReason}
      aria-label={name ?? label}
      aria-description={disabledReason}
      title={disabledReason ?? name ?? label}
      // One Tab stop a card (docs/DECISIONS.md): Intro on the card reaches its buttons, ←/→ between them.
      tabIndex={-1}
      data-card-action
      className={cn(
        'inline-flex items-center justify-center gap-1 rounded-md text-xs font-semibold transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-500',
        'disabled:cursor-not-allowed disabled:opacity-50',
        // A driver's spelled-out button ('Asignarme') is a 44 px touch target (issue 28).
        iconOnly ? 'size-8' : 'h-11 px-3 text-sm',
        tone === 'danger' && 'text-red-600 hover:bg-red-50',
        tone === 'primary' && 'bg-blue-600 text-white hover:bg-blue-500',
        tone === 'default' && 'text-slate-500 hover:bg-slate-100 hover:text-slate-900',
        tone === 'default' && !iconOnly && 'ring-1 ring-inset ring-slate-300',
      )}
    >
      <Icon aria-hidden className={iconOnly ? 'size-4' : 'size-3.5'} />
      {!iconOnly && label}
    </button>
  );
}

/** The staff buttons, in order; `when` limits one to the tasks it makes sense for. */
const STAFF_ACTIONS: (Omit<ActionProps, 'onClick' | 'iconOnly'> & {
  run: (actions: BoardActions, task: Task) => void;
  when?: (task: Task) => boolean;
})[] = [
  { label: UI_BOARD.card.edit, icon: Pencil, run: (a, t) => a.edit(t) },
  {
    label: UI_BOARD.picker.confirm,
    icon: UserPlus,
    run: (a, t) => a.assign(t),
    when: (t) => t.status === 'bolsa_trabajo',
  },
  {
    label: UI_BOARD.card.reassign,
    icon: UserCog,
    run: (a, t) => a.assign(t),
    when: (t) => t.status === 'en_proceso',
  },
  {
    label: UI_BOARD.card.hold,
    icon: CirclePause,
    run: (a, t) => a.hold(t),
    when: (t) => t.status === 'bolsa_trabajo' && !t.on_hold,
  },
  {
    label: UI_BOARD.card.release,
    icon: CirclePlay,
    run: (a, t) => a.release(t),
    when: (t) => t.status === 'bolsa_trabajo' && t.on_hold,
  },
  { label: UI_BOARD.card.delete, icon: Trash2, run: (a, t) => a.remove(t), tone: 'danger' },
];

/** The buttons of a card: staff edit/assign/delete; a driver claims a pool task or gives back their own. */
function CardActions({ task }: { task: Task }) {
  const board = useContext(BoardContext);
  if (!board) return null;
  const { mode, userId, actions } = board;
  const buttons: ActionProps[] = [];
  if (mode === 'staff') {
    for (const { run, when, ...button } of STAFF_ACTIONS)
      if (!when || when(task))
        buttons.push({
          ...button,
          name: CARD_ACTION_NAME(button.label, task.trailer_id),
          iconOnly: true,
          onClick: () => run(actions, task),
        });
  } else if (task.status === 'bolsa_trabajo' && !task.assigned_to) {
    buttons.push({
      label: UI_BOARD.card.selfAssign,
      icon: Hand,
      onClick: () => actions.claim(task),
      tone: 'primary',
      disabledReason: task.on_hold ? UI_BOARD.card.claimHeld(task.hold_reason) : undefined,
    });
  } else if (task.status === 'en_proceso' && task.assigned_to === userId) {
    buttons.push({ label: UI_BOARD.card.giveBack, icon: Undo2, onClick: () => actions.giveBack(task) });
  }
  if (!buttons.length) return null;
  return (
    <div role="group" aria-label={UI_BOARD.card.actions} className="flex shrink-0 items-end gap-0.5">
      {buttons.map((b) => (
        <Action key={b.label} {...b} />
      ))}
    </div>
  );
}

interface BodyProps {
  task: Task;
  density?: Density;
  dragging?: boolean;
}

/** The card itself, without drag and drop (the wall screen shows these read-only). */
export const TaskCardBody = memo(function TaskCardBody({ task, density = 'normal', dragging }: BodyProps) {
  const label = `${task.title} ${task.trailer_id}`;
  if (density === 'compact') {
    return (
      <article
        aria-label={label}
        data-testid="task-card"
        data-task-id={task.id}
        data-status={task.status}
        className={cn(
          // Read-only on the wall: the browser may skip laying out cards scrolled out of sight.
          'rounded-lg border-l-4 bg-white px-2.5 py-1.5 text-slate-900 shadow-sm [contain-intrinsic-size:auto_4.5rem] [content-visibility:auto]',
          PRIORITY_EDGE[task.priority],
        )}
      >
        <div className="flex items-center gap-2">
          <span className="min-w-0 flex-1 truncate font-mono text-base font-bold">{task.trailer_id}</span>
          <TrailerMarks marks={task.trailer} />
          <DeadlineChip task={task} />
          <TimeInState task={task} compact />
        </div>
        <div className="flex items-center gap-1.5 text-sm text-slate-700">
          <span className="truncate">{task.origin}</span>
          <ArrowRight aria-hidden className="size-3.5 shrink-0 text-slate-400" />
          <span className="truncate">{task.destination}</span>
        </div>
        <div className="flex items-center gap-1.5 text-xs font-semibold">
          <span
            className={cn(
              'rounded px-1',
              task.priority === 'high' ? 'bg-red-600 text-white' : 'text-slate-500',
            )}
          >
            {PRIORITY_LABELS[task.priority]}
          </span>
          <span className="text-slate-700">{task.title}</span>
          <span className="text-slate-500">{VEHICLE_BADGES[task.vehicle_type]}</span>
          {task.assigned_to_name && (
            <span className="ml-auto min-w-0 truncate text-blue-700">{task.assigned_to_name}</span>
          )}
        </div>
        <HeldNote task={task} />
        <DroppedAt task={task} className="text-xs" />
        <OfflineNote task={task} />
      </article>
    );
  }
  return (
    <article
      aria-label={label}
      data-testid="task-card"
      data-task-id={task.id}
      data-status={task.status}
      className={cn(
        'rounded-lg border-l-4 bg-white p-3 shadow-sm ring-1 ring-slate-200 transition-shadow',
        PRIORITY_EDGE[task.priority],
        dragging && 'shadow-xl ring-2 ring-blue-400',
        task.on_hold && 'bg-violet-50 ring-2 ring-violet-400',
      )}
    >
      <HeldNote task={task} className="-mx-1 -mt-1 mb-2" />
      <div className="flex items-start justify-between gap-2">
        <div className="flex flex-wrap gap-1">
          <PriorityBadge priority={task.priority} />
          <VehicleBadge type={task.vehicle_type} />
        </div>
        <div className="flex shrink-0 flex-col items-end gap-1">
          <TimeInState task={task} />
          <DeadlineChip task={task} />
        </div>
      </div>
      <div className="mt-1.5 flex flex-wrap items-baseline gap-x-2">
        <h3 className="text-base font-semibold leading-tight text-slate-900">{task.title}</h3>
        <p className="text-sm text-slate-600">
          {UI_BOARD.card.trailer}:{' '}
          <span className="font-mono font-bold text-slate-900">{task.trailer_id}</span>
        </p>
        <TrailerMarks marks={task.trailer} />
      </div>
      <p className="mt-1 flex items-center gap-1.5 text-sm font-medium text-slate-800">
        <span className="min-w-0 break-words">{task.origin}</span>
        <ArrowRight aria-hidden className="size-4 shrink-0 text-slate-400" />
        <span className="sr-only">→</span>
        <span className="min-w-0 break-words">{task.destination}</span>
      </p>
      <DroppedAt task={task} className="mt-1" />
      {task.description && <p className="mt-1 line-clamp-2 text-sm text-slate-500">{task.description}</p>}
      <div className="mt-1.5 flex items-end justify-between gap-2">
        <dl className="min-w-0 space-y-0.5 text-xs text-slate-500">
          <div className="flex gap-1">
            <dt>{UI_BOARD.card.assignedTo}:</dt>
            <dd
              className={cn(
                'break-words font-semibold',
                task.assigned_to_name ? 'text-blue-700' : 'text-slate-400',
              )}
            >
              {task.assigned_to_name ?? UI_BOARD.card.unassigned}
            </dd>
          </div>
          <div className="flex gap-1">
            <dt>{UI_BOARD.card.createdBy}:</dt>
            <dd className="truncate font-medium text-slate-700">
              {task.created_by_name ?? UI_BOARD.card.unknownCreator}
            </dd>
          </div>
        </dl>
        <CardActions task={task} />
      </div>
      <OfflineNote task={task} className="mt-2" />
      {task.return_reason && (
        <p className="mt-2 flex items-center gap-1.5 rounded-md bg-amber-50 px-2 py-1 text-xs font-medium text-amber-800 ring-1 ring-inset ring-amber-200">
          <TriangleAlert aria-hidden className="size-3.5 shrink-0" />
          {UI_BOARD.card.returnReason}: {task.return_reason}
        </p>
      )}
    </article>
  );
});

/** CONTRACT §15: a held task says so first, with its reason. */
function HeldNote({ task, className }: { task: Task; className?: string }) {
  if (!task.on_hold || task.status !== 'bolsa_trabajo') return null;
  return (
    <p
      data-testid="held-note"
      className={cn(
        'flex items-center gap-1.5 rounded-md bg-violet-700 px-2 py-1 text-sm font-bold text-white',
        className,
      )}
    >
      <CirclePause aria-hidden className="size-4 shrink-0" />
      {UI_ATTENTION.held(task.hold_reason)}
    </p>
  );
}

/** CONTRACT §15: an En Proceso card whose driver is offline says since when. */
function OfflineNote({ task, className }: { task: Task; className?: string }) {
  if (task.status !== 'en_proceso' || task.assignee_online !== false) return null;
  return <OfflineSince since={task.assignee_offline_since} className={className} />;
}

function OfflineSince({ since, className }: { since: string | null; className?: string }) {
  const elapsed = useElapsed(since ?? new Date(0).toISOString());
  return (
    <p
      data-testid="offline-note"
      className={cn(
        'flex items-center gap-1.5 rounded-md bg-red-50 px-2 py-1 text-xs font-semibold text-red-800 ring-1 ring-inset ring-red-200',
        className,
      )}
    >
      <WifiOff aria-hidden className="size-3.5 shrink-0" />
      {since ? UI_BOARD.card.offlineSince(formatDuration(elapsed)) : UI_BOARD.picker.offline}
    </p>
  );
}

interface DraggableProps {
  task: Task;
  index: number;
}

const focusFirst = (root: Element | null | undefined, selector: string): boolean => {
  const el = root?.querySelector<HTMLElement>(selector);
  el?.focus();
  return !!el;
};

/**
 * The board's keys on a card that is not being dragged (docs/DECISIONS.md): each card is one Tab stop;
 * Intro goes into its buttons (←/→ among them, Esc back to the card); ↑/↓ the card above or below; ←/→
 * the first card of the neighbouring column that has one. Space and the arrows of a lifted card stay
 * @hello-pangea/dnd's (it handles them first and marks them handled).
 */
function cardKeys(e: KeyboardEvent<HTMLElement>, dragging: boolean) {
  if (dragging || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const card = e.currentTarget;
  const target = e.target as HTMLElement;
  let done = false;
  if (target === card) {
    if (e.key === 'Enter') done = focusFirst(card, '[data-card-action]:not(:disabled)');
    else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      const cards = [
        ...(card.closest('[data-kanban-column]')?.querySelectorAll<HTMLElement>('[data-card]') ?? []),
      ];
      const next = cards[cards.indexOf(card) + (e.key === 'ArrowUp' ? -1 : 1)];
      next?.focus();
      done = !!next;
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const columns = [...document.querySelectorAll('[data-kanban-column]')];
      const step = e.key === 'ArrowLeft' ? -1 : 1;
      for (
        let i = columns.indexOf(card.closest('[data-kanban-column]')!) + step;
        i >= 0 && i < columns.length;
        i += step
      )
        if ((done = focusFirst(columns[i], '[data-card]'))) break;
    }
  } else if (target.hasAttribute('data-card-action')) {
    const buttons = [...card.querySelectorAll<HTMLElement>('[data-card-action]:not(:disabled)')];
    const at = buttons.indexOf(target);
    if (e.key === 'Escape') card.focus();
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight')
      buttons[(at + (e.key === 'ArrowLeft' ? -1 : 1) + buttons.length) % buttons.length]?.focus();
    else if (e.key === 'Home') buttons[0]?.focus();
    else if (e.key === 'End') buttons.at(-1)?.focus();
    else return;
    done = true;
  }
  if (done) e.preventDefault();
}

/**
 * A card in a kanban column: the whole card is the drag handle (mouse, touch, or Space + arrows) and its
 * one Tab stop; its buttons are reached with Intro (cardKeys).
 */
export const DraggableTaskCard = memo(function DraggableTaskCard({ task, index }: DraggableProps) {
  return (
    <Draggable draggableId={task.id} index={index}>
      {(provided, snapshot) => (
        <div
          ref={provided.innerRef}
          {...provided.draggableProps}
          {...provided.dragHandleProps}
          data-card
          aria-description={UI_BOARD.card.keysHint}
          onKeyDown={(e) => cardKeys(e, snapshot.isDragging)}
          className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500"
        >
          <TaskCardBody task={task} dragging={snapshot.isDragging} />
        </div>
      )}
    </Draggable>
  );
});
