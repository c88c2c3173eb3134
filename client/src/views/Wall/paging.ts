// The wall's columns page by themselves (CONTRACT §15): each shows as many cards as fit, and when more
// wait, turns the page every WALL_PAGE_MS. What fits is measured, not guessed: an invisible copy of the
// whole column is laid out at the column's width, its rows are packed into pages of the column's height.
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { WALL_PAGE_MS } from '@shared/constants';

export interface ItemBox {
  /** Top of the item inside the full (unpaged) layout. */
  top: number;
  height: number;
}

/**
 * Where each page starts (item indices, the first always 0). Items sharing a top are one grid row; a
 * page takes whole rows while they fit in `available` px, and at least one row (a card taller than the
 * column still shows). Nothing laid out (no height) is one page.
 */
export function pageStarts(items: readonly ItemBox[], available: number): number[] {
  const starts = [0];
  if (!items.length || available <= 0) return starts;
  let pageTop = items[0].top;
  let i = 0;
  while (i < items.length) {
    let j = i;
    let bottom = items[i].top;
    while (j < items.length && Math.abs(items[j].top - items[i].top) < 1) {
      bottom = Math.max(bottom, items[j].top + items[j].height);
      j++;
    }
    if (bottom - pageTop > available && i !== starts[starts.length - 1]) {
      starts.push(i);
      pageTop = items[i].top;
      continue;
    }
    i = j;
  }
  return starts;
}

const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export interface WallPages {
  /** The column's visible box: its height is what a page may fill. */
  viewportRef: React.RefObject<HTMLDivElement | null>;
  /** The invisible full layout (one child per item, in order). */
  measureRef: React.RefObject<HTMLUListElement | null>;
  /** The items of the page shown: [from, to). */
  from: number;
  to: number;
  /** 0-based page shown, and how many there are. */
  page: number;
  pages: number;
}

/** Pages of a column of `count` items, re-measured on every render and resize, turning every WALL_PAGE_MS. */
export function useWallPages(count: number): WallPages {
  const viewportRef = useRef<HTMLDivElement | null>(null);
  const measureRef = useRef<HTMLUListElement | null>(null);
  const [starts, setStarts] = useState<number[]>([0]);
  const [, bump] = useReducer((n: number) => n + 1, 0);

  // After every render (a task changed, time passed and a text grew, a resize): measure again. Setting
  // the same starts again is a no-op, so this settles at once (hence no dependency list).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const viewport = viewportRef.current;
    const measure = measureRef.current;
    if (!viewport || !measure) return;
    const boxes = [...measure.children].map((c) => {
      const el = c as HTMLElement;
      return { top: el.offsetTop, height: el.offsetHeight };
    });
    const next = pageStarts(boxes, viewport.clientHeight);
    setStarts((prev) => (same(prev, next) ? prev : next));
  });

  useEffect(() => {
    if (typeof ResizeObserver !== 'function') return;
    const ro = new ResizeObserver(() => bump());
    if (viewportRef.current) ro.observe(viewportRef.current);
    if (measureRef.current) ro.observe(measureRef.current);
    return () => ro.disconnect();
  }, []);

  const pages = starts.length;
  const [page, setPage] = useState(0);
  useEffect(() => {
    if (pages <= 1) return;
    const id = setInterval(() => setPage((p) => (Math.min(p, pages - 1) + 1) % pages), WALL_PAGE_MS);
    return () => clearInterval(id);
  }, [pages]);

  const current = Math.min(page, pages - 1);
  const from = Math.min(starts[current], count);
  const to = Math.min(starts[current + 1] ?? count, count);
  return { viewportRef, measureRef, from, to, page: current, pages };
}
