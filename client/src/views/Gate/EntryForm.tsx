// The Portería's entry (CONTRACT §19), in the order a gate works: the trailer's plate first (a known
// trailer fills its record in), the truck, its carrier (known ones suggested), driver and appointment, the
// load, the suggested place, the inspection with the camera; then POST /gate/entries.
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { LOAD_STATES, TRAILER_KINDS } from '@shared/enums';
import { alreadyInYardRefusal } from '@shared/gate';
import { LOAD_STATE_LABELS, TRAILER_KIND_LABELS, UI_GATE } from '@shared/labels';
import { gateEntrySchema, type InspectionCode, type Trailer } from '@shared/schemas';
import { plateKey } from '@shared/text';
import { ApiError, errorText } from '../../api';
import { Button } from '../../components/Button';
import { FormAlert } from '../../components/FormAlert';
import {
  registerEntry,
  registerExit,
  searchTrailers,
  suggestCarriers,
  uploadGatePhoto,
  useGate,
} from '../../stores/gate';
import { serverNow } from '../../stores/timeclock';
import {
  dropsTrailer,
  emptyDraft,
  entryBody,
  fillFromTrailer,
  type EntryDraft,
  type InspectionAnswer,
} from './entry';
import { Inspection } from './Inspection';
import { PlacePicker } from './PlacePicker';
import { BigField, BigText, bigInput, Choice, Section } from './ui';

/** How long typing pauses before the plate is looked up. */
const LOOKUP_DELAY_MS = 300;
/** Other known spellings offered under the plate. */
const SPELLINGS_SHOWN = 3;

