// The Patio's plate search box (CONTRACT §19): part of a plate, written any way (`4136fvr`, `r 4136`),
// finds the trailers in the yard whose plate holds it (plateMatch); the map marks them and fades the
// other places, and the box lists each one found with where it stands — choosing one opens its panel.
// Enter opens the first; Escape empties the box.
import { useId, useState } from 'react';
import { MapPin, Search } from 'lucide-react';
import { UI_YARD } from '@shared/labels';
import type { YardTrailer } from '@shared/schemas';
import { cn } from '../../components/cn';
import { inputClass } from '../../components/Field';

const S = UI_YARD.plateSearch;

/** At most this many trailers listed under the box (the map marks them all). */
export const PLATE_RESULTS_SHOWN = 6;

interface PlateSearchProps {
  query: string;
  onQuery: (query: string) => void;
  /** The trailers found, in the order listed. */
  found: readonly YardTrailer[];
  onOpenTrailer: (trailerId: string) => void;
}

export function PlateSearch({ query, onQuery, found, onOpenTrailer }: PlateSearchProps) {
  const resultsId = useId();
  const [focused, setFocused] = useState(false);
  const text = query.trim();
  const open = focused && text !== '';
  const shown = found.slice(0, PLATE_RESULTS_SHOWN);

  const choose = (trailerId: string) => {
    onOpenTrailer(trailerId);
    setFocused(false);
  };

  return (
    <div
      role="search"
      className="relative w-full sm:w-72 2xl:w-80"
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <Search
        aria-hidden
        className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400"
      />
      <input
        type="search"
        aria-label={S.label}
        aria-controls={open ? resultsId : undefined}
        placeholder={S.placeholder}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && found.length) {
            e.preventDefault();
            choose(found[0].trailer_id);
          } else if (e.key === 'Escape' && query) {
            e.preventDefault();
            onQuery('');
          }
        }}
        className={cn(inputClass, 'pl-9 font-mono uppercase placeholder:font-sans placeholder:normal-case')}
      />
      {open && (
        <div
          id={resultsId}
          className="absolute right-0 left-0 z-30 mt-1 rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-900/10 sm:left-auto sm:min-w-full sm:w-max sm:max-w-md"
        >
          <p role="status" className="px-2.5 py-1 text-xs font-medium text-slate-500">
            {found.length ? S.found(found.length) : S.none(text)}
          </p>
          {shown.length > 0 && (
            <ul aria-label={S.results}>
              {shown.map((t) => (
                <li key={t.trailer_id}>
                  <button
                    type="button"
                    data-plate-result={t.trailer_id}
                    aria-label={S.open(t.trailer_id, t.location.name)}
                    onClick={() => choose(t.trailer_id)}
                    className="flex w-full items-center gap-2.5 rounded-md px-2.5 py-1.5 text-left text-sm hover:bg-blue-50 focus-visible:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-500"
                  >
                    <span className="font-mono font-bold text-slate-900">{t.trailer_id}</span>
                    <MapPin aria-hidden className="size-4 shrink-0 text-slate-400" />
                    <span className="min-w-0 flex-1">
                      <span className="font-medium text-slate-800">{t.location.name}</span>
                      <span className="text-slate-500"> · {t.location.zone}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {found.length > shown.length && (
            <p className="px-2.5 py-1 text-xs text-slate-500">{S.more(found.length - shown.length)}</p>
          )}
        </div>
      )}
    </div>
  );
}
