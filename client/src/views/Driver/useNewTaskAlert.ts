import { useEffect } from 'react';
import { toast } from 'sonner';
import type { Notification } from '@shared/schemas';
import { TOAST } from '@shared/labels';
import { playAlert } from '../../sound';
import { useNotifications } from '../../stores/notifications';

/** Two long buzzes: felt in a pocket over a diesel engine. */
const VIBRATION_PATTERN = [400, 150, 400];

const isNewAssignment = (n: Notification) => n.type === 'task_assigned' && n.play_sound && !n.is_read;

/**
 * SPEC §4: once the notifications have been loaded, a NEW unread `task_assigned` notification with
 * `play_sound` plays the alert (muted by the header's volume control), vibrates where the phone can
 * and toasts 'Nueva tarea asignada'. It watches the list itself, so a notification pushed over the
 * socket and one found by the fallback polling both ring, and each one rings once.
 */
export function useNewTaskAlert(): void {
  useEffect(() => {
    let seen: Set<string> | null = null;
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
      playAlert();
      navigator.vibrate?.(VIBRATION_PATTERN);
      toast.info(TOAST.newTaskAssigned, { description: assigned.message });
    };
    check(useNotifications.getState());
    return useNotifications.subscribe(check);
  }, []);
}
