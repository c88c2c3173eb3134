import { TrailerMarks } from '../../components/trailers/TrailerMarks';
import { useState } from 'react';
import { CircleCheckBig, MapPin, ScanLine, TriangleAlert, Truck, Undo2 } from 'lucide-react';
import { RETURN_REASONS, type ReturnReason } from '@shared/enums';
import type { Task } from '@shared/schemas';
import { PRIORITY_LABELS, PROOF_TEXT, TOAST, UI_DRIVER, VEHICLE_BADGES, taskLabel } from '@shared/labels';
import { formatDateTime } from '@shared/time';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { DeadlineChip } from '../../components/board/DeadlineChip';
import { cn } from '../../components/cn';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { Spinner } from '../../components/Spinner';
import { PRIORITY_TONE, VEHICLE_TONE } from '../../components/tones';
import { closeOwnTask, useActiveTask, useDriver } from '../../stores/driver';
import { useLocations, usePlacesFeed } from '../../stores/locations';
import { ScanDialog } from './ScanDialog';

const T = UI_DRIVER.activeTask;

const nameOf = (task: Task) => taskLabel({ title: task.title, trailerId: task.trailer_id });

/** SPEC §2 'Mi Tarea Activa': what the driver must do now, and the two ways to finish it. */
export function ActiveTaskCard() {
  const active = useActiveTask();
  const loaded = useDriver((s) => s.activeLoaded);
  return (
    <Card
      title={T.title}
      icon={<Truck aria-hidden className="size-5" />}
      className={cn(active && 'ring-2 ring-blue-600')}
      bodyClassName={active ? 'sm:p-5' : undefined}
    >
      {active ? (
        <ActiveTask task={active} />
      ) : loaded ? (
        <EmptyState title={T.noneTitle} hint={T.noneHint} icon={<Truck aria-hidden className="size-6" />} />
      ) : (
        <p role="status" className="flex items-center justify-center gap-2 py-10 text-sm text-slate-600">
          <Spinner />
          {T.loading}
        </p>
      )}
    </Card>
  );
}

function ActiveTask({ task }: { task: Task }) {
  const [confirm, setConfirm] = useState<'scan' | 'complete' | 'return' | null>(null);
  // The catalogue for the scan (CONTRACT §20): loaded once, kept in memory for a scan made offline.
  usePlacesFeed(true, false);
  const locations = useLocations((s) => s.locations);
  const close = (open: boolean) => !open && setConfirm(null);

  return (
    <article aria-label={T.title} data-testid="active-task" className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="blue" solid className="px-2.5 py-1 text-sm">
          {T.inProgress}
        </Badge>
        <Badge tone={VEHICLE_TONE[task.vehicle_type]} solid className="px-2.5 py-1 text-sm">
          {VEHICLE_BADGES[task.vehicle_type]}
        </Badge>
        <DeadlineChip task={task} large className="py-1" />
      </div>

      <div>
        <h3 className="text-2xl font-bold text-slate-950">{task.title}</h3>
        {task.description && <p className="mt-1 text-base text-slate-800">{task.description}</p>}
      </div>

      {task.last_return_reason && (
        <p
          data-testid="returned-before"
          className="flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-base font-semibold text-amber-900 ring-1 ring-inset ring-amber-300"
        >
          <TriangleAlert aria-hidden className="size-5 shrink-0" />
          {T.returnedBefore(task.last_return_reason)}
        </p>
      )}

      <div className="rounded-xl bg-slate-900 p-4 text-white">
        <p className="text-xs font-semibold uppercase tracking-wider text-slate-300">{T.trailer}</p>
        <p className="break-all font-mono text-3xl font-bold tracking-wide" data-testid="active-trailer">
          {task.trailer_id}
        </p>
        <TrailerMarks
          marks={task.trailer}
          dark
          className="mt-2 [&>span]:text-sm [&>span]:leading-6 [&>span]:px-2"
        />
      </div>

      <ol className="space-y-2">
        <RouteStop label={T.origin} place={task.origin} className="text-slate-600" />
        <RouteStop label={T.destination} place={task.destination} className="text-blue-700" />
      </ol>

      {/* Right after the route: on a phone the destination and the action show without scrolling, even
          under a new-task alert (issue 28); the details follow. One per row at every width: side by side they would wrap inside their 48 px on a tablet's column. */}
      <div className="grid gap-3">
        <Button variant="primary" size="lg" className="w-full" onClick={() => setConfirm('scan')}>
          <ScanLine aria-hidden className="size-5" />
          {PROOF_TEXT.scanButton}
        </Button>
        <Button variant="success" size="lg" className="w-full" onClick={() => setConfirm('complete')}>
          <CircleCheckBig aria-hidden className="size-5" />
          {T.complete}
        </Button>
        <Button variant="secondary" size="lg" className="w-full" onClick={() => setConfirm('return')}>
          <Undo2 aria-hidden className="size-5" />
          {T.returnToPool}
        </Button>
      </div>

      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
        <div>
          <dt className="font-medium text-slate-600">{T.priority}</dt>
          <dd className="mt-0.5">
            <Badge tone={PRIORITY_TONE[task.priority]} className="text-sm">
              {PRIORITY_LABELS[task.priority]}
            </Badge>
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-600">{T.assignedAt}</dt>
          {/* SPEC §2 shows updated_at; assigned_at (CONTRACT §5) is that same instant unless staff edited the task later. */}
          <dd className="mt-0.5 font-semibold tabular-nums text-slate-900">
            {formatDateTime(task.assigned_at ?? task.updated_at)}
          </dd>
        </div>
        <div className="col-span-2">
          <dt className="font-medium text-slate-600">{T.createdBy}</dt>
          <dd className="mt-0.5 font-semibold text-slate-900">{task.created_by_name ?? '—'}</dd>
        </div>
      </dl>

      <CompleteDialog task={task} open={confirm === 'complete'} onOpenChange={close} />
      <ScanDialog
        task={task}
        open={confirm === 'scan'}
        onOpenChange={close}
        locations={locations}
        onComplete={(proof) =>
          closeOwnTask(() => useDriver.getState().complete(task, proof), TOAST.completeError)
        }
      />
      <ReturnDialog task={task} open={confirm === 'return'} onOpenChange={close} />
    </article>
  );
}

