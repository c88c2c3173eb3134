import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import type { Notification, Task } from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { ERR, TOAST, UI_DRIVER } from '@shared/labels';
import { json, mockFetch } from '../../test/http';
import { useDriver } from '../../stores/driver';
import { useNotifications } from '../../stores/notifications';
import { useSession } from '../../stores/session';
import { useTimeclock } from '../../stores/timeclock';
import { playAlert } from '../../sound';
import { clockStatus, DRIVER, makeActive, makeTask } from './test-fixtures';
import { DriverView } from './DriverView';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock('../../sound', () => ({ playAlert: vi.fn(() => true) }));
// The board has its own tests; here it only matters that the driver screen shows it in driver mode.
vi.mock('../../components/board/Kanban', () => ({
  Kanban: ({ mode }: { mode: string }) => <div data-testid="kanban-stub" data-mode={mode} />,
}));

// The socket layer, scripted: handlers are kept so a test can push an event; polling intervals are recorded.
const live = vi.hoisted(() => ({
  handlers: new Map<string, Set<(p: unknown) => void>>(),
  polls: [] as number[],
}));
vi.mock('../../socket', async () => {
  const { useEffect } = await import('react');
  return {
    useResync: (load: () => void) =>
      useEffect(() => {
        load();
        // Once per mount, as the real useResync does before any reconnect.
        // eslint-disable-next-line react-hooks/exhaustive-deps
      }, []),
    useSocketEvent: (event: string, handler: (p: unknown) => void) =>
      useEffect(() => {
        let set = live.handlers.get(event);
        if (!set) live.handlers.set(event, (set = new Set()));
        set.add(handler);
        return () => void set.delete(handler);
      }, [event, handler]),
    usePollingFallback: (_fn: () => void, ms: number) => {
      live.polls.push(ms);
    },
  };
});
const push = (event: string, payload: unknown) =>
  act(() => {
    for (const h of live.handlers.get(event) ?? []) h(payload);
  });

const A = UI_DRIVER.activeTask;

interface Answers {
  active?: Task | number;
  swap?: Task[] | number;
}
function serve({ active = 404, swap = [] }: Answers = {}) {
  return mockFetch((path) => {
    if (path === '/tasks/my-active')
      return typeof active === 'number'
        ? json(active, { detail: active === 404 ? ERR.noActiveTask : undefined })
        : json(200, active);
    if (path === '/tasks/swap-available')
      return typeof swap === 'number' ? new Response('', { status: swap }) : json(200, swap);
    if (path === '/tasks') return json(200, []);
    if (path === '/timeclock/status') return json(200, clockStatus());
    if (path === '/server-time') return json(200, { madrid_time: '', epoch_ms: Date.now() });
    return json(404, { detail: 'Recurso no encontrado' });
  });
}

