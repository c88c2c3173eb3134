// The task form's origin and destination (CONTRACT §17): a text input that suggests the catalogue's places
// (the WAI-ARIA combobox pattern: a listbox popup, arrows move, Enter picks, Escape closes) and marks a
// text that names no place `Fuera del catálogo` — free text stays allowed. Given each place's free room
// (the destination, CONTRACT §19), every suggestion says it: `N libres`, or `completa`.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { MapPin, MapPinOff } from 'lucide-react';
import { UI_PLACE_INPUT } from '@shared/labels';
import { compareNatural } from '@shared/natural';
import type { Location } from '@shared/schemas';
import { placeKey } from '@shared/text';
import { placeKeys, placeNamed } from '../stores/locations';
import { Badge } from './Badge';
import { cn } from './cn';
import { Field, inputClass } from './Field';

export const MAX_SUGGESTIONS = 8;

/**
 * The places whose name or code contains the text (accents, case and repeated spaces aside): an exact
 * match first, then those that start with it, then the rest, each group in natural order of names
 * (`Muelle 2` before `Muelle 10`).
 */
export function suggestPlaces(
  places: readonly Location[],
  text: string,
  limit = MAX_SUGGESTIONS,
): Location[] {
  const key = placeKey(text);
  const rank = (place: Location) => {
    const keys = placeKeys(place);
    if (keys.includes(key)) return 0;
    if (keys.some((k) => k.startsWith(key))) return 1;
    return keys.some((k) => k.includes(key)) ? 2 : -1;
  };
  return places
    .map((place) => ({ place, rank: rank(place) }))
    .filter((s) => s.rank >= 0)
    .sort((a, b) => a.rank - b.rank || compareNatural(a.place.name, b.place.name))
    .slice(0, limit)
    .map((s) => s.place);
}

/**
 * The list goes to the top layer (the Popover API), above the dialog and out of its scrolling body, which
 * would clip it. Where the API is missing (older browsers, jsdom) it stays an ordinary element.
 */
const TOP_LAYER = typeof HTMLElement !== 'undefined' && 'showPopover' in HTMLElement.prototype;

/** Space between the input and its list, and kept free at the window's edge. */
const GAP = 4;
const EDGE = 8;
/** Below the input while this much room is left there (a few options); above only when that has more. */
const ROOM_BELOW = 200;
/** The list is as wide as its longest option, at least the input's width and at most this. */
const MAX_LIST_WIDTH = 448;

interface PlaceComboboxProps {
  label: string;
  name: string;
  value: string;
  /** The catalogue place the text stands for, when one was picked. */
  placeId: string | null;
  /** The active places to suggest. */
  places: readonly Location[];
  /** Each place's free room by its id (null: a gate, which holds none); each suggestion then shows it. */
  room?: Readonly<Record<string, number | null>>;
  /** Typing gives the text alone (no place picked); picking gives the place, whose name is the text. */
  onChange: (text: string, place: Location | null) => void;
  error?: string;
  placeholder?: string;
  maxLength?: number;
}

