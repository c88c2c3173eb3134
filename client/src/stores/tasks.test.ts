// The board's stores against a scripted server and a fake socket (CONTRACT §9): a REST resync on every
// (re)connect replaces the state; stale versions are ignored; task:removed drops a card; the SPEC §9
// polling runs only while the socket is down; a refused move is rolled back.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { DashboardStats, Task } from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { ERR } from '@shared/labels';
import { json, mockFetch, sentBody } from '../test/http';
import { makeTask as task } from '../test/tasks';
import { useSession } from './session';
import type { FakeSocket } from '../test/socket';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

let socket: FakeSocket;
vi.mock('socket.io-client', async () => {
  const { FakeSocket } = await import('../test/socket');
  return { io: () => (socket = new FakeSocket()) };
});

const { initRealtime } = await import('../socket');
const { selectColumn, useTasks, useTasksFeed } = await import('./tasks');
const { useStats, useStatsFeed } = await import('./stats');
const { useDrivers, useDriversFeed } = await import('./drivers');

const stats = (pool: number): DashboardStats => ({
  bolsa_trabajo: pool,
  en_proceso: 0,
  finalizada: 0,
  online_drivers: 2,
  available_drivers: 1,
  busy_drivers: 0,
  pending_users: 0,
  workload_alert: {
    status: 'normal',
    since: '2026-01-01T08:00:00.000Z',
    severity: 0,
    message: 'Todo en orden',
    recommendations: [],
    metrics: { pending_tasks: pool, available_drivers: 1, busy_drivers: 0, driver_utilization: 0 },
  },
});

/** What GET /tasks answers now; tests change it between calls. */
let serverTasks: Task[] = [];
let fetchMock: ReturnType<typeof mockFetch>;
const tasksCalls = () =>
  fetchMock.mock.calls.filter(
    ([u, init]) => String(u).endsWith('/api/tasks') && !init?.method?.match(/PUT|POST|DELETE/),
  ).length;
const ids = () => Object.keys(useTasks.getState().byId).sort();
/** The path and JSON body of the latest PUT sent. */
const lastPut = () => {
  const [u, init] = fetchMock.mock.calls.findLast(([, i]) => i?.method === 'PUT')!;
  return { url: new URL(String(u), 'http://localhost').pathname, body: JSON.parse(String(init?.body)) };
};
const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });

