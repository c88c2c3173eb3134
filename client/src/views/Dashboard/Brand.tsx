import { TowerControl } from 'lucide-react';
import { APP_SUBTITLE, APP_TITLE, APP_TITLE_SHORT } from '@shared/labels';

/**
 * The header's title block. Each line stays one line at 360 px (CONTRACT §16): a phone shows the short
 * title, and the subtitle never breaks at its hyphen (nowrap).
 */
export function Brand() {
  return (
    <div className="flex min-w-0 items-center gap-3">
      {/* On a phone the room goes to the title (the header also holds the link, sound and logout). */}
      <div className="hidden size-9 shrink-0 place-items-center rounded-lg bg-blue-600 text-white shadow-sm sm:grid">
        <TowerControl aria-hidden className="size-5" />
      </div>
      <div className="min-w-0 leading-tight" data-testid="brand">
        <h1 className="truncate whitespace-nowrap text-sm font-bold leading-5 text-white sm:text-base sm:leading-tight">
          <span className="sm:hidden">{APP_TITLE_SHORT}</span>
          <span className="hidden sm:inline">{APP_TITLE}</span>
        </h1>
        <p className="truncate whitespace-nowrap text-[10px] font-semibold uppercase tracking-[0.25em] text-amber-400">
          {APP_SUBTITLE}
        </p>
      </div>
    </div>
  );
}
