// Where the trailer is left (CONTRACT §19): GET /gate/suggestions for its load state and kind, best first,
// each with its free room; the first is chosen until the gate picks another.
import { useEffect, useState } from 'react';
import type { LoadState, TrailerKind } from '@shared/enums';
import { LOCATION_KIND_LABELS, UI_GATE } from '@shared/labels';
import type { GateSuggestion } from '@shared/schemas';
import { errorText } from '../../api';
import { cn } from '../../components/cn';
import { gateSuggestions } from '../../stores/gate';
import { Section } from './ui';

interface PlacePickerProps {
  loadState: LoadState;
  kind: TrailerKind;
  value: string | null;
  onChange: (locationId: string | null) => void;
  /** Bumped to ask again (after an entry took room). */
  reload: number;
}

export function PlacePicker({ loadState, kind, value, onChange, reload }: PlacePickerProps) {
  const [suggestions, setSuggestions] = useState<GateSuggestion[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    gateSuggestions(loadState, kind).then(
      (list) => {
        if (!current) return;
        setSuggestions(list);
        setError(null);
      },
      (err: unknown) => current && setError(errorText(err, UI_GATE.suggestionsError)),
    );
    return () => {
      current = false;
    };
  }, [loadState, kind, reload]);

  // The best place is preselected; a choice that is no longer suggested falls back to it.
  useEffect(() => {
    if (!suggestions) return;
    if (!suggestions.some((s) => s.location.id === value)) onChange(suggestions[0]?.location.id ?? null);
  }, [suggestions, value, onChange]);

  return (
    <Section title={UI_GATE.placeSection}>
      {error && <p className="text-sm text-red-600">{error}</p>}
      {suggestions?.length === 0 && <p className="text-sm text-slate-600">{UI_GATE.noSuggestions}</p>}
      <div role="radiogroup" aria-label={UI_GATE.placeSection} className="grid gap-2 sm:grid-cols-2">
        {suggestions?.map(({ location, free }) => {
          const checked = location.id === value;
          return (
            <button
              key={location.id}
              type="button"
              role="radio"
              aria-checked={checked}
              onClick={() => onChange(location.id)}
              className={cn(
                'flex min-h-14 items-center justify-between gap-3 rounded-lg px-4 py-2 text-left',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500',
                checked
                  ? 'bg-blue-600 text-white'
                  : 'bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50',
              )}
            >
              <span className="min-w-0">
                <span className="block text-base font-semibold">{location.name}</span>
                <span className={cn('block text-xs', checked ? 'text-blue-100' : 'text-slate-500')}>
                  {LOCATION_KIND_LABELS[location.kind]} · {location.zone}
                </span>
              </span>
              <span className="shrink-0 text-sm font-semibold">{UI_GATE.placeFree(free)}</span>
            </button>
          );
        })}
      </div>
    </Section>
  );
}
