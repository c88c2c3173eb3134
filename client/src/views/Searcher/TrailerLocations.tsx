import { MapPin } from 'lucide-react';
import { UI_SEARCH } from '@shared/labels';
import type { SearchTask } from '@shared/schemas';
import { formatDateTime } from '@shared/time';
import { Card } from '../../components/Card';

const L = UI_SEARCH.location;

/**
 * A trailer search answers "where is it now?" first: each trailer found, at the destination of its
 * latest completed move (CONTRACT §5), or that it has none yet.
 */
export function TrailerLocations({ tasks }: { tasks: SearchTask[] }) {
  // Every task of a trailer carries the same position: one entry per trailer, in result order.
  const byTrailer = new Map<string, SearchTask>();
  for (const t of tasks) if (!byTrailer.has(t.trailer_id)) byTrailer.set(t.trailer_id, t);
  return (
    <Card title={L.title} icon={<MapPin aria-hidden className="size-5" />}>
      <ul className="grid gap-2 md:grid-cols-2 xl:grid-cols-3" data-testid="trailer-locations">
        {[...byTrailer.values()].map((t) => (
          <li
            key={t.trailer_id}
            className="flex flex-wrap items-baseline gap-x-1.5 rounded-lg bg-emerald-50/60 px-3 py-2 text-sm ring-1 ring-emerald-600/15"
          >
            <span className="font-mono font-semibold text-slate-900">{t.trailer_id}</span>
            {t.trailer_last_location ? (
              <>
                <span className="text-slate-500">{L.at}</span>
                <span className="font-semibold text-emerald-800">{t.trailer_last_location}</span>
                {t.trailer_last_location_at && (
                  <time dateTime={t.trailer_last_location_at} className="text-slate-500">
                    {L.since(formatDateTime(t.trailer_last_location_at))}
                  </time>
                )}
              </>
            ) : (
              <span className="text-slate-500">{L.none}</span>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
