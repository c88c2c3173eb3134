import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { Notification, Task, TimeclockStatus } from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { ERR, TOAST, UI_DRIVER } from '@shared/labels';
import { json, mockFetch } from '../../test/http';
import { activeTask, useDriver } from '../../stores/driver';
import { useNotifications } from '../../stores/notifications';
import { useSession } from '../../stores/session';
import { useTimeclock } from '../../stores/timeclock';
import { playAlert, resetAudioForTests, unlockAudioOnFirstGesture, useSound } from '../../sound';
import { makeTask } from '../../test/tasks';
import { clockStatus, DRIVER, makeActive, swapTask } from './test-fixtures';
import { DriverView } from './DriverView';
import { ALERT_MAX_MS, ALERT_REPEAT_MS, useTaskAlert } from './useNewTaskAlert';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock('../../sound', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../sound')>()),
  playAlert: vi.fn(() => true),
}));
// The board has its own tests; here it only matters that the driver screen shows it in driver mode.
vi.mock('../../components/board/Kanban', () => ({
  Kanban: ({ mode }: { mode: string }) => <div data-testid="kanban-stub" data-mode={mode} />,
}));

// The socket layer, scripted: handlers are kept so a test can push an event; polling intervals are recorded.
const live = vi.hoisted(() => ({
  handlers: new Map<string, Set<(p: unknown) => void>>(),
  polls: [] as number[],
  pollFns: [] as (() => void)[],
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
    usePollingFallback: (fn: () => void, ms: number) => {
      live.polls.push(ms);
      live.pollFns.push(fn);
    },
    // The active card's place list (the scan's codes) refreshes on reconnects: none here.
    onResync: () => () => {},
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
  clock?: TimeclockStatus;
}
const CLOCKED_IN = clockStatus({ status: 'clocked_in', can_clock_in: false, can_clock_out: true });
function serve({ active = 404, swap = [], clock = clockStatus() }: Answers = {}) {
  return mockFetch((path) => {
    if (path === '/tasks/my-active')
      return typeof active === 'number'
        ? json(active, { detail: active === 404 ? ERR.noActiveTask : undefined })
        : json(200, active);
    if (path === '/tasks/swap-available')
      return typeof swap === 'number' ? new Response('', { status: swap }) : json(200, swap);
    if (path === '/tasks') return json(200, []);
    if (path === '/timeclock/status') return json(200, clock);
    if (path === '/server-time') return json(200, { madrid_time: '', epoch_ms: Date.now() });
    if (/^\/notifications\/[^/]+\/mark-read$/.test(path)) return json(200, { message: 'ok' });
    return json(404, { detail: 'Recurso no encontrado' });
  });
}

beforeEach(() => {
  localStorage.setItem('torre.token', 't');
  useSession.setState({ user: DRIVER, token: 't', status: 'authenticated' });
  useDriver.setState({ activeId: null, activeLoaded: false, swap: [], swapLoaded: false, failing: [] });
  useTimeclock.setState({ status: null, punching: null, offsetMs: 0 });
  useNotifications.setState({ items: [], loaded: false });
  useTaskAlert.setState({ pending: null });
  live.polls = [];
  live.pollFns = [];
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
    serve({ swap: [swapTask({ trailer_id: 'SW-1' })] });
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
    const task = swapTask({ trailer_id: 'SW-NEW' });
    push('task:created', { task });
    expect(screen.getByText('SW-NEW')).toBeInTheDocument();
    expect(screen.getByTestId('swap-count')).toHaveTextContent('1 disponibles');
    push('task:removed', { id: task.id });
    expect(screen.queryByText('SW-NEW')).not.toBeInTheDocument();
  });
});

