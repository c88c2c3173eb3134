// One kanban column (SPEC §2): title (Finalizada says it holds the last 24 h), count, its cards (the pool by
// urgency, CONTRACT §20; the others newest first) and the Spanish empty text.
import { memo, useMemo } from 'react';
import { Droppable } from '@hello-pangea/dnd';
import { useShallow } from 'zustand/react/shallow';
import type { TaskStatus } from '@shared/enums';
import { COLUMN_EMPTY, STATUS_LABELS, UI_BOARD } from '@shared/labels';
import { byUrgency } from '@shared/urgency';
import { selectColumn, useTasks } from '../../stores/tasks';
import { useClock } from '../attention/useAttention';
import { cn } from '../cn';
import { usePaged } from './hooks';
import { DraggableTaskCard } from './TaskCard';

/** Cards mounted at first per column (a column shows about 8); more follow on scroll. */
const PAGE = 20;

export const COLUMN_LOOK: Record<TaskStatus, { dot: string; head: string }> = {
  bolsa_trabajo: { dot: 'bg-amber-500', head: 'border-t-amber-500' },
  en_proceso: { dot: 'bg-blue-500', head: 'border-t-blue-500' },
  finalizada: { dot: 'bg-emerald-500', head: 'border-t-emerald-500' },
};

/** How often the pool's urgency is re-read: a deadline comes within the hour, then passes. */
const URGENCY_TICK_MS = 30_000;

/**
 * The tasks of a column, re-read only when one of them changes; the pool in CONTRACT §20's order of
 * urgency (shared/urgency.ts, as on the wall and the driver's Swap list), which moves with the clock.
 */
export function useColumn(status: TaskStatus) {
  const select = useMemo(() => selectColumn(status), [status]);
  const tasks = useTasks(useShallow(select));
  const now = useClock(URGENCY_TICK_MS);
  return useMemo(
    () => (status === 'bolsa_trabajo' ? [...tasks].sort(byUrgency(now)) : tasks),
    [status, tasks, now],
  );
}

export function ColumnCount({ n }: { n: number }) {
  return (
    <span
      data-testid="column-count"
      aria-label={UI_BOARD.kanban.count(n)}
      className="min-w-7 rounded-full bg-slate-200 px-2 py-0.5 text-center text-xs font-bold tabular-nums text-slate-700"
    >
      {n}
    </span>
  );
}

interface KanbanColumnProps {
  status: TaskStatus;
  /** Without a header (the phone tabs show title and count on the tab). */
  bare?: boolean;
}

export const KanbanColumn = memo(function KanbanColumn({ status, bare }: KanbanColumnProps) {
  const tasks = useColumn(status);
  const { shown, more, rootRef, sentinelRef } = usePaged(tasks, PAGE);
  const look = COLUMN_LOOK[status];
  return (
    <section
      aria-label={STATUS_LABELS[status]}
      data-testid={`column-${status}`}
      data-kanban-column
      className={cn(
        'flex min-w-0 flex-col rounded-xl bg-slate-200/60',
        !bare && 'border-t-4',
        !bare && look.head,
      )}
    >
      {!bare && (
        <header className="flex items-center justify-between gap-2 px-3 pb-2 pt-3">
          <h3 className="flex items-center gap-2 text-sm font-bold uppercase tracking-wide text-slate-700">
            <span aria-hidden className={cn('size-2.5 rounded-full', look.dot)} />
            {STATUS_LABELS[status]}
            {status === 'finalizada' && (
              <span className="text-xs font-medium normal-case tracking-normal text-slate-500">
                ({UI_BOARD.kanban.finishedWindow})
              </span>
            )}
          </h3>
          <ColumnCount n={tasks.length} />
        </header>
      )}
      <div
        ref={rootRef}
        className={cn('min-h-32 flex-1 px-2 pb-2 lg:max-h-[75dvh] lg:overflow-y-auto', bare && 'pt-2')}
      >
        <Droppable droppableId={status}>
          {(provided, snapshot) => (
            <div
              ref={provided.innerRef}
              {...provided.droppableProps}
              className={cn(
                'flex min-h-28 flex-col gap-2 rounded-lg transition-colors',
                snapshot.isDraggingOver && 'bg-blue-100/70',
              )}
            >
              {shown.map((task, index) => (
                <DraggableTaskCard key={task.id} task={task} index={index} />
              ))}
              {provided.placeholder}
              {tasks.length === 0 && !snapshot.isDraggingOver && (
                <p className="m-auto px-3 py-8 text-center text-sm font-medium text-slate-500">
                  {COLUMN_EMPTY[status]}
                </p>
              )}
            </div>
          )}
        </Droppable>
        {more && <div ref={sentinelRef} aria-hidden className="h-px" />}
      </div>
    </section>
  );
});