export function PlaceCombobox({
  label,
  name,
  value,
  placeId,
  places,
  room,
  onChange,
  error,
  placeholder,
  maxLength,
}: PlaceComboboxProps) {
  const listId = useId();
  const markId = useId();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const suggestions = useMemo(() => (open ? suggestPlaces(places, value) : []), [open, places, value]);
  const expanded = suggestions.length > 0;
  const offCatalogue = places.length > 0 && !placeId && value.trim() !== '' && !placeNamed(places, value);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const pick = (place: Location) => {
    onChange(place.name, place);
    close();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const shown = expanded ? suggestions : suggestPlaces(places, value);
      if (!shown.length) return;
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setOpen(true);
      setActive((i) =>
        expanded && i >= 0 ? (i + step + shown.length) % shown.length : step > 0 ? 0 : shown.length - 1,
      );
    } else if (e.key === 'Enter' && expanded && active >= 0) {
      // Picks instead of submitting the form.
      e.preventDefault();
      pick(suggestions[active]);
    } else if (e.key === 'Escape' && expanded) {
      close();
    }
  };

  // The dialog around hears Escape on the document, before this input does: while the list is open,
  // Escape closes the list only.
  useEffect(() => {
    if (!expanded) return;
    const shield = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && e.target === input.current) e.preventDefault();
    };
    window.addEventListener('keydown', shield, true);
    return () => window.removeEventListener('keydown', shield, true);
  }, [expanded]);

  useLayoutEffect(() => {
    if (expanded && TOP_LAYER) list.current?.showPopover();
  }, [expanded]);

  // Under the input, or over it when little room is left below and more above. It follows the input every frame while
  // open: the dialog around moves without any event (its opening animation, re-centring as messages
  // appear under fields, its body scrolling).
  useLayoutEffect(() => {
    const el = list.current;
    const anchor = input.current;
    if (!expanded || !el || !anchor) return;
    let frame = 0;
    const follow = () => {
      const r = anchor.getBoundingClientRect();
      el.style.minWidth = `${r.width}px`;
      el.style.maxWidth = `${Math.min(MAX_LIST_WIDTH, window.innerWidth - 2 * EDGE)}px`;
      const width = el.offsetWidth;
      const below = window.innerHeight - r.bottom - GAP - EDGE;
      const above = r.top - GAP - EDGE;
      const upwards = below < Math.min(el.scrollHeight, ROOM_BELOW) && above > below;
      const height = Math.min(el.scrollHeight, upwards ? above : below);
      Object.assign(el.style, {
        left: `${Math.max(EDGE, Math.min(r.left, window.innerWidth - width - EDGE))}px`,
        maxHeight: `${Math.max(0, upwards ? above : below)}px`,
        top: `${upwards ? r.top - GAP - height : r.bottom + GAP}px`,
      });
      frame = requestAnimationFrame(follow);
    };
    follow();
    return () => cancelAnimationFrame(frame);
  }, [expanded]);

  // The highlighted option stays in view when the list scrolls.
  useEffect(() => {
    const el = list.current;
    const option = el?.children[active];
    if (!el || !(option instanceof HTMLElement)) return;
    if (option.offsetTop < el.scrollTop) el.scrollTop = option.offsetTop;
    else if (option.offsetTop + option.offsetHeight > el.scrollTop + el.clientHeight)
      el.scrollTop = option.offsetTop + option.offsetHeight - el.clientHeight;
  }, [active]);

  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <Field label={label} error={error}>
      {(control) => (
        <div>
          <input
            {...control}
            ref={input}
            name={name}
            type="text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
            aria-describedby={
              [control['aria-describedby'], offCatalogue ? markId : undefined].filter(Boolean).join(' ') ||
              undefined
            }
            autoComplete="off"
            value={value}
            placeholder={placeholder}
            maxLength={maxLength}
            onChange={(e) => {
              onChange(e.target.value, null);
              setOpen(true);
              setActive(-1);
            }}
            onKeyDown={onKeyDown}
            onBlur={close}
            className={inputClass}
          />
          {expanded && (
            <ul
              ref={list}
              id={listId}
              role="listbox"
              aria-label={UI_PLACE_INPUT.suggestions}
              popover={TOP_LAYER ? 'manual' : undefined}
              // Keeps the focus in the input: a click picks without blurring it first.
              onMouseDown={(e) => e.preventDefault()}
              className="fixed inset-auto z-[60] m-0 w-max overflow-y-auto rounded-lg border-0 bg-white p-1 text-slate-900 shadow-lg ring-1 ring-slate-900/10"
            >
              {suggestions.map((place, i) => (
                <li
                  key={place.id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => pick(place)}
                  className={cn(
                    'flex cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm',
                    i === active ? 'bg-blue-50 text-blue-900' : 'text-slate-800',
                  )}
                >
                  <MapPin aria-hidden className="size-4 shrink-0 text-slate-400" />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium">{place.name}</span>
                    <span className="block truncate text-xs text-slate-500">
                      <span className="font-mono">{place.code}</span> · {place.zone}
                    </span>
                  </span>
                  {room && <RoomLabel place={place} free={room[place.id]} />}
                </li>
              ))}
            </ul>
          )}
          {offCatalogue && (
            <p id={markId} className="mt-1.5" title={UI_PLACE_INPUT.offCatalogueHint}>
              <Badge tone="amber">
                <MapPinOff aria-hidden className="size-3.5" />
                {UI_PLACE_INPUT.offCatalogue}
              </Badge>
              <span className="sr-only">{`. ${UI_PLACE_INPUT.offCatalogueHint}`}</span>
            </p>
          )}
        </div>
      )}
    </Field>
  );
}

/** A suggestion's free room: `N libres`, or `completa`; nothing for a gate (it holds no trailer) or a
 * place whose room is not known yet. */
function RoomLabel({ place, free }: { place: Location; free: number | null | undefined }) {
  if (place.kind === 'puerta' || free === null || free === undefined) return null;
  return (
    <span
      data-room={free}
      className={cn(
        'shrink-0 rounded-md px-1.5 py-0.5 text-xs font-semibold tabular-nums',
        free === 0 ? 'bg-red-100 text-red-800' : 'bg-emerald-50 text-emerald-800',
      )}
    >
      {free === 0 ? UI_PLACE_INPUT.full : UI_PLACE_INPUT.free(free)}
    </span>
  );
}
