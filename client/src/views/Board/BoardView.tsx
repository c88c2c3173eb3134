// SPEC §2 Dashboard view for admin, manager and gestor: banners, stat cards, the workload alert, the
// kanban at 3/4 width and the sidebar; 'Modo pantalla' turns it into the wall screen.
import { useCallback, useState } from 'react';
import { Maximize2 } from 'lucide-react';
import { UI_BOARD } from '@shared/labels';
import { Button } from '../../components/Button';
import { boardColumns } from '../../components/board/context';
import { Kanban } from '../../components/board/Kanban';
import { NotificationBanners } from '../../components/NotificationBanners';
import { useDriversFeed } from '../../stores/drivers';
import { useSession } from '../../stores/session';
import { useStatsFeed } from '../../stores/stats';
import { useTasksFeed } from '../../stores/tasks';
import { Sidebar } from './Sidebar';
import { StatCards } from './StatCards';
import { WallBoard } from './WallBoard';
import { WorkloadAlertCard } from './WorkloadAlertCard';

export function BoardView() {
  const user = useSession((s) => s.user);
  useTasksFeed();
  useStatsFeed();
  useDriversFeed();
  const [wall, setWall] = useState(false);
  const exitWall = useCallback(() => setWall(false), []);
  if (!user) return null;

  const enterWall = () => {
    setWall(true);
    // Full screen where the browser allows it; the wall layout works without it too.
    void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };

  if (wall) return <WallBoard statuses={boardColumns('staff', user.role)} onExit={exitWall} />;
  return (
    <div className="space-y-4">
      <NotificationBanners />
      <StatCards role={user.role} />
      <WorkloadAlertCard />
      <div className="grid gap-4 lg:grid-cols-4">
        <section aria-labelledby="board-title" className="min-w-0 lg:col-span-3">
          <div className="mb-2 flex items-center justify-between gap-2">
            <h2 id="board-title" className="text-lg font-bold text-slate-900">
              {UI_BOARD.kanban.label}
            </h2>
            <Button variant="secondary" size="sm" onClick={enterWall} title={UI_BOARD.wall.enterHint}>
              <Maximize2 aria-hidden className="size-4" />
              {UI_BOARD.wall.enter}
            </Button>
          </div>
          <Kanban mode="staff" />
        </section>
        <Sidebar role={user.role} />
      </div>
    </div>
  );
}
