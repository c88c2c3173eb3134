// A trailer of the Patio (CONTRACT §17): where it stands, since when and for how long, its open task and
// its latest moves (from the searcher); "Mover a…" opens the create form with a move (the map's drag,
// by keyboard), and staff give it leave from the yard after confirming.
import { TrailerMarks } from '../../components/trailers/TrailerMarks';
import { useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { LogOut, PauseCircle } from 'lucide-react';
import { dwellLevel } from '@shared/dwell';
import { UI_ATTENTION, UI_COMMON, UI_YARD } from '@shared/labels';
import type { SearchTask, YardLocation, YardTrailer } from '@shared/schemas';
import { formatDateTime, formatDuration } from '@shared/time';
import { toast } from 'sonner';
import { StatusBadge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { cn } from '../../components/cn';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { inputClass } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Spinner';
import { leaveYard, trailerHistory, useYard } from '../../stores/yard';
import { toastError } from '../../toast';
import { DWELL_CHIP } from './dwellStyle';
import { isFull, proposeMove } from './move';

const P = UI_YARD.panel;

interface TrailerPanelProps {
  /** The trailer shown; null closes the panel. */
  trailerId: string | null;
  onClose: () => void;
  now: number;
}

export function TrailerPanel({ trailerId, onClose, now }: TrailerPanelProps) {
  const trailer = useYard((s) => s.trailers.find((t) => t.trailer_id === trailerId));
  const [leaving, setLeaving] = useState(false);

  const leave = async () => {
    if (!trailer) return;
    try {
      toast.success(await leaveYard(trailer.trailer_id));
      onClose();
    } catch (err) {
      toastError(err, UI_YARD.toast.leaveError);
      throw err;
    }
  };

  return (
    <Modal
      open={trailerId !== null}
      onOpenChange={(open) => !open && onClose()}
      title={trailerId ? P.title(trailerId) : ''}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {UI_COMMON.close}
          </Button>
          {trailer && (
            <Button
              variant="danger"
              disabled={trailer.open_task !== null}
              title={trailer.open_task ? P.busy : undefined}
              onClick={() => setLeaving(true)}
            >
              <LogOut aria-hidden className="size-4" />
              {P.leave}
            </Button>
          )}
        </>
      }
    >
      {trailer ? (
        <div className="space-y-5">
          <Details trailer={trailer} now={now} />
          <MoveTo trailer={trailer} onProposed={onClose} />
          <History trailer={trailer} />
        </div>
      ) : (
        <p className="text-sm text-slate-600">{P.gone}</p>
      )}
      {trailer && (
        <ConfirmDialog
          open={leaving}
          onOpenChange={setLeaving}
          title={UI_YARD.leaveDialog.title}
          message={UI_YARD.leaveDialog.message(trailer.trailer_id, trailer.location.name)}
          confirmLabel={UI_YARD.leaveDialog.confirm}
          onConfirm={leave}
        />
      )}
    </Modal>
  );
}

function Details({ trailer, now }: { trailer: YardTrailer; now: number }) {
  const dwell = now - Date.parse(trailer.since);
  const level = dwellLevel(dwell);
  const task = trailer.open_task;
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:grid-cols-3">
      <Item label={P.place}>
        <span className="font-semibold text-slate-900">{trailer.location.name}</span>
        <span className="block text-xs text-slate-500">
          {trailer.location.zone} · {trailer.location.code}
        </span>
        <TrailerMarks marks={trailer.marks} className="mt-1" />
      </Item>
      <Item label={P.since}>
        <time dateTime={trailer.since}>{formatDateTime(trailer.since)}</time>
      </Item>
      <Item label={P.dwell}>
        <span
          data-dwell={level}
          className={cn('inline-block rounded-md px-2 py-0.5 font-semibold tabular-nums', DWELL_CHIP[level])}
        >
          {formatDuration(dwell)}
        </span>
      </Item>
      <Item label={P.openTask} wide>
        {task ? (
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-slate-900">
              {task.title} → {task.destination}
            </span>
            <StatusBadge status={task.status} />
            {task.on_hold && (
              <span className="inline-flex items-center gap-1 font-semibold text-violet-800">
                <PauseCircle aria-hidden className="size-4" />
                {UI_ATTENTION.held(task.hold_reason)}
              </span>
            )}
          </span>
        ) : (
          <span className="text-slate-500">{P.noOpenTask}</span>
        )}
      </Item>
    </dl>
  );
}

