// What the service worker shows for a Web Push (CONTRACT §16): kept apart from sw.ts so it is testable
// outside a worker. The server's payload is `{type, task_id, title, body}`; anything else (a push from an
// older server, a broken body) still shows a generic notice, because Chrome requires every push to show one.
import type { PushPayload } from '@shared/schemas';
import { ALERT_VIBRATION_MS, PUSH_OPEN_PATH } from '@shared/constants';
import { PUSH_NOTICE } from '@shared/labels';

export interface NotificationSpec {
  title: string;
  options: NotificationOptions & { vibrate: number[]; renotify: boolean };
}

function parse(text: string | null): Partial<PushPayload> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Partial<PushPayload>) : {};
  } catch {
    return {};
  }
}

/** The notification for a push body (its text): vibrates, one per task (tag), opens the driver's screen. */
export function notificationFor(text: string | null): NotificationSpec {
  const payload = parse(text);
  const title =
    typeof payload.title === 'string' && payload.title ? payload.title : PUSH_NOTICE.fallbackTitle;
  const body = typeof payload.body === 'string' ? payload.body : '';
  const taskId = typeof payload.task_id === 'string' ? payload.task_id : null;
  return {
    title,
    options: {
      body,
      tag: taskId ? `task-${taskId}` : 'torre',
      // A second push for the same task rings again instead of replacing the first in silence.
      renotify: true,
      requireInteraction: payload.type === 'task_assigned',
      vibrate: [...ALERT_VIBRATION_MS],
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      lang: 'es-ES',
      data: { url: PUSH_OPEN_PATH, task_id: taskId, type: payload.type ?? null },
    },
  };
}
