// /pantalla (CONTRACT §15): the control room's wall. Its own URL, so a kiosk boots straight into it and a
// reload keeps it; Esc or the exit button goes to /dashboard. The pool by urgency, En Proceso longest
// running first, and what needs a person; each column pages by itself. Live like the board (same stores).
import { useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { Minimize2, TowerControl } from 'lucide-react';
import { APP_TITLE, COLUMN_EMPTY, STATUS_LABELS, UI_WALL, UI_BOARD } from '@shared/labels';
import { formatLongDate, formatTime } from '@shared/time';
import { byUrgency, longestRunningFirst } from '@shared/urgency';
import { AttentionList } from '../../components/attention/AttentionList';
import { useClock, useLiveTasks } from '../../components/attention/useAttention';
import { cn } from '../../components/cn';
import { useDriversFeed } from '../../stores/drivers';
import { useStats, useStatsFeed } from '../../stores/stats';
import { useTasksFeed } from '../../stores/tasks';
import { useServerClockSync } from '../../stores/timeclock';
import { LinkIndicator } from '../Dashboard/LinkIndicator';
import { PagedColumn } from './PagedColumn';
import { WallCard } from './WallCard';

export function WallScreen() {
  useTasksFeed();
  useStatsFeed();
  useDriversFeed();
  useServerClockSync();
  const navigate = useNavigate();
  const now = useClock();
  const tasks = useLiveTasks();
  // CONTRACT §20: urgency moves with the clock (a deadline comes within the hour, then passes).
  const pool = useMemo(
    () => tasks.filter((t) => t.status === 'bolsa_trabajo').sort(byUrgency(now)),
    [tasks, now],
  );
  const running = useMemo(
    () => tasks.filter((t) => t.status === 'en_proceso').sort(longestRunningFirst),
    [tasks],
  );

  useEffect(() => {
    const exit = () => navigate('/dashboard');
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && exit();
    // Full screen entered from the dashboard's button: leaving it leaves the wall too.
    const wasFullscreen = !!document.fullscreenElement;
    const onFullscreen = () => wasFullscreen && !document.fullscreenElement && exit();
    window.addEventListener('keydown', onKey);
    document.addEventListener('fullscreenchange', onFullscreen);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('fullscreenchange', onFullscreen);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    };
  }, [navigate]);

  return (
    <main
      aria-label={UI_WALL.label}
      data-testid="wall-board"
      className="fixed inset-0 flex flex-col gap-3 overflow-hidden bg-slate-950 p-4 text-white"
    >
      <WallHeader now={now} onExit={() => navigate('/dashboard')} />
      <div className="grid min-h-0 flex-1 grid-cols-[2fr_2fr_1.25fr] gap-3">
        <PagedColumn
          title={STATUS_LABELS.bolsa_trabajo}
          items={pool}
          itemKey={(t) => t.id}
          renderItem={(t) => <WallCard task={t} now={now} />}
          cols={2}
          accent="border-t-amber-500"
          empty={COLUMN_EMPTY.bolsa_trabajo}
          testId="wall-column-bolsa_trabajo"
        />
        <PagedColumn
          title={STATUS_LABELS.en_proceso}
          items={running}
          itemKey={(t) => t.id}
          renderItem={(t) => <WallCard task={t} now={now} />}
          cols={2}
          accent="border-t-blue-500"
          empty={COLUMN_EMPTY.en_proceso}
          testId="wall-column-en_proceso"
        />
        <AttentionList variant="wall" />
      </div>
    </main>
  );
}

function WallHeader({ now, onExit }: { now: number; onExit: () => void }) {
  const stats = useStats((s) => s.stats);
  // The pool and En Proceso counts head their own columns.
  const figures: [string, number, string][] = stats
    ? [
        [UI_BOARD.stats.finished, stats.finalizada, 'text-emerald-300'],
        [UI_WALL.available, stats.available_drivers, 'text-teal-300'],
        [UI_WALL.busy, stats.busy_drivers, 'text-indigo-300'],
      ]
    : [];
  return (
    <header className="flex items-center gap-6">
      <div className="flex items-center gap-3">
        <span className="grid size-14 place-items-center rounded-xl bg-blue-600">
          <TowerControl aria-hidden className="size-9" />
        </span>
        <div>
          <h1 className="text-2xl font-bold leading-tight">{APP_TITLE}</h1>
          <p className="text-lg text-slate-300 first-letter:uppercase">{formatLongDate(now)}</p>
        </div>
      </div>
      <dl
        aria-label={UI_WALL.figures}
        className="flex flex-1 flex-wrap items-center justify-center gap-x-8 gap-y-1"
      >
        {figures.map(([label, value, tone]) => (
          <div key={label} className="flex items-baseline gap-2">
            <dt className="text-lg text-slate-300">{label}</dt>
            <dd className={cn('text-4xl font-bold tabular-nums', tone)}>{value}</dd>
          </div>
        ))}
      </dl>
      <span className="text-5xl font-bold tabular-nums">{formatTime(now)}</span>
      <LinkIndicator />
      <button
        type="button"
        onClick={onExit}
        className="inline-flex h-11 items-center gap-2 rounded-lg px-4 text-lg font-semibold text-slate-200 ring-1 ring-inset ring-white/25 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-blue-400"
      >
        <Minimize2 aria-hidden className="size-5" />
        {UI_WALL.exit}
      </button>
    </header>
  );
}
