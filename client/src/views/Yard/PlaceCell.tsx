// One place of the Patio map: its name and how full it is, each trailer standing there as a chip coloured
// by its time there (with a mark when it is booked to leave or its task is held), each reservation as a
// dashed placeholder with the plate on its way, then its free slots. Memoized: the map re-renders a
// place only when that place, its trailers' colours, or its drop highlight change.
import { TrailerMarks } from '../../components/trailers/TrailerMarks';
import { createContext, Fragment, memo, useContext, type DragEvent } from 'react';
import { DoorOpen, LogOut, PauseCircle } from 'lucide-react';
import type { DwellLevel } from '@shared/dwell';
import { LOCATION_KIND_LABELS, OVERFULL_LABEL, UI_YARD } from '@shared/labels';
import type { YardIncoming, YardLocation, YardSlotTrailer } from '@shared/schemas';
import { cn } from '../../components/cn';
import { DWELL_CHIP } from './dwellStyle';
import { isFull } from './move';

const M = UI_YARD.map;

/** What a place asks of the map; one stable object, so passing it never breaks the memo. */
export interface MapActions {
  openTrailer: (trailerId: string) => void;
  dragStart: (e: DragEvent, trailerId: string, from: YardLocation) => void;
  dragEnd: () => void;
  dragOver: (e: DragEvent, place: YardLocation) => void;
  dragLeave: (e: DragEvent, place: YardLocation) => void;
  drop: (e: DragEvent, place: YardLocation) => void;
}
export const MapActionsContext = createContext<MapActions | null>(null);

/** At most this many slots drawn per place (trailers, reservations, free room); the rest are `+N más`. */
export const PLACE_SLOTS_SHOWN = 4;

interface PlaceCellProps {
  place: YardLocation;
  /** The dwell level of each of its trailers, in order, space-separated (a string keeps the memo cheap). */
  levels: string;
  /**
   * While the plate search has a text: the plates found here, space-separated ('' when none, and the
   * place fades); null without a search.
   */
  found: string | null;
  dropTarget: boolean;
}

export const PlaceCell = memo(function PlaceCell({ place, levels, found, dropTarget }: PlaceCellProps) {
  const actions = useContext(MapActionsContext)!;
  const gate = place.kind === 'puerta';
  const full = isFull(place);
  // A trailer is where it was left, room or not (CONTRACT §20): more than the capacity is Sobreocupada.
  const held = place.trailers.filter((t) => !t.open_task).length + place.incoming.length;
  const overfull = !gate && held > place.capacity;
  const used = gate ? 0 : overfull ? held : place.capacity - (place.free ?? 0);
  const dwell = levels ? (levels.split(' ') as DwellLevel[]) : [];

  const occupants = place.trailers.length + place.incoming.length;
  // Room for every occupant, or all but one slot for them and the last one for `+N más`.
  const shownOccupants = occupants <= PLACE_SLOTS_SHOWN ? occupants : PLACE_SLOTS_SHOWN - 1;
  const trailers = place.trailers.slice(0, shownOccupants);
  const incoming = place.incoming.slice(0, shownOccupants - trailers.length);
  const freeSlots = gate ? 0 : Math.min(place.free ?? 0, PLACE_SLOTS_SHOWN - shownOccupants);
  const hidden = occupants - shownOccupants;
  const foundHere = found ? found.split(' ') : [];

  return (
    <div
      role="group"
      aria-label={
        gate
          ? `${place.name}, ${M.gateHint}`
          : `${place.name}, ${M.usageLabel(used, place.capacity)}${overfull ? `, ${OVERFULL_LABEL}` : ''}`
      }
      title={`${place.name} · ${place.code} · ${LOCATION_KIND_LABELS[place.kind]}`}
      data-place={place.code}
      data-full={full || undefined}
      data-overfull={overfull || undefined}
      data-found={foundHere.length > 0 || undefined}
      onDragOver={(e) => actions.dragOver(e, place)}
      onDragLeave={(e) => actions.dragLeave(e, place)}
      onDrop={(e) => actions.drop(e, place)}
      className={cn(
        // A size container: its texts grow with the width the grid gives it, not with the screen.
        '@container flex min-w-0 flex-col gap-1 rounded-lg p-1.5 ring-1 transition-colors',
        gate
          ? 'bg-slate-800 text-white ring-slate-900'
          : full
            ? 'bg-slate-200/70 ring-slate-300'
            : 'bg-white ring-slate-200',
        dropTarget && (full ? 'bg-red-50 ring-2 ring-red-500' : 'bg-blue-50 ring-2 ring-blue-500'),
        found !== null && (foundHere.length ? 'ring-2 ring-blue-600' : 'opacity-40'),
      )}
    >
      {/* The whole name, wrapping between its words (never inside one: `A-12` stays whole; only a word
          wider than the place is cut), the usage at the end of its last line. */}
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-[0.3em] text-xs leading-tight @[7rem]:text-sm @[9rem]:text-base">
        {gate && <DoorOpen aria-hidden className="size-4 shrink-0 self-center" />}
        <span data-place-name className="contents font-semibold">
          {place.name.split(/\s+/).map((word, i) => (
            <Fragment key={i}>
              {i > 0 && ' '}
              <span className="max-w-full truncate font-semibold">{word}</span>
            </Fragment>
          ))}
        </span>
        {!gate && (
          <span
            aria-hidden
            className={cn(
              'ml-auto shrink-0 rounded px-1 font-bold tabular-nums',
              full ? 'bg-red-600 text-white' : 'text-slate-500',
            )}
          >
            {overfull ? `${OVERFULL_LABEL} ${M.usage(used, place.capacity)}` : M.usage(used, place.capacity)}
          </span>
        )}
      </div>
      {overfull ? (
        // On the usage's line, not a line of its own: the wall's map keeps its height (CONTRACT §17).
        <span data-testid="overfull" className="sr-only">
          {OVERFULL_LABEL}
        </span>
      ) : (
        full && <span className="sr-only">{M.full}</span>
      )}
      {trailers.map((t, i) => (
        <TrailerChip
          key={t.trailer_id}
          trailer={t}
          level={dwell[i] ?? 'fresh'}
          place={place}
          found={foundHere.includes(t.trailer_id)}
        />
      ))}
      {incoming.map((r) => (
        <IncomingSlot key={r.task_id} incoming={r} gate={gate} />
      ))}
      {Array.from({ length: freeSlots }, (_, i) => (
        <div
          key={i}
          className={cn(
            SLOT_HEIGHT,
            'grid place-items-center rounded-md border border-dashed border-slate-300 text-xs text-slate-400',
          )}
        >
          {M.free}
        </div>
      ))}
      {hidden > 0 && <p className="text-center text-xs font-semibold text-slate-600">{M.more(hidden)}</p>}
    </div>
  );
});

