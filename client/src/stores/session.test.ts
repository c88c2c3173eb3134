import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERR } from '@shared/labels';
import { api, ApiError } from '../api';
import { json, mockFetch } from '../test/http';
import { useNotifications } from './notifications';
import { useSession } from './session';

const user = { id: 'u1', name: 'Ana', email: 'ana@patio.es', role: 'gestor' as const };

function signIn(token = 'tok-1') {
  localStorage.setItem('torre.token', token);
  localStorage.setItem('torre.user', JSON.stringify(user));
  useSession.setState({ token, user, status: 'authenticated' });
}

beforeEach(() => {
  localStorage.clear();
  window.history.pushState({}, '', '/dashboard');
  useSession.setState({ token: null, user: null, status: 'anonymous' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SPEC §4: a 401/403 anywhere ends the session', () => {
  it('clears the stored token and user on a 401 and marks the error as silent', async () => {
    signIn();
    mockFetch(() => json(401, { detail: ERR.sessionRevoked }));
    const err = await api.get('/tasks').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, detail: ERR.sessionRevoked, sessionEnded: true });
    expect(useSession.getState()).toMatchObject({ status: 'anonymous', token: null, user: null });
    expect(localStorage.getItem('torre.token')).toBeNull();
    expect(localStorage.getItem('torre.user')).toBeNull();
  });

  it('ends it on a 403 too', async () => {
    signIn();
    mockFetch(() => json(403, { detail: ERR.forbidden }));
    await expect(api.get('/admin/users')).rejects.toMatchObject({ status: 403, sessionEnded: true });
    expect(useSession.getState().status).toBe('anonymous');
  });

  it('keeps the session on other errors', async () => {
    signIn();
    mockFetch(() => json(409, { detail: ERR.alreadyAssigned }));
    await expect(api.post('/tasks/x/self-assign')).rejects.toMatchObject({
      status: 409,
      sessionEnded: false,
    });
    expect(useSession.getState().status).toBe('authenticated');
    expect(localStorage.getItem('torre.token')).toBe('tok-1');
  });

  it('does not end anything on the login screen', async () => {
    signIn();
    window.history.pushState({}, '', '/login');
    mockFetch(() => json(401, { detail: ERR.unauthorized }));
    await expect(api.get('/dashboard/stats')).rejects.toMatchObject({ status: 401, sessionEnded: false });
    expect(localStorage.getItem('torre.token')).toBe('tok-1');
  });

  it('forgets the data of other stores when the session ends', async () => {
    signIn();
    useNotifications.setState({
      loaded: true,
      items: [
        {
          id: 'n1',
          type: 'info',
          title: 't',
          message: 'm',
          is_read: false,
          play_sound: false,
          task_id: null,
          created_at: new Date().toISOString(),
        },
      ],
    });
    mockFetch(() => json(401, { detail: ERR.sessionRevoked }));
    await api.get('/tasks').catch(() => undefined);
    expect(useNotifications.getState()).toMatchObject({ items: [], loaded: false });
  });

  it('sends the stored token as a bearer header', async () => {
    signIn('tok-xyz');
    const fetch = mockFetch(() => json(200, []));
    await api.get('/tasks', { q: 'a b', skip: null });
    const [url, init] = fetch.mock.calls[0];
    expect(String(url)).toBe('/api/tasks?q=a+b');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok-xyz');
  });
});

describe('start-up validation (SPEC §2)', () => {
  it('validates a stored session with GET /dashboard/stats', async () => {
    signIn();
    useSession.setState({ status: 'checking' });
    const fetch = mockFetch(() => json(200, {}));
    await useSession.getState().validate();
    expect(fetch.mock.calls[0][0]).toBe('/api/dashboard/stats');
    expect(useSession.getState().status).toBe('authenticated');
  });

  it('clears a refused session, even on the login path', async () => {
    signIn();
    window.history.pushState({}, '', '/login');
    useSession.setState({ status: 'checking' });
    mockFetch(() => json(401, { detail: ERR.sessionRevoked }));
    await useSession.getState().validate();
    expect(useSession.getState()).toMatchObject({ status: 'anonymous', token: null });
    expect(localStorage.getItem('torre.token')).toBeNull();
  });

  it('keeps the session when the server cannot be reached', async () => {
    signIn();
    useSession.setState({ status: 'checking' });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await useSession.getState().validate();
    expect(useSession.getState().status).toBe('authenticated');
    expect(localStorage.getItem('torre.token')).toBe('tok-1');
  });
});

describe('logout and refresh', () => {
  it('clears the local session even when the server call fails, and only logs it', async () => {
    signIn();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const fetch = mockFetch(() => json(500, { detail: ERR.internal }));
    await useSession.getState().logout();
    expect(fetch.mock.calls[0][0]).toBe('/api/auth/logout');
    expect(warn).toHaveBeenCalled();
    expect(useSession.getState().status).toBe('anonymous');
    expect(localStorage.getItem('torre.token')).toBeNull();
  });

  it('stores the refreshed token', async () => {
    signIn();
    mockFetch(() => json(200, { access_token: 'tok-2' }));
    await useSession.getState().refreshToken();
    expect(useSession.getState().token).toBe('tok-2');
    expect(localStorage.getItem('torre.token')).toBe('tok-2');
  });
});
