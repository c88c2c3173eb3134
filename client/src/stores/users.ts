// The admin's Usuarios table (SPEC §2, CONTRACT §4). Loaded over REST and on every reconnect; kept live
// by `users:changed` (registered, approved, role, types, online) and `users:removed` (a rejection
// removes a row); movement counts follow `drivers:updated`. Polled only while the socket is down.
import { create } from 'zustand';
import { toast } from 'sonner';
import type { Role, VehicleType } from '@shared/enums';
import type {
  AdminUser,
  MessageResponse,
  RankingEntry,
  ResetPasswordResponse,
  SessionInfo,
  UpdateUserInput,
} from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { TOAST } from '@shared/labels';
import { api, ApiError, errorText } from '../api';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { onSessionEnd } from './session-end';

interface UsersState {
  users: AdminUser[];
  loaded: boolean;
  /** The last load failed (the table shows a retry while it has nothing to show). */
  failed: boolean;
  load: () => Promise<void>;
  /** Applies a pushed user: replaces their row, or adds it in name order. */
  received: (user: AdminUser) => void;
  dropped: (userId: string) => void;
  /** `drivers:updated` rankings carry every approved conductor's movements_count. */
  movementsFrom: (rankings: RankingEntry[]) => void;
  changeRole: (userId: string, role: Role) => Promise<string>;
  setTaskTypes: (userId: string, types: VehicleType[]) => Promise<string>;
  remove: (userId: string) => Promise<string>;
  /** PUT /admin/users/{id}: the answer (the updated row) replaces the row at once. */
  update: (userId: string, changes: UpdateUserInput) => Promise<AdminUser>;
  /** A user's open login sessions (CONTRACT §14); not kept here: the sessions dialog holds them. */
  sessions: (userId: string) => Promise<SessionInfo[]>;
  /** Ends one session (a lost phone); resolves with the server's message. */
  endSession: (userId: string, sessionId: string) => Promise<string>;
  /** Resolves with the temporary password (shown once); the server ends all that user's sessions. */
  resetPassword: (userId: string) => Promise<string>;
}

const initial = { users: [] as AdminUser[], loaded: false, failed: false };
// The server lists users by name with the same collation.
const byName = new Intl.Collator('es', { sensitivity: 'base' });

export const useUsers = create<UsersState>((set, get) => ({
  ...initial,
  async load() {
    try {
      const users = await api.get<AdminUser[]>('/admin/users');
      set({ users, loaded: true, failed: false });
    } catch (err) {
      set({ failed: true });
      throw err;
    }
  },
  received(user) {
    set((s) => {
      const old = s.users.find((u) => u.id === user.id);
      const users = old ? s.users.map((u) => (u.id === user.id ? user : u)) : [...s.users, user];
      // A new row, or a renamed one (PUT /admin/users/{id}), takes its place in name order.
      return {
        users: old?.name === user.name ? users : users.sort((a, b) => byName.compare(a.name, b.name)),
      };
    });
  },
  movementsFrom(rankings) {
    const counts = new Map(rankings.map((r) => [r.id, r.movements_count]));
    set((s) => {
      if (!s.users.some((u) => counts.has(u.id) && counts.get(u.id) !== u.movements_count)) return s;
      return {
        users: s.users.map((u) => ({ ...u, movements_count: counts.get(u.id) ?? u.movements_count })),
      };
    });
  },
  async changeRole(userId, role) {
    const { message } = await api.post<MessageResponse>('/admin/update-user-role', {
      user_id: userId,
      new_role: role,
    });
    return message;
  },
  async setTaskTypes(userId, types) {
    const { message } = await api.post<MessageResponse>('/admin/update-user-task-types', {
      user_id: userId,
      task_types: types,
    });
    // `users:changed` brings the row too; applying it now keeps the table right without a socket.
    set((s) => ({ users: s.users.map((u) => (u.id === userId ? { ...u, task_types: types } : u)) }));
    return message;
  },
  dropped(userId) {
    set((s) => ({ users: s.users.filter((u) => u.id !== userId) }));
  },
  async remove(userId) {
    const { message } = await api.del<MessageResponse>(`/admin/delete-user/${userId}`);
    get().dropped(userId);
    return message;
  },
  async update(userId, changes) {
    const user = await api.put<AdminUser>(`/admin/users/${userId}`, changes);
    get().received(user);
    return user;
  },
  sessions: (userId) => api.get<SessionInfo[]>(`/admin/users/${userId}/sessions`),
  async endSession(userId, sessionId) {
    const { message } = await api.del<MessageResponse>(`/admin/users/${userId}/sessions/${sessionId}`);
    return message;
  },
  async resetPassword(userId) {
    const { temporary_password } = await api.post<ResetPasswordResponse>(
      `/admin/users/${userId}/reset-password`,
    );
    return temporary_password;
  },
}));

onSessionEnd(() => useUsers.setState(initial));

// One toast id: a load that keeps failing (fallback polling) replaces its toast instead of stacking.
const LOAD_ERROR_TOAST = 'users-load-error';

/** Loads the list; a failure is toasted (SPEC §8), never thrown. */
export const loadUsers = (): Promise<void> =>
  useUsers
    .getState()
    .load()
    .catch((err: unknown) => {
      if (err instanceof ApiError && err.sessionEnded) return;
      toast.error(errorText(err, TOAST.loadUsersError), { id: LOAD_ERROR_TOAST });
    });
const load = () => void loadUsers();

/** Mount in the Usuarios view: load + resync on reconnect, pushes, SPEC §9 polling while down. */
export function useUsersFeed(): void {
  useResync(load);
  useSocketEvent('users:changed', ({ user }) => useUsers.getState().received(user));
  useSocketEvent('users:removed', ({ id }) => useUsers.getState().dropped(id));
  useSocketEvent('drivers:updated', ({ rankings }) => useUsers.getState().movementsFrom(rankings));
  usePollingFallback(load, POLL_MS.dashboard);
}
