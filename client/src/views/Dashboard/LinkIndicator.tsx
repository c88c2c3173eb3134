import { UI_HEADER } from '@shared/labels';
import { cn } from '../../components/cn';
import { useLink } from '../../socket';

const TEXT = {
  online: UI_HEADER.linkOnline,
  connecting: UI_HEADER.linkConnecting,
  reconnecting: UI_HEADER.linkReconnecting,
  offline: UI_HEADER.linkReconnecting,
} as const;

/**
 * CONTRACT §9: 'En vivo' while the socket is up, 'Reconectando…' while the SPEC §9 polling stands in.
 * `compact` (the driver's phone header, CONTRACT §16): below 640 px a link that is down shows its amber
 * dot only — the longer word would squeeze the brand, and the screen's own offline bar says it in full.
 */
export function LinkIndicator({ compact = false }: { compact?: boolean }) {
  const state = useLink((l) => l.state);
  const online = state === 'online';
  return (
    <span
      role="status"
      data-link={state}
      title={online ? UI_HEADER.linkOnlineHint : UI_HEADER.linkReconnectingHint}
      className={cn(
        'inline-flex h-7 shrink-0 items-center gap-1.5 rounded-full px-2.5 text-xs font-semibold ring-1 ring-inset',
        online
          ? 'bg-emerald-500/15 text-emerald-300 ring-emerald-400/30'
          : 'bg-amber-500/15 text-amber-300 ring-amber-400/30',
      )}
    >
      <span className="relative flex size-2">
        <span
          className={cn(
            'absolute inline-flex size-full animate-ping rounded-full opacity-60',
            online ? 'bg-emerald-400' : 'bg-amber-400',
          )}
        />
        <span
          className={cn(
            'relative inline-flex size-2 rounded-full',
            online ? 'bg-emerald-400' : 'bg-amber-400',
          )}
        />
      </span>
      <span className={cn(compact && !online && 'sr-only sm:not-sr-only')}>{TEXT[state]}</span>
    </span>
  );
}
