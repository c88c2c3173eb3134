// Where each place goes on the Patio map: one panel per zone, each place in its zone's CSS grid at its
// (x, y) cell (CONTRACT §17). Coordinates run 0–199, so a zone drawn cell for cell could be mostly
// empty: neighbouring values stay neighbours and any wider gap becomes one empty track, an aisle.
import { compareNatural } from '@shared/natural';
import type { YardLocation } from '@shared/schemas';

export interface MapCell {
  /** Grid tracks, 1-based. */
  column: number;
  row: number;
  /** Usually one; places sharing a cell are stacked in it rather than drawn over each other. */
  places: YardLocation[];
}

export interface MapZone {
  zone: string;
  columns: number;
  rows: number;
  cells: MapCell[];
  placeCount: number;
}

/** The 1-based track of every distinct value: consecutive values adjacent, any wider gap one empty track. */
function tracks(values: Iterable<number>): Map<number, number> {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const track = new Map<number, number>();
  let at = 0;
  sorted.forEach((v, i) => {
    at += i === 0 ? 1 : v - sorted[i - 1] > 1 ? 2 : 1;
    track.set(v, at);
  });
  return track;
}

/** The zones in name order (Campa 2 before Campa 10), each with its grid. */
export function layoutZones(places: readonly YardLocation[]): MapZone[] {
  const byZone = new Map<string, YardLocation[]>();
  for (const p of places) {
    const list = byZone.get(p.zone);
    if (list) list.push(p);
    else byZone.set(p.zone, [p]);
  }
  return [...byZone.entries()]
    .sort(([a], [b]) => compareNatural(a, b))
    .map(([zone, list]) => {
      const columnOf = tracks(list.map((p) => p.x));
      const rowOf = tracks(list.map((p) => p.y));
      const cells = new Map<string, MapCell>();
      for (const p of list) {
        const key = `${p.x}:${p.y}`;
        const cell = cells.get(key);
        if (cell) cell.places.push(p);
        else cells.set(key, { column: columnOf.get(p.x)!, row: rowOf.get(p.y)!, places: [p] });
      }
      return {
        zone,
        columns: Math.max(...columnOf.values()),
        rows: Math.max(...rowOf.values()),
        cells: [...cells.values()],
        placeCount: list.length,
      };
    });
}

/**
 * A zone with more columns than fit the map's width, each of its rows wrapped as text wraps: the first
 * columns on one line, the next ones on the line below, every line as wide as the others (20 columns
 * where 12 fit → two lines of 10). Rows keep their order and their places their reading order, and the
 * map never scrolls sideways. A zone that fits is returned as it is.
 */
export function foldZone(zone: MapZone, maxColumns: number): MapZone {
  const fit = Math.max(1, Math.floor(maxColumns));
  if (zone.columns <= fit) return zone;
  const lines = Math.ceil(zone.columns / fit);
  const perLine = Math.ceil(zone.columns / lines);
  return {
    ...zone,
    columns: perLine,
    rows: zone.rows * lines,
    cells: zone.cells.map((cell) => ({
      ...cell,
      column: ((cell.column - 1) % perLine) + 1,
      row: (cell.row - 1) * lines + Math.floor((cell.column - 1) / perLine) + 1,
    })),
  };
}
