// Who is logged in. The token and user live in local storage (SPEC §7) and mirror here; the route
// guards and the socket follow `status`. SPEC §2: a stored session is validated on start through
// GET /dashboard/stats, and forgotten when the server refuses it.
// CONTRACT §14: a login answered `password_change_required` is not a session yet: its token (only
// good for POST /auth/change-password) stays in memory in `passwordChange`, the status stays
// 'anonymous' (so no socket, no dashboard) until the change answers like a login.
import { create } from 'zustand';
import type {
  AuthResponse,
  ChangePasswordInput,
  DashboardStats,
  LoginInput,
  RegisterInput,
  SessionUser,
} from '@shared/schemas';
import { api, ApiError, setSessionEndedHandler } from '../api';
import { clearStoredSession, getStoredToken, getStoredUser, storeSession, storeToken } from '../storage';
import { resetSessionStores, runBeforeLogout } from './session-end';

export type SessionStatus = 'checking' | 'authenticated' | 'anonymous';

/** A login that must change its password first (CONTRACT §14). Memory only, never stored. */
export interface PasswordChange {
  token: string;
  user: SessionUser;
  /** The temporary password just typed: the change's `current_password`. */
  currentPassword: string;
}

interface SessionState {
  token: string | null;
  user: SessionUser | null;
  status: SessionStatus;
  /** Set while a login waits for its password change; the login screen shows the change form. */
  passwordChange: PasswordChange | null;
  /**
   * Logs in; a refused login throws ApiError (403 + 'pendiente de aprobación' for a pending account).
   * `password_change_required` sets `passwordChange` instead of logging in.
   */
  login: (input: LoginInput) => Promise<AuthResponse>;
  /**
   * POST /auth/change-password with the pending change's token (else the session's); the answer
   * logs in. A 401 (that token was revoked or expired meanwhile) drops the pending change.
   */
  changePassword: (input: ChangePasswordInput) => Promise<AuthResponse>;
  /** Back to the login form without changing the password. */
  cancelPasswordChange: () => void;
  /** The admin edited their own name or email in Usuarios: the header follows. */
  updateUser: (changes: Partial<Pick<SessionUser, 'name' | 'email'>>) => void;
  /** Registers; the answer's status is 'pending_approval' until an admin approves the account. */
  register: (input: RegisterInput) => Promise<AuthResponse>;
  /** Tells the server (a failure is only logged, SPEC §4) and forgets the session. */
  logout: () => Promise<void>;
  /** Start-up check of a stored session. */
  validate: () => Promise<void>;
  /** CONTRACT §4: a fresh 12 h token; the socket's next handshake uses it. */
  refreshToken: () => Promise<void>;
  /** Forgets the session locally (revoked, 401/403) and resets every session store. */
  end: () => void;
}

const storedToken = getStoredToken();
let validating: Promise<void> | null = null;
const storedUser = getStoredUser();

export const useSession = create<SessionState>((set, get) => ({
  token: storedToken && storedUser ? storedToken : null,
  user: storedToken ? storedUser : null,
  status: storedToken && storedUser ? 'checking' : 'anonymous',
  passwordChange: null,

  async login(input) {
    const res = await api.post<AuthResponse>('/auth/login', input);
    if (res.status === 'password_change_required' && res.access_token)
      set({ passwordChange: { token: res.access_token, user: res.user, currentPassword: input.password } });
    else if (res.access_token) adopt(res.access_token, res.user);
    return res;
  },

  async changePassword(input) {
    const pending = get().passwordChange;
    try {
      const res = await api.post<AuthResponse>(
        '/auth/change-password',
        input,
        undefined,
        pending ? { token: pending.token } : undefined,
      );
      if (res.status === 'approved' && res.access_token) adopt(res.access_token, res.user);
      else set({ passwordChange: null });
      return res;
    } catch (err) {
      if (pending && err instanceof ApiError && err.status === 401) set({ passwordChange: null });
      throw err;
    }
  },

  cancelPasswordChange() {
    set({ passwordChange: null });
  },

  updateUser(changes) {
    const { token, user } = get();
    if (!token || !user) return;
    const next = { ...user, ...changes };
    storeSession(token, next);
    set({ user: next });
  },

  async register(input) {
    const res = await api.post<AuthResponse>('/auth/register', input);
    if (res.status === 'approved' && res.access_token) adopt(res.access_token, res.user);
    return res;
  },

  async logout() {
    await runBeforeLogout();
    try {
      await api.post('/auth/logout');
    } catch (err) {
      console.warn('Fallo al cerrar sesión en el servidor', err);
    }
    get().end();
  },

  validate() {
    validating ??= (async () => {
      if (!get().token) return get().end();
      try {
        await api.get<DashboardStats>('/dashboard/stats');
        set({ status: 'authenticated' });
      } catch (err) {
        // A server that cannot be reached has not refused the session: keep it, the link will retry.
        if (err instanceof ApiError && err.status === 0) set({ status: 'authenticated' });
        else get().end();
      }
    })().finally(() => {
      validating = null;
    });
    return validating;
  },

  async refreshToken() {
    if (!get().token) return;
    try {
      const { access_token } = await api.post<{ access_token: string }>('/auth/refresh');
      storeToken(access_token);
      set({ token: access_token });
    } catch (err) {
      // A 401 has already ended the session (api.ts); anything else is retried at the next tick.
      console.warn('No se pudo renovar el token', err);
    }
  },

  end() {
    clearStoredSession();
    if (get().passwordChange) set({ passwordChange: null });
    if (get().status !== 'anonymous' || get().token) {
      const userId = get().user?.id ?? null;
      set({ token: null, user: null, status: 'anonymous' });
      resetSessionStores(userId);
    }
  },
}));

function adopt(token: string, user: SessionUser): void {
  storeSession(token, user);
  useSession.setState({ token, user, status: 'authenticated', passwordChange: null });
}

setSessionEndedHandler(() => useSession.getState().end());
