// The trucks in the yard now (CONTRACT §19): each open visit with its stay ticking and its wait coloured by
// the shared rule (amber past 1 h, red past 2 h), and its exit: the trailer it takes and that trailer's seal
// (POST /gate/exits); a seal that differs from the recorded one is shown as a warning once the answer flags it.
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Truck } from 'lucide-react';
import { waitS, waitTone, type WaitTone } from '@shared/gate';
import { UI_GATE } from '@shared/labels';
import type { GateVisit } from '@shared/schemas';
import { formatDuration, formatTime } from '@shared/time';
import { ApiError, errorText } from '../../api';
import { Button } from '../../components/Button';
import { cn } from '../../components/cn';
import { FormAlert } from '../../components/FormAlert';
import { useElapsed } from '../../components/board/hooks';
import { refreshGate, registerExit, useGate } from '../../stores/gate';
import { BigText } from './ui';

const ROW_TONE: Record<WaitTone, string> = {
  none: 'bg-white ring-slate-200',
  amber: 'bg-amber-50 ring-2 ring-amber-400',
  red: 'bg-red-50 ring-2 ring-red-500',
};
const WAIT_TEXT: Record<WaitTone, string> = {
  none: 'text-slate-700',
  amber: 'text-amber-800',
  red: 'text-red-700',
};

export function OpenVisits() {
  const open = useGate((s) => s.open);
  const loaded = useGate((s) => s.loaded);
  const failed = useGate((s) => s.failed);
  /** The last exit whose seal did not match: stays until the gate acknowledges it. */
  const [mismatch, setMismatch] = useState<GateVisit | null>(null);
  return (
    <section id="gate-open" aria-labelledby="gate-open-title" className="scroll-mt-4 space-y-3">
      <h2 id="gate-open-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Truck aria-hidden className="size-5 text-slate-500" />
        {UI_GATE.inYardTitle}
        {loaded && <span className="text-slate-500">({open.length})</span>}
      </h2>
      {mismatch && (
        <div
          role="alert"
          className="space-y-2 rounded-lg bg-amber-50 p-3 text-base text-amber-900 ring-2 ring-amber-400"
        >
          <p>{UI_GATE.sealMismatch(mismatch.truck_plate, mismatch.exit_seal ?? '')}</p>
          <Button variant="secondary" size="lg" onClick={() => setMismatch(null)}>
            {UI_GATE.dismiss}
          </Button>
        </div>
      )}
      {failed && !loaded && (
        <FormAlert className="flex items-center justify-between gap-2">
          {UI_GATE.loadError}
          <Button variant="secondary" size="lg" onClick={() => void refreshGate()}>
            {UI_GATE.retry}
          </Button>
        </FormAlert>
      )}
      {loaded && open.length === 0 && <p className="text-slate-500">{UI_GATE.inYardEmpty}</p>}
      <ul className="space-y-3">
        {open.map((visit) => (
          <VisitRow key={visit.id} visit={visit} onSealMismatch={setMismatch} />
        ))}
      </ul>
    </section>
  );
}

function VisitRow({ visit, onSealMismatch }: { visit: GateVisit; onSealMismatch: (v: GateVisit) => void }) {
  // The shared ticking clock: now = entry + the time since; the stay and the wait follow the shared rule.
  const stayMs = useElapsed(visit.entered_at);
  const now = Date.parse(visit.entered_at) + stayMs;
  const wait = waitS(visit, now);
  const tone = waitTone(wait);
  const [exiting, setExiting] = useState(false);
  return (
    <li
      data-testid="open-visit"
      data-tone={tone}
      className={cn('space-y-2 rounded-xl p-4 shadow-sm ring-1', ROW_TONE[tone])}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-mono text-xl font-bold text-slate-900">{visit.truck_plate}</p>
          <p className="text-base text-slate-700">
            {visit.carrier}
            {visit.driver_name && ` · ${visit.driver_name}`}
          </p>
          <p className="text-sm text-slate-500">
            {UI_GATE.enteredAt(formatTime(visit.entered_at))}
            {visit.appointment_at && ` · ${UI_GATE.appointmentAt(formatTime(visit.appointment_at))}`}
            {visit.dropped_trailer_id && ` · ${UI_GATE.dropped(visit.dropped_trailer_id)}`}
          </p>
        </div>
        <dl className="grid grid-cols-[auto_auto] gap-x-3 text-right text-base">
          <dt className="text-slate-500">{UI_GATE.stay}</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{formatDuration(stayMs)}</dd>
          <dt className="text-slate-500">{UI_GATE.wait}</dt>
          <dd data-testid="wait" className={cn('font-semibold tabular-nums', WAIT_TEXT[tone])}>
            {formatDuration(wait * 1000)}
          </dd>
        </dl>
      </div>
      {exiting ? (
        <ExitForm visit={visit} onDone={() => setExiting(false)} onSealMismatch={onSealMismatch} />
      ) : (
        <Button size="lg" variant="secondary" className="w-full" onClick={() => setExiting(true)}>
          {UI_GATE.exit}
        </Button>
      )}
    </li>
  );
}

function ExitForm({
  visit,
  onDone,
  onSealMismatch,
}: {
  visit: GateVisit;
  onDone: () => void;
  onSealMismatch: (v: GateVisit) => void;
}) {
  const [trailer, setTrailer] = useState('');
  const [seal, setSeal] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const closed = await registerExit({
        visit_id: visit.id,
        ...(trailer.trim() ? { trailer: { trailer_id: trailer, seal: seal.trim() || null } } : {}),
      });
      toast.success(UI_GATE.exited(closed.truck_plate));
      if (closed.seal_mismatch) onSealMismatch(closed);
    } catch (err) {
      setBusy(false);
      if (!(err instanceof ApiError && err.sessionEnded)) setError(errorText(err, UI_GATE.exitError));
    }
  };
  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-label={UI_GATE.exitTitle(visit.truck_plate)}
      className="space-y-3 border-t border-slate-200 pt-3"
      noValidate
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
        <BigText
          label={UI_GATE.pickedTrailer}
          hint={UI_GATE.pickedTrailerHint}
          value={trailer}
          onChange={setTrailer}
          plate
          autoFocus
        />
        <BigText label={UI_GATE.exitSeal} value={seal} onChange={setSeal} disabled={!trailer.trim()} />
      </div>
      {error && <FormAlert>{error}</FormAlert>}
      <div className="flex gap-2">
        <Button type="submit" size="lg" variant="success" loading={busy} className="flex-1">
          {UI_GATE.confirmExit}
        </Button>
        <Button size="lg" variant="secondary" onClick={onDone} disabled={busy}>
          {UI_GATE.cancel}
        </Button>
      </div>
    </form>
  );
}