function Item({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={cn('min-w-0', wide && 'col-span-full')}>
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-slate-800">{children}</dd>
    </div>
  );
}

/** The places a trailer can be sent to, by zone; full ones shown but not choosable. */
function useDestinations(currentId: string): [string, YardLocation[]][] {
  const places = useYard((s) => s.places);
  return useMemo(() => {
    const byZone = new Map<string, YardLocation[]>();
    for (const p of places) {
      if (p.id === currentId) continue;
      byZone.set(p.zone, [...(byZone.get(p.zone) ?? []), p]);
    }
    return [...byZone.entries()];
  }, [places, currentId]);
}

function MoveTo({ trailer, onProposed }: { trailer: YardTrailer; onProposed: () => void }) {
  const zones = useDestinations(trailer.location.id);
  const [target, setTarget] = useState('');
  if (trailer.open_task)
    return <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">{P.busy}</p>;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const to = zones.flatMap(([, list]) => list).find((p) => p.id === target);
    if (!to) return;
    // The panel closes first: the create form is a dialog of its own.
    onProposed();
    proposeMove(trailer.trailer_id, trailer.location, to);
  };

  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <label className="min-w-0 flex-1 space-y-1.5">
        <span className="block text-sm font-medium text-slate-700">{P.moveTo}</span>
        <select value={target} onChange={(e) => setTarget(e.target.value)} className={inputClass}>
          <option value="" disabled>
            {P.movePlaceholder}
          </option>
          {zones.map(([zone, list]) => (
            <optgroup key={zone} label={zone}>
              {list.map((p) => (
                <option key={p.id} value={p.id} disabled={isFull(p)}>
                  {isFull(p) ? P.moveFull(p.name) : p.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <Button type="submit" disabled={!target}>
        {P.move}
      </Button>
    </form>
  );
}

type HistoryState = { status: 'loading' } | { status: 'error' } | { status: 'done'; tasks: SearchTask[] };

function History({ trailer }: { trailer: YardTrailer }) {
  const [history, setHistory] = useState<HistoryState>({ status: 'loading' });
  const { trailer_id, since } = trailer;
  const openTaskId = trailer.open_task?.id;
  // Again when the trailer moves or gets a task: the panel stays current while it is open.
  useEffect(() => {
    let current = true;
    trailerHistory(trailer_id).then(
      (tasks) => current && setHistory({ status: 'done', tasks }),
      (err: unknown) => {
        console.warn(P.historyError, err);
        if (current) setHistory({ status: 'error' });
      },
    );
    return () => {
      current = false;
    };
  }, [trailer_id, since, openTaskId]);

  return (
    <section aria-labelledby="trailer-history" className="space-y-2">
      <h3 id="trailer-history" className="text-sm font-semibold text-slate-900">
        {P.history}
      </h3>
      {history.status === 'loading' ? (
        <Spinner />
      ) : history.status === 'error' ? (
        <p className="text-sm text-red-700">{P.historyError}</p>
      ) : history.tasks.length === 0 ? (
        <p className="text-sm text-slate-500">{P.historyEmpty}</p>
      ) : (
        <ol
          className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200"
          data-testid="trailer-history"
        >
          {history.tasks.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
              <time
                dateTime={t.completed_at ?? t.created_at}
                className="w-36 shrink-0 tabular-nums text-slate-500"
              >
                {formatDateTime(t.completed_at ?? t.created_at)}
              </time>
              <span className="min-w-0 flex-1 font-medium text-slate-900">
                {t.origin} → {t.destination}
              </span>
              {t.on_hold && (
                <span className="text-xs font-semibold text-violet-800">
                  {UI_ATTENTION.held(t.hold_reason)}
                </span>
              )}
              <StatusBadge status={t.status} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
