// The Patio's live map (CONTRACT §17): a panel per zone, each place at its grid cell. Dragging a trailer
// (HTML5 drag and drop) onto another place opens the create form with that move; the keyboard way is the
// trailer panel's "Mover a…". The map measures its own render (./measure.ts).
import {
  memo,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type DragEvent,
  type RefObject,
} from 'react';
import { dwellLevel } from '@shared/dwell';
import { UI_YARD } from '@shared/labels';
import type { YardLocation } from '@shared/schemas';
import { foldZone, layoutZones, type MapZone } from './layout';
import { YARD_DATA_MARK, YARD_RENDER_MEASURE } from './measure';
import { proposeMove } from './move';
import { MapActionsContext, PlaceCell, type MapActions } from './PlaceCell';

/** The drag's payload type: other drags (a file, a text selection) are not drops on the map. */
const DRAG_TYPE = 'application/x-torre-trailer';

interface YardMapProps {
  places: YardLocation[];
  /** The server's time now (ms), re-read every minute: the chips' colours. */
  now: number;
  onOpenTrailer: (trailerId: string) => void;
  /** The plates the plate search found (null: no search): their chips stand out, other places fade. */
  found?: ReadonlySet<string> | null;
}

/** The narrowest a column gets: a place's name wraps in it, and a ten-character plate fits whole. */
const MIN_CELL_REM = 6.5;
/** The grid's gap and a zone panel's padding plus ring, each side (rem): the room left for columns. */
const GAP_REM = 0.375;
const ZONE_INSET_REM = 0.5 + 0.0625;

export function YardMap({ places, now, onOpenTrailer, found = null }: YardMapProps) {
  const zones = useMemo(() => layoutZones(places), [places]);
  const mapRef = useRef<HTMLDivElement>(null);
  const fit = useColumnsThatFit(mapRef);
  const zoneOf = useMemo(() => new Map(places.map((p) => [p.id, p.zone])), [places]);
  // One string per place: a place re-renders when one of its trailers changes colour, not every minute.
  const levels = useMemo(() => {
    const byPlace = new Map<string, string>();
    for (const p of places)
      byPlace.set(p.id, p.trailers.map((t) => dwellLevel(now - Date.parse(t.since))).join(' '));
    return byPlace;
  }, [places, now]);
  // The plates found at each place, space-separated (a string keeps the places' memo cheap).
  const foundAt = useMemo(() => {
    const byPlace = new Map<string, string>();
    if (found)
      for (const p of places)
        byPlace.set(
          p.id,
          p.trailers.flatMap((t) => (found.has(t.trailer_id) ? [t.trailer_id] : [])).join(' '),
        );
    return byPlace;
  }, [places, found]);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const actions = useMapActions(onOpenTrailer, setDropTarget);

  useLayoutEffect(() => {
    // Measured once the zones are drawn at the width they fit.
    if (!fit || !performance.getEntriesByName(YARD_DATA_MARK, 'mark').length) return;
    // Reading a box lays the page out now, so the measure includes style and layout, not only React.
    mapRef.current?.getBoundingClientRect();
    performance.clearMeasures(YARD_RENDER_MEASURE);
    performance.measure(YARD_RENDER_MEASURE, YARD_DATA_MARK);
    performance.clearMarks(YARD_DATA_MARK);
  }, [places, fit]);

  return (
    <MapActionsContext.Provider value={actions}>
      <div
        ref={mapRef}
        aria-label={UI_YARD.map.label}
        role="region"
        data-testid="yard-map"
        className="flex flex-wrap content-start gap-3 [--cell:7rem] 2xl:[--cell:8.75rem]"
        style={{ '--min-cell': `${MIN_CELL_REM}rem` } as CSSProperties}
      >
        {fit > 0 &&
          zones.map((z) => (
            <ZonePanel
              key={z.zone}
              zone={z}
              fit={fit}
              levels={levels}
              foundAt={found ? foundAt : null}
              // Only the zone under the drag hears of it: the others keep their memo.
              dropTarget={dropTarget && zoneOf.get(dropTarget) === z.zone ? dropTarget : null}
            />
          ))}
      </div>
    </MapActionsContext.Provider>
  );
}

/**
 * How many columns of the narrowest width fit the map's width, followed as the window resizes (0 until
 * measured: nothing is drawn before, so the first paint is already folded).
 */
