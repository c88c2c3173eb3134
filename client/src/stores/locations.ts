// The yard's location catalogue (CONTRACT §17) for the Ubicaciones view and the task form's autocomplete,
// where each trailer stands (the create form's origin) and each place's free room (the destination's
// suggestions, CONTRACT §19). GET /locations is loaded once and then again on every `yard:changed` (sent
// on any catalogue or occupancy change) and on every reconnect; the trailers' places (GET /yard/trailers,
// staff) and the room (GET /yard's `free`, staff) likewise, from the first time the form asks.
import { useEffect } from 'react';
import { create } from 'zustand';
import { toast } from 'sonner';
import type {
  CreateLocationData,
  ImportLocationsResult,
  Location,
  MessageResponse,
  UpdateLocationData,
  YardLocation,
  YardTrailer,
} from '@shared/schemas';
import { UI_LOCATIONS } from '@shared/labels';
import { identityKey, placeKey } from '@shared/text';
import { api, ApiError, errorText } from '../api';
import { onResync, useResync, useSocketEvent } from '../socket';
import { onSessionEnd } from './session-end';

export type TrailerPlace = YardTrailer['location'];

interface LocationsState {
  /** The whole catalogue, deactivated places included, in the server's order (zone, code). */
  locations: Location[];
  loaded: boolean;
  /** The last load failed (the table shows a retry while it has nothing to show). */
  failed: boolean;
  /** Where each trailer in the yard stands, by its identity key. */
  trailerPlaces: Record<string, TrailerPlace>;
  trailersLoaded: boolean;
  /** Each active place's free room by its id, as GET /yard counts it (null: a gate, which holds none). */
  room: Record<string, number | null>;
  roomLoaded: boolean;
  load: () => Promise<void>;
  loadTrailers: () => Promise<void>;
  loadRoom: () => Promise<void>;
  /** Applies a place the server answered: replaces its row, or adds it in zone and code order. */
  received: (location: Location) => void;
  create: (data: CreateLocationData) => Promise<Location>;
  update: (id: string, changes: UpdateLocationData) => Promise<Location>;
  /** DELETE /admin/locations/{id} (soft); resolves with the server's message. */
  deactivate: (id: string) => Promise<string>;
  importCsv: (csv: string) => Promise<ImportLocationsResult>;
}

const initial = {
  locations: [] as Location[],
  loaded: false,
  failed: false,
  trailerPlaces: {} as Record<string, TrailerPlace>,
  trailersLoaded: false,
  room: {} as Record<string, number | null>,
  roomLoaded: false,
};

const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
const byZoneAndCode = (a: Location, b: Location) =>
  collator.compare(a.zone, b.zone) || collator.compare(a.code, b.code);

/**
 * Two loads may overlap (one asked before a change, one after): only the answer of the last one asked
 * is kept, so an older answer arriving late never undoes a newer one.
 */
let catalogueTicket = 0;
let trailersTicket = 0;
let roomTicket = 0;

export const useLocations = create<LocationsState>((set, get) => ({
  ...initial,
  async load() {
    const ticket = ++catalogueTicket;
    try {
      const locations = await api.get<Location[]>('/locations');
      if (ticket === catalogueTicket) set({ locations, loaded: true, failed: false });
    } catch (err) {
      if (ticket === catalogueTicket) set({ failed: true });
      throw err;
    }
  },
  async loadTrailers() {
    const ticket = ++trailersTicket;
    const trailers = await api.get<YardTrailer[]>('/yard/trailers');
    if (ticket !== trailersTicket) return;
    set({
      trailerPlaces: Object.fromEntries(trailers.map((t) => [t.trailer_id, t.location])),
      trailersLoaded: true,
    });
  },
  async loadRoom() {
    const ticket = ++roomTicket;
    const places = await api.get<YardLocation[]>('/yard');
    if (ticket !== roomTicket) return;
    set({ room: Object.fromEntries(places.map((p) => [p.id, p.free])), roomLoaded: true });
  },
  received(location) {
    set((s) => {
      const known = s.locations.some((l) => l.id === location.id);
      const locations = known
        ? s.locations.map((l) => (l.id === location.id ? location : l))
        : [...s.locations, location];
      return { locations: locations.sort(byZoneAndCode) };
    });
  },
  async create(data) {
    const location = await api.post<Location>('/admin/locations', data);
    get().received(location);
    return location;
  },
  async update(id, changes) {
    const location = await api.put<Location>(`/admin/locations/${id}`, changes);
    get().received(location);
    return location;
  },
  async deactivate(id) {
    const { message } = await api.del<MessageResponse>(`/admin/locations/${id}`);
    set((s) => ({ locations: s.locations.map((l) => (l.id === id ? { ...l, active: false } : l)) }));
    return message;
  },
  async importCsv(csv) {
    const result = await api.post<ImportLocationsResult>('/admin/locations/import', { csv });
    // Many rows changed at once: the whole catalogue again rather than row by row.
    await get().load();
    return result;
  },
}));

