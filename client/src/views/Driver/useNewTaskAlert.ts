import { useEffect } from 'react';
import { create } from 'zustand';
import { toast } from 'sonner';
import type { Notification } from '@shared/schemas';
import { TOAST } from '@shared/labels';
import { ALERT_VIBRATION_MS } from '@shared/constants';
import { playAlert } from '../../sound';
import { useNotifications } from '../../stores/notifications';

/** CONTRACT §16: the alert repeats every 10 s until acknowledged, for at most a minute. */
export const ALERT_REPEAT_MS = 10_000;
export const ALERT_MAX_MS = 60_000;

const isNewAssignment = (n: Notification) => n.type === 'task_assigned' && n.play_sound && !n.is_read;

interface PendingAlert {
  notificationId: string;
  taskId: string | null;
  message: string;
}

interface TaskAlertState {
  /** The assignment still ringing; null once acknowledged, after the minute, or when none. */
  pending: PendingAlert | null;
  /**
   * `Entendido`, or the driver opened the task: stops the repeats and marks the notification read — its
   * banner says the same thing, and the screen shows one alert at a time (issue 28).
   */
  acknowledge: () => void;
}

export const useTaskAlert = create<TaskAlertState>((set, get) => ({
  pending: null,
  acknowledge: () => {
    const pending = get().pending;
    set({ pending: null });
    // Offline, the banner comes back and the driver may dismiss it later.
    if (pending)
      useNotifications
        .getState()
        .dismiss(pending.notificationId)
        .catch(() => undefined);
  },
}));

function ring(): void {
  playAlert();
  navigator.vibrate?.([...ALERT_VIBRATION_MS]);
}

/**
 * SPEC §4 + CONTRACT §16: once the notifications have been loaded, a NEW unread `task_assigned`
 * notification with `play_sound` plays the alert (muted by the header's volume control), vibrates where
 * the phone can and toasts 'Nueva tarea asignada'; then it rings again every 10 s until the driver
 * acknowledges it, for at most a minute. It watches the list itself, so a notification pushed over the
 * socket and one found by the fallback polling both ring, and each one starts the alert once.
 */
export function useNewTaskAlert(): void {
  useEffect(() => {
    let seen: Set<string> | null = null;
    let repeat: ReturnType<typeof setInterval> | null = null;
    const stop = () => {
      if (repeat) clearInterval(repeat);
      repeat = null;
    };
    const check = ({ items, loaded }: { items: Notification[]; loaded: boolean }) => {
      if (!loaded) {
        seen = null;
        return;
      }
      if (!seen) {
        seen = new Set(items.map((n) => n.id));
        return;
      }
      const fresh = items.filter((n) => !seen!.has(n.id));
      for (const n of fresh) seen.add(n.id);
      const assigned = fresh.find(isNewAssignment);
      if (!assigned) return;
      ring();
      toast.info(TOAST.newTaskAssigned, { description: assigned.message });
      useTaskAlert.setState({
        pending: { notificationId: assigned.id, taskId: assigned.task_id, message: assigned.message },
      });
      stop();
      const started = Date.now();
      repeat = setInterval(() => {
        const { pending } = useTaskAlert.getState();
        if (pending?.notificationId !== assigned.id) return stop();
        if (Date.now() - started >= ALERT_MAX_MS) {
          stop();
          return useTaskAlert.setState({ pending: null });
        }
        ring();
      }, ALERT_REPEAT_MS);
    };
    check(useNotifications.getState());
    const unsubscribe = useNotifications.subscribe(check);
    // Acknowledged: no more repeats.
    const unsubscribeAck = useTaskAlert.subscribe((s) => !s.pending && stop());
    return () => {
      unsubscribe();
      unsubscribeAck();
      stop();
      useTaskAlert.setState({ pending: null });
    };
  }, []);
}