/** GET /trailers?q= for the typed plate: the record whose key is the plate's, and close ones. */
function useTrailerLookup(plate: string): { known: Trailer | null; close: Trailer[]; searching: boolean } {
  const [found, setFound] = useState<{ q: string; trailers: Trailer[] }>({ q: '', trailers: [] });
  const key = plateKey(plate);
  useEffect(() => {
    if (!key) return;
    let current = true;
    const timer = setTimeout(() => {
      searchTrailers(plate).then(
        (trailers) => current && setFound({ q: key, trailers }),
        () => current && setFound({ q: key, trailers: [] }),
      );
    }, LOOKUP_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, plate]);
  const trailers = found.q === key ? found.trailers : [];
  return {
    known: (key && trailers.find((t) => plateKey(t.trailer_id) === key)) || null,
    close: trailers.filter((t) => plateKey(t.trailer_id) !== key).slice(0, SPELLINGS_SHOWN),
    searching: key !== '' && found.q !== key,
  };
}

export function EntryForm() {
  const [draft, setDraft] = useState<EntryDraft>(emptyDraft);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The refusal `ya está en el patio`: the trailer it names (the exit-and-enter offer). */
  const [inYard, setInYard] = useState<string | null>(null);
  const [reloadPlaces, setReloadPlaces] = useState(0);
  const set = useCallback(
    <K extends keyof EntryDraft>(field: K, value: EntryDraft[K]) =>
      setDraft((d) => ({ ...d, [field]: value })),
    [],
  );
  const setLocation = useCallback((id: string | null) => set('location_id', id), [set]);

  // A known trailer fills its record in once, when its plate is recognised (then the gate may change it).
  const { known, close, searching } = useTrailerLookup(draft.trailer_id);
  const [filledFrom, setFilledFrom] = useState<string | null>(null);
  useEffect(() => {
    if (known && known.trailer_id !== filledFrom) {
      setFilledFrom(known.trailer_id);
      setDraft((d) => fillFromTrailer(d, known));
    }
  }, [known, filledFrom]);

  const carriers = useGate((s) => s.carriers);
  const carrierOptions = useMemo(
    () => (draft.carrier.trim() ? suggestCarriers(carriers, draft.carrier) : []),
    [carriers, draft.carrier],
  );

  const setItem = (code: InspectionCode, answer: InspectionAnswer | undefined) =>
    setDraft((d) => {
      const items = { ...d.items };
      if (answer) items[code] = answer;
      else delete items[code];
      return { ...d, items };
    });
  const updatePhoto = (url: string, change: Partial<EntryDraft['photos'][number]>) =>
    setDraft((d) => ({ ...d, photos: d.photos.map((p) => (p.url === url ? { ...p, ...change } : p)) }));
  const takePhotos = (files: File[]) => {
    for (const file of files) {
      const url = URL.createObjectURL(file);
      setDraft((d) => ({ ...d, photos: [...d.photos, { url, status: 'uploading', id: null }] }));
      uploadGatePhoto(file).then(
        (id) => updatePhoto(url, { status: 'done', id }),
        (err: unknown) => {
          updatePhoto(url, { status: 'failed' });
          toast.error(errorText(err, UI_GATE.photoFailed));
        },
      );
    }
  };
  // A removed photo is only left out of the entry: the server drops unattached photos after 24 h.
  const removePhoto = (url: string) => {
    URL.revokeObjectURL(url);
    setDraft((d) => ({ ...d, photos: d.photos.filter((p) => p.url !== url) }));
  };

  const reset = () => {
    for (const p of draft.photos) URL.revokeObjectURL(p.url);
    setDraft(emptyDraft());
    setFilledFrom(null);
    setError(null);
    setInYard(null);
  };

  const send = async () => {
    setError(null);
    setInYard(null);
    if (draft.photos.some((p) => p.status === 'uploading')) return setError(UI_GATE.photosPending);
    const trailer = dropsTrailer(draft);
    if (trailer && !draft.location_id) return setError(UI_GATE.placeRequired);
    // A recognised trailer is sent as its record spells it (`r4136fvr` typed → `R-4136-FVR`).
    const body = entryBody(known ? { ...draft, trailer_id: known.trailer_id } : draft, serverNow());
    // The shared schema judges the form as the server will, so a mistake is shown before any request.
    const parsed = gateEntrySchema.safeParse(body);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? UI_GATE.enterError);
    setBusy(true);
    try {
      const { visit } = await registerEntry(body);
      toast.success(UI_GATE.entered(visit.truck_plate));
      reset();
      setReloadPlaces((n) => n + 1);
    } catch (err) {
      if (err instanceof ApiError && err.sessionEnded) return;
      const refusal = err instanceof ApiError && err.status === 409 ? alreadyInYardRefusal(err.detail) : null;
      if (refusal) setInYard(refusal.trailer_id);
      setError(errorText(err, UI_GATE.enterError));
    } finally {
      setBusy(false);
    }
  };

  /**
   * `Dar salida allí y registrar la entrada`: the trailer is still in the yard from an earlier entry whose
   * truck left without passing the gate. Kept simple: the open visit that dropped it is closed as having
   * taken it (POST /gate/exits), then this entry is sent again. A trailer that no open visit holds came in
   * by a task move or a staff correction: the gate is told to take it out from the Patio (`Dar salida`,
   * which staff check there) rather than this screen guessing which record to close.
   */
  const exitThereAndEnter = async () => {
    if (!inYard) return;
    const key = plateKey(inYard);
    const holder = useGate
      .getState()
      .open.find((v) => v.dropped_trailer_id !== null && plateKey(v.dropped_trailer_id) === key);
    if (!holder) {
      setInYard(null);
      return setError(UI_GATE.noVisitHolds(inYard));
    }
    setBusy(true);
    try {
      await registerExit({
        visit_id: holder.id,
        trailer: { trailer_id: holder.dropped_trailer_id ?? inYard },
      });
    } catch (err) {
      setBusy(false);
      if (!(err instanceof ApiError && err.sessionEnded)) setError(errorText(err, UI_GATE.exitError));
      return;
    }
    setBusy(false);
    await send();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };

  const withTrailer = dropsTrailer(draft);
  return (
    <form onSubmit={submit} aria-label={UI_GATE.entryTitle} className="space-y-4" noValidate>
      <Section title={UI_GATE.trailerSection}>
        <BigText
          label={UI_GATE.trailerPlate}
          hint={UI_GATE.trailerPlateHint}
          value={draft.trailer_id}
          onChange={(v) => set('trailer_id', v)}
          plate
          autoFocus
          className="h-14 text-2xl tracking-wide"
        />
        <div aria-live="polite" className="flex min-h-6 flex-wrap items-center gap-2 text-sm">
          {searching && <span className="text-slate-500">{UI_GATE.searchingTrailer}</span>}
          {!searching && known && (
            <>
              <span className="font-semibold text-emerald-700">{UI_GATE.knownTrailer(known.trailer_id)}</span>
              {known.in_yard && known.location && (
                <span className="font-semibold text-amber-700">
                  {UI_GATE.trailerInYard(known.location.name)}
                </span>
              )}
              {known.damaged && (
                <span className="font-semibold text-red-700">
                  {UI_GATE.trailerDamaged(known.damage_note)}
                </span>
              )}
            </>
          )}
          {!searching && !known && withTrailer && (
            <span className="text-slate-500">{UI_GATE.newTrailer}</span>
          )}
          {!searching &&
            !known &&
            close.map((t) => (
              <Choice key={t.trailer_id} onClick={() => set('trailer_id', t.trailer_id)}>
                {UI_GATE.knownSpelling(t.trailer_id)}
              </Choice>
            ))}
        </div>
      </Section>

      <Section title={UI_GATE.truckSection}>
        <div className="grid gap-3 sm:grid-cols-2">
          <BigText
            label={UI_GATE.truckPlate}
            value={draft.truck_plate}
            onChange={(v) => set('truck_plate', v)}
            plate
            className="text-lg"
          />
          <BigText label={UI_GATE.carrier} value={draft.carrier} onChange={(v) => set('carrier', v)} />
          {carrierOptions.length > 0 && (
            <div
              role="group"
              aria-label={UI_GATE.carrierSuggestions}
              className="flex flex-wrap gap-2 sm:col-span-2"
            >
              {carrierOptions.map((name) => (
                <Choice key={name} onClick={() => set('carrier', name)}>
                  {name}
                </Choice>
              ))}
            </div>
          )}
          <BigText
            label={UI_GATE.driverName}
            value={draft.driver_name}
            onChange={(v) => set('driver_name', v)}
          />
          <BigField label={UI_GATE.appointment} hint={UI_GATE.appointmentHint}>
            {(id) => (
              <input
                id={id}
                type="time"
                value={draft.appointment}
                onChange={(e) => set('appointment', e.target.value)}
                className={bigInput}
              />
            )}
          </BigField>
        </div>
      </Section>

      {withTrailer && (
        <>
          <Section title={UI_GATE.loadSection}>
            <div role="group" aria-label={UI_GATE.loadState} className="flex flex-wrap gap-2">
              {LOAD_STATES.map((s) => (
                <Choice key={s} pressed={draft.load_state === s} onClick={() => set('load_state', s)}>
                  {LOAD_STATE_LABELS[s]}
                </Choice>
              ))}
            </div>
            <div className="grid gap-3 sm:grid-cols-2">
              <BigField label={UI_GATE.kind}>
                {(id) => (
                  <select
                    id={id}
                    value={draft.kind}
                    onChange={(e) => set('kind', e.target.value as EntryDraft['kind'])}
                    className={bigInput}
                  >
                    {TRAILER_KINDS.map((k) => (
                      <option key={k} value={k}>
                        {TRAILER_KIND_LABELS[k]}
                      </option>
                    ))}
                  </select>
                )}
              </BigField>
              <BigText label={UI_GATE.seal} value={draft.seal} onChange={(v) => set('seal', v)} />
              <BigText
                label={UI_GATE.reference}
                value={draft.reference}
                onChange={(v) => set('reference', v)}
              />
              {(draft.kind === 'frigorifico' || draft.reefer_setpoint_c !== '') && (
                <BigText
                  label={UI_GATE.reeferSetpoint}
                  inputMode="decimal"
                  value={draft.reefer_setpoint_c}
                  onChange={(v) => set('reefer_setpoint_c', v)}
                />
              )}
            </div>
            <Choice pressed={draft.adr} tone="red" onClick={() => set('adr', !draft.adr)}>
              {UI_GATE.adr}
            </Choice>
          </Section>

          <PlacePicker
            loadState={draft.load_state}
            kind={draft.kind}
            value={draft.location_id}
            onChange={setLocation}
            reload={reloadPlaces}
          />

          <Inspection
            items={draft.items}
            onItem={setItem}
            photos={draft.photos}
            onTakePhotos={takePhotos}
            onRemovePhoto={removePhoto}
          />
        </>
      )}

      {error && (
        <FormAlert className="space-y-2 text-base">
          <p>{error}</p>
          {inYard && (
            <Button variant="warning" size="lg" loading={busy} onClick={() => void exitThereAndEnter()}>
              {UI_GATE.exitThereAndEnter}
            </Button>
          )}
        </FormAlert>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" size="lg" loading={busy} className="min-w-48 flex-1 sm:flex-none">
          {UI_GATE.submit}
        </Button>
        <Button variant="secondary" size="lg" onClick={reset} disabled={busy}>
          {UI_GATE.clear}
        </Button>
      </div>
    </form>
  );
}