onSessionEnd(() => useLocations.setState(initial));

/**
 * Every mounted feed hears the same `yard:changed` (the board's two task forms, the Ubicaciones view): the
 * loads asked for in one go share one request. One already on its way is not reused: it may predate
 * the change.
 */
function oneRequestPerBurst(run: () => Promise<void>): () => Promise<void> {
  let asked: Promise<void> | null = null;
  return () =>
    (asked ??= Promise.resolve().then(() => {
      asked = null;
      return run();
    }));
}

const fetchCatalogue = oneRequestPerBurst(() => useLocations.getState().load());
const fetchTrailers = oneRequestPerBurst(() => useLocations.getState().loadTrailers());
const fetchRoom = oneRequestPerBurst(() => useLocations.getState().loadRoom());

// One toast id: a load that keeps failing replaces its toast instead of stacking.
const LOAD_ERROR_TOAST = 'locations-load-error';

/** Loads the catalogue for the Ubicaciones view; a failure is toasted (SPEC §8), never thrown. */
export const loadLocations = (): Promise<void> =>
  fetchCatalogue().catch((err: unknown) => {
    if (err instanceof ApiError && err.sessionEnded) return;
    toast.error(errorText(err, UI_LOCATIONS.toast.loadError), { id: LOAD_ERROR_TOAST });
  });

/** The form works without the catalogue (free text): a failed load is only logged. */
const quietly = (load: () => Promise<void>) => () =>
  void load().catch((err: unknown) => console.warn(UI_LOCATIONS.toast.loadError, err));

/** Loads again what has been loaded once (nothing before the first use). */
function refreshHeld(): void {
  const { loaded, trailersLoaded, roomLoaded } = useLocations.getState();
  if (loaded) quietly(fetchCatalogue)();
  if (trailersLoaded) quietly(fetchTrailers)();
  if (roomLoaded) quietly(fetchRoom)();
}

/** Mount in the Ubicaciones view: load + reload on every reconnect and on every catalogue change. */
export function useLocationsFeed(): void {
  useResync(() => void loadLocations());
  useSocketEvent('yard:changed', () => void loadLocations());
}

/**
 * Mount in the task form, which stays mounted while closed: the first opening loads the catalogue (and,
 * with `trailers`, the trailers' places; with `room`, each place's free room), later ones reuse it, kept
 * current by `yard:changed` and by reconnects — only what was loaded, so a form never opened fetches
 * nothing.
 */
export function usePlacesFeed(open: boolean, trailers: boolean, room = false): void {
  useEffect(() => {
    if (!open) return;
    const s = useLocations.getState();
    if (!s.loaded) quietly(fetchCatalogue)();
    if (trailers && !s.trailersLoaded) quietly(fetchTrailers)();
    if (room && !s.roomLoaded) quietly(fetchRoom)();
  }, [open, trailers, room]);
  useSocketEvent('yard:changed', refreshHeld);
  // Reconnects only (useResync would also load at mount, before the form is ever opened).
  useEffect(() => onResync(refreshHeld), []);
}

/** Where the trailer typed in the form stands, if it is in the yard. */
export const trailerPlaceOf = (places: Record<string, TrailerPlace>, trailer: string): TrailerPlace | null =>
  places[identityKey(trailer)] ?? null;

// A place's matching keys are computed once per catalogue row, not on every keystroke (a yard has thousands).
const keyCache = new WeakMap<Location, readonly [name: string, code: string]>();

/** The keys a place is matched by: its name's and its code's (shared/text.ts placeKey). */
export function placeKeys(place: Location): readonly [name: string, code: string] {
  let keys = keyCache.get(place);
  if (!keys) keyCache.set(place, (keys = [placeKey(place.name), placeKey(place.code)]));
  return keys;
}

/**
 * The place a text stands for, as the server maps it (CONTRACT §17): its name or its code, accents, case
 * and repeated spaces aside.
 */
export function placeNamed(places: readonly Location[], text: string): Location | null {
  const key = placeKey(text);
  if (!key) return null;
  return places.find((p) => placeKeys(p).includes(key)) ?? null;
}
