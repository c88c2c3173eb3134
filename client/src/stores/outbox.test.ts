// The driver's offline queue (CONTRACT §16) against a scripted fetch and fake-indexeddb: an action is
// stored with its Idempotency-Key and client_time, sent at once when the server answers, kept (in order)
// when it does not, replayed unchanged later; a refusal on a replay is shown once (but a replay whose key
// the attempt made at once already used is done); a 401 keeps it for the next login. Then its use by the driver store (a closing task stays off the screen) and the time clock
// (a queued punch moves the status at once), and the per-user snapshot of the screen.
import { setActiveTask } from '../test/driver';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import type { MessageResponse, Task } from '@shared/schemas';
import { ERR, UI_DRIVER, taskLabel } from '@shared/labels';
import { json, mockFetch, sentBody } from '../test/http';
import { ApiError } from '../api';
import { outboxDb } from '../offline/outbox-db';
import { useReachability } from '../offline/reachability';
import { readSnapshot, writeSnapshot } from '../offline/snapshot';
import { onResync } from '../socket';
import { storeSession } from '../storage';
import { DRIVER, clockStatus, makeActive } from '../views/Driver/test-fixtures';
import { closingTaskIds, initOutbox, useOutbox, type NewAction } from './outbox';
import { activeTask, useDriver } from './driver';
import { useSession } from './session';
import { useTimeclock } from './timeclock';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const OTHER = { ...DRIVER, id: 'd2', name: 'Ana Ruiz', email: 'ana@patio.es' };
const O = UI_DRIVER.offline;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Answer = (path: string, init: RequestInit) => Response | Promise<Response>;
/** No network: fetch itself fails, as a browser's does. */
const down: Answer = () => Promise.reject(new TypeError('Failed to fetch'));
const ok: Answer = () => json(200, { message: 'Hecho' });

/** A fetch whose answer the test switches (server down, back, refusing…). */
function server(initial: Answer) {
  let answer = initial;
  const fetch = mockFetch((path, init) => answer(path, init));
  return {
    fetch,
    set: (next: Answer) => (answer = next),
    /** The POSTs sent so far: path, query, Idempotency-Key and body. */
    posts: () =>
      fetch.mock.calls
        .map(([input, init], n) => ({ input, init, n }))
        .filter(({ init }) => init?.method === 'POST')
        .map(({ input, init, n }) => {
          const url = new URL(String(input), 'http://localhost');
          return {
            path: url.pathname.replace(/^\/api/, ''),
            query: Object.fromEntries(url.searchParams),
            key: new Headers(init?.headers).get('Idempotency-Key'),
            body: sentBody(fetch, n),
          };
        }),
  };
}

const complete = (id: string, label = O.completeLabel(`Mover ${id}`)): NewAction => ({
  kind: 'complete',
  path: `/tasks/${id}/complete`,
  body: {},
  task_id: id,
  label,
});
const punch = (type: 'entrada' | 'salida'): NewAction => ({
  kind: 'punch',
  path: '/timeclock/punch',
  query: { clock_type: type },
  body: {},
  task_id: null,
  label: O.punchLabel(type),
});
const submit = (action: NewAction, actedAt?: number) =>
  useOutbox.getState().submit<MessageResponse>(action, actedAt);
const flush = () => useOutbox.getState().flush();
const stored = (userId = DRIVER.id) => outboxDb.list(userId);
const login = (user = DRIVER) => {
  storeSession('t', user);
  useSession.setState({ user, token: 't', status: 'authenticated' });
};

async function clearQueue() {
  for (const userId of [DRIVER.id, OTHER.id])
    for (const a of await outboxDb.list(userId)) await outboxDb.remove(a.seq!);
}