beforeEach(() => {
  localStorage.setItem('torre.token', 't');
  useSession.setState({ user: DRIVER, token: 't', status: 'authenticated' });
  useDriver.setState({ active: null, activeLoaded: false, swap: [], swapLoaded: false });
  useTimeclock.setState({ status: null, punching: null, offsetMs: 0 });
  useNotifications.setState({ items: [], loaded: false });
  live.polls = [];
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.info).mockClear();
  vi.mocked(playAlert).mockClear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('driver screen feeds', () => {
  it('loads everything; a 404 active task is no task, silently', async () => {
    serve({ swap: [makeTask({ trailer_id: 'SW-1' })] });
    render(<DriverView />);
    expect(await screen.findByText(A.noneTitle)).toBeInTheDocument();
    expect(await screen.findByText('SW-1')).toBeInTheDocument();
    expect(await screen.findByTestId('timeclock-status')).toHaveTextContent('Sin fichar');
    expect(screen.getByTestId('driver-status')).toHaveTextContent(DRIVER.name);
    expect(screen.getByTestId('driver-status')).toHaveTextContent('Online');
    expect(screen.getByTestId('driver-status')).toHaveTextContent('Activo');
    expect(screen.getByTestId('kanban-stub')).toHaveAttribute('data-mode', 'driver');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('polls only through the fallback hook, at the SPEC §9 intervals', () => {
    serve();
    render(<DriverView />);
    expect(live.polls).toEqual(
      expect.arrayContaining([POLL_MS.activeTask, POLL_MS.swapTasks, POLL_MS.timeclockStatus]),
    );
  });

  it('shows the loading errors of SPEC §8', async () => {
    serve({ active: 502, swap: 502 });
    render(<DriverView />);
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(TOAST.loadActiveTaskError, { id: TOAST.loadActiveTaskError }),
    );
    expect(toast.error).toHaveBeenCalledWith(TOAST.loadSwapError, { id: TOAST.loadSwapError });
  });

  it('a 401 is silent', async () => {
    const fetch = serve({ active: 401, swap: 401 });
    render(<DriverView />);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(5));
    await act(() => Promise.resolve());
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('an assignment pushed over the socket becomes the active task without reloading', async () => {
    serve();
    render(<DriverView />);
    await screen.findByText(A.noneTitle);
    const task = makeActive({ trailer_id: 'LIVE-1' });
    push('task:updated', { task });
    expect(screen.getByTestId('active-trailer')).toHaveTextContent('LIVE-1');
    // Staff reassigned it: it leaves this driver's view.
    push('task:removed', { id: task.id });
    expect(screen.getByText(A.noneTitle)).toBeInTheDocument();
  });

  it('a Swap task published meanwhile appears in the list; claimed by another it goes', async () => {
    serve();
    render(<DriverView />);
    await screen.findByText(UI_DRIVER.swap.emptyTitle);
    const task = makeTask({ trailer_id: 'SW-NEW' });
    push('task:created', { task });
    expect(screen.getByText('SW-NEW')).toBeInTheDocument();
    expect(screen.getByTestId('swap-count')).toHaveTextContent('1 disponibles');
    push('task:removed', { id: task.id });
    expect(screen.queryByText('SW-NEW')).not.toBeInTheDocument();
  });
});

describe('driver store: task events', () => {
  beforeEach(() => useDriver.setState({ active: null, activeLoaded: true, swap: [], swapLoaded: true }));

  it('ignores a stale event for the active task and clears it when the task moves on', () => {
    const v2 = makeActive({ version: 2, origin: 'Nuevo' });
    useDriver.getState().applyTask(v2);
    useDriver.getState().applyTask({ ...v2, version: 1, origin: 'Viejo' });
    expect(useDriver.getState().active?.origin).toBe('Nuevo');
    useDriver.getState().applyTask({ ...v2, version: 3, status: 'finalizada' });
    expect(useDriver.getState().active).toBeNull();
  });

  it('does not take another driver’s task as mine', () => {
    useDriver.getState().applyTask(makeActive({ assigned_to: 'd2' }));
    expect(useDriver.getState().active).toBeNull();
  });

  it('keeps the swap list to claimable Swap tasks, newest first', () => {
    const old = makeTask({ created_at: '2026-11-22T07:00:00.000Z' });
    const fresh = makeTask({ created_at: '2026-11-22T08:00:00.000Z' });
    const { applyTask } = useDriver.getState();
    applyTask(old);
    applyTask(fresh);
    applyTask(makeTask({ vehicle_type: 'semiremolque' }));
    expect(useDriver.getState().swap.map((t) => t.id)).toEqual([fresh.id, old.id]);
    applyTask({ ...old, version: 2, status: 'en_proceso', assigned_to: 'd2' });
    expect(useDriver.getState().swap.map((t) => t.id)).toEqual([fresh.id]);
    useDriver.getState().dropTask(fresh.id);
    expect(useDriver.getState().swap).toEqual([]);
  });
});

describe('new task alert (SPEC §4)', () => {
  const notification = (over: Partial<Notification> = {}): Notification => ({
    id: crypto.randomUUID(),
    type: 'task_assigned',
    title: 'Nueva tarea asignada',
    message: 'Mover remolque R-1: Muelle 3 → Campa',
    is_read: false,
    play_sound: true,
    task_id: null,
    created_at: new Date().toISOString(),
    ...over,
  });

  it('rings, vibrates and toasts for a new unread task_assigned after the first load — once', async () => {
    const vibrate = vi.fn(() => true);
    vi.stubGlobal('navigator', { ...navigator, vibrate });
    serve();
    render(<DriverView />);
    // Already there at the first load: silent.
    act(() => useNotifications.setState({ items: [notification()], loaded: true }));
    expect(playAlert).not.toHaveBeenCalled();

    const fresh = notification();
    act(() => useNotifications.getState().received(fresh));
    expect(playAlert).toHaveBeenCalledTimes(1);
    expect(vibrate).toHaveBeenCalledTimes(1);
    expect(toast.info).toHaveBeenCalledWith(TOAST.newTaskAssigned, { description: fresh.message });

    // The same notification again (a poll re-reading the list) does not ring twice.
    act(() => useNotifications.setState((s) => ({ items: [...s.items] })));
    act(() => useNotifications.getState().received(fresh));
    expect(playAlert).toHaveBeenCalledTimes(1);
  });

  it('stays quiet for other notifications, read ones and ones without play_sound', () => {
    serve();
    render(<DriverView />);
    act(() => useNotifications.setState({ items: [], loaded: true }));
    act(() => useNotifications.getState().received(notification({ type: 'congratulations' })));
    act(() => useNotifications.getState().received(notification({ play_sound: false })));
    act(() => useNotifications.getState().received(notification({ is_read: true })));
    expect(playAlert).not.toHaveBeenCalled();
    expect(toast.info).not.toHaveBeenCalled();
  });

  it('does not ring for what arrives before the first load', () => {
    serve();
    render(<DriverView />);
    act(() => useNotifications.getState().received(notification()));
    expect(playAlert).not.toHaveBeenCalled();
  });
});

describe('screen wake lock', () => {
  it('holds the screen awake while clocked in and asks again when the page is visible again', async () => {
    const sentinels: { released: boolean; release: () => Promise<void> }[] = [];
    const request = vi.fn(async () => {
      const s = {
        released: false,
        release: vi.fn(async () => {
          s.released = true;
        }),
      };
      sentinels.push(s);
      return s;
    });
    vi.stubGlobal('navigator', { ...navigator, wakeLock: { request } });
    serve();
    render(<DriverView />);
    expect(await screen.findByTestId('timeclock-status')).toHaveTextContent('Sin fichar');
    expect(request).not.toHaveBeenCalled();

    act(() => useTimeclock.getState().received(clockStatus({ status: 'clocked_in' })));
    await waitFor(() => expect(request).toHaveBeenCalledWith('screen'));

    // The browser drops the lock when the page is hidden; coming back asks again.
    sentinels[0].released = true;
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(2));

    act(() => useTimeclock.getState().received(clockStatus({ status: 'clocked_out' })));
    await waitFor(() => expect(sentinels[1].release).toHaveBeenCalled());
  });
});
