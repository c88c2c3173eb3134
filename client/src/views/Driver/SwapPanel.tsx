import { useState } from 'react';
import { toast } from 'sonner';
import { ArrowLeftRight, Hand, Info, LogIn, MapPin } from 'lucide-react';
import type { Task } from '@shared/schemas';
import { ERR, PRIORITY_LABELS, TOAST, UI_COMMON, UI_DRIVER, VEHICLE_BADGES, taskLabel } from '@shared/labels';
import { relativeAge } from '@shared/time';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { DeadlineChip } from '../../components/board/DeadlineChip';
import { Card } from '../../components/Card';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { Spinner } from '../../components/Spinner';
import { PRIORITY_TONE, VEHICLE_TONE } from '../../components/tones';
import { useReachability } from '../../offline/reachability';
import { useActiveTask, useDriver } from '../../stores/driver';
import { useTimeclock } from '../../stores/timeclock';
import { toastError } from '../../toast';
import { useServerNow } from './useServerNow';

const S = UI_DRIVER.swap;
/** Relative ages change by the minute; a 15 s tick keeps them right without re-rendering every second. */
const AGE_TICK_MS = 15_000;

/** SPEC §5: the client refuses a task that is no longer free (assigned meanwhile, or gone from the list). */
export const isStillClaimable = (task: Task | undefined): task is Task =>
  task !== undefined && task.status === 'bolsa_trabajo' && task.assigned_to === null;

/**
 * Why the driver cannot claim now (CONTRACT §16), or null: not clocked in (the screen asks them to
 * clock in first), or already holding a task.
 */
export function useClaimBlock(): string | null {
  const holding = useActiveTask() !== null;
  const clock = useTimeclock((s) => s.status?.status);
  const reachable = useReachability((s) => s.reachable);
  // A claim is decided by the server against other drivers: it is never queued (CONTRACT §16).
  if (!reachable) return S.offline;
  if (clock !== undefined && clock !== 'clocked_in') return S.clockInFirst;
  if (holding) return S.holdingTask;
  return null;
}

/**
 * SPEC §2 Swap tasks panel: the Swap tasks in the pool by urgency, each claimable after a confirmation.
 * On a phone the list grows with the page; from 640 px it keeps SPEC §2's scroll box.
 */
export function SwapPanel() {
  const swap = useDriver((s) => s.swap);
  const loaded = useDriver((s) => s.swapLoaded);
  const blocked = useClaimBlock();
  const now = useServerNow(AGE_TICK_MS);
  const [claiming, setClaiming] = useState<Task | null>(null);

  const ask = (task: Task) => {
    if (isStillClaimable(task)) setClaiming(task);
    else toast.error(ERR.alreadyAssigned);
  };

  const claim = async (id: string) => {
    // The list is live: by the time the driver confirms, another driver may have taken it.
    if (!isStillClaimable(useDriver.getState().swap.find((t) => t.id === id)))
      return void toast.error(ERR.alreadyAssigned);
    try {
      toast.success(await useDriver.getState().selfAssign(id));
    } catch (err) {
      toastError(err, TOAST.selfAssignError);
      // A refused claim closes the dialog too: the task is gone or is not for this driver now.
    }
  };

  return (
    <Card
      title={S.title}
      icon={<ArrowLeftRight aria-hidden className="size-5" />}
      actions={
        <Badge tone="orange" solid>
          <span data-testid="swap-count">{S.count(swap.length)}</span>
        </Badge>
      }
    >
      {!loaded ? (
        <p role="status" className="flex items-center justify-center gap-2 py-8 text-sm text-slate-600">
          <Spinner />
          {UI_COMMON.loading}
        </p>
      ) : swap.length === 0 ? (
        <EmptyState title={S.emptyTitle} hint={S.emptyHint} className="py-8" />
      ) : (
        <>
          {blocked && (
            <p
              id="swap-blocked"
              data-testid="swap-blocked"
              className="mb-2 flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2.5 text-sm font-semibold text-amber-900 ring-1 ring-amber-300"
            >
              <LogIn aria-hidden className="size-4 shrink-0" />
              {blocked}
            </p>
          )}
          <ul
            aria-label={S.title}
            className="-my-2 divide-y divide-slate-200 sm:max-h-[30rem] sm:overflow-y-auto sm:overscroll-contain"
            data-testid="swap-list"
          >
            {swap.map((task) => (
              <SwapItem key={task.id} task={task} nowMs={now} blocked={blocked} onClaim={() => ask(task)} />
            ))}
          </ul>
        </>
      )}
      <p className="mt-4 flex items-center gap-2 rounded-lg bg-orange-50 px-3 py-2.5 text-sm font-medium text-orange-900 ring-1 ring-orange-200">
        <Info aria-hidden className="size-4 shrink-0" />
        {S.note}
      </p>
      <ConfirmDialog
        open={claiming !== null}
        onOpenChange={(open) => !open && setClaiming(null)}
        title={S.confirmTitle}
        message={
          claiming
            ? S.confirmMessage(taskLabel({ title: claiming.title, trailerId: claiming.trailer_id }))
            : ''
        }
        confirmLabel={S.confirm}
        variant="primary"
        onConfirm={() => (claiming ? claim(claiming.id) : undefined)}
      />
    </Card>
  );
}

interface ItemProps {
  task: Task;
  nowMs: number;
  /** The reason claiming is not possible now; the button is disabled and points to it. */
  blocked: string | null;
  onClaim: () => void;
}

function SwapItem({ task, nowMs, blocked, onClaim }: ItemProps) {
  return (
    <li className="space-y-3 py-4" data-testid="swap-item">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="mr-auto text-lg font-bold text-slate-950">{task.title}</h3>
        <Badge tone={PRIORITY_TONE[task.priority]}>{PRIORITY_LABELS[task.priority]}</Badge>
        <Badge tone={VEHICLE_TONE[task.vehicle_type]} solid>
          {VEHICLE_BADGES[task.vehicle_type]}
        </Badge>
        <DeadlineChip task={task} large />
      </div>
      {task.description && <p className="text-sm text-slate-800">{task.description}</p>}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium text-slate-600">{S.trailer}</dt>
        <dd className="font-mono text-base font-bold text-slate-950">{task.trailer_id}</dd>
        <dt className="font-medium text-slate-600">{S.origin}</dt>
        <dd className="flex min-w-0 items-center gap-1 font-semibold text-slate-900">
          <MapPin aria-hidden className="size-4 shrink-0 text-slate-500" />
          <span className="break-words">{task.origin}</span>
        </dd>
        <dt className="font-medium text-slate-600">{S.destination}</dt>
        <dd className="flex min-w-0 items-center gap-1 font-semibold text-slate-900">
          <MapPin aria-hidden className="size-4 shrink-0 text-blue-700" />
          <span className="break-words">{task.destination}</span>
        </dd>
        <dt className="font-medium text-slate-600">{S.createdBy}</dt>
        <dd className="text-slate-900">
          {task.created_by_name ?? '—'} ·{' '}
          <time dateTime={task.created_at} className="text-slate-600">
            {relativeAge(task.created_at, nowMs)}
          </time>
        </dd>
      </dl>
      <Button
        variant="primary"
        size="lg"
        className="w-full"
        disabled={blocked !== null}
        aria-describedby={blocked ? 'swap-blocked' : undefined}
        title={blocked ?? undefined}
        onClick={onClaim}
      >
        <Hand aria-hidden className="size-5" />
        {S.selfAssign}
      </Button>
    </li>
  );
}
