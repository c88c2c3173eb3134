// The Patio's store (CONTRACT §17) against a scripted server and a fake socket: a burst of `yard:changed`
// makes one load in flight and one queued, never more; a reconnect loads again; an answer that changed one
// place keeps every other place's object (the map's memo relies on it); a session end drops a late answer.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { YardLocation, YardTrailer } from '@shared/schemas';
import { json, mockFetch } from '../test/http';
import type { FakeSocket } from '../test/socket';
import { useSession } from './session';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

let socket: FakeSocket;
vi.mock('socket.io-client', async () => {
  const { FakeSocket } = await import('../test/socket');
  return { io: () => (socket = new FakeSocket()) };
});

const { initRealtime } = await import('../socket');
const { refreshYard, useYard, useYardFeed } = await import('./yard');
const { resetSessionStores } = await import('./session-end');

const place = (code: string, fields: Partial<YardLocation> = {}): YardLocation => ({
  id: `id-${code}`,
  code,
  name: code,
  kind: 'campa',
  zone: 'Campa A',
  capacity: 1,
  x: 0,
  y: 0,
  active: true,
  trailers: [],
  incoming: [],
  free: 1,
  ...fields,
});

/** What GET /yard answers now; tests change it between loads. */
let serverPlaces: YardLocation[] = [];
const serverTrailers: YardTrailer[] = [];
/** Answers held back until the test releases them (a load in flight). */
let held: (() => void)[] = [];
let holding = false;
let fetchMock: ReturnType<typeof mockFetch>;
const yardLoads = () => fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/api/yard')).length;

const flush = () =>
  act(async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });
/** Lets every held answer go, then lets the promises settle. */
async function release() {
  const now = held;
  held = [];
  now.forEach((go) => go());
  await flush();
}

let stop = () => {};
beforeEach(() => {
  localStorage.setItem('torre.token', 'tok');
  useSession.setState({
    token: 'tok',
    user: { id: 'me', name: 'Yo', email: 'yo@patio.es', role: 'gestor' },
    status: 'authenticated',
  });
  serverPlaces = [place('A-1'), place('A-2')];
  held = [];
  holding = false;
  fetchMock = mockFetch((path) => {
    const body = path === '/yard' ? serverPlaces : path === '/yard/trailers' ? serverTrailers : null;
    if (body === null) return json(404, { detail: 'no' });
    // The body is taken now: what the server had when the request arrived.
    const answer = json(200, body);
    return holding ? new Promise((resolve) => held.push(() => resolve(answer))) : answer;
  });
  stop = initRealtime();
});
afterEach(async () => {
  holding = false;
  await release();
  cleanup();
  stop();
  resetSessionStores('me');
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the yard store', () => {
  it('a burst of changes makes one load in flight and one more after it, never more', async () => {
    await refreshYard();
    expect(yardLoads()).toBe(1);

    holding = true;
    void refreshYard();
    for (let i = 0; i < 5; i++) void refreshYard();
    await flush();
    expect(yardLoads()).toBe(2);

    // The change the queued load was asked for, made while the first was on its way.
    serverPlaces = [place('A-1', { free: 0 }), place('A-2')];
    await release();
    expect(yardLoads()).toBe(3);
    await release();
    expect(yardLoads()).toBe(3);
    expect(useYard.getState().places[0].free).toBe(0);
  });

  it('follows yard:changed and reconnects, reusing the places that did not change', async () => {
    renderHook(() => useYardFeed());
    await act(async () => socket.fire('connect'));
    await flush();
    expect(useYard.getState()).toMatchObject({ loaded: true, failed: false });
    const [first, second] = useYard.getState().places;

    serverPlaces = [place('A-1'), place('A-2', { free: 0, incoming: [incoming('R-9')] })];
    await act(async () => socket.fire('yard:changed', { location_ids: ['id-A-2'] }));
    await flush();
    const after = useYard.getState().places;
    expect(after[0]).toBe(first);
    expect(after[1]).not.toBe(second);
    expect(after[1].incoming.map((r) => r.trailer_id)).toEqual(['R-9']);

    // The same answer again (a reconnect): nothing new for the map to render.
    const before = yardLoads();
    await act(async () => socket.fire('disconnect'));
    await act(async () => socket.fire('connect'));
    await flush();
    expect(yardLoads()).toBe(before + 1);
    expect(useYard.getState().places).toBe(after);
  });

  it('drops an answer that arrives after the session ended', async () => {
    holding = true;
    void refreshYard();
    await flush();
    resetSessionStores('me');
    await release();
    expect(useYard.getState()).toMatchObject({ places: [], loaded: false });
  });
});

function incoming(trailer_id: string) {
  return { task_id: `t-${trailer_id}`, trailer_id, status: 'bolsa_trabajo' as const, on_hold: false };
}
