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

/** The part of the service worker's `clients` that a tap on a notification uses. */
export interface WindowClients {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly AppWindow[]>;
  openWindow(url: string): Promise<unknown>;
}
export interface AppWindow {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}

/**
 * A tap on the notification: the app's open window comes to the front (on the driver's screen), else a
 * new one opens there.
 */
export async function openApp(clients: WindowClients, data: unknown, origin: string): Promise<void> {
  const path = (data as { url?: unknown } | null)?.url;
  const url = new URL(typeof path === 'string' ? path : PUSH_OPEN_PATH, origin).href;
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === origin);
  if (!open) {
    await clients.openWindow(url);
    return;
  }
  await open.focus();
  if (new URL(open.url).pathname !== new URL(url).pathname) await open.navigate(url);
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
