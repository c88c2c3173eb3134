// The user's notifications (SPEC §4): loaded over REST, new ones pushed by `notification:new`, ones
// read elsewhere by `notifications:read`.
// The header shows the unread count; the board and driver views show banners from the same list.
import { create } from 'zustand';
import type { Notification } from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { api } from '../api';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { onSessionEnd } from './session-end';

interface NotificationsState {
  items: Notification[];
  /** True after the first successful load (the driver's new-task sound waits for it, SPEC §4). */
  loaded: boolean;
  load: () => Promise<void>;
  received: (n: Notification) => void;
  /** `notifications:read`: read elsewhere (a pending account another admin decided on). */
  readElsewhere: (ids: string[]) => void;
  /** Marks read (optimistically; restored if the server refuses). */
  markRead: (id: string) => Promise<void>;
  /** A banner's dismiss (SPEC §4): marked read and taken off the list; put back if the server refuses. */
  dismiss: (id: string) => Promise<void>;
}

const initial = { items: [] as Notification[], loaded: false };

export const useNotifications = create<NotificationsState>((set, get) => ({
  ...initial,
  async load() {
    const items = await api.get<Notification[]>('/notifications');
    set({ items, loaded: true });
  },
  received(n) {
    set((s) => ({ items: [n, ...s.items.filter((i) => i.id !== n.id)] }));
  },
  readElsewhere(ids) {
    const read = new Set(ids);
    set((s) => ({ items: s.items.map((n) => (read.has(n.id) ? { ...n, is_read: true } : n)) }));
  },
  async markRead(id) {
    const before = get().items;
    set({ items: before.map((n) => (n.id === id ? { ...n, is_read: true } : n)) });
    try {
      await api.post(`/notifications/${id}/mark-read`);
    } catch (err) {
      set((s) => ({ items: s.items.map((n) => (n.id === id ? { ...n, is_read: false } : n)) }));
      throw err;
    }
  },
  async dismiss(id) {
    const gone = get().items.find((n) => n.id === id);
    if (!gone) return;
    set((s) => ({ items: s.items.filter((n) => n.id !== id) }));
    try {
      await api.post(`/notifications/${id}/mark-read`);
    } catch (err) {
      set((s) =>
        s.items.some((n) => n.id === id)
          ? s
          : { items: [gone, ...s.items].sort((a, b) => b.created_at.localeCompare(a.created_at)) },
      );
      throw err;
    }
  },
}));

export const selectUnread = (s: NotificationsState): Notification[] => s.items.filter((n) => !n.is_read);

onSessionEnd(() => useNotifications.setState(initial));

const logError = (err: unknown) => console.warn('Error al cargar notificaciones', err);

/** Keeps the list live: load + resync on connect, pushes, SPEC §9 polling while the socket is down. */
export function useNotificationsFeed(): void {
  const load = () => void useNotifications.getState().load().catch(logError);
  useResync(load);
  useSocketEvent('notification:new', ({ notification }) =>
    useNotifications.getState().received(notification),
  );
  useSocketEvent('notifications:read', ({ ids }) => useNotifications.getState().readElsewhere(ids));
  usePollingFallback(load, POLL_MS.dashboard);
}
