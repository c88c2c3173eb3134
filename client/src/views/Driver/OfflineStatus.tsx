import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { CloudOff, RefreshCw, TriangleAlert } from 'lucide-react';
import { UI_DRIVER } from '@shared/labels';
import { formatTime } from '@shared/time';
import { Button } from '../../components/Button';
import { useReachability } from '../../offline/reachability';
import { useOutbox } from '../../stores/outbox';

const O = UI_DRIVER.offline;
/** Room between the sticky header and the indicator: the phone's top toast (16 px down) clears it. */
const GAP_PX = 8;

/**
 * How far down the indicator sticks: below the page's sticky header (its height follows the header),
 * so on a scrolled page it never covers the header's link state, sound or logout.
 */
function useStickyTop(): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    // The page's own header is the one that sticks (cards have headers too).
    const header = [...document.querySelectorAll('header')].find((h) =>
      ['sticky', 'fixed'].includes(getComputedStyle(h).position),
    );
    if (!header) return;
    const update = () => setTop(header.offsetHeight);
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
  return top;
}

/**
 * CONTRACT §16: the one persistent sign that the server does not answer, with what waits on the phone
 * (no error toast repeats meanwhile); once it answers, what is still being sent.
 */
export function OfflineIndicator() {
  const reachable = useReachability((s) => s.reachable);
  const pending = useOutbox((s) => s.pending.length);
  const top = useStickyTop();
  if (reachable && pending === 0) return null;
  return (
    <div
      role="status"
      data-testid="offline-indicator"
      style={{ top: top + GAP_PX }}
      className="sticky z-20 flex items-center gap-3 rounded-xl bg-slate-800 px-4 py-3 text-white shadow-md"
    >
      {reachable ? (
        <RefreshCw aria-hidden className="size-5 shrink-0 motion-safe:animate-spin" />
      ) : (
        <CloudOff aria-hidden className="size-5 shrink-0 text-amber-300" />
      )}
      <p className="min-w-0 flex-1">
        <span className="block text-base font-bold">
          {reachable ? O.sending(pending) : O.indicator(pending)}
        </span>
        {!reachable && <span className="block text-sm text-slate-300">{O.indicatorHint}</span>}
      </p>
    </div>
  );
}

/** CONTRACT §16: an action made offline that the server refused when it got it — said once, clearly. */
export function RefusedActions() {
  const refused = useOutbox((s) => s.refused);
  const dismiss = useOutbox((s) => s.dismissRefused);
  const list = useRef<HTMLDivElement>(null);
  const newest = refused.at(-1)?.key;
  // A refusal arrives after the replay, maybe long after the tap, with the page scrolled down: it is
  // brought into view (below the sticky header) so the driver sees it.
  useEffect(() => {
    if (newest) list.current?.lastElementChild?.scrollIntoView?.({ block: 'nearest' });
  }, [newest]);
  if (refused.length === 0) return null;
  return (
    <div ref={list} className="space-y-2">
      {refused.map((r) => (
        <div
          key={r.key}
          role="alert"
          data-testid="refused-action"
          className="flex scroll-mt-24 flex-wrap items-start gap-3 rounded-xl bg-red-50 p-3 text-red-950 ring-1 ring-red-300"
        >
          <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-red-600" />
          {/* The text takes the width (a phone is narrow); the button goes under it, or beside it on wide screens. */}
          <p className="min-w-0 flex-1 basis-56 text-sm break-words">
            <span className="block text-base font-bold">{O.refusedTitle}</span>
            <span className="block">{O.refusedAt(r.label, formatTime(r.created_at))}</span>
            <span className="block font-semibold">{r.detail}</span>
          </p>
          <Button
            variant="secondary"
            size="lg"
            className="w-full shrink-0 sm:w-auto"
            onClick={() => dismiss(r.key)}
          >
            {O.dismiss}
          </Button>
        </div>
      ))}
    </div>
  );
}