function RouteStop({ label, place, className }: { label: string; place: string; className: string }) {
  return (
    <li className="flex items-start gap-3 rounded-lg bg-slate-50 px-3 py-2.5 ring-1 ring-slate-200">
      <MapPin aria-hidden className={cn('mt-0.5 size-5 shrink-0', className)} />
      <div className="min-w-0">
        <p className="text-xs font-semibold uppercase tracking-wider text-slate-600">{label}</p>
        <p className="break-words text-lg font-semibold text-slate-950">{place}</p>
      </div>
    </li>
  );
}

interface DialogProps {
  task: Task;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function CompleteDialog({ task, open, onOpenChange }: DialogProps) {
  const C = UI_DRIVER.completeConfirm;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={C.title}
      message={C.message(nameOf(task))}
      confirmLabel={C.confirm}
      variant="success"
      onConfirm={() => closeOwnTask(() => useDriver.getState().complete(), TOAST.completeError)}
    />
  );
}

function ReturnDialog({ task, open, onOpenChange }: DialogProps) {
  const R = UI_DRIVER.returnConfirm;
  const [reason, setReason] = useState<ReturnReason | null>(null);
  const options: { value: ReturnReason | null; label: string }[] = [
    { value: null, label: R.noReason },
    ...RETURN_REASONS.map((r) => ({ value: r, label: r })),
  ];
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) setReason(null);
        onOpenChange(o);
      }}
      title={R.title}
      message={R.message(nameOf(task))}
      confirmLabel={R.confirm}
      variant="warning"
      onConfirm={() => closeOwnTask(() => useDriver.getState().returnTask(reason), TOAST.returnError)}
    >
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-slate-800">{R.reason}</legend>
        <div className="grid gap-2">
          {options.map((o) => (
            <label
              key={o.label}
              className={cn(
                // 48 px: a gloved thumb's target (44 px at least even while the dialog zooms in).
                'flex min-h-12 cursor-pointer items-center gap-3 rounded-lg px-3 text-sm font-medium ring-1 ring-inset',
                reason === o.value
                  ? 'bg-amber-50 text-amber-950 ring-amber-500'
                  : 'text-slate-800 ring-slate-300',
              )}
            >
              <input
                type="radio"
                name="return-reason"
                className="size-4 accent-amber-600"
                checked={reason === o.value}
                onChange={() => setReason(o.value)}
              />
              {o.label}
            </label>
          ))}
        </div>
      </fieldset>
    </ConfirmDialog>
  );
}