// Every slot of a place (trailer, reservation, free room) is as tall as a one-line chip.
const SLOT_HEIGHT = 'min-h-7 @[7rem]:min-h-8 @[8.5rem]:min-h-9';
// The plate is what is read from across the room: as large as the place's width allows, each step where
// a ten-character plate (R-1234-BCD) still fits whole; a longer one wraps rather than being cut.
const PLATE =
  'min-w-0 [overflow-wrap:anywhere] font-mono tracking-tight text-[0.8125rem] @[6.75rem]:text-base @[7.5rem]:text-lg @[8.25rem]:text-xl @[9.75rem]:text-2xl';
// The marks go on a line of their own, so they never take the plate's room.
const MARKS = 'flex min-w-0 items-center gap-1 text-xs font-medium @[8.5rem]:text-sm';

function TrailerChip({
  trailer,
  level,
  place,
  found,
}: {
  trailer: YardSlotTrailer;
  level: DwellLevel;
  place: YardLocation;
  /** Found by the plate search. */
  found: boolean;
}) {
  const actions = useContext(MapActionsContext)!;
  const task = trailer.open_task;
  const label = [
    M.trailer(trailer.trailer_id, UI_YARD.dwell[level]),
    task && M.leaving(task.destination),
    task?.on_hold && M.held,
  ]
    .filter(Boolean)
    .join('. ');
  return (
    <button
      type="button"
      // A trailer with an open task is already on its way out: a second move would be refused.
      draggable={!task}
      onDragStart={(e) => actions.dragStart(e, trailer.trailer_id, place)}
      onDragEnd={actions.dragEnd}
      onClick={() => actions.openTrailer(trailer.trailer_id)}
      aria-label={label}
      title={label}
      data-trailer={trailer.trailer_id}
      data-dwell={level}
      data-found={found || undefined}
      className={cn(
        SLOT_HEIGHT,
        'flex min-w-0 flex-col justify-center rounded-md px-1 py-0.5 text-left shadow-sm @[6.5rem]:px-1.5',
        'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600',
        task ? 'cursor-pointer' : 'cursor-grab active:cursor-grabbing',
        task?.on_hold && 'ring-2 ring-violet-600 ring-offset-1',
        found && 'outline-3 outline-offset-1 outline-blue-600',
        DWELL_CHIP[level],
      )}
    >
      <span className={cn(PLATE, 'font-bold')}>{trailer.trailer_id}</span>
      <TrailerMarks marks={trailer.marks} />
      {task && (
        <span className={MARKS}>
          {task.on_hold && <PauseCircle aria-hidden data-mark="held" className="size-3.5 shrink-0" />}
          <LogOut aria-hidden data-mark="leaving" className="size-3.5 shrink-0" />
          <span className="line-clamp-2 [overflow-wrap:anywhere]">{task.destination}</span>
        </span>
      )}
    </button>
  );
}

function IncomingSlot({ incoming, gate }: { incoming: YardIncoming; gate: boolean }) {
  const label = incoming.on_hold ? M.incomingHeld(incoming.trailer_id) : M.incoming(incoming.trailer_id);
  return (
    <div
      role="note"
      aria-label={label}
      title={label}
      data-incoming={incoming.trailer_id}
      data-held={incoming.on_hold || undefined}
      className={cn(
        SLOT_HEIGHT,
        'flex min-w-0 flex-col justify-center rounded-md border-2 border-dashed px-1 @[6.5rem]:px-1.5',
        incoming.on_hold
          ? 'border-violet-500 bg-violet-50 text-violet-900'
          : gate
            ? 'border-slate-400 text-slate-100'
            : 'border-sky-500 bg-sky-50 text-sky-900',
      )}
    >
      <span className={cn(PLATE, 'font-semibold')}>{incoming.trailer_id}</span>
      {incoming.on_hold && (
        <span className={MARKS}>
          <PauseCircle aria-hidden className="size-3.5 shrink-0" />
          {UI_YARD.legend.held}
        </span>
      )}
    </div>
  );
}
