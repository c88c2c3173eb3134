// The Patio (CONTRACT §17): every active place with its trailers and reservations (GET /yard) and every
// trailer in the yard (GET /yard/trailers), loaded together and again on every `yard:changed`, every
// reconnect, and by polling while the socket is down. A burst of changes (a shift's moves) makes at most
// one load in flight plus one queued behind it: the queued one starts after the change it was asked for.
import { toast } from 'sonner';
import { create } from 'zustand';
import type { MessageResponse, SearchTask, YardLocation, YardTrailer } from '@shared/schemas';
import { POLL_MS } from '@shared/constants';
import { UI_YARD } from '@shared/labels';
import { identityKey } from '@shared/text';
import { api, ApiError } from '../api';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { markYardRender } from '../views/Yard/measure';
import { onSessionEnd } from './session-end';

interface YardState {
  /** Active places, in the server's order (zone, y, x). */
  places: YardLocation[];
  trailers: YardTrailer[];
  loaded: boolean;
  /** The last load failed (before the first one worked, the view offers a retry). */
  failed: boolean;
}

const initial: YardState = { places: [], trailers: [], loaded: false, failed: false };

export const useYard = create<YardState>(() => initial);

/**
 * The new rows, reusing the previous object of every row that did not change (and the previous array
 * when nothing did): the map's places are memoized by identity, so a change to one place re-renders
 * that place only, and an unchanged answer renders nothing.
 */
function keepUnchanged<T>(prev: T[], next: T[], keyOf: (row: T) => string): T[] {
  const before = new Map(prev.map((row) => [keyOf(row), row]));
  let same = prev.length === next.length;
  const merged = next.map((row, i) => {
    const old = before.get(keyOf(row));
    const kept = old !== undefined && JSON.stringify(old) === JSON.stringify(row) ? old : row;
    if (kept !== prev[i]) same = false;
    return kept;
  });
  return same ? prev : merged;
}

/** Bumped when the session ends: a load answered after that is dropped. */
let generation = 0;

async function load(): Promise<void> {
  const asked = generation;
  const [places, trailers] = await Promise.all([
    api.get<YardLocation[]>('/yard'),
    api.get<YardTrailer[]>('/yard/trailers'),
  ]);
  if (asked !== generation) return;
  const prev = useYard.getState();
  const nextPlaces = keepUnchanged(prev.places, places, (p) => p.id);
  if (nextPlaces !== prev.places) markYardRender();
  useYard.setState({
    places: nextPlaces,
    trailers: keepUnchanged(prev.trailers, trailers, (t) => t.trailer_id),
    loaded: true,
    failed: false,
  });
}

let failing = false;
function reportLoadError(err: unknown): void {
  useYard.setState({ failed: true });
  console.warn(UI_YARD.loadError, err);
  // One toast per failing spell; a lost link (status 0) has its own indicator, a 401 is silent.
  if (failing || (err instanceof ApiError && (err.sessionEnded || err.status === 0))) return;
  failing = true;
  toast.error(UI_YARD.loadError);
}

let inFlight: Promise<void> | null = null;
let queued = false;

/**
 * Loads the yard now, or, when a load is already on its way (it may have left before the change that
 * asks again), once more right after it. Never rejects: a failure is reported.
 */
export function refreshYard(): Promise<void> {
  if (inFlight) {
    queued = true;
    return inFlight;
  }
  inFlight = load()
    .then(() => {
      failing = false;
    }, reportLoadError)
    .finally(() => {
      inFlight = null;
      if (queued) {
        queued = false;
        void refreshYard();
      }
    });
  return inFlight;
}

onSessionEnd(() => {
  generation++;
  queued = false;
  failing = false;
  useYard.setState(initial);
});

/** Mount in the Patio view: load, then follow every change while it is shown. */
export function useYardFeed(): void {
  useResync(refreshYard);
  useSocketEvent('yard:changed', refreshYard);
  usePollingFallback(refreshYard, POLL_MS.dashboard);
}

/** POST /yard/trailers/{trailer}/leave: staff mark a trailer gone. Resolves with the server's message. */
export async function leaveYard(trailerId: string): Promise<string> {
  const { message } = await api.post<MessageResponse>(
    `/yard/trailers/${encodeURIComponent(trailerId)}/leave`,
  );
  void refreshYard();
  return message;
}

/** How many of a trailer's latest tasks its panel lists. */
export const TRAILER_HISTORY_SHOWN = 8;

/**
 * A trailer's latest tasks, newest first, from the searcher (CONTRACT §5). Its trailer search matches
 * substrings (R-1 also finds R-10): only this trailer's own tasks are kept.
 */
export async function trailerHistory(trailerId: string): Promise<SearchTask[]> {
  const found = await api.get<SearchTask[]>('/admin/search/tasks', {
    search_type: 'trailer',
    query: trailerId,
  });
  const key = identityKey(trailerId);
  return found.filter((t) => identityKey(t.trailer_id) === key).slice(0, TRAILER_HISTORY_SHOWN);
}
