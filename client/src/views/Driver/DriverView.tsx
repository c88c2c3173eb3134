import { UI_BOARD } from '@shared/labels';
import { Kanban } from '../../components/board/Kanban';
import { NotificationBanners } from '../../components/NotificationBanners';
import { useDriverFeed } from '../../stores/driver';
import { useTasksFeed } from '../../stores/tasks';
import { useTimeclock, useTimeclockFeed } from '../../stores/timeclock';
import { ActiveTaskCard } from './ActiveTaskCard';
import { StatusCard } from './StatusCard';
import { SwapPanel } from './SwapPanel';
import { TimeclockWidget } from './TimeclockWidget';
import { useNewTaskAlert } from './useNewTaskAlert';
import { useWakeLock } from './useWakeLock';

/**
 * SPEC §2 Driver screen: the unread notifications; 'Mi Tarea Activa' on the left; status, time clock
 * and Swap tasks on the right (stacked on a phone, active task first: it is what the driver must do
 * now); below, the board in driver mode (CONTRACT §5), scoped as GET /tasks is for a conductor.
 */
export function DriverView() {
  useDriverFeed();
  useTimeclockFeed();
  useTasksFeed();
  useNewTaskAlert();
  useWakeLock(useTimeclock((s) => s.status?.status === 'clocked_in'));

  return (
    <div className="space-y-4">
      <NotificationBanners />
      {/* grid-cols-1 (minmax(0, 1fr)): a long word in a card wraps instead of widening the phone's page. */}
      <div className="grid grid-cols-1 items-start gap-4 md:grid-cols-2">
        <div className="min-w-0 space-y-4">
          <ActiveTaskCard />
        </div>
        <div className="min-w-0 space-y-4">
          <StatusCard />
          <TimeclockWidget />
          <SwapPanel />
        </div>
      </div>
      <section aria-labelledby="driver-board-title" className="min-w-0">
        <h2 id="driver-board-title" className="mb-2 text-lg font-bold text-slate-900">
          {UI_BOARD.kanban.label}
        </h2>
        <Kanban mode="driver" />
      </section>
    </div>
  );
}
