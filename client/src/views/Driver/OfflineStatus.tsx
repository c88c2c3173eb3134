import { CloudOff, RefreshCw, TriangleAlert } from 'lucide-react';
import { UI_DRIVER } from '@shared/labels';
import { formatTime } from '@shared/time';
import { Button } from '../../components/Button';
import { useReachability } from '../../offline/reachability';
import { useOutbox } from '../../stores/outbox';

const O = UI_DRIVER.offline;

/**
 * CONTRACT §16: the one persistent sign that the server does not answer, with what waits on the phone
 * (no error toast repeats meanwhile); once it answers, what is still being sent.
 */
export function OfflineIndicator() {
  const reachable = useReachability((s) => s.reachable);
  const pending = useOutbox((s) => s.pending.length);
  if (reachable && pending === 0) return null;
  return (
    <div
      role="status"
      data-testid="offline-indicator"
      className="sticky top-0 z-30 flex items-center gap-3 rounded-xl bg-slate-800 px-4 py-3 text-white shadow-md"
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
  if (refused.length === 0) return null;
  return (
    <div className="space-y-2">
      {refused.map((r) => (
        <div
          key={r.key}
          role="alert"
          data-testid="refused-action"
          className="flex items-start gap-3 rounded-xl bg-red-50 p-3 text-red-950 ring-1 ring-red-300"
        >
          <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-red-600" />
          <p className="min-w-0 flex-1 text-sm break-words">
            <span className="block text-base font-bold">{O.refusedTitle}</span>
            <span className="block">{O.refusedAt(r.label, formatTime(r.created_at))}</span>
            <span className="block font-semibold">{r.detail}</span>
          </p>
          <Button variant="secondary" size="lg" className="shrink-0" onClick={() => dismiss(r.key)}>
            {O.dismiss}
          </Button>
        </div>
      ))}
    </div>
  );
}
