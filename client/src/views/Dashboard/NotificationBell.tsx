import * as Menu from '@radix-ui/react-dropdown-menu';
import { Bell, Check } from 'lucide-react';
import { UI_HEADER } from '@shared/labels';
import { relativeAge } from '@shared/time';
import { useShallow } from 'zustand/react/shallow';
import { selectUnread, useNotifications } from '../../stores/notifications';
import { toastError } from '../../toast';

/** The unread-notification badge (SPEC §2 header) and a menu to read and dismiss them. */
export function NotificationBell() {
  const unread = useNotifications(useShallow(selectUnread));
  const markRead = useNotifications((s) => s.markRead);
  const label = unread.length ? UI_HEADER.unreadNotifications(unread.length) : UI_HEADER.notifications;

  const dismiss = (id: string) =>
    markRead(id).catch((err: unknown) => toastError(err, UI_HEADER.markReadError));

  return (
    <Menu.Root>
      <Menu.Trigger
        aria-label={label}
        title={label}
        className="relative grid size-9 place-items-center rounded-lg text-slate-200 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-blue-400"
      >
        <Bell aria-hidden className="size-5" />
        {unread.length > 0 && (
          <span
            data-testid="unread-count"
            className="absolute -right-0.5 -top-0.5 grid h-4.5 min-w-4.5 place-items-center rounded-full bg-red-500 px-1 text-[10px] font-bold leading-none text-white ring-2 ring-slate-900"
          >
            {unread.length > 99 ? '99+' : unread.length}
          </span>
        )}
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-80 max-w-[calc(100vw-1.5rem)] overflow-hidden rounded-xl bg-white shadow-xl ring-1 ring-slate-900/10"
        >
          <Menu.Label className="border-b border-slate-100 px-4 py-2.5 text-sm font-semibold text-slate-900">
            {UI_HEADER.notifications}
          </Menu.Label>
          {unread.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-slate-500">{UI_HEADER.noNotifications}</p>
          ) : (
            <div className="max-h-96 overflow-y-auto">
              {unread.map((n) => (
                <Menu.Item
                  key={n.id}
                  onSelect={(e) => {
                    e.preventDefault();
                    void dismiss(n.id);
                  }}
                  className="flex cursor-pointer gap-3 border-b border-slate-100 px-4 py-3 outline-none last:border-0 data-[highlighted]:bg-slate-50"
                >
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-semibold text-slate-900">{n.title}</p>
                    <p className="text-sm text-slate-600">{n.message}</p>
                    <p className="mt-1 text-xs text-slate-400">{relativeAge(n.created_at, Date.now())}</p>
                  </div>
                  <span className="mt-0.5 text-slate-400" title={UI_HEADER.markRead}>
                    <Check aria-label={UI_HEADER.markRead} className="size-4" />
                  </span>
                </Menu.Item>
              ))}
            </div>
          )}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
