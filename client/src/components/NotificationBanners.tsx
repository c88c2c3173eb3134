// SPEC §2/§4: up to 3 unread notifications as dismissible banners (dismiss = marked read and removed);
// an unread congratulations is marked read by itself after CONGRATS_AUTO_READ_MS. Used by the staff
// board and the driver screen alike; the list is the notifications store the header's bell reads. The staff
// board leaves out `user_pending` (CONTRACT §15: pending users are one line there, not a banner each).
import { useEffect, useRef } from 'react';
import {
  BellRing,
  ClipboardCheck,
  ClipboardList,
  Info,
  Trophy,
  Undo2,
  UserPlus,
  X,
  PlugZap,
  type LucideIcon,
} from 'lucide-react';
import { useShallow } from 'zustand/react/shallow';
import type { NotificationType } from '@shared/enums';
import type { Notification } from '@shared/schemas';
import { CONGRATS_AUTO_READ_MS, MAX_NOTIFICATION_BANNERS } from '@shared/constants';
import { UI_BOARD, UI_HEADER } from '@shared/labels';
import { relativeAge } from '@shared/time';
import { selectUnread, useNotifications } from '../stores/notifications';
import { toastError } from '../toast';
import { cn } from './cn';

const LOOK: Record<NotificationType, { icon: LucideIcon; className: string; iconClass: string }> = {
  task_assigned: {
    icon: ClipboardList,
    className: 'bg-blue-50 ring-blue-200',
    iconClass: 'bg-blue-600 text-white',
  },
  congratulations: {
    icon: Trophy,
    className: 'bg-emerald-50 ring-emerald-200',
    iconClass: 'bg-emerald-600 text-white',
  },
  user_pending: {
    icon: UserPlus,
    className: 'bg-amber-50 ring-amber-200',
    iconClass: 'bg-amber-500 text-white',
  },
  task_returned: {
    icon: Undo2,
    className: 'bg-orange-50 ring-orange-200',
    iconClass: 'bg-orange-500 text-white',
  },
  // The tower closed the driver's task (CONTRACT §5): a neutral fact, not a celebration.
  task_closed_by_staff: {
    icon: ClipboardCheck,
    className: 'bg-slate-50 ring-slate-300',
    iconClass: 'bg-slate-700 text-white',
  },
  // CONTRACT §20: a task met an escalation rule (espera, plazo, retraso).
  task_escalated: {
    icon: BellRing,
    className: 'bg-red-50 ring-red-200',
    iconClass: 'bg-red-600 text-white',
  },
  // CONTRACT §21: another system stopped taking the tower's events.
  webhook_disabled: {
    icon: PlugZap,
    className: 'bg-amber-50 ring-amber-200',
    iconClass: 'bg-amber-600 text-white',
  },
  info: { icon: Info, className: 'bg-white ring-slate-200', iconClass: 'bg-slate-600 text-white' },
};

/** Marks each unread congratulations read CONGRATS_AUTO_READ_MS after it was first seen here. */
function useCongratsAutoRead(unread: Notification[]): void {
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const live = new Set(unread.filter((n) => n.type === 'congratulations').map((n) => n.id));
    for (const [id, timer] of timers.current)
      if (!live.has(id)) {
        clearTimeout(timer);
        timers.current.delete(id);
      }
    for (const id of live)
      if (!timers.current.has(id))
        timers.current.set(
          id,
          setTimeout(() => {
            timers.current.delete(id);
            useNotifications
              .getState()
              .markRead(id)
              .catch((err: unknown) => console.warn('No se pudo marcar la felicitación como leída', err));
          }, CONGRATS_AUTO_READ_MS),
        );
  }, [unread]);
  useEffect(() => {
    const map = timers.current;
    return () => {
      for (const timer of map.values()) clearTimeout(timer);
      map.clear();
    };
  }, []);
}

interface BannersProps {
  className?: string;
  /** Types shown elsewhere on this screen (still in the bell). */
  exclude?: readonly NotificationType[];
  /**
   * Stale notifications, dropped from the banners (still in the bell) and not taking a banner's place:
   * on the driver screen, a `task_assigned` whose task was completed or returned (CONTRACT §16).
   */
  hide?: (n: Notification) => boolean;
}

export function NotificationBanners({ className, exclude, hide }: BannersProps) {
  const unread = useNotifications(useShallow(selectUnread));
  useCongratsAutoRead(unread);
  const shown = unread
    .filter((n) => !exclude?.includes(n.type) && !hide?.(n))
    .slice(0, MAX_NOTIFICATION_BANNERS);
  if (shown.length === 0) return null;
  return (
    <section aria-label={UI_BOARD.banners.label} className={cn('space-y-2', className)}>
      {shown.map((n) => (
        <Banner key={n.id} notification={n} />
      ))}
    </section>
  );
}

function Banner({ notification: n }: { notification: Notification }) {
  const look = LOOK[n.type] ?? LOOK.info;
  const Icon = look.icon;
  const dismiss = () =>
    useNotifications
      .getState()
      .dismiss(n.id)
      .catch((err: unknown) => toastError(err, UI_HEADER.markReadError));
  return (
    <div
      role="status"
      data-testid="notification-banner"
      data-type={n.type}
      className={cn('flex items-center gap-3 rounded-xl py-1.5 pl-2 pr-1 shadow-sm ring-1', look.className)}
    >
      <span className={cn('grid size-8 shrink-0 place-items-center rounded-lg', look.iconClass)}>
        <Icon aria-hidden className="size-4.5" />
      </span>
      <p className="min-w-0 flex-1 text-sm text-slate-700">
        <span className="font-semibold text-slate-900">{n.title}</span>
        <span aria-hidden> · </span>
        {n.message}
        <span className="ml-2 whitespace-nowrap text-xs text-slate-500">
          {relativeAge(n.created_at, Date.now())}
        </span>
      </p>
      <button
        type="button"
        onClick={() => void dismiss()}
        aria-label={UI_BOARD.banners.dismiss}
        title={UI_BOARD.banners.dismiss}
        className="grid size-11 shrink-0 place-items-center rounded-lg text-slate-500 hover:bg-black/5 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-blue-500 sm:size-9"
      >
        <X aria-hidden className="size-5" />
      </button>
    </div>
  );
}