function useColumnsThatFit(ref: RefObject<HTMLDivElement | null>): number {
  const [fit, setFit] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      // Not laid out (a test's DOM without layout): nothing to fold for.
      if (!el.clientWidth) return setFit(Number.POSITIVE_INFINITY);
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      const room = el.clientWidth - 2 * ZONE_INSET_REM * rem + GAP_REM * rem;
      setFit(Math.max(1, Math.floor(room / ((MIN_CELL_REM + GAP_REM) * rem))));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return fit;
}

/**
 * A column is `--cell` wide, but shrinks (down to `--min-cell`) to keep a row of places on the screen; a
 * zone with more columns than fit at that width is folded into bands (layout.ts foldZone), so none
 * scrolls sideways.
 */
const columnWidth = (columns: number) =>
  `minmax(max(var(--min-cell), min(var(--cell), calc((100% - ${columns - 1} * ${GAP_REM}rem) / ${columns}))), 1fr)`;

const ZonePanel = memo(function ZonePanel({
  zone: laidOut,
  fit,
  levels,
  foundAt,
  dropTarget,
}: {
  zone: MapZone;
  /** How many columns fit the map's width. */
  fit: number;
  levels: Map<string, string>;
  /** The plates found at each place while the plate search has a text, else null. */
  foundAt: Map<string, string> | null;
  dropTarget: string | null;
}) {
  const zone = useMemo(() => foldZone(laidOut, fit), [laidOut, fit]);
  // As wide as its columns at their least, growing to share the row.
  const width: CSSProperties = { flexBasis: `calc(${zone.columns} * (var(--cell) + 0.375rem) + 1.25rem)` };
  return (
    <section
      aria-label={UI_YARD.map.zone(zone.zone, zone.placeCount)}
      data-zone={zone.zone}
      style={width}
      className="min-w-0 max-w-full grow rounded-xl bg-slate-50 p-2 shadow-sm ring-1 ring-slate-200"
    >
      <h3 className="mb-1.5 truncate px-0.5 text-sm font-bold uppercase tracking-wide text-slate-600 2xl:text-base">
        {zone.zone}
      </h3>
      <div
        className="grid gap-1.5"
        style={{
          gridTemplateColumns: `repeat(${zone.columns}, ${columnWidth(zone.columns)})`,
          gridTemplateRows: `repeat(${zone.rows}, auto)`,
        }}
      >
        {zone.cells.map((cell) => (
          <div
            key={`${cell.column}:${cell.row}`}
            className="flex min-w-0 flex-col gap-1.5"
            style={{ gridColumn: cell.column, gridRow: cell.row }}
          >
            {cell.places.map((p) => (
              <PlaceCell
                key={p.id}
                place={p}
                levels={levels.get(p.id) ?? ''}
                found={foundAt ? (foundAt.get(p.id) ?? '') : null}
                dropTarget={dropTarget === p.id}
              />
            ))}
          </div>
        ))}
      </div>
    </section>
  );
});

/** The map's handlers, created once: they read the latest callback and drag through refs. */
function useMapActions(
  onOpenTrailer: (trailerId: string) => void,
  setDropTarget: (id: string | null | ((current: string | null) => string | null)) => void,
): MapActions {
  const open = useRef(onOpenTrailer);
  useEffect(() => {
    open.current = onOpenTrailer;
  });
  const dragged = useRef<{ trailerId: string; from: YardLocation } | null>(null);

  return useMemo<MapActions>(() => {
    const accepts = (e: DragEvent, place: YardLocation) =>
      dragged.current !== null &&
      dragged.current.from.id !== place.id &&
      e.dataTransfer.types.includes(DRAG_TYPE);
    return {
      openTrailer: (trailerId) => open.current(trailerId),
      dragStart(e, trailerId, from) {
        dragged.current = { trailerId, from };
        e.dataTransfer.setData(DRAG_TYPE, trailerId);
        e.dataTransfer.setData('text/plain', trailerId);
        e.dataTransfer.effectAllowed = 'move';
      },
      dragEnd() {
        dragged.current = null;
        setDropTarget(null);
      },
      dragOver(e, place) {
        if (!accepts(e, place)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setDropTarget(place.id);
      },
      dragLeave(e, place) {
        // Moving onto one of the place's own chips is not leaving it.
        if (e.currentTarget.contains(e.relatedTarget as Node | null)) return;
        setDropTarget((current) => (current === place.id ? null : current));
      },
      drop(e, place) {
        const drag = dragged.current;
        if (!drag || !accepts(e, place)) return;
        e.preventDefault();
        dragged.current = null;
        setDropTarget(null);
        proposeMove(drag.trailerId, drag.from, place);
      },
    };
  }, [setDropTarget]);
}
