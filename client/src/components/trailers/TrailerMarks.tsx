// A trailer's marks (CONTRACT §19), compact: load state, ADR, reefer setpoint and damage, each a badge with
// its Spanish title (shared/labels/trailers.ts). Shown on the board's cards, the Patio, the driver's card
// and the searcher; a trailer of unknown load with no other mark shows nothing.
import type { TaskTrailerMarks } from '@shared/schemas';
import { LOAD_STATE_LABELS, TRAILER_MARKS } from '@shared/labels';
import { cn } from '../cn';

const BADGE = 'inline-flex items-center rounded px-1 text-[0.7rem] font-bold leading-4 whitespace-nowrap';

interface Mark {
  kind: 'load' | 'adr' | 'reefer' | 'damaged';
  text: string;
  title: string;
  /** Its colours on a light background, then on a dark one. */
  colours: readonly [light: string, dark: string];
}

/** The marks a trailer shows, in reading order. */
function marksOf(marks: TaskTrailerMarks): Mark[] {
  const shown: Mark[] = [];
  if (marks.load_state !== 'desconocido') {
    const load = LOAD_STATE_LABELS[marks.load_state];
    shown.push({
      kind: 'load',
      text: load,
      title: TRAILER_MARKS.loadTitle(load),
      colours:
        marks.load_state === 'cargado'
          ? ['bg-emerald-100 text-emerald-900', 'bg-emerald-300 text-emerald-950']
          : ['bg-slate-100 text-slate-700', 'bg-slate-200 text-slate-900'],
    });
  }
  if (marks.adr) {
    const colour = 'bg-orange-500 text-black';
    shown.push({
      kind: 'adr',
      text: TRAILER_MARKS.adr,
      title: TRAILER_MARKS.adrTitle,
      colours: [colour, colour],
    });
  }
  if (marks.reefer_setpoint_c !== null)
    shown.push({
      kind: 'reefer',
      text: TRAILER_MARKS.reefer(marks.reefer_setpoint_c),
      title: TRAILER_MARKS.reeferTitle(marks.reefer_setpoint_c),
      colours: ['bg-sky-100 text-sky-900', 'bg-sky-300 text-sky-950'],
    });
  if (marks.damaged) {
    const colour = 'bg-red-600 text-white';
    shown.push({
      kind: 'damaged',
      text: `⚠ ${TRAILER_MARKS.damaged}`,
      title: TRAILER_MARKS.damaged,
      colours: [colour, colour],
    });
  }
  return shown;
}

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
  const shown = marksOf(marks);
  if (shown.length === 0) return null;
  return (
    <span
      className={cn('inline-flex flex-wrap items-center gap-1', className)}
      aria-label={TRAILER_MARKS.label}
      data-testid="trailer-marks"
    >
      {shown.map((mark) => (
        <span
          key={mark.kind}
          className={cn(BADGE, mark.colours[dark ? 1 : 0])}
          title={mark.title}
          data-mark={mark.kind}
        >
          {mark.text}
        </span>
      ))}
    </span>
  );
}