let stop = () => {};
beforeEach(() => {
  localStorage.setItem('torre.token', 'tok');
  useSession.setState({
    token: 'tok',
    user: { id: 'me', name: 'Yo', email: 'yo@patio.es', role: 'admin' },
    status: 'authenticated',
  });
  useTasks.getState().reset();
  serverTasks = [];
  fetchMock = mockFetch((path, init) => {
    if (path === '/tasks' && (init.method ?? 'GET') === 'GET') return json(200, serverTasks);
    if (path === '/dashboard/stats') return json(200, stats(serverTasks.length));
    if (path === '/dashboard/online-drivers')
      return json(200, [{ id: 'd1', name: 'Lucía', movements_count: 3 }]);
    if (path === '/dashboard/rankings')
      return json(200, [{ id: 'd1', name: 'Lucía', is_online: true, movements_count: 3 }]);
    return json(404, { detail: 'no' });
  });
  stop = initRealtime();
});
afterEach(() => {
  cleanup();
  stop();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function mountFeeds() {
  return renderHook(() => {
    useTasksFeed();
    useStatsFeed();
    useDriversFeed();
  });
}

describe('resync', () => {
  it('loads on connect and replaces the whole state on every reconnect', async () => {
    const a = task();
    const b = task();
    serverTasks = [a, b];
    mountFeeds();
    await act(async () => socket.fire('connect'));
    await flush();
    expect(ids()).toEqual([a.id, b.id].sort());
    expect(useStats.getState().stats?.bolsa_trabajo).toBe(2);
    expect(useDrivers.getState().online).toHaveLength(1);

    // While the link was down, a was deleted, b moved and c was created: the resync shows exactly that.
    const b2 = { ...b, status: 'en_proceso' as const, assigned_to: 'd1', version: 2 };
    const c = task();
    serverTasks = [b2, c];
    await act(async () => socket.fire('disconnect'));
    await act(async () => socket.fire('connect'));
    await flush();
    expect(ids()).toEqual([b.id, c.id].sort());
    expect(useTasks.getState().byId[b.id]).toEqual(b2);
  });

  it('keeps what an event changed while the resync request was out', async () => {
    const a = task({ version: 4 });
    const gone = task();
    let answer!: (r: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (answer = r)));
    mountFeeds();
    await act(async () => socket.fire('connect'));
    // The snapshot is taken before these pushes arrive.
    await act(async () => {
      socket.fire('task:updated', { task: { ...a, version: 5, priority: 'high' } });
      socket.fire('task:removed', { id: gone.id });
    });
    await act(async () => answer(json(200, [a, gone])));
    await flush();
    expect(useTasks.getState().byId[a.id]).toMatchObject({ version: 5, priority: 'high' });
    expect(useTasks.getState().byId[gone.id]).toBeUndefined();
  });
});

describe('events', () => {
  it('ignores an event whose version is not newer than the known one', async () => {
    mountFeeds();
    const t = task({ version: 3, origin: 'Muelle 3' });
    await act(async () => socket.fire('task:created', { task: t }));
    await act(async () => socket.fire('task:updated', { task: { ...t, version: 2, origin: 'viejo' } }));
    await act(async () => socket.fire('task:updated', { task: { ...t, version: 3, origin: 'duplicado' } }));
    expect(useTasks.getState().byId[t.id].origin).toBe('Muelle 3');
    await act(async () => socket.fire('task:updated', { task: { ...t, version: 4, origin: 'Muelle 4' } }));
    expect(useTasks.getState().byId[t.id]).toMatchObject({ version: 4, origin: 'Muelle 4' });
  });

  it('task:removed drops the card; only a newer event brings it back', async () => {
    mountFeeds();
    const t = task({ version: 2 });
    await act(async () => socket.fire('task:created', { task: t }));
    await act(async () => socket.fire('task:removed', { id: t.id }));
    expect(useTasks.getState().byId[t.id]).toBeUndefined();
    await act(async () => socket.fire('task:updated', { task: t }));
    expect(useTasks.getState().byId[t.id]).toBeUndefined();
    await act(async () => socket.fire('task:updated', { task: { ...t, version: 3 } }));
    expect(useTasks.getState().byId[t.id]?.version).toBe(3);
  });

  it('task:deleted is final: no later event brings the task back', async () => {
    mountFeeds();
    const t = task();
    await act(async () => socket.fire('task:created', { task: t }));
    await act(async () => socket.fire('task:deleted', { id: t.id }));
    await act(async () => socket.fire('task:updated', { task: { ...t, version: 9 } }));
    expect(useTasks.getState().byId[t.id]).toBeUndefined();
  });

  it('stats:updated and drivers:updated replace the figures', async () => {
    mountFeeds();
    await flush();
    await act(async () => socket.fire('stats:updated', { stats: stats(7) }));
    expect(useStats.getState().stats?.bolsa_trabajo).toBe(7);
    await act(async () =>
      socket.fire('drivers:updated', {
        online_drivers: [],
        rankings: [{ id: 'd2', name: 'Pablo', is_online: false, movements_count: 9 }],
      }),
    );
    expect(useDrivers.getState()).toMatchObject({
      online: [],
      rankings: [{ name: 'Pablo', movements_count: 9 }],
    });
  });

  it('columns: newest first, finished by completion', () => {
    const older = task({ created_at: '2026-01-01T08:00:00.000Z' });
    const newer = task({ created_at: '2026-01-01T09:00:00.000Z' });
    const doneEarly = task({
      status: 'finalizada',
      completed_at: '2026-01-01T10:00:00.000Z',
      created_at: '2026-01-01T07:00:00.000Z',
    });
    const doneLate = task({
      status: 'finalizada',
      completed_at: '2026-01-01T11:00:00.000Z',
      created_at: '2026-01-01T06:00:00.000Z',
    });
    for (const t of [older, newer, doneEarly, doneLate]) useTasks.getState().apply(t);
    expect(selectColumn('bolsa_trabajo')(useTasks.getState()).map((t) => t.id)).toEqual([newer.id, older.id]);
    expect(selectColumn('finalizada')(useTasks.getState()).map((t) => t.id)).toEqual([
      doneLate.id,
      doneEarly.id,
    ]);
  });
});

describe('fallback polling (SPEC §9)', () => {
  it('polls every 3 s only while the socket is down, and stops on reconnect', async () => {
    vi.useFakeTimers();
    mountFeeds();
    await act(async () => socket.fire('connect'));
    const afterConnect = tasksCalls();
    await act(async () => vi.advanceTimersByTime(POLL_MS.dashboard * 3));
    expect(tasksCalls()).toBe(afterConnect);

    await act(async () => socket.fire('disconnect'));
    await act(async () => vi.advanceTimersByTime(POLL_MS.dashboard * 2));
    expect(tasksCalls()).toBe(afterConnect + 2);

    await act(async () => socket.fire('connect'));
    const afterReconnect = tasksCalls();
    expect(afterReconnect).toBe(afterConnect + 3); // the resync
    await act(async () => vi.advanceTimersByTime(POLL_MS.dashboard * 3));
    expect(tasksCalls()).toBe(afterReconnect);
  });
});

describe('optimistic moves', () => {
  it('shows the move at once and rolls it back when the server refuses', async () => {
    const t = task({ version: 3 });
    serverTasks = [t];
    useTasks.getState().apply(t);
    let refuse!: (r: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (refuse = r)));

    const move = useTasks.getState().move(t.id, 'en_proceso', { id: 'd1', name: 'Lucía' });
    expect(useTasks.getState().byId[t.id]).toMatchObject({ status: 'en_proceso', assigned_to_name: 'Lucía' });
    expect(sentBody(fetchMock, fetchMock.mock.calls.length - 1)).toEqual({
      status: 'en_proceso',
      assigned_to: 'd1',
      version: 3,
    });

    refuse(json(409, { detail: ERR.driverBusy }));
    await expect(move).rejects.toMatchObject({ status: 409, detail: ERR.driverBusy });
    expect(useTasks.getState().byId[t.id]).toEqual(t);
  });

  it("a drag sends the card's version with the move (CONTRACT §5)", async () => {
    const t = task({ version: 7 });
    useTasks.getState().apply(t);
    fetchMock.mockImplementationOnce(() =>
      Promise.resolve(json(200, { ...t, status: 'finalizada', version: 8 })),
    );
    await useTasks.getState().move(t.id, 'finalizada');
    expect(lastPut()).toEqual({ url: `/api/tasks/${t.id}`, body: { status: 'finalizada', version: 7 } });

    // A move confirmed in a dialog names the version of the card the user saw, not a newer one.
    const seen = task({ version: 2 });
    useTasks.getState().apply({ ...seen, version: 4 });
    fetchMock.mockImplementationOnce(() => Promise.resolve(json(409, { detail: ERR.versionConflict })));
    await expect(
      useTasks.getState().move(seen.id, 'en_proceso', { id: 'd1', name: 'Lucía' }, seen.version),
    ).rejects.toMatchObject({ status: 409 });
    expect(lastPut()).toEqual({
      url: `/api/tasks/${seen.id}`,
      body: { status: 'en_proceso', assigned_to: 'd1', version: 2 },
    });
  });

  it('a 409 (the card changed meanwhile) puts the card back and reloads the board to show the task as it is', async () => {
    const t = task({ version: 1, priority: 'normal' });
    useTasks.getState().apply(t);
    // Another staff member edited the task; the push has not arrived yet.
    const current = { ...t, priority: 'high' as const, destination: 'Muelle 9', version: 2 };
    serverTasks = [current];
    let refuse!: (r: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (refuse = r)));
    const before = tasksCalls();

    const move = useTasks.getState().move(t.id, 'finalizada');
    expect(useTasks.getState().byId[t.id]).toMatchObject({ status: 'finalizada' });
    refuse(json(409, { detail: ERR.versionConflict }));
    await expect(move).rejects.toMatchObject({ status: 409, detail: ERR.versionConflict });
    // Back in its column at once...
    expect(useTasks.getState().byId[t.id]).toMatchObject({ status: 'bolsa_trabajo', version: 1 });
    // ...and the board reloads: the task as the server has it now.
    await vi.waitFor(() => expect(useTasks.getState().byId[t.id]).toEqual(current));
    expect(tasksCalls()).toBe(before + 1);
  });

  it('any other refusal only rolls back: no reload', async () => {
    const t = task();
    serverTasks = [t];
    useTasks.getState().apply(t);
    const before = tasksCalls();
    fetchMock.mockImplementationOnce(() => Promise.resolve(json(400, { detail: ERR.selectDriver })));
    await expect(useTasks.getState().move(t.id, 'en_proceso')).rejects.toMatchObject({ status: 400 });
    await flush();
    expect(useTasks.getState().byId[t.id]).toBe(t);
    expect(tasksCalls()).toBe(before);
  });

  it('keeps the server answer on success (its version)', async () => {
    const t = task();
    useTasks.getState().apply(t);
    const done = {
      ...t,
      status: 'finalizada' as const,
      completed_at: '2026-01-01T09:00:00.000Z',
      version: 2,
    };
    fetchMock.mockImplementationOnce(() => Promise.resolve(json(200, done)));
    await useTasks.getState().move(t.id, 'finalizada');
    expect(useTasks.getState().byId[t.id]).toEqual(done);
  });

  it("a resync answering while the move is out, already with the move's result, does not hide the server's answer", async () => {
    const t = task();
    useTasks.getState().apply(t);
    let answer!: (r: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (answer = r)));
    const move = useTasks.getState().move(t.id, 'finalizada');
    // The server committed the move; a resync reads it before the PUT's answer comes back.
    const done = {
      ...t,
      status: 'finalizada' as const,
      completed_at: '2026-01-01T11:40:00.000Z',
      version: 2,
    };
    serverTasks = [done];
    await useTasks.getState().load();
    answer(json(200, done));
    await move;
    expect(useTasks.getState().byId[t.id]).toEqual(done);
  });

  it('the optimistic finish is stamped with the server clock, as every other time on the board', async () => {
    const { useTimeclock } = await import('./timeclock');
    const offsetMs = useTimeclock.getState().offsetMs;
    useTimeclock.setState({ offsetMs: offsetMs + 100 * 60_000 });
    try {
      const t = task();
      useTasks.getState().apply(t);
      fetchMock.mockImplementationOnce(() => new Promise<Response>(() => {}));
      void useTasks.getState().move(t.id, 'finalizada');
      const shown = Date.parse(useTasks.getState().byId[t.id].completed_at!);
      expect(Math.abs(shown - (Date.now() + 100 * 60_000))).toBeLessThan(5_000);
    } finally {
      useTimeclock.setState({ offsetMs });
    }
  });

  it('a refused move rolls back even when a presence refresh touched the shown card meanwhile', async () => {
    const t = task();
    serverTasks = [t];
    useTasks.getState().apply(t);
    let refuse!: (r: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (refuse = r)));
    const move = useTasks.getState().move(t.id, 'en_proceso', { id: 'd1', name: 'Lucía' });
    // drivers:updated arrives while the PUT is out: the optimistic card gets its driver's presence.
    useTasks.getState().presence([{ id: 'd1' }]);
    expect(useTasks.getState().byId[t.id]).toMatchObject({ status: 'en_proceso', assignee_online: true });
    refuse(json(409, { detail: ERR.driverBusy }));
    await expect(move).rejects.toMatchObject({ status: 409 });
    expect(useTasks.getState().byId[t.id]).toEqual(t);
  });

  it('a rollback never undoes a newer push that arrived meanwhile', async () => {
    const t = task();
    useTasks.getState().apply(t);
    let refuse!: (r: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (refuse = r)));
    const move = useTasks.getState().move(t.id, 'finalizada');
    const pushed = { ...t, priority: 'high' as const, version: 2 };
    serverTasks = [pushed];
    useTasks.getState().apply(pushed);
    refuse(json(409, { detail: 'no' }));
    await expect(move).rejects.toBeTruthy();
    expect(useTasks.getState().byId[t.id]).toEqual(pushed);
  });
});

