// Accounts waiting for an admin (SPEC §2 approval modal). Live from `users:pending`; polled every
// 3 s only while the socket is down; load errors are only logged (SPEC §8).
import { create } from 'zustand';
import type { PendingUser } from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { api } from '../api';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { onSessionEnd } from './session-end';

interface PendingUsersState {
  users: PendingUser[];
  loaded: boolean;
  load: () => Promise<void>;
  /** Approves or rejects; resolves with the server's message. */
  decide: (userId: string, approved: boolean) => Promise<string>;
}

const initial = { users: [] as PendingUser[], loaded: false };

export const usePendingUsers = create<PendingUsersState>((set) => ({
  ...initial,
  async load() {
    const users = await api.get<PendingUser[]>('/admin/pending-users');
    set({ users, loaded: true });
  },
  async decide(userId, approved) {
    const { message } = await api.post<{ message: string }>('/admin/approve-user', {
      user_id: userId,
      approved,
    });
    set((s) => ({ users: s.users.filter((u) => u.id !== userId) }));
    return message;
  },
}));

onSessionEnd(() => usePendingUsers.setState(initial));

const load = () =>
  void usePendingUsers
    .getState()
    .load()
    .catch((err: unknown) => console.warn('Error al cargar usuarios pendientes', err));

/** Mount once, for admins only. */
export function usePendingUsersFeed(): void {
  useResync(load);
  // The event carries the new count; the list itself (names, dates) is read again.
  useSocketEvent('users:pending', load);
  usePollingFallback(load, POLL_MS.pendingUsers);
}
