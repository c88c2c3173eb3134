// A trailer's marks (CONTRACT §19), compact: load state, ADR, reefer setpoint and damage, each a badge with
// its Spanish title (shared/labels/trailers.ts). Shown on the board's cards, the Patio, the driver's card
// and the searcher; a trailer of unknown load with no other mark shows nothing.
import type { TaskTrailerMarks } from '@shared/schemas';
import { LOAD_STATE_LABELS, TRAILER_MARKS } from '@shared/labels';
import { cn } from '../cn';

const BADGE = 'inline-flex items-center rounded px-1 text-[0.7rem] font-bold leading-4 whitespace-nowrap';

export function TrailerMarks({
  marks,
  className,
  dark = false,
}: {
  marks: TaskTrailerMarks;
  className?: string;
  /** On a dark background (the driver's card). */
  dark?: boolean;
}) {
  const load = marks.load_state !== 'desconocido' ? LOAD_STATE_LABELS[marks.load_state] : null;
  if (!load && !marks.adr && marks.reefer_setpoint_c === null && !marks.damaged) return null;
  return (
    <span
      className={cn('inline-flex flex-wrap items-center gap-1', className)}
      aria-label={TRAILER_MARKS.label}
      data-testid="trailer-marks"
    >
      {load && (
        <span
          className={cn(
            BADGE,
            marks.load_state === 'cargado'
              ? dark
                ? 'bg-emerald-300 text-emerald-950'
                : 'bg-emerald-100 text-emerald-900'
              : dark
                ? 'bg-slate-200 text-slate-900'
                : 'bg-slate-100 text-slate-700',
          )}
          title={TRAILER_MARKS.loadTitle(load)}
          data-mark="load"
        >
          {load}
        </span>
      )}
      {marks.adr && (
        <span
          className={cn(BADGE, 'bg-orange-500 text-black')}
          title={TRAILER_MARKS.adrTitle}
          data-mark="adr"
        >
          {TRAILER_MARKS.adr}
        </span>
      )}
      {marks.reefer_setpoint_c !== null && (
        <span
          className={cn(BADGE, dark ? 'bg-sky-300 text-sky-950' : 'bg-sky-100 text-sky-900')}
          title={TRAILER_MARKS.reeferTitle(marks.reefer_setpoint_c)}
          data-mark="reefer"
        >
          {TRAILER_MARKS.reefer(marks.reefer_setpoint_c)}
        </span>
      )}
      {marks.damaged && (
        <span
          className={cn(BADGE, 'bg-red-600 text-white')}
          title={TRAILER_MARKS.damaged}
          data-mark="damaged"
        >
          ⚠ {TRAILER_MARKS.damaged}
        </span>
      )}
    </span>
  );
}
