// User Timing names of the Patio map (docs/YARD.md: a 500-place map renders in ≤ 200 ms). The start is
// marked when the map is asked to show something new (GET /yard's answer reaches the store, or the Mapa
// tab opens); the map measures from there to its DOM committed and laid out. The browser test reads the
// measure; DevTools' Performance panel shows it too.

/** The map has new content to show (at most one such mark exists). */
export const YARD_DATA_MARK = 'yard-map-data';
/** From that mark to the map rendered, committed and laid out. */
export const YARD_RENDER_MEASURE = 'yard-map-render';

/** Marks the start of a map render (replacing an older mark nobody measured). */
export function markYardRender(): void {
  performance.clearMarks(YARD_DATA_MARK);
  performance.mark(YARD_DATA_MARK);
}
