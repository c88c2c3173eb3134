// The one socket client and the live session around it (CONTRACT §4, §9):
// - connects once the user is authenticated, closes when the session ends;
// - the handshake always sends the latest token (refreshed every TOKEN_REFRESH_MS while logged in);
// - every (re)connect runs the registered resync callbacks (stores reload over REST);
// - `useLink` holds the link state for the header; `usePollingFallback` runs the SPEC §9 polling
//   only while the link is down;
// - `session:revoked` → toast + /login, except `expired`, which reconnects with the refreshed token.
import { useEffect, useRef } from 'react';
import { io, type Socket } from 'socket.io-client';
import { toast } from 'sonner';
import { create } from 'zustand';
import { TOKEN_REFRESH_MS } from '@shared/constants';
import { EV, type ClientToServerEvents, type ServerToClientEvents } from '@shared/events';
import { ERR } from '@shared/labels';
import { API_ORIGIN } from './api';
import { getStoredToken } from './storage';
import { useSession } from './stores/session';

export type LinkState = 'offline' | 'connecting' | 'online' | 'reconnecting';
export type EventName = keyof ServerToClientEvents;
export type EventPayload<E extends EventName> = Parameters<ServerToClientEvents[E]>[0];

/** 'offline' = no session; 'connecting' = first attempt; 'reconnecting' = lost and retrying. */
export const useLink = create<{ state: LinkState }>(() => ({ state: 'offline' }));
const setLink = (state: LinkState) => useLink.setState({ state });

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
let socket: ClientSocket | null = null;

const handlers = new Map<EventName, Set<(payload: never) => void>>();
const resyncs = new Set<() => void>();

/** Subscribes to a server event (survives reconnects and re-logins). Returns the unsubscribe. */
export function onEvent<E extends EventName>(
  event: E,
  handler: (payload: EventPayload<E>) => void,
): () => void {
  let set = handlers.get(event);
  if (!set) handlers.set(event, (set = new Set()));
  set.add(handler);
  return () => set.delete(handler);
}

/** Runs `fn` after every (re)connect: whatever was missed while down is reloaded over REST. */
export function onResync(fn: () => void): () => void {
  resyncs.add(fn);
  return () => resyncs.delete(fn);
}

/** Runs every resync now (after the phone's queued actions were replayed: the screen reloads). */
export function resyncNow(): void {
  for (const fn of resyncs) fn();
}

function dispatch(event: string, payload: unknown): void {
  for (const handler of handlers.get(event as EventName) ?? []) {
    try {
      (handler as (p: unknown) => void)(payload);
    } catch (err) {
      console.error(`Error al procesar ${event}`, err);
    }
  }
}

function connect(): void {
  if (socket) return;
  setLink('connecting');
  const options = {
    path: '/socket.io',
    // A function, so every handshake (reconnects included) carries the latest refreshed token.
    auth: (cb: (data: { token: string }) => void) => cb({ token: getStoredToken() ?? '' }),
    // WebSocket only, as the server (CONTRACT §18: no sticky balancer needed); REST polling covers the rest.
    transports: ['websocket'],
  };
  const s: ClientSocket = API_ORIGIN ? io(API_ORIGIN, options) : io(options);
  socket = s;

  s.on('connect', () => {
    setLink('online');
    resyncNow();
  });
  s.on('disconnect', () => {
    if (socket === s) setLink('reconnecting');
  });
  s.on('connect_error', (err) => {
    if (err.message === ERR.unauthorized) {
      toast.error(ERR.sessionExpired);
      return void useSession.getState().end();
    }
    setLink('reconnecting');
  });
  s.on(EV.sessionRevoked, ({ reason, detail }) => {
    if (reason === 'expired') {
      // The server drops the socket right after this; reconnect with the token refreshed meanwhile.
      s.once('disconnect', () => s.connect());
      return;
    }
    toast.error(detail);
    useSession.getState().end();
  });
  s.onAny(dispatch);
}

function disconnect(): void {
  const s = socket;
  socket = null;
  s?.removeAllListeners();
  s?.disconnect();
  setLink('offline');
}

let refreshTimer: ReturnType<typeof setInterval> | undefined;

/** When the token was issued (its `iat`), so a reloaded page refreshes a token older than an hour. */
function tokenAgeMs(token: string | null): number {
  try {
    const payload = JSON.parse(atob((token ?? '').split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    return Date.now() - Number(payload.iat) * 1000;
  } catch {
    return 0;
  }
}

/**
 * Starts the live session: follows the session store (connect + hourly token refresh while
 * authenticated, close on logout). Called once by main.tsx; returns the stop function.
 */
export function initRealtime(): () => void {
  const apply = (authenticated: boolean) => {
    if (authenticated && !socket) {
      connect();
      const refresh = () => void useSession.getState().refreshToken();
      if (tokenAgeMs(useSession.getState().token) > TOKEN_REFRESH_MS) refresh();
      refreshTimer = setInterval(refresh, TOKEN_REFRESH_MS);
    } else if (!authenticated && socket) {
      clearInterval(refreshTimer);
      disconnect();
    }
  };
  apply(useSession.getState().status === 'authenticated');
  const unsubscribe = useSession.subscribe((s) => apply(s.status === 'authenticated'));
  return () => {
    unsubscribe();
    apply(false);
  };
}

// ---- hooks for views and stores -------------------------------------------------------------

/** Subscribes a component to a server event for as long as it is mounted. */
export function useSocketEvent<E extends EventName>(
  event: E,
  handler: (payload: EventPayload<E>) => void,
): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => onEvent(event, (p) => ref.current(p)), [event]);
}

/** Loads now and again after every reconnect (the REST resync of CONTRACT §9). */
export function useResync(load: () => void): void {
  const ref = useRef(load);
  useEffect(() => {
    ref.current = load;
  });
  useEffect(() => {
    ref.current();
    return onResync(() => ref.current());
  }, []);
}

/** Runs `fn` every `intervalMs` only while the socket is not connected (SPEC §9 as the fallback). */
export function usePollingFallback(fn: () => void, intervalMs: number, enabled = true): void {
  const ref = useRef(fn);
  useEffect(() => {
    ref.current = fn;
  });
  const down = useLink((l) => l.state === 'connecting' || l.state === 'reconnecting');
  useEffect(() => {
    if (!down || !enabled) return;
    const timer = setInterval(() => ref.current(), intervalMs);
    return () => clearInterval(timer);
  }, [down, enabled, intervalMs]);
}
