// The Portería's entry form as data: what it holds, what a known trailer fills in, and the body of POST
// /gate/entries it sends (CONTRACT §19). Kept apart from the components so the rules read in one place.
import type { LoadState, TrailerKind } from '@shared/enums';
import type { GateEntryInput, InspectionCode, Trailer } from '@shared/schemas';
import { INSPECTION_CODES } from '@shared/schemas';
import { madridDay, madridWallToUtc } from '@shared/time';

/** A photo of the inspection: shown at once from the device, uploaded in the background. */
export interface DraftPhoto {
  /** The thumbnail's object URL (also the photo's key in the list). */
  url: string;
  status: 'uploading' | 'done' | 'failed';
  /** The server's id once uploaded. */
  id: string | null;
}

export interface InspectionAnswer {
  ok: boolean;
  note: string;
}

export interface EntryDraft {
  trailer_id: string;
  kind: TrailerKind;
  load_state: LoadState;
  seal: string;
  reference: string;
  adr: boolean;
  /** As typed: empty for none. */
  reefer_setpoint_c: string;
  truck_plate: string;
  carrier: string;
  driver_name: string;
  /** Today's Madrid time `HH:MM` of the appointment, empty for none. */
  appointment: string;
  location_id: string | null;
  items: Partial<Record<InspectionCode, InspectionAnswer>>;
  photos: DraftPhoto[];
}

export const emptyDraft = (): EntryDraft => ({
  trailer_id: '',
  kind: 'otro',
  load_state: 'desconocido',
  seal: '',
  reference: '',
  adr: false,
  reefer_setpoint_c: '',
  truck_plate: '',
  carrier: '',
  driver_name: '',
  appointment: '',
  location_id: null,
  items: {},
  photos: [],
});

/** What a known trailer's record fills in (CONTRACT §19: "a known trailer's record filled in"). */
export const fillFromTrailer = (draft: EntryDraft, t: Trailer): EntryDraft => ({
  ...draft,
  kind: t.kind,
  load_state: t.load_state,
  seal: t.seal ?? '',
  reference: t.reference ?? '',
  adr: t.adr,
  reefer_setpoint_c: t.reefer_setpoint_c === null ? '' : String(t.reefer_setpoint_c),
});

/** Today's (Madrid) `HH:MM` as an instant: the appointment a gate types is today's. */
export function appointmentIso(hhmm: string, nowMs: number): string | null {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!match) return null;
  const [y, m, d] = madridDay(nowMs).split('-').map(Number);
  return new Date(madridWallToUtc(y, m, d, Number(match[1])) + Number(match[2]) * 60_000).toISOString();
}

/** Whether the entry drops a trailer (a plate was typed): only then are its place and record sent. */
export const dropsTrailer = (draft: EntryDraft): boolean => draft.trailer_id.trim() !== '';

/** The body of POST /gate/entries; the shared schema cleans it on the server (and refuses what is wrong). */
export function entryBody(draft: EntryDraft, nowMs: number): GateEntryInput {
  const text = (s: string) => s.trim() || null;
  const body: GateEntryInput = {
    truck_plate: draft.truck_plate,
    carrier: draft.carrier,
    driver_name: text(draft.driver_name),
    appointment_at: appointmentIso(draft.appointment, nowMs),
  };
  if (!dropsTrailer(draft)) return body;
  const items = INSPECTION_CODES.flatMap((code) => {
    const answer = draft.items[code];
    return answer ? [{ code, ok: answer.ok, note: answer.ok ? null : text(answer.note) }] : [];
  });
  const photo_ids = draft.photos.flatMap((p) => (p.id ? [p.id] : []));
  const setpoint = draft.reefer_setpoint_c.trim().replace(',', '.');
  return {
    ...body,
    trailer: {
      trailer_id: draft.trailer_id,
      kind: draft.kind,
      load_state: draft.load_state,
      seal: text(draft.seal),
      reference: text(draft.reference),
      adr: draft.adr,
      reefer_setpoint_c: setpoint === '' ? null : Number(setpoint),
      location_id: draft.location_id ?? '',
      ...(items.length || photo_ids.length ? { inspection: { items, photo_ids } } : {}),
    },
  };
}
