// The Attention list (CONTRACT §15, §20): what needs a person — a task late, due soon or waiting too long
// (the escalation rules the server notifies, shared/escalation.ts), a task on hold, a driver offline with a
// task, a task in process too long, an auto-assignable task waiting too long, a place holding more trailers
// than its capacity (`Sobreocupada`) — with the trailer (or the place), the driver and how long. `board`: a compact, scroll-limited panel for the dashboard's sidebar (it grows inside itself,
// never pushing the board). `wall`: a column of the wall screen, paging like the others.
import {
  AlarmClock,
  BellRing,
  CirclePause,
  Copy,
  Hourglass,
  MapPinned,
  Siren,
  Timer,
  TimerOff,
  User,
  WifiOff,
} from 'lucide-react';
import {
  entryKey,
  type AttentionEntry,
  type AttentionItem,
  type AttentionKind,
  type OverfullItem,
} from '@shared/attention';
import { factsOf, ruleText } from '@shared/escalation';
import { UI_ATTENTION } from '@shared/labels';
import { formatDuration } from '@shared/time';
import { Card } from '../Card';
import { cn } from '../cn';
import { PagedColumn } from '../../views/Wall/PagedColumn';
import { useYardFeed } from '../../stores/yard';
import { useAttentionEntries, useClock } from './useAttention';
import { WallPlaces } from '../WallPlaces';

const KIND_LOOK: Record<AttentionKind, { icon: typeof Timer; board: string; wall: string; edge: string }> = {
  duplicate_trailer: { icon: Copy, board: 'text-red-700', wall: 'text-red-300', edge: 'border-l-red-500' },
  retraso: { icon: Siren, board: 'text-red-700', wall: 'text-red-300', edge: 'border-l-red-500' },
  plazo: { icon: AlarmClock, board: 'text-amber-700', wall: 'text-amber-300', edge: 'border-l-amber-400' },
  espera: { icon: TimerOff, board: 'text-orange-700', wall: 'text-orange-300', edge: 'border-l-orange-400' },
  overfull: { icon: MapPinned, board: 'text-red-700', wall: 'text-red-300', edge: 'border-l-red-500' },
  on_hold: { icon: CirclePause, board: 'text-amber-700', wall: 'text-amber-300', edge: 'border-l-amber-400' },
  driver_offline: { icon: WifiOff, board: 'text-red-700', wall: 'text-red-300', edge: 'border-l-red-500' },
  in_progress_long: {
    icon: Timer,
    board: 'text-orange-700',
    wall: 'text-orange-300',
    edge: 'border-l-orange-400',
  },
  pool_waiting: {
    icon: Hourglass,
    board: 'text-yellow-800',
    wall: 'text-yellow-200',
    edge: 'border-l-yellow-300',
  },
};

/** The Spanish line of an item: the reason, or the condition and how long it has held. */
export function attentionText(item: AttentionEntry, now: number): string {
  const d = formatDuration(now - Date.parse(item.since));
  switch (item.kind) {
    case 'overfull':
      return UI_ATTENTION.overfull(item.place.occupancy, item.place.capacity);
    case 'plazo':
      // A held task due soon is listed by its deadline: its hold (and why) is said too.
      return item.task.on_hold
        ? `${ruleText(item.kind, factsOf(item.task), now)} · ${UI_ATTENTION.held(item.task.hold_reason)}`
        : ruleText(item.kind, factsOf(item.task), now);
    case 'retraso':
    case 'espera':
      return ruleText(item.kind, factsOf(item.task), now);
    case 'duplicate_trailer':
      return `${UI_ATTENTION.duplicateTrailer} · ${d}`;
    case 'on_hold':
      return `${UI_ATTENTION.held(item.task.hold_reason)} · ${d}`;
    case 'driver_offline':
      return UI_ATTENTION.driverOffline(d);
    case 'in_progress_long':
      return UI_ATTENTION.inProgressLong(d);
    case 'pool_waiting':
      return UI_ATTENTION.poolWaiting(d);
  }
}

