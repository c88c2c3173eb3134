// The Portería (CONTRACT §19): the trucks in the yard now (GET /gate/visits?open=true), kept live by
// `gate:changed {visit}`, every reconnect and polling while the socket is down; the carriers seen (for the
// form's autocompletion, grouped by their folded key); and the calls of an entry and an exit: the trailer
// look-up, the suggested places, the photo uploads, POST /gate/entries and POST /gate/exits.
import { toast } from 'sonner';
import { create } from 'zustand';
import { POLL_MS } from '@shared/constants';
import type { LoadState, TrailerKind } from '@shared/enums';
import { UI_GATE } from '@shared/labels';
import type {
  GateEntryInput,
  GateEntryResult,
  GateExitInput,
  GateExitResult,
  GatePhotoCreated,
  GateSuggestion,
  GateVisit,
  GateVisitList,
  Trailer,
  TrailerList,
} from '@shared/schemas';
import { carrierKey } from '@shared/text';
import { api, ApiError } from '../api';
import { usePollingFallback, useResync, useSocketEvent } from '../socket';
import { onSessionEnd } from './session-end';

interface GateState {
  /** The open visits, oldest entry first. */
  open: GateVisit[];
  /** Every carrier seen in a visit, by its folded key (CONTRACT §19), first spelling kept. */
  carriers: Record<string, string>;
  loaded: boolean;
  failed: boolean;
}

const initial: GateState = { open: [], carriers: {}, loaded: false, failed: false };

export const useGate = create<GateState>(() => initial);

const byEntry = (a: GateVisit, b: GateVisit) => a.entered_at.localeCompare(b.entered_at);

/** Learns the carriers of these visits (the form suggests them). */
function learnCarriers(visits: readonly GateVisit[]): Record<string, string> {
  const carriers = useGate.getState().carriers;
  const next = { ...carriers };
  for (const v of visits) next[carrierKey(v.carrier)] ??= v.carrier;
  return Object.keys(next).length === Object.keys(carriers).length ? carriers : next;
}

/** A visit as it stands now: open ones join (or replace themselves in) the list, closed ones leave it. */
function applyVisit(visit: GateVisit): void {
  const rest = useGate.getState().open.filter((v) => v.id !== visit.id);
  useGate.setState({
    open: visit.exited_at === null ? [...rest, visit].sort(byEntry) : rest,
    carriers: learnCarriers([visit]),
  });
}

/** Bumped when the session ends: an answer after that is dropped. */
let generation = 0;
let failing = false;

/** GET /gate/visits?open=true. Never rejects: a failure is reported once per failing spell. */
export async function refreshGate(): Promise<void> {
  const asked = generation;
  try {
    const { visits } = await api.get<GateVisitList>('/gate/visits', { open: true });
    if (asked !== generation) return;
    useGate.setState({
      open: [...visits].sort(byEntry),
      carriers: learnCarriers(visits),
      loaded: true,
      failed: false,
    });
    failing = false;
  } catch (err) {
    if (asked !== generation) return;
    useGate.setState({ failed: true });
    console.warn(UI_GATE.loadError, err);
    if (failing || (err instanceof ApiError && (err.sessionEnded || err.status === 0))) return;
    failing = true;
    toast.error(UI_GATE.loadError);
  }
}

onSessionEnd(() => {
  generation++;
  failing = false;
  useGate.setState(initial);
});

/** Mount in the Portería: load, then follow every visit that opens or closes while it is shown. */
export function useGateFeed(): void {
  useResync(refreshGate);
  useSocketEvent('gate:changed', ({ visit }) => applyVisit(visit));
  usePollingFallback(refreshGate, POLL_MS.dashboard);
}

/** The known carriers whose folded name contains the text's (all of them for an empty text). */
export function suggestCarriers(carriers: Record<string, string>, text: string, limit = 6): string[] {
  const key = carrierKey(text);
  return Object.entries(carriers)
    .filter(([k]) => k.includes(key) && k !== key)
    .sort(([a], [b]) => Number(!b.startsWith(key)) - Number(!a.startsWith(key)) || a.localeCompare(b))
    .slice(0, limit)
    .map(([, name]) => name);
}

/** GET /trailers?q=: the records whose plate key starts with or contains the text's. */
export async function searchTrailers(q: string): Promise<Trailer[]> {
  const { trailers } = await api.get<TrailerList>('/trailers', { q });
  return trailers;
}

/** GET /gate/suggestions: where a trailer of this load state and kind should go, best first. */
export const gateSuggestions = (load_state: LoadState, kind: TrailerKind): Promise<GateSuggestion[]> =>
  api.get<GateSuggestion[]>('/gate/suggestions', { load_state, kind });

/** POST /gate/photos: one photo, uploaded as it is taken. Resolves with its id. */
export async function uploadGatePhoto(file: Blob): Promise<string> {
  const form = new FormData();
  form.append('photo', file);
  const { id } = await api.upload<GatePhotoCreated>('/gate/photos', form);
  return id;
}

/** POST /gate/entries: the visit opens at once on this screen (the event confirms it elsewhere). */
export async function registerEntry(body: GateEntryInput): Promise<GateEntryResult> {
  const result = await api.post<GateEntryResult>('/gate/entries', body);
  applyVisit(result.visit);
  return result;
}

/** POST /gate/exits: the visit closes and leaves the list. */
export async function registerExit(body: GateExitInput): Promise<GateVisit> {
  const { visit } = await api.post<GateExitResult>('/gate/exits', body);
  applyVisit(visit);
  return visit;
}