describe("the assignee's presence (CONTRACT §15)", () => {
  it('follows drivers:updated without a new version: offline since it was noticed, online again clears it', async () => {
    const running = task({
      status: 'en_proceso',
      assigned_to: 'd1',
      assigned_to_name: 'Lucía',
      assignee_online: true,
      version: 4,
    });
    const away = task({
      status: 'en_proceso',
      assigned_to: 'd2',
      assigned_to_name: 'Pablo',
      assignee_online: false,
      assignee_offline_since: '2026-01-01T07:00:00.000Z',
      version: 2,
    });
    const pool = task();
    serverTasks = [running, away, pool];
    mountFeeds();
    await act(async () => socket.fire('connect'));
    await flush();
    const byId = () => useTasks.getState().byId;

    const poolBefore = byId()[pool.id];
    const before = Date.now();
    await act(async () => socket.fire('drivers:updated', { online_drivers: [], rankings: [] }));
    expect(byId()[running.id].assignee_online).toBe(false);
    const since = Date.parse(byId()[running.id].assignee_offline_since ?? '');
    expect(since).toBeGreaterThanOrEqual(before - 1000);
    expect(since).toBeLessThanOrEqual(Date.now() + 1000);
    expect(byId()[running.id].version).toBe(4);
    // Already offline: it keeps the moment it went.
    expect(byId()[away.id].assignee_offline_since).toBe('2026-01-01T07:00:00.000Z');
    // A pool task has no assignee to follow.
    expect(byId()[pool.id]).toBe(poolBefore);

    await act(async () =>
      socket.fire('drivers:updated', {
        online_drivers: [
          { id: 'd1', name: 'Lucía', movements_count: 3 },
          { id: 'd2', name: 'Pablo', movements_count: 1 },
        ],
        rankings: [],
      }),
    );
    expect(byId()[running.id]).toMatchObject({
      assignee_online: true,
      assignee_offline_since: null,
      version: 4,
    });
    expect(byId()[away.id]).toMatchObject({
      assignee_online: true,
      assignee_offline_since: null,
      version: 2,
    });

    // The next real change of the task (a newer version) still applies.
    await act(async () =>
      socket.fire('task:updated', { task: { ...running, priority: 'high', version: 5 } }),
    );
    expect(byId()[running.id].priority).toBe('high');
  });

  it('leaves the state alone when nobody changed', async () => {
    const running = task({ status: 'en_proceso', assigned_to: 'd1', assignee_online: true });
    serverTasks = [running];
    mountFeeds();
    await act(async () => socket.fire('connect'));
    await flush();
    const state = useTasks.getState().byId;
    await act(async () =>
      socket.fire('drivers:updated', {
        online_drivers: [{ id: 'd1', name: 'L', movements_count: 0 }],
        rankings: [],
      }),
    );
    expect(useTasks.getState().byId).toBe(state);
  });
});