describe('driver store: task events', () => {
  beforeEach(() => useDriver.setState({ activeId: null, activeLoaded: true, swap: [], swapLoaded: true }));

  it('ignores a stale event for the active task and clears it when the task moves on', () => {
    const v2 = makeActive({ version: 2, origin: 'Nuevo' });
    useDriver.getState().applyTask(v2);
    useDriver.getState().applyTask({ ...v2, version: 1, origin: 'Viejo' });
    expect(activeTask()?.origin).toBe('Nuevo');
    useDriver.getState().applyTask({ ...v2, version: 3, status: 'finalizada' });
    expect(activeTask()).toBeNull();
  });

  it('does not take another driver’s task as mine', () => {
    useDriver.getState().applyTask(makeActive({ assigned_to: 'd2' }));
    expect(activeTask()).toBeNull();
  });

  it('keeps the swap list to claimable Swap tasks by urgency: high first, then the oldest', () => {
    const old = swapTask({ created_at: '2026-11-22T07:00:00.000Z' });
    const fresh = swapTask({ created_at: '2026-11-22T08:00:00.000Z' });
    const urgent = swapTask({ created_at: '2026-11-22T09:00:00.000Z', priority: 'high' });
    const low = swapTask({ created_at: '2026-11-22T06:00:00.000Z', priority: 'low' });
    const { applyTask } = useDriver.getState();
    applyTask(fresh);
    applyTask(low);
    applyTask(old);
    applyTask(urgent);
    applyTask(makeTask({ vehicle_type: 'semiremolque' })); // not Swap: never in the list
    applyTask(swapTask({ on_hold: true, priority: 'high' })); // held: never in the list
    // CONTRACT §20: past high priority, ties oldest first (low is no step of the rule).
    expect(useDriver.getState().swap.map((t) => t.id)).toEqual([urgent.id, low.id, old.id, fresh.id]);
    applyTask({ ...old, version: 2, status: 'en_proceso', assigned_to: 'd2' });
    expect(useDriver.getState().swap.map((t) => t.id)).toEqual([urgent.id, low.id, fresh.id]);
    useDriver.getState().dropTask(fresh.id);
    applyTask({ ...urgent, version: 2, on_hold: true });
    expect(useDriver.getState().swap.map((t) => t.id)).toEqual([low.id]);
  });

  it('sorts the loaded list by urgency too, leaving held tasks out', async () => {
    const old = swapTask({ created_at: '2026-11-22T07:00:00.000Z' });
    const fresh = swapTask({ created_at: '2026-11-22T08:00:00.000Z' });
    const urgent = swapTask({ created_at: '2026-11-22T09:00:00.000Z', priority: 'high' });
    const held = swapTask({ on_hold: true });
    serve({ swap: [urgent, fresh, held, old].reverse() });
    await useDriver.getState().loadSwap();
    expect(useDriver.getState().swap.map((t) => t.id)).toEqual([urgent.id, old.id, fresh.id]);
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

  describe('repeats until acknowledged (CONTRACT §16)', () => {
    afterEach(() => void vi.useRealTimers());

    /** The screen with notifications loaded, then (under fake timers) a new assignment arriving. */
    async function assigned(task: Task | null = null) {
      serve({ clock: CLOCKED_IN, active: task ?? 404 });
      render(<DriverView />);
      if (task) await screen.findByTestId('active-task');
      act(() => useNotifications.setState({ items: [], loaded: true }));
      vi.useFakeTimers();
      const n = notification({ task_id: task?.id ?? null });
      act(() => useNotifications.getState().received(n));
      expect(playAlert).toHaveBeenCalledTimes(1);
      return n;
    }
    const wait = (ms: number) => act(() => void vi.advanceTimersByTime(ms));

    it('rings again every 10 s, for at most a minute, then the alert goes', async () => {
      const vibrate = vi.fn(() => true);
      vi.stubGlobal('navigator', { ...navigator, vibrate });
      const n = await assigned();
      expect(screen.getByTestId('new-task-alert')).toHaveTextContent(n.message);
      wait(ALERT_REPEAT_MS - 1);
      expect(playAlert).toHaveBeenCalledTimes(1);
      wait(1);
      expect(playAlert).toHaveBeenCalledTimes(2);
      expect(vibrate).toHaveBeenCalledTimes(2);
      wait(ALERT_REPEAT_MS);
      expect(playAlert).toHaveBeenCalledTimes(3);
      // 0, 10, 20, 30, 40, 50 s: six rings within the minute, never more.
      wait(ALERT_MAX_MS);
      expect(playAlert).toHaveBeenCalledTimes(6);
      expect(screen.queryByTestId('new-task-alert')).not.toBeInTheDocument();
      wait(5 * ALERT_MAX_MS);
      expect(playAlert).toHaveBeenCalledTimes(6);
      expect(toast.info).toHaveBeenCalledTimes(1); // one toast; only the sound repeats
    });

    it("one alert for one task: its banner waits while it rings; 'Entendido' stops it and reads it", async () => {
      const n = await assigned();
      expect(screen.queryByTestId('notification-banner')).not.toBeInTheDocument();
      wait(ALERT_REPEAT_MS);
      expect(playAlert).toHaveBeenCalledTimes(2);
      act(() => screen.getByRole('button', { name: UI_DRIVER.alert.acknowledge }).click());
      expect(screen.queryByTestId('new-task-alert')).not.toBeInTheDocument();
      // Read on the server: its banner would say the same thing again.
      expect(screen.queryByTestId('notification-banner')).not.toBeInTheDocument();
      const calls = vi.mocked(fetch).mock.calls.map(([url]) => String(url));
      expect(calls.some((url) => url.endsWith(`/notifications/${n.id}/mark-read`))).toBe(true);
      wait(ALERT_MAX_MS);
      expect(playAlert).toHaveBeenCalledTimes(2);
    });

    it('a minute unanswered: the alert stops ringing and its banner stays as the record', async () => {
      const n = await assigned();
      wait(ALERT_MAX_MS);
      expect(screen.queryByTestId('new-task-alert')).not.toBeInTheDocument();
      expect(screen.getByTestId('notification-banner')).toHaveTextContent(n.message);
    });

    it('opening the task (a tap on its card) acknowledges it', async () => {
      await assigned(makeActive());
      act(() => screen.getByTestId('active-task').click());
      expect(screen.queryByTestId('new-task-alert')).not.toBeInTheDocument();
      wait(ALERT_MAX_MS);
      expect(playAlert).toHaveBeenCalledTimes(1);
    });
  });
});

describe('sound blocked after a reload (CONTRACT §16)', () => {
  afterEach(() => resetAudioForTests());

  it("says 'Toca para activar el sonido' while the browser holds audio back; a tap unlocks it", async () => {
    class FakeAudioContext extends EventTarget {
      state: AudioContextState = 'suspended';
      resume = vi.fn(async () => {
        this.state = 'running';
        this.dispatchEvent(new Event('statechange'));
      });
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    resetAudioForTests();
    unlockAudioOnFirstGesture(); // main.tsx at start: no gesture yet after the reload
    serve({ clock: CLOCKED_IN });
    render(<DriverView />);
    expect(screen.getByRole('button', { name: UI_DRIVER.alert.soundBlocked })).toBeInTheDocument();
    // Muted by the driver: nothing to unlock, no prompt.
    act(() => useSound.setState({ muted: true }));
    expect(screen.queryByTestId('sound-locked')).not.toBeInTheDocument();
    act(() => useSound.setState({ muted: false }));
    expect(screen.getByTestId('sound-locked')).toHaveTextContent(UI_DRIVER.alert.soundBlocked);
    await userEvent.click(screen.getByTestId('sound-locked'));
    await waitFor(() => expect(screen.queryByTestId('sound-locked')).not.toBeInTheDocument());
  });

  it('no prompt when audio already runs', () => {
    class RunningAudioContext extends EventTarget {
      state: AudioContextState = 'running';
      resume = vi.fn(async () => undefined);
    }
    vi.stubGlobal('AudioContext', RunningAudioContext);
    resetAudioForTests();
    unlockAudioOnFirstGesture();
    serve({ clock: CLOCKED_IN });
    render(<DriverView />);
    expect(screen.queryByTestId('sound-locked')).not.toBeInTheDocument();
  });
});

describe('not clocked in (CONTRACT §16)', () => {
  it("says 'Ficha la entrada para recibir tareas' at the top with the Entrada button right there", async () => {
    serve();
    render(<DriverView />);
    const prompt = await screen.findByTestId('clock-in-prompt');
    expect(prompt).toHaveTextContent(A.clockInPrompt);
    // The one Entrada button is inside the prompt (the time clock moved up), not further down.
    const entrada = within(prompt).getByRole('button', { name: UI_DRIVER.timeclock.entrada });
    expect(entrada).toBeEnabled();
    expect(screen.getAllByRole('button', { name: UI_DRIVER.timeclock.entrada })).toHaveLength(1);
    // It comes before the active task card in the page.
    const card = await screen.findByText(A.noneTitle);
    expect(prompt.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('clocked in: no prompt, the time clock back in its column', async () => {
    serve({ clock: CLOCKED_IN });
    render(<DriverView />);
    expect(await screen.findByTestId('timeclock-status')).toHaveTextContent('Trabajando');
    expect(screen.queryByTestId('clock-in-prompt')).not.toBeInTheDocument();
    expect(screen.queryByText(A.clockInPrompt)).not.toBeInTheDocument();
  });
});

describe('stale task_assigned banners (CONTRACT §16)', () => {
  const assignedFor = (task_id: string): Notification => ({
    id: crypto.randomUUID(),
    type: 'task_assigned',
    title: 'Nueva tarea asignada',
    message: `Tarea ${task_id}`,
    is_read: false,
    play_sound: true,
    task_id,
    created_at: new Date().toISOString(),
  });
  const banners = () => screen.queryAllByTestId('notification-banner').map((b) => b.textContent);

  it('keeps the banner of my active task and drops it once the task is completed or gone', async () => {
    const task = makeActive();
    const long = assignedFor('finished-long-ago');
    const mine = assignedFor(task.id);
    const congrats = { ...assignedFor('x'), type: 'congratulations' as const, message: 'Bien hecho' };
    useNotifications.setState({ items: [long, mine, congrats], loaded: true });
    serve({ active: task, clock: CLOCKED_IN });
    render(<DriverView />);
    await screen.findByTestId('active-task');
    await waitFor(() => expect(banners()).toHaveLength(2));
    expect(banners().join()).toContain(mine.message);
    expect(banners().join()).toContain('Bien hecho');
    expect(banners().join()).not.toContain(long.message);

    push('task:updated', { task: { ...task, version: 2, status: 'finalizada' } });
    expect(banners()).toHaveLength(1);
    expect(banners().join()).not.toContain(mine.message);
  });

  it('a returned task drops its banner too', async () => {
    const task = makeActive();
    const mine = assignedFor(task.id);
    useNotifications.setState({ items: [mine], loaded: true });
    serve({ active: task, clock: CLOCKED_IN });
    render(<DriverView />);
    await screen.findByTestId('active-task');
    expect(banners()).toHaveLength(1);
    push('task:updated', {
      task: { ...task, version: 2, status: 'bolsa_trabajo', assigned_to: null, assigned_to_name: null },
    });
    expect(banners()).toHaveLength(0);
  });
});

describe('polling errors while offline (CONTRACT §16)', () => {
  it('toasts once per outage, not at every poll; again after a success and a new outage', async () => {
    let down = true;
    mockFetch((path) => {
      if (down) return json(502, {});
      if (path === '/tasks/my-active') return json(404, { detail: ERR.noActiveTask });
      if (path === '/tasks/swap-available') return json(200, []);
      if (path === '/timeclock/status') return json(200, CLOCKED_IN);
      return json(200, []);
    });
    render(<DriverView />);
    const swapErrors = () =>
      vi.mocked(toast.error).mock.calls.filter(([text]) => text === TOAST.loadSwapError).length;
    await waitFor(() => expect(swapErrors()).toBe(1));
    const polls = [...live.pollFns];
    for (let i = 0; i < 5; i++) {
      act(() => polls.forEach((poll) => poll()));
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(swapErrors()).toBe(1);

    down = false;
    act(() => polls.forEach((poll) => poll()));
    await waitFor(() => expect(useDriver.getState().failing).toEqual([]));
    down = true;
    act(() => polls.forEach((poll) => poll()));
    await waitFor(() => expect(swapErrors()).toBe(2));
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
