// The control-room wall (issue 5): the whole screen for the board, no controls, compact cards, so at
// 1920×1080 a yard with 200 open tasks stays readable from across the room. Live like the board (same
// stores). Esc (or leaving the browser's full screen) goes back.
import { useEffect } from 'react';
import { Minimize2, TowerControl } from 'lucide-react';
import type { TaskStatus } from '@shared/enums';
import { APP_TITLE, STATUS_LABELS, UI_BOARD } from '@shared/labels';
import { formatLongDate, formatTime } from '@shared/time';
import { cn } from '../../components/cn';
import { useNow, usePaged } from '../../components/board/hooks';
import { COLUMN_LOOK, useColumn } from '../../components/board/KanbanColumn';
import { TaskCardBody } from '../../components/board/TaskCard';
import { useStats } from '../../stores/stats';
import { LinkIndicator } from '../Dashboard/LinkIndicator';

/** Compact cards mounted at first per column (a wide column shows about 24). */
const PAGE = 60;

interface WallBoardProps {
  statuses: TaskStatus[];
  onExit: () => void;
}

export function WallBoard({ statuses, onExit }: WallBoardProps) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onExit();
    const onFullscreen = () => !document.fullscreenElement && onExit();
    window.addEventListener('keydown', onKey);
    document.addEventListener('fullscreenchange', onFullscreen);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('fullscreenchange', onFullscreen);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    };
  }, [onExit]);

  return (
    <div
      role="region"
      aria-label={UI_BOARD.wall.label}
      data-testid="wall-board"
      className="fixed inset-0 z-40 flex flex-col gap-3 bg-slate-950 p-4 text-white"
    >
      <WallHeader onExit={onExit} />
      <WallAlert />
      <div
        className={cn(
          'grid min-h-0 flex-1 gap-3',
          statuses.length === 3 ? 'grid-cols-[2fr_2fr_1fr]' : 'grid-cols-2',
        )}
      >
        {statuses.map((s) => (
          <WallColumn key={s} status={s} wide={s !== 'finalizada'} />
        ))}
      </div>
    </div>
  );
}

function WallHeader({ onExit }: { onExit: () => void }) {
  const now = useNow();
  const stats = useStats((s) => s.stats);
  const t = UI_BOARD.stats;
  const figures: [string, number, string][] = stats
    ? [
        [t.pool, stats.bolsa_trabajo, 'text-amber-300'],
        [t.inProgress, stats.en_proceso, 'text-sky-300'],
        [t.finished, stats.finalizada, 'text-emerald-300'],
        [`${t.available} (${t.availableOf(stats.online_drivers)})`, stats.available_drivers, 'text-teal-300'],
        [t.busy, stats.busy_drivers, 'text-indigo-300'],
      ]
    : [];
  return (
    <header className="flex items-center gap-6">
      <div className="flex items-center gap-3">
        <span className="grid size-11 place-items-center rounded-xl bg-blue-600">
          <TowerControl aria-hidden className="size-7" />
        </span>
        <div>
          <h2 className="text-xl font-bold leading-tight">{APP_TITLE}</h2>
          <p className="text-sm text-slate-400 first-letter:uppercase">{formatLongDate(now)}</p>
        </div>
      </div>
      <dl className="flex flex-1 flex-wrap items-center justify-center gap-x-6 gap-y-1">
        {figures.map(([label, value, tone]) => (
          <div key={label} className="flex items-baseline gap-2">
            <dt className="text-sm text-slate-400">{label}</dt>
            <dd className={cn('text-3xl font-bold tabular-nums', tone)}>{value}</dd>
          </div>
        ))}
      </dl>
      <span className="text-4xl font-bold tabular-nums">{formatTime(now)}</span>
      <LinkIndicator />
      <button
        type="button"
        onClick={onExit}
        className="inline-flex h-9 items-center gap-1.5 rounded-lg px-3 text-sm font-semibold text-slate-300 ring-1 ring-inset ring-white/20 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-blue-400"
      >
        <Minimize2 aria-hidden className="size-4" />
        {UI_BOARD.wall.exit}
      </button>
    </header>
  );
}

function WallAlert() {
  const alert = useStats((s) => s.stats?.workload_alert);
  if (!alert || alert.status === 'normal') return null;
  return (
    <p
      role="alert"
      className={cn(
        'rounded-lg px-4 py-2 text-lg font-semibold',
        alert.severity === 2 ? 'bg-red-600 text-white' : 'bg-yellow-400 text-yellow-950',
      )}
    >
      {alert.message}
    </p>
  );
}

function WallColumn({ status, wide }: { status: TaskStatus; wide: boolean }) {
  const tasks = useColumn(status);
  const { shown, more, rootRef, sentinelRef } = usePaged(tasks, PAGE);
  return (
    <section
      aria-label={STATUS_LABELS[status]}
      data-testid={`wall-column-${status}`}
      className={cn('flex min-h-0 flex-col rounded-xl border-t-4 bg-slate-900', COLUMN_LOOK[status].head)}
    >
      <header className="flex items-center justify-between px-3 py-2">
        <h3 className="text-lg font-bold uppercase tracking-wide text-slate-100">{STATUS_LABELS[status]}</h3>
        <span className="rounded-full bg-white/10 px-3 text-2xl font-bold tabular-nums">{tasks.length}</span>
      </header>
      <div ref={rootRef} className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
        <div
          className={cn(
            'grid content-start gap-2',
            wide ? 'grid-cols-[repeat(auto-fill,minmax(17rem,1fr))]' : 'grid-cols-1',
          )}
        >
          {shown.map((task) => (
            <TaskCardBody key={task.id} task={task} density="compact" />
          ))}
        </div>
        {more && <div ref={sentinelRef} aria-hidden className="h-px" />}
      </div>
    </section>
  );
}
