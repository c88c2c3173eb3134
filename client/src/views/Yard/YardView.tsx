// The Patio (CONTRACT §17, staff; also at /patio): the yard's live map by zone and the list of its
// trailers, as tabs, so that each fills a 1920×1080 wall screen without scrollbars and reads from a
// distance; both also work on a laptop. Figures and the legend sit above. Live through yard:changed.
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
  type RefObject,
} from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import { LogOut, Map as MapIcon, PauseCircle, Truck, Warehouse } from 'lucide-react';
import { DWELL_LEVELS, dwellLevel } from '@shared/dwell';
import { UI_YARD } from '@shared/labels';
import { compareNatural } from '@shared/natural';
import type { YardLocation, YardTrailer } from '@shared/schemas';
import { cn } from '../../components/cn';
import { EmptyState } from '../../components/EmptyState';
import { LoadFallback } from '../../components/LoadFallback';
import { useClock } from '../../components/attention/useAttention';
import { useServerClockSync } from '../../stores/timeclock';
import { refreshYard, useYard, useYardFeed } from '../../stores/yard';
import { DWELL_CHIP } from './dwellStyle';
import { markYardRender } from './measure';
import { plateMatch } from '@shared/text';
import { PlateSearch } from './PlateSearch';
import { TrailerList } from './TrailerList';
import { TrailerPanel } from './TrailerPanel';
import { YardMap } from './YardMap';

/** Dwell colours change at whole hours: read every minute (a place re-renders only when its colours do). */
const DWELL_TICK_MS = 60_000;

type Tab = 'map' | 'list';

export function YardView() {
  useYardFeed();
  useServerClockSync();
  const now = useClock(DWELL_TICK_MS);
  const { places, trailers, loaded, failed } = useYard();
  const [tab, setTab] = useState<Tab>('map');
  const [selected, setSelected] = useState<string | null>(null);
  const fill = useFillViewport();
  const openTrailer = useCallback((trailerId: string) => setSelected(trailerId), []);
  const [plateQuery, setPlateQuery] = useState('');
  const found = useMemo(
    () =>
      plateQuery.trim()
        ? trailers
            .filter((t) => plateMatch(plateQuery, t.trailer_id))
            .sort((a, b) => compareNatural(a.trailer_id, b.trailer_id))
        : null,
    [trailers, plateQuery],
  );
  const foundIds = useMemo(() => found && new Set(found.map((t) => t.trailer_id)), [found]);
  const mapArea = useRef<HTMLDivElement>(null);
  // The first trailer found comes into view on the map, as the text narrows down.
  const first = found?.[0]?.trailer_id;
  useEffect(() => {
    if (!first || tab !== 'map') return;
    mapArea.current
      ?.querySelector(`[data-trailer="${CSS.escape(first)}"]`)
      ?.scrollIntoView({ block: 'center', inline: 'nearest' });
  }, [first, tab]);

  const changeTab = (value: string) => {
    if (value === 'map') markYardRender();
    setTab(value as Tab);
  };

  return (
    <div ref={fill.ref} style={fill.style} className="flex flex-col lg:h-[calc(100dvh-var(--yard-top)-1rem)]">
      {!loaded ? (
        <LoadFallback
          failed={failed}
          errorTitle={UI_YARD.loadError}
          onRetry={() => void refreshYard()}
          icon={<Warehouse aria-hidden className="size-6" />}
        />
      ) : places.length === 0 ? (
        <EmptyState
          icon={<Warehouse aria-hidden className="size-6" />}
          title={UI_YARD.empty}
          hint={UI_YARD.emptyHint}
        />
      ) : (
        <Tabs.Root value={tab} onValueChange={changeTab} className="flex min-h-0 flex-1 flex-col gap-3">
          <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
            <Tabs.List aria-label={UI_YARD.tabs.label} className="flex gap-1 rounded-xl bg-slate-200 p-1">
              <TabButton value="map" icon={<MapIcon aria-hidden className="size-4 2xl:size-5" />}>
                {UI_YARD.tabs.map}
              </TabButton>
              <TabButton value="list" icon={<Truck aria-hidden className="size-4 2xl:size-5" />}>
                {UI_YARD.tabs.list}
                <span className="rounded-md bg-slate-900/10 px-1.5 text-xs tabular-nums 2xl:text-sm">
                  {trailers.length}
                </span>
              </TabButton>
            </Tabs.List>
            <Summary places={places} trailers={trailers} now={now} />
            <PlateSearch
              query={plateQuery}
              onQuery={setPlateQuery}
              found={found ?? []}
              onOpenTrailer={openTrailer}
            />
            {tab === 'map' && <Legend />}
          </div>
          <Tabs.Content
            ref={mapArea}
            value="map"
            className="min-h-0 flex-1 overflow-y-auto focus-visible:outline-none"
          >
            <YardMap places={places} now={now} onOpenTrailer={openTrailer} found={foundIds} />
          </Tabs.Content>
          <Tabs.Content value="list" className="flex min-h-0 flex-1 flex-col focus-visible:outline-none">
            <TrailerList trailers={trailers} now={now} onOpenTrailer={openTrailer} />
          </Tabs.Content>
          <TrailerPanel trailerId={selected} onClose={() => setSelected(null)} now={now} />
        </Tabs.Root>
      )}
    </div>
  );
}

