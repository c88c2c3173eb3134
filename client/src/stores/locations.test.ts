// The catalogue store's feeds (CONTRACT §17): loaded once, again on `yard:changed` and on reconnects; the
// feeds that hear one change together make one request; an older answer arriving late is dropped.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { DEFAULT_TRAILER_MARKS, type Location, type YardTrailer } from '@shared/schemas';
import { json, mockFetch } from '../test/http';
import { makeLocation } from '../views/Locations/test-fixtures';
import { useLocations, useLocationsFeed, usePlacesFeed } from './locations';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

// The socket stands still in jsdom: events and reconnects are delivered by hand.
const socket = vi.hoisted(() => ({
  handlers: new Map<string, Set<(p: unknown) => void>>(),
  resyncs: new Set<() => void>(),
}));
vi.mock('../socket', async () => {
  const { useEffect, useRef } = await import('react');
  const onResync = (fn: () => void) => {
    socket.resyncs.add(fn);
    return () => void socket.resyncs.delete(fn);
  };
  return {
    onResync,
    useResync: (load: () => void) => {
      const ref = useRef(load);
      useEffect(() => {
        ref.current();
        return onResync(() => ref.current());
      }, []);
    },
    useSocketEvent: (event: string, handler: (p: unknown) => void) => {
      const ref = useRef(handler);
      ref.current = handler;
      useEffect(() => {
        const fn = (p: unknown) => ref.current(p);
        if (!socket.handlers.has(event)) socket.handlers.set(event, new Set());
        socket.handlers.get(event)!.add(fn);
        return () => void socket.handlers.get(event)!.delete(fn);
      }, [event]);
    },
  };
});
const yardChanged = () =>
  act(() => socket.handlers.get('yard:changed')?.forEach((h) => h({ location_ids: [] })));
const reconnect = () => act(() => socket.resyncs.forEach((fn) => fn()));

const dock = makeLocation({ name: 'Muelle Norte' });
const trailerAt: YardTrailer = {
  trailer_id: 'R-1',
  location: { id: dock.id, code: dock.code, name: dock.name, zone: dock.zone, kind: dock.kind },
  since: '2026-11-20T08:00:00.000Z',
  open_task: null,
  marks: DEFAULT_TRAILER_MARKS,
};

/** The dock's free room GET /yard answers (a test changes it between calls). */
let dockFree = 1;

/** GET /locations answers `catalogue()` as it is at the time of the call. */
function serve(catalogue: () => Location[]) {
  return mockFetch((path) =>
    path === '/locations'
      ? json(200, catalogue())
      : path === '/yard/trailers'
        ? json(200, [trailerAt])
        : path === '/yard'
          ? json(200, [{ ...dock, trailers: [], incoming: [], free: dockFree }])
          : json(404, {}),
  );
}
const paths = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.map(([url]) => new URL(String(url), 'http://x').pathname.replace('/api', ''));

beforeEach(() => {
  useLocations.setState({
    locations: [],
    loaded: false,
    failed: false,
    trailerPlaces: {},
    trailersLoaded: false,
    room: {},
    roomLoaded: false,
  });
  dockFree = 1;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('locations store', () => {
  it('the view loads at mount, and again on yard:changed and on a reconnect', async () => {
    let catalogue = [dock];
    const fetch = serve(() => catalogue);
    renderHook(() => useLocationsFeed());
    await waitFor(() => expect(useLocations.getState().locations).toEqual([dock]));
    catalogue = [dock, makeLocation({ name: 'Campa Este' })];
    await yardChanged();
    await waitFor(() => expect(useLocations.getState().locations).toHaveLength(2));
    await reconnect();
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(3));
  });

  it('a form never opened fetches nothing, not even on yard:changed or a reconnect', async () => {
    const fetch = serve(() => [dock]);
    renderHook(() => usePlacesFeed(false, true));
    await yardChanged();
    await reconnect();
    await new Promise((r) => setTimeout(r, 10));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('the opened create form loads the catalogue and the trailers once; then refreshes both on changes', async () => {
    const fetch = serve(() => [dock]);
    const { rerender } = renderHook(({ open }) => usePlacesFeed(open, true), {
      initialProps: { open: true },
    });
    await waitFor(() => expect(useLocations.getState().trailerPlaces).toEqual({ 'R-1': trailerAt.location }));
    rerender({ open: false });
    rerender({ open: true });
    expect(paths(fetch).sort()).toEqual(['/locations', '/yard/trailers']);
    await yardChanged();
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(4));
    await reconnect();
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(6));
  });

  it("the form that shows the destination's room loads GET /yard's free room once, and follows yard:changed", async () => {
    const fetch = serve(() => [dock]);
    const { rerender } = renderHook(({ open }) => usePlacesFeed(open, false, true), {
      initialProps: { open: true },
    });
    await waitFor(() => expect(useLocations.getState().room).toEqual({ [dock.id]: 1 }));
    rerender({ open: false });
    rerender({ open: true });
    expect(paths(fetch).sort()).toEqual(['/locations', '/yard']);
    dockFree = 0;
    await yardChanged();
    await waitFor(() => expect(useLocations.getState().room).toEqual({ [dock.id]: 0 }));
    expect(paths(fetch).filter((p) => p === '/yard')).toHaveLength(2);
  });

  it('the feeds that hear one yard:changed together make one request per resource', async () => {
    const fetch = serve(() => [dock]);
    renderHook(() => {
      useLocationsFeed();
      usePlacesFeed(true, false);
      usePlacesFeed(false, false);
    });
    await waitFor(() => expect(useLocations.getState().loaded).toBe(true));
    fetch.mockClear();
    await yardChanged();
    await new Promise((r) => setTimeout(r, 10));
    expect(paths(fetch)).toEqual(['/locations']);
  });

  it('an answer older than the last one asked for is dropped', async () => {
    const answers: ((r: Response) => void)[] = [];
    mockFetch(() => new Promise<Response>((r) => answers.push(r)));
    const first = useLocations.getState().load();
    const second = useLocations.getState().load();
    answers[1](json(200, [dock]));
    await second;
    answers[0](json(200, []));
    await first;
    expect(useLocations.getState().locations).toEqual([dock]);
  });

  it('create, edit and deactivate keep the rows in zone and code order', async () => {
    const b = makeLocation({ code: 'B-2', zone: 'Campa B' });
    const a = makeLocation({ code: 'A-9', zone: 'Campa A' });
    useLocations.setState({ locations: [b], loaded: true });
    mockFetch((_path, init) =>
      init.method === 'POST'
        ? json(201, a)
        : init.method === 'PUT'
          ? json(200, { ...b, zone: 'Campa 0' })
          : json(200, { message: 'Ubicación desactivada' }),
    );
    await useLocations.getState().create({ ...a });
    expect(useLocations.getState().locations.map((l) => l.code)).toEqual(['A-9', 'B-2']);
    await useLocations.getState().update(b.id, { zone: 'Campa 0' });
    expect(useLocations.getState().locations.map((l) => l.code)).toEqual(['B-2', 'A-9']);
    await expect(useLocations.getState().deactivate(a.id)).resolves.toBe('Ubicación desactivada');
    expect(useLocations.getState().locations.find((l) => l.id === a.id)?.active).toBe(false);
  });
});
