import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { toast } from 'sonner';
import { ERR } from '@shared/labels';
import { REVOKE_MESSAGES } from '@shared/events';
import { useSession } from './stores/session';
import type { FakeSocket } from './test/socket';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const sockets: FakeSocket[] = [];
vi.mock('socket.io-client', async () => {
  const { FakeSocket } = await import('./test/socket');
  return {
    io: (opts: { auth: FakeSocket['auth'] }) => {
      const s = new FakeSocket(opts.auth);
      sockets.push(s);
      return s;
    },
  };
});

const { initRealtime, onEvent, onResync, useLink, usePollingFallback } = await import('./socket');

const user = { id: 'u1', name: 'Ana', email: 'ana@patio.es', role: 'conductor' as const };
function signIn(token: string) {
  localStorage.setItem('torre.token', token);
  localStorage.setItem('torre.user', JSON.stringify(user));
  useSession.setState({ token, user, status: 'authenticated' });
}

let stop: () => void = () => {};
beforeEach(() => {
  sockets.length = 0;
  localStorage.clear();
  useSession.setState({ token: null, user: null, status: 'anonymous' });
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('the live session', () => {
  it('connects after login with the token and disconnects on logout', () => {
    stop = initRealtime();
    expect(sockets).toHaveLength(0);
    act(() => signIn('tok-1'));
    expect(sockets).toHaveLength(1);
    expect(sockets[0].handshakeToken()).toBe('tok-1');
    expect(useLink.getState().state).toBe('connecting');
    act(() => useSession.getState().end());
    expect(sockets[0].disconnect).toHaveBeenCalled();
    expect(useLink.getState().state).toBe('offline');
  });

  it('hands every reconnect the latest refreshed token', () => {
    signIn('tok-1');
    stop = initRealtime();
    localStorage.setItem('torre.token', 'tok-2');
    expect(sockets[0].handshakeToken()).toBe('tok-2');
  });

  it('runs the resync callbacks on every connect and tracks the link state', () => {
    signIn('tok-1');
    stop = initRealtime();
    const resync = vi.fn();
    const off = onResync(resync);
    const s = sockets[0];
    s.fire('connect');
    expect(useLink.getState().state).toBe('online');
    s.fire('disconnect', 'transport close');
    expect(useLink.getState().state).toBe('reconnecting');
    s.fire('connect');
    expect(resync).toHaveBeenCalledTimes(2);
    off();
  });

  it('dispatches server events to subscribers', () => {
    signIn('tok-1');
    stop = initRealtime();
    const handler = vi.fn();
    const off = onEvent('users:pending', handler);
    sockets[0].fire('users:pending', { count: 3 });
    expect(handler).toHaveBeenCalledWith({ count: 3 });
    off();
    sockets[0].fire('users:pending', { count: 4 });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('session:revoked ends the session with a toast of its detail', () => {
    signIn('tok-1');
    stop = initRealtime();
    sockets[0].fire('session:revoked', { reason: 'role_changed', detail: REVOKE_MESSAGES.role_changed });
    expect(toast.error).toHaveBeenCalledWith(REVOKE_MESSAGES.role_changed);
    expect(useSession.getState().status).toBe('anonymous');
    expect(localStorage.getItem('torre.token')).toBeNull();
  });

  it('an expired socket reconnects silently instead of logging out', () => {
    signIn('tok-1');
    stop = initRealtime();
    const s = sockets[0];
    s.fire('connect');
    s.fire('session:revoked', { reason: 'expired', detail: REVOKE_MESSAGES.expired });
    s.fire('disconnect', 'io server disconnect');
    expect(s.connect).toHaveBeenCalledTimes(1);
    expect(useSession.getState().status).toBe('authenticated');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('a refused handshake (No autorizado) ends the session', () => {
    signIn('tok-1');
    stop = initRealtime();
    sockets[0].fire('connect_error', new Error(ERR.unauthorized));
    expect(useSession.getState().status).toBe('anonymous');
  });

  it('an unreachable server only shows the link as reconnecting', () => {
    signIn('tok-1');
    stop = initRealtime();
    sockets[0].fire('connect_error', new Error('xhr poll error'));
    expect(useLink.getState().state).toBe('reconnecting');
    expect(useSession.getState().status).toBe('authenticated');
  });
});

describe('usePollingFallback (SPEC §9 only while the socket is down)', () => {
  it('polls while reconnecting and stops once the link is back', () => {
    vi.useFakeTimers();
    useLink.setState({ state: 'online' });
    const poll = vi.fn();
    renderHook(() => usePollingFallback(poll, 3000));
    act(() => void vi.advanceTimersByTime(10_000));
    expect(poll).not.toHaveBeenCalled();

    act(() => useLink.setState({ state: 'reconnecting' }));
    act(() => void vi.advanceTimersByTime(9_000));
    expect(poll).toHaveBeenCalledTimes(3);

    act(() => useLink.setState({ state: 'online' }));
    act(() => void vi.advanceTimersByTime(9_000));
    expect(poll).toHaveBeenCalledTimes(3);
  });

  it('does not poll when disabled', () => {
    vi.useFakeTimers();
    useLink.setState({ state: 'reconnecting' });
    const poll = vi.fn();
    renderHook(() => usePollingFallback(poll, 1000, false));
    act(() => void vi.advanceTimersByTime(5_000));
    expect(poll).not.toHaveBeenCalled();
  });
});