beforeEach(async () => {
  await clearQueue();
  localStorage.clear();
  useOutbox.setState({ pending: [], refused: [] });
  useReachability.setState({ reachable: true });
  login();
  useDriver.setState({ activeId: null, activeLoaded: true, swap: [], swapLoaded: true, failing: [] });
  useTimeclock.setState({ status: null, punching: null, offsetMs: 0 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('sending at once', () => {
  it('the server answers: sent with a UUID Idempotency-Key and no client_time (it happened now), nothing kept', async () => {
    const s = server(() => json(200, { message: 'Tarea completada' }));
    const outcome = await submit(complete('t1'));

    expect(outcome).toEqual({ status: 'sent', response: { message: 'Tarea completada' } });
    const [post] = s.posts();
    expect(s.posts()).toHaveLength(1);
    expect(post.path).toBe('/tasks/t1/complete');
    // An online punch must not become an "offline" one because the phone's clock is a little behind.
    expect(post.body).toEqual({});
    expect(post.key).toMatch(UUID_V4);

    expect(await stored()).toEqual([]);
    expect(useOutbox.getState().pending).toEqual([]);
    expect(useOutbox.getState().refused).toEqual([]);
    expect(useReachability.getState().reachable).toBe(true);
  });

  it('keeps the body and the query it was given, and a new key for every action', async () => {
    const s = server(ok);
    await submit({ ...complete('t1'), kind: 'return', path: '/tasks/t1/return', body: { reason: 'Otro' } });
    await submit(punch('entrada'));
    const [ret, entrada] = s.posts();
    expect(ret.body).toEqual({ reason: 'Otro' });
    expect(entrada.path).toBe('/timeclock/punch');
    expect(entrada.query).toEqual({ clock_type: 'entrada' });
    expect(entrada.key).toMatch(UUID_V4);
    expect(entrada.key).not.toBe(ret.key);
  });

  it('a replay carries client_time: the moment given as actedAt (the server clock the phone knows)', async () => {
    const s = server(down);
    const actedAt = Date.parse('2026-11-24T07:30:00.000Z');
    expect(await submit(complete('t1'), actedAt)).toEqual({ status: 'queued' });
    s.set(ok);
    s.fetch.mockClear();
    await flush();
    expect(s.posts().map((p) => p.body)).toEqual([{ client_time: '2026-11-24T07:30:00.000Z' }]);
  });

  it('without a session: refused as a 401, nothing stored or sent', async () => {
    const s = server(ok);
    useSession.setState({ user: null, token: null, status: 'anonymous' });
    await expect(submit(punch('entrada'))).rejects.toMatchObject({ status: 401 });
    expect(s.fetch).not.toHaveBeenCalled();
    expect(await stored()).toEqual([]);
  });
});

describe('no network: queued, then replayed in order', () => {
  it('keeps the action in IndexedDB and says the server is unreachable', async () => {
    const s = server(down);
    expect(await submit(complete('t1'))).toEqual({ status: 'queued' });
    expect(s.fetch).toHaveBeenCalledTimes(1);
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: DRIVER.id,
      kind: 'complete',
      path: '/tasks/t1/complete',
      task_id: 't1',
      label: O.completeLabel('Mover t1'),
      body: { client_time: expect.any(String) },
    });
    expect(rows[0].key).toMatch(UUID_V4);
    expect(useOutbox.getState().pending).toEqual(rows);
    expect(useReachability.getState().reachable).toBe(false);
  });

  it('sends four queued actions in the order made, each with the key and client_time it was stored with', async () => {
    const t0 = Date.parse('2026-11-22T07:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    const s = server(down);
    const actions = [
      complete('t1'),
      punch('salida'),
      punch('entrada'),
      { ...complete('t2'), kind: 'return', path: '/tasks/t2/return', body: { reason: 'Otro' } } as NewAction,
    ];
    for (const [i, action] of actions.entries()) {
      vi.setSystemTime(t0 + i * 60_000);
      expect(await submit(action)).toEqual({ status: 'queued' });
    }
    // While down, only the oldest is tried: nothing overtakes it.
    expect(new Set(s.posts().map((p) => p.path))).toEqual(new Set(['/tasks/t1/complete']));
    const queued = await stored();
    expect(queued.map((a) => a.path)).toEqual([
      '/tasks/t1/complete',
      '/timeclock/punch',
      '/timeclock/punch',
      '/tasks/t2/return',
    ]);
    expect(useOutbox.getState().pending).toEqual(queued);
    expect(useReachability.getState().reachable).toBe(false);

    // An hour later the server answers again.
    vi.setSystemTime(t0 + 3_600_000);
    const resync = vi.fn();
    const stopResync = onResync(resync);
    s.fetch.mockClear();
    s.set(ok);
    await flush();
    stopResync();

    const sent = s.posts();
    expect(sent).toHaveLength(4);
    sent.forEach((post, i) => {
      expect(post.path).toBe(queued[i].path);
      expect(post.query).toEqual(queued[i].query ?? {});
      expect(post.key).toBe(queued[i].key);
      expect(post.body).toEqual(queued[i].body);
      // The time it was made, not the time it was sent.
      expect((post.body as { client_time: string }).client_time).toBe(
        new Date(t0 + i * 60_000).toISOString(),
      );
    });
    expect(sent.map((p) => p.query.clock_type)).toEqual([undefined, 'salida', 'entrada', undefined]);
    expect(new Set(sent.map((p) => p.key)).size).toBe(4);
    expect(await stored()).toEqual([]);
    expect(useOutbox.getState().pending).toEqual([]);
    expect(useReachability.getState().reachable).toBe(true);
    // What was replayed changed the server behind the screen: it reloads.
    expect(resync).toHaveBeenCalledTimes(1);
  });

  it('one replay at a time: two flushes at once send each action once', async () => {
    const s = server(down);
    await submit(complete('t1'));
    await submit(punch('salida'));
    s.set(() => new Promise<Response>((r) => setTimeout(() => r(json(200, { message: 'Hecho' })), 5)));
    s.fetch.mockClear();
    await Promise.all([flush(), flush(), flush()]);
    expect(s.posts().map((p) => p.path)).toEqual(['/tasks/t1/complete', '/timeclock/punch']);
    expect(await stored()).toEqual([]);
  });

  it("another user's queued actions are neither sent nor shown", async () => {
    const s = server(down);
    login(OTHER);
    await submit(complete('t9'));
    useSession.getState().end();
    expect(useOutbox.getState().pending).toEqual([]);

    login(DRIVER);
    s.set(ok);
    s.fetch.mockClear();
    await submit(punch('entrada'));
    await flush();
    expect(s.posts().map((p) => p.path)).toEqual(['/timeclock/punch']);
    expect(await stored(OTHER.id)).toHaveLength(1);
    expect(useOutbox.getState().pending).toEqual([]);
  });
});

describe('what the server answers', () => {
  it.each([502, 503, 504])('a %i (no server behind the proxy) keeps it queued', async (status) => {
    server(() => json(status, { detail: 'Bad gateway' }));
    expect(await submit(complete('t1'))).toEqual({ status: 'queued' });
    expect(await stored()).toHaveLength(1);
    expect(useOutbox.getState().pending).toHaveLength(1);
    expect(useOutbox.getState().refused).toEqual([]);
  });

  it('a request that times out keeps it queued', async () => {
    server(() => Promise.reject(new DOMException('The operation timed out.', 'TimeoutError')));
    expect(await submit(punch('entrada'))).toEqual({ status: 'queued' });
    expect(await stored()).toHaveLength(1);
    expect(useReachability.getState().reachable).toBe(false);
  });

  it('a 500 on the immediate attempt throws its ApiError for the caller and keeps nothing', async () => {
    server(() => json(500, { detail: 'Error interno del servidor' }));
    const err = await submit(complete('t1')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 500, detail: 'Error interno del servidor' });
    expect(await stored()).toEqual([]);
    expect(useOutbox.getState().pending).toEqual([]);
    expect(useOutbox.getState().refused).toEqual([]);
  });

  it('a 409 on the immediate attempt is the caller’s error, not a banner', async () => {
    server(() => json(409, { detail: ERR.notYourTask }));
    await expect(submit(complete('t1'))).rejects.toMatchObject({ status: 409, detail: ERR.notYourTask });
    expect(await stored()).toEqual([]);
    expect(useOutbox.getState().refused).toEqual([]);
  });

  it('a 500 on a later replay keeps it waiting', async () => {
    const s = server(down);
    await submit(complete('t1'));
    s.set(() => json(500, { detail: 'Error interno del servidor' }));
    s.fetch.mockClear();
    await flush();
    expect(s.posts()).toHaveLength(1);
    expect(await stored()).toHaveLength(1);
    expect(useOutbox.getState().pending).toHaveLength(1);
    expect(useOutbox.getState().refused).toEqual([]);
  });

  it('a 409 on a replay drops it and shows its Spanish reason once; Entendido forgets it', async () => {
    const t0 = Date.parse('2026-11-22T07:05:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    const s = server(down);
    const label = O.completeLabel('Mover R-1001 (Muelle 3 → Campa Norte)');
    await submit(complete('t1', label));
    await submit(punch('salida'));
    const [action] = await stored();

    s.set((path) =>
      path.endsWith('/complete') ? json(409, { detail: ERR.notYourTask }) : json(200, { message: 'Hecho' }),
    );
    await flush();
    // The refused one is dropped, and the queue goes on behind it.
    expect(
      s
        .posts()
        .slice(-2)
        .map((p) => p.path),
    ).toEqual(['/tasks/t1/complete', '/timeclock/punch']);
    expect(await stored()).toEqual([]);
    expect(useOutbox.getState().pending).toEqual([]);
    expect(useOutbox.getState().refused).toEqual([
      { key: action.key, label, detail: ERR.notYourTask, created_at: t0 },
    ]);

    s.fetch.mockClear();
    await flush();
    expect(s.fetch).not.toHaveBeenCalled();
    expect(useOutbox.getState().refused).toHaveLength(1);

    useOutbox.getState().dismissRefused(action.key);
    expect(useOutbox.getState().refused).toEqual([]);
  });

  it('a replay answered "key used for another request": the attempt made at once took effect, so it is done', async () => {
    // The attempt made at once (without client_time) reached the server, which applied it; its answer was
    // lost. The replay carries client_time: another body under the same key.
    const s = server(() => Promise.reject(new DOMException('The operation timed out.', 'TimeoutError')));
    await submit(complete('t1'));
    const resync = vi.fn();
    const stopResync = onResync(resync);
    s.set(() => json(422, { detail: ERR.idempotencyKeyReused }));
    await flush();
    stopResync();
    const [immediate, replay] = s.posts();
    expect(s.posts()).toHaveLength(2);
    expect(replay.key).toBe(immediate.key);
    expect(immediate.body).not.toHaveProperty('client_time');
    expect(replay.body).toHaveProperty('client_time');
    // Dropped without a refusal card, and the screen reloads what the server has.
    expect(await stored()).toEqual([]);
    expect(useOutbox.getState().pending).toEqual([]);
    expect(useOutbox.getState().refused).toEqual([]);
    expect(resync).toHaveBeenCalled();
  });

  it('another 422 on a replay is a refusal like any other: dropped, its reason shown once', async () => {
    const s = server(down);
    await submit(complete('t1'));
    s.set(() => json(422, { detail: 'Otra cosa' }));
    await flush();
    expect(await stored()).toEqual([]);
    expect(useOutbox.getState().refused.map((r) => r.detail)).toEqual(['Otra cosa']);
  });

  it('a 401 on a replay ends the session but keeps the action; it is sent after the next login', async () => {
    const s = server(down);
    await submit(complete('t1'));
    const [action] = await stored();

    s.set(() => json(401, { detail: ERR.sessionExpired }));
    await flush();
    expect(useSession.getState().status).toBe('anonymous');
    expect(await stored()).toEqual([action]);
    expect(useOutbox.getState().refused).toEqual([]);

    login(DRIVER);
    s.set(ok);
    s.fetch.mockClear();
    await flush();
    expect(s.posts()).toEqual([
      { path: '/tasks/t1/complete', query: {}, key: action.key, body: action.body },
    ]);
    expect(await stored()).toEqual([]);
  });

  it('a 401 on the immediate attempt is the caller’s (silent) error, never "saved offline"; the action waits for the next login', async () => {
    server(() => json(401, { detail: ERR.sessionExpired }));
    const err = await submit(complete('t1')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, sessionEnded: true });
    expect(await stored()).toHaveLength(1);
    expect(useOutbox.getState().pending).toEqual([]);
  });

  it('an action the server answers at once is never counted as waiting (no indicator flash)', async () => {
    const seen: number[] = [];
    server(() => {
      seen.push(useOutbox.getState().pending.length);
      return json(200, { message: 'Hecho' });
    });
    await submit(complete('t1'));
    expect(seen).toEqual([0]);
    expect(useOutbox.getState().pending).toEqual([]);
  });

  it('a refusal on a replay without a detail still gives a Spanish reason', async () => {
    const s = server(down);
    await submit(complete('t1'));
    s.set(() => new Response('', { status: 409 }));
    await flush();
    expect(useOutbox.getState().refused.map((r) => r.detail)).toEqual([O.refusedFallback]);
  });
});

describe('the driver store', () => {
  const named = (t: Task) =>
    `${taskLabel({ title: t.title, trailerId: t.trailer_id })} (${t.origin} → ${t.destination})`;

  it('a scan completed offline travels with its queued completion: proof and place, client_time on replay (CONTRACT §20)', async () => {
    const task = makeActive();
    setActiveTask(task);
    const s = server(down);
    const proof = { proof: 'scan' as const, location_id: '10000000-0000-4000-8000-000000000001' };
    expect(await useDriver.getState().complete(task, proof)).toBeNull();
    expect((await stored()).map((a) => a.body)).toEqual([{ ...proof, client_time: expect.any(String) }]);
    s.set(ok);
    s.fetch.mockClear();
    await flush();
    const [sent] = s.posts();
    expect(sent).toMatchObject({ path: `/tasks/${task.id}/complete`, body: proof });
    expect(typeof (sent!.body as { client_time?: unknown }).client_time).toBe('string');
  });

  it('a queued complete keeps the task off the screen; once sent, only a task still mine comes back', async () => {
    const task = makeActive();
    setActiveTask(task);
    // The server answers reads but the POST does not get through.
    const s = server((_path, init) =>
      init.method === 'POST' ? Promise.reject(new TypeError('Failed to fetch')) : json(200, task),
    );
    expect(await useDriver.getState().complete()).toBeNull();
    expect(activeTask()).toBeNull();
    expect(closingTaskIds()).toEqual(new Set([task.id]));
    expect(useOutbox.getState().pending).toMatchObject([
      { kind: 'complete', task_id: task.id, label: O.completeLabel(named(task)) },
    ]);

    // The server still has it en_proceso: it stays off the screen.
    await useDriver.getState().loadActive();
    expect(useDriver.getState()).toMatchObject({ activeId: null, activeLoaded: true });
    useDriver.getState().applyTask({ ...task, version: task.version + 1 });
    expect(activeTask()).toBeNull();

    s.set(ok);
    await flush();
    expect(closingTaskIds().size).toBe(0);
    expect(s.posts().at(-1)?.path).toBe(`/tasks/${task.id}/complete`);

    // Completed, or someone else's now: not mine.
    useDriver.getState().applyTask({ ...task, status: 'finalizada', version: task.version + 2 });
    expect(activeTask()).toBeNull();
    useDriver
      .getState()
      .applyTask({ ...task, assigned_to: OTHER.id, assigned_to_name: OTHER.name, version: task.version + 3 });
    expect(activeTask()).toBeNull();
    // Given back to me by the office: mine again.
    const again = { ...task, version: task.version + 4 };
    useDriver.getState().applyTask(again);
    expect(activeTask()).toEqual(again);
  });

  it('a return offline resolves null, the task leaves the screen and the reason is queued', async () => {
    const task = makeActive();
    setActiveTask(task);
    server(down);
    expect(await useDriver.getState().returnTask('Remolque dañado')).toBeNull();
    expect(activeTask()).toBeNull();
    const [row] = await stored();
    expect(row).toMatchObject({
      kind: 'return',
      path: `/tasks/${task.id}/return`,
      task_id: task.id,
      label: O.returnLabel(named(task)),
      body: { reason: 'Remolque dañado', client_time: expect.any(String) },
    });
  });

  it('a punch waiting does not keep the active task off the screen', async () => {
    const task = makeActive();
    server(down);
    await submit(punch('entrada'));
    useDriver.getState().applyTask(task);
    expect(activeTask()).toEqual(task);
  });
});

describe('the time clock', () => {
  it('a punch offline is queued and the status follows it at once', async () => {
    useTimeclock.setState({ status: clockStatus() });
    const s = server(down);
    const before = Date.now();
    expect(await useTimeclock.getState().punch('entrada')).toBe('queued');
    const status = useTimeclock.getState().status!;
    expect(status).toMatchObject({
      status: 'clocked_in',
      can_clock_in: false,
      can_clock_out: true,
      last_salida: null,
      punches_today: 1,
    });
    expect(Date.parse(status.last_entrada!)).toBeGreaterThanOrEqual(before);
    expect(useTimeclock.getState().punching).toBeNull();
    expect(useOutbox.getState().pending).toMatchObject([
      { kind: 'punch', query: { clock_type: 'entrada' }, label: 'Fichar entrada' },
    ]);

    expect(await useTimeclock.getState().punch('salida')).toBe('queued');
    expect(useTimeclock.getState().status).toMatchObject({
      status: 'clocked_out',
      can_clock_in: true,
      can_clock_out: false,
      last_entrada: status.last_entrada,
      last_salida: expect.any(String),
      punches_today: 2,
    });

    s.set(ok);
    s.fetch.mockClear();
    await flush();
    expect(s.posts().map((p) => p.query.clock_type)).toEqual(['entrada', 'salida']);
  });

  it('keeps the last status and active task per user on the phone, and forgets them at logout', () => {
    const status = clockStatus({ status: 'clocked_in', can_clock_in: false, can_clock_out: true });
    const task = makeActive();
    writeSnapshot(OTHER.id, { active: null });
    useTimeclock.setState({ status });
    expect(readSnapshot(DRIVER.id)).toEqual({ timeclock: status });
    setActiveTask(task);
    expect(readSnapshot(DRIVER.id)).toEqual({ timeclock: status, active: task });
    setActiveTask(null);
    expect(readSnapshot(DRIVER.id)).toEqual({ timeclock: status, active: null });

    // The same driver opening the app again starts from it.
    setActiveTask(task);
    useSession.setState({ user: null });
    login(DRIVER);
    expect(useDriver.getState()).toMatchObject({ activeId: task.id, activeLoaded: true });
    expect(activeTask()).toEqual(task);
    expect(useTimeclock.getState().status).toEqual(status);

    useSession.getState().end();
    expect(readSnapshot(DRIVER.id)).toEqual({});
    expect(localStorage.getItem(`torre.snapshot.${DRIVER.id}`)).toBeNull();
    expect(activeTask()).toBeNull();
    expect(useTimeclock.getState().status).toBeNull();
    expect(readSnapshot(OTHER.id)).toEqual({ active: null });
    // The next person on the phone sees nothing of it.
    login(OTHER);
    expect(useTimeclock.getState().status).toBeNull();
    expect(activeTask()).toBeNull();
  });
});

// Last: initOutbox subscribes for good (session, reachability, window events) and cannot be undone.
describe('what starts a replay (initOutbox)', () => {
  const started = () => {
    // The retry timer is left out (a fake one never fired): each test below triggers its own replay.
    vi.useFakeTimers({ toFake: ['setInterval'] });
    initOutbox();
    vi.useRealTimers();
  };

  it('a login sends what that driver left queued', async () => {
    started();
    const s = server(down);
    await submit(complete('t1'));
    const [action] = await stored();
    useSession.getState().end();
    expect(useOutbox.getState().pending).toEqual([]);

    s.set(ok);
    s.fetch.mockClear();
    login(DRIVER);
    await waitFor(async () => expect(await stored()).toEqual([]));
    expect(s.posts()).toMatchObject([{ key: action.key, path: '/tasks/t1/complete' }]);
  });

  it('the server answering any request again sends the queue', async () => {
    started();
    const s = server(down);
    await submit(punch('entrada'));
    expect(useReachability.getState().reachable).toBe(false);

    s.set((path) => (path === '/timeclock/status' ? json(200, clockStatus()) : ok(path, {})));
    await useTimeclock.getState().load();
    await waitFor(async () => expect(await stored()).toEqual([]));
    expect(s.posts().at(-1)?.query).toEqual({ clock_type: 'entrada' });
    expect(useOutbox.getState().pending).toEqual([]);
  });

  it('the browser back online sends the queue', async () => {
    started();
    const s = server(down);
    await submit(punch('salida'));
    s.set(ok);
    window.dispatchEvent(new Event('online'));
    await waitFor(async () => expect(await stored()).toEqual([]));
  });
});
