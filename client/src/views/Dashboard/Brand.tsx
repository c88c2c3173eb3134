import { TowerControl } from 'lucide-react';
import { APP_SUBTITLE, APP_TITLE } from '@shared/labels';

/** The header's title block. */
export function Brand() {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <div className="grid size-9 shrink-0 place-items-center rounded-lg bg-blue-600 text-white shadow-sm">
        <TowerControl aria-hidden className="size-5" />
      </div>
      <div className="min-w-0 leading-tight">
        <h1 className="line-clamp-2 text-[13px] font-bold leading-4 text-white sm:line-clamp-1 sm:text-base sm:leading-tight">
          {APP_TITLE}
        </h1>
        <p className="text-[10px] font-semibold uppercase tracking-[0.25em] text-amber-400">{APP_SUBTITLE}</p>
      </div>
    </div>
  );
}
