// CONTRACT §19: typing a plate whose key matches a known trailer, the create form offers its spelling and
// fills its place as origin. One GET /trailers?q= per pause in typing (250 ms), the latest answer wins.
import { useEffect, useState } from 'react';
import type { Trailer, TrailerList } from '@shared/schemas';
import { plateKey } from '@shared/text';
import { api } from '../../api';

const PAUSE_MS = 250;

/** The known trailer whose plate key is the typed text's, or null (none, not asked, or not yet answered). */
export function useKnownTrailer(typed: string, enabled: boolean): Trailer | null {
  const [known, setKnown] = useState<Trailer | null>(null);
  const key = enabled ? plateKey(typed) : '';
  useEffect(() => {
    setKnown(null);
    if (!key) return;
    let live = true;
    const timer = setTimeout(() => {
      api
        .get<TrailerList>('/trailers', { q: typed })
        .then((res) => {
          if (live) setKnown(res.trailers.find((t) => plateKey(t.trailer_id) === key) ?? null);
        })
        .catch(() => undefined);
    }, PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // The key decides; the text as typed goes along with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return known;
}