function TabButton({ value, icon, children }: { value: Tab; icon: ReactNode; children: ReactNode }) {
  return (
    <Tabs.Trigger
      value={value}
      className={cn(
        'flex h-9 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-slate-600 2xl:h-11 2xl:px-4 2xl:text-base',
        'focus-visible:outline-2 focus-visible:outline-blue-500',
        'data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm',
      )}
    >
      {icon}
      {children}
    </Tabs.Trigger>
  );
}

/** The yard at a glance: trailers in it, reservations on their way, the long stays, the room left. */
function Summary({
  places,
  trailers,
  now,
}: {
  places: YardLocation[];
  trailers: YardTrailer[];
  now: number;
}) {
  let incoming = 0;
  let free = 0;
  for (const p of places) {
    // A gate's reservations are trailers on their way out, and a gate has no room to count.
    if (p.kind === 'puerta') continue;
    incoming += p.incoming.length;
    free += p.free ?? 0;
  }
  const stale = trailers.filter((t) => dwellLevel(now - Date.parse(t.since)) === 'stale').length;
  const S = UI_YARD.summary;
  const figures: [string, number, string][] = [
    [S.trailers, trailers.length, 'text-slate-900'],
    [S.incoming, incoming, 'text-sky-700'],
    [S.stale, stale, stale ? 'text-red-700' : 'text-slate-900'],
    [S.free, free, 'text-emerald-700'],
  ];
  return (
    <dl aria-label={S.label} className="flex flex-wrap items-baseline gap-x-5 gap-y-1">
      {figures.map(([label, value, tone]) => (
        <div key={label} className="flex items-baseline gap-1.5">
          <dt className="text-sm text-slate-500 2xl:text-base">{label}</dt>
          <dd className={cn('text-xl font-bold tabular-nums 2xl:text-2xl', tone)}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Legend() {
  const L = UI_YARD.legend;
  return (
    <div
      role="group"
      aria-label={L.label}
      className="ml-auto flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 2xl:text-sm"
    >
      <span className="font-medium">{L.dwell}:</span>
      {DWELL_LEVELS.map((level) => (
        <span key={level} className={cn('rounded-md px-2 py-0.5 font-semibold', DWELL_CHIP[level])}>
          {UI_YARD.dwell[level]}
        </span>
      ))}
      <span className="rounded-md border-2 border-dashed border-sky-500 bg-sky-50 px-1.5 font-semibold text-sky-900">
        {L.incoming}
      </span>
      <span className="flex items-center gap-1">
        <LogOut aria-hidden className="size-3.5" />
        {L.leaving}
      </span>
      <span className="flex items-center gap-1 text-violet-800">
        <PauseCircle aria-hidden className="size-3.5" />
        {L.held}
      </span>
      <span className="rounded bg-red-600 px-1 font-bold text-white">{L.full}</span>
    </div>
  );
}

/**
 * The view's top on the page (below the staff header), as `--yard-top`: on a large screen the view takes
 * the rest of the window, so the map and the list scroll inside it and the page never does.
 */
function useFillViewport(): { ref: RefObject<HTMLDivElement | null>; style: CSSProperties } {
  const ref = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const el = ref.current;
      if (el) setTop(el.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);
  return { ref, style: { '--yard-top': `${top}px` } as CSSProperties };
}