export function AttentionList({ variant }: { variant: 'board' | 'wall' }) {
  const now = useClock();
  // The places' occupancy (Sobreocupada): the yard's own feed, kept live while the list is shown.
  useYardFeed();
  const items = useAttentionEntries(now);
  if (variant === 'wall')
    return (
      <PagedColumn
        title={UI_ATTENTION.title}
        items={items}
        itemKey={entryKey}
        renderItem={(i) => <WallItem item={i} now={now} />}
        accent="border-t-red-500"
        empty={UI_ATTENTION.empty}
        testId="wall-column-attention"
      />
    );
  return (
    <Card
      title={UI_ATTENTION.title}
      icon={<BellRing aria-hidden className="size-5" />}
      actions={
        <span
          aria-label={UI_ATTENTION.count(items.length)}
          className={cn(
            'min-w-7 rounded-full px-2 py-0.5 text-center text-xs font-bold tabular-nums',
            items.length ? 'bg-red-600 text-white' : 'bg-slate-200 text-slate-700',
          )}
        >
          {items.length}
        </span>
      }
      bodyClassName="p-0"
    >
      <div data-testid="attention-list" className="max-h-72 overflow-y-auto">
        {items.length === 0 ? (
          <p className="px-4 py-3 text-sm text-slate-500">{UI_ATTENTION.empty}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {items.map((item) => (
              <BoardItem key={entryKey(item)} item={item} now={now} />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

/** A place's name as the list shows it: its code, and its name when it says more. */
const placeName = (item: OverfullItem) =>
  item.place.name && item.place.name !== item.place.code
    ? `${item.place.code} · ${item.place.name}`
    : item.place.code;

function BoardItem({ item, now }: { item: AttentionEntry; now: number }) {
  const look = KIND_LOOK[item.kind];
  const Icon = look.icon;
  const task = item.kind === 'overfull' ? null : item.task;
  return (
    <li data-testid="attention-item" data-kind={item.kind} className="flex gap-2 px-4 py-2">
      <Icon aria-hidden className={cn('mt-0.5 size-4 shrink-0', look.board)} />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
          {task ? (
            <span className="font-mono font-bold text-slate-900">{task.trailer_id}</span>
          ) : (
            <span className="font-bold text-slate-900">{placeName(item as OverfullItem)}</span>
          )}
          {task?.assigned_to_name && (
            <span className="break-words font-medium text-slate-700">{task.assigned_to_name}</span>
          )}
        </p>
        <p className={cn('text-sm font-semibold', look.board)}>{attentionText(item, now)}</p>
      </div>
    </li>
  );
}

function WallItem({ item, now }: { item: AttentionEntry; now: number }) {
  if (item.kind === 'overfull') return <WallPlaceItem item={item} now={now} />;
  return <WallTaskItem item={item} now={now} />;
}

function WallPlaceItem({ item, now }: { item: OverfullItem; now: number }) {
  const look = KIND_LOOK.overfull;
  const Icon = look.icon;
  return (
    <article
      aria-label={`${placeName(item)}: ${attentionText(item, now)}`}
      data-testid="attention-item"
      data-kind={item.kind}
      data-place-id={item.place.id}
      className={cn('flex-1 rounded-lg border-l-8 bg-slate-800 px-4 py-3 text-white', look.edge)}
    >
      <p data-wall="place" className="break-words text-3xl font-bold leading-tight">
        {placeName(item)}
      </p>
      <p className={cn('mt-1 flex items-start gap-2 text-xl font-semibold', look.wall)}>
        <Icon aria-hidden className="mt-1 size-5 shrink-0" />
        <span className="min-w-0 break-words">{attentionText(item, now)}</span>
      </p>
    </article>
  );
}

function WallTaskItem({ item, now }: { item: AttentionItem; now: number }) {
  const look = KIND_LOOK[item.kind];
  const Icon = look.icon;
  const { task } = item;
  return (
    <article
      aria-label={`${task.trailer_id}: ${attentionText(item, now)}`}
      data-testid="attention-item"
      data-kind={item.kind}
      data-task-id={task.id}
      className={cn('flex-1 rounded-lg border-l-8 bg-slate-800 px-4 py-3 text-white', look.edge)}
    >
      <p data-wall="trailer" className="font-mono text-3xl font-bold leading-tight">
        {task.trailer_id}
      </p>
      <p className={cn('mt-1 flex items-start gap-2 text-xl font-semibold', look.wall)}>
        <Icon aria-hidden className="mt-1 size-5 shrink-0" />
        <span className="min-w-0 break-words">{attentionText(item, now)}</span>
      </p>
      <WallPlaces task={task} className="text-slate-200" arrowClass="text-slate-400" />
      {task.assigned_to_name && (
        <p className="mt-1 flex items-start gap-2 text-xl text-slate-100">
          <User aria-hidden className="mt-1 size-5 shrink-0 text-slate-400" />
          <span className="min-w-0 break-words">{task.assigned_to_name}</span>
        </p>
      )}
    </article>
  );
}
