import { useCallback } from 'react';
import type { Notification } from '@shared/schemas';
import { UI_BOARD } from '@shared/labels';
import { Kanban } from '../../components/board/Kanban';
import { NotificationBanners } from '../../components/NotificationBanners';
import { useActiveTask, useDriver, useDriverFeed } from '../../stores/driver';
import { useTasksFeed } from '../../stores/tasks';
import { useTimeclock, useTimeclockFeed } from '../../stores/timeclock';
import { ActiveTaskCard } from './ActiveTaskCard';
import { ClockInPrompt, NewTaskAlertBar, SoundLockedPrompt } from './DriverAlerts';
import { OfflineIndicator, RefusedActions } from './OfflineStatus';
import { PushPrompt } from './PushPrompt';
import { StatusCard } from './StatusCard';
import { SwapPanel } from './SwapPanel';
import { TimeclockWidget } from './TimeclockWidget';
import { useNewTaskAlert, useTaskAlert } from './useNewTaskAlert';
import { useWakeLock } from './useWakeLock';

/**
 * The banners not shown: CONTRACT §16's stale `task_assigned` one (its task is no longer my active task:
 * completed, returned, taken away; judged only once the active task is known), and the one whose alert
 * is ringing above (one alert for one new task, issue 28).
 */
function useHiddenBanner(): (n: Notification) => boolean {
  const activeId = useActiveTask()?.id ?? null;
  const loaded = useDriver((s) => s.activeLoaded);
  const ringing = useTaskAlert((s) => s.pending?.notificationId);
  return useCallback(
    (n: Notification) =>
      n.id === ringing ||
      (loaded && n.type === 'task_assigned' && n.task_id !== null && n.task_id !== activeId),
    [activeId, loaded, ringing],
  );
}

/**
 * SPEC §2 Driver screen: the unread notifications; 'Mi Tarea Activa' on the left; status, time clock
 * and Swap tasks on the right (stacked on a phone, active task first: it is what the driver must do
 * now); below, the board in driver mode (CONTRACT §5), scoped as GET /tasks is for a conductor.
 * CONTRACT §16: the offline indicator and refused offline actions, a tap to unlock blocked audio, the
 * ringing alert with `Entendido`, and — until the driver clocks in — the prompt to do so with the time
 * clock at the top.
 */
export function DriverView() {
  useDriverFeed();
  useTimeclockFeed();
  useTasksFeed();
  useNewTaskAlert();
  const clock = useTimeclock((s) => s.status?.status);
  useWakeLock(clock === 'clocked_in');
  const needsClockIn = clock !== undefined && clock !== 'clocked_in';
  const hidden = useHiddenBanner();
  const acknowledge = () => {
    if (useTaskAlert.getState().pending) useTaskAlert.getState().acknowledge();
  };

  return (
    <div className="space-y-4">
      <OfflineIndicator />
      <RefusedActions />
      <SoundLockedPrompt />
      <NewTaskAlertBar />
      {needsClockIn && (
        <ClockInPrompt>
          <TimeclockWidget />
        </ClockInPrompt>
      )}
      <NotificationBanners hide={hidden} />
      {/* grid-cols-1 (minmax(0, 1fr)): a long word in a card wraps instead of widening the phone's page. */}
      <div className="grid grid-cols-1 items-start gap-4 md:grid-cols-2">
        {/* Opening the task (any tap on its card) acknowledges the new-task alert. */}
        <div className="min-w-0 space-y-4" onClickCapture={acknowledge} data-testid="active-column">
          <ActiveTaskCard />
        </div>
        <div className="min-w-0 space-y-4">
          {/* A one-time setup: below what the driver must act on now (on a phone, after the task). */}
          <PushPrompt />
          <StatusCard />
          {!needsClockIn && <TimeclockWidget />}
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
