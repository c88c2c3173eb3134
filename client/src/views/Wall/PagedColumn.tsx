// One column of the wall (CONTRACT §15): title, count, and as many cards as fit, paging by itself with
// `1/3`-style marks and `+N más` for the cards not on this page. Nothing needs a mouse.
import type { ReactNode } from 'react';
import { UI_WALL } from '@shared/labels';
import { cn } from '../../components/cn';
import { useWallPages } from './paging';

interface PagedColumnProps<T> {
  title: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  /** Cards side by side (a wide column shows two). */
  cols?: 1 | 2;
  /** The coloured top edge. */
  accent: string;
  empty: string;
  testId: string;
}

export function PagedColumn<T>({
  title,
  items,
  itemKey,
  renderItem,
  cols = 1,
  accent,
  empty,
  testId,
}: PagedColumnProps<T>) {
  const { viewportRef, measureRef, from, to, page, pages } = useWallPages(items.length);
  const hidden = items.length - (to - from);
  const grid = cn('grid content-start gap-3', cols === 2 ? 'grid-cols-2' : 'grid-cols-1');
  return (
    <section
      aria-label={title}
      data-testid={testId}
      className={cn('flex min-h-0 min-w-0 flex-col rounded-xl border-t-8 bg-slate-900', accent)}
    >
      <header className="flex min-h-16 flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2">
        <h2 className="text-2xl font-bold uppercase text-slate-100">{title}</h2>
        <span
          data-testid="wall-count"
          className="rounded-full bg-white/10 px-3 text-3xl font-bold tabular-nums text-white"
        >
          {items.length}
        </span>
        {pages > 1 && (
          <span className="ml-auto flex items-center gap-4">
            <span
              data-testid="wall-page-mark"
              aria-label={UI_WALL.pageLabel(page + 1, pages)}
              className="rounded-lg bg-white/10 px-3 py-0.5 text-2xl font-bold tabular-nums text-white"
            >
              {UI_WALL.page(page + 1, pages)}
            </span>
            <span
              data-testid="wall-more"
              aria-label={UI_WALL.moreLabel(hidden)}
              className="text-2xl font-bold tabular-nums text-amber-300"
            >
              {UI_WALL.more(hidden)}
            </span>
          </span>
        )}
      </header>
      <div ref={viewportRef} data-wall-viewport className="relative mx-3 mb-3 min-h-0 flex-1 overflow-hidden">
        {items.length === 0 ? (
          <p className="px-2 py-10 text-center text-2xl font-medium text-slate-400">{empty}</p>
        ) : (
          <ul data-testid="wall-page" className={grid}>
            {items.slice(from, to).map((item) => (
              <li key={itemKey(item)} className="flex min-w-0 flex-col">
                {renderItem(item)}
              </li>
            ))}
          </ul>
        )}
        {/* The whole column laid out unseen at the same width: what the pages are measured from. */}
        <ul ref={measureRef} aria-hidden inert className={cn(grid, 'invisible absolute inset-x-0 top-0')}>
          {items.map((item, i) => (
            <li key={itemKey(item)} data-wall-index={i} className="flex min-w-0 flex-col">
              {renderItem(item)}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
