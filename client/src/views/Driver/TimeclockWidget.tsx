import { toast } from 'sonner';
import { Clock3, LogIn, LogOut } from 'lucide-react';
import type { ClockType, TimeclockStatusValue } from '@shared/enums';
import { TOAST_DURATION_MS } from '@shared/constants';
import { NOT_AVAILABLE, TIMECLOCK_STATUS_LABELS, TOAST, UI_DRIVER } from '@shared/labels';
import {
  formatDateTime,
  formatDuration,
  formatLongDate,
  formatTime,
  formatTimeWithSeconds,
  madridDay,
} from '@shared/time';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { cn } from '../../components/cn';
import { Spinner } from '../../components/Spinner';
import type { Tone } from '../../components/tones';
import { punchAllowed, useTimeclock, workedMinutes } from '../../stores/timeclock';
import { toastError } from '../../toast';
import { useServerNow } from './useServerNow';

const T = UI_DRIVER.timeclock;

const STATUS_TONE: Record<TimeclockStatusValue, Tone> = {
  not_clocked_in: 'amber',
  clocked_in: 'green',
  clocked_out: 'slate',
};

const PUNCH_ERROR: Record<ClockType, string> = { entrada: TOAST.punchInError, salida: TOAST.punchOutError };

/** A punch time: just the time when it is today (Madrid), with the date when it is not (a night shift). */
const punchTime = (iso: string | null, nowMs: number): string =>
  !iso ? NOT_AVAILABLE : madridDay(iso) === madridDay(nowMs) ? formatTime(iso) : formatDateTime(iso);

async function punch(type: ClockType): Promise<void> {
  try {
    const res = await useTimeclock.getState().punch(type);
    if (res === 'queued') toast(UI_DRIVER.offline.queued, { duration: TOAST_DURATION_MS });
    else if (res)
      toast.success(res.message, {
        description: TOAST.punchAt(formatTimeWithSeconds(res.timestamp)),
        duration: TOAST_DURATION_MS,
      });
  } catch (err) {
    // e.g. 409 'Completa o devuelve tu tarea activa antes de fichar la salida'.
    toastError(err, PUNCH_ERROR[type]);
  }
}

/** SPEC §2 'Control de Horario': the live Madrid clock, the day's punches and the two punch buttons. */
export function TimeclockWidget() {
  const status = useTimeclock((s) => s.status);
  const punching = useTimeclock((s) => s.punching);
  const now = useServerNow();
  const worked = workedMinutes(status, now);
  const allowed = punchAllowed(status, punching);

  return (
    <Card
      title={T.title}
      icon={<Clock3 aria-hidden className="size-5" />}
      actions={
        status && (
          <span data-testid="timeclock-status">
            <Badge tone={STATUS_TONE[status.status]} solid>
              {TIMECLOCK_STATUS_LABELS[status.status]}
            </Badge>
          </span>
        )
      }
    >
      <div className="rounded-xl bg-slate-900 px-4 py-3 text-center text-white">
        <p className="sr-only">{T.madridTime}</p>
        <p className="font-mono text-4xl font-bold tabular-nums tracking-tight" data-testid="timeclock-clock">
          {formatTimeWithSeconds(now)}
        </p>
        <p className="mt-0.5 text-sm text-slate-300 first-letter:uppercase">{formatLongDate(now)}</p>
      </div>

      {status ? (
        <>
          <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
            <Figure label={T.lastEntrada} value={punchTime(status.last_entrada, now)} testId="last-entrada" />
            <Figure label={T.lastSalida} value={punchTime(status.last_salida, now)} testId="last-salida" />
            {worked !== null && (
              <Figure
                label={T.workedToday}
                value={formatDuration(worked * 60_000)}
                testId="worked-today"
                className="col-span-2 bg-emerald-50 ring-emerald-600/30"
              />
            )}
          </dl>

          <div className="mt-4 grid grid-cols-2 gap-3">
            <Button
              variant="success"
              size="lg"
              disabled={!allowed.entrada}
              loading={punching === 'entrada'}
              onClick={() => void punch('entrada')}
            >
              {punching !== 'entrada' && <LogIn aria-hidden className="size-5" />}
              {T.entrada}
            </Button>
            <Button
              variant="danger"
              size="lg"
              disabled={!allowed.salida}
              loading={punching === 'salida'}
              onClick={() => void punch('salida')}
            >
              {punching !== 'salida' && <LogOut aria-hidden className="size-5" />}
              {T.salida}
            </Button>
          </div>

          <p className="mt-3 text-center text-sm font-medium text-slate-700" data-testid="punches-today">
            {T.punchesToday(status.punches_today)}
          </p>
        </>
      ) : (
        <p role="status" className="mt-4 flex items-center justify-center gap-2 text-sm text-slate-600">
          <Spinner />
          {T.loading}
        </p>
      )}
    </Card>
  );
}

function Figure({
  label,
  value,
  testId,
  className = 'bg-slate-50 ring-slate-200',
}: {
  label: string;
  value: string;
  testId: string;
  className?: string;
}) {
  return (
    <div className={cn('rounded-lg px-3 py-2 ring-1', className)}>
      <dt className="text-xs font-semibold uppercase tracking-wider text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-lg font-bold tabular-nums text-slate-950" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
