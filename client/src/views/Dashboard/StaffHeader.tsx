import { Plus } from 'lucide-react';
import type { SessionUser } from '@shared/schemas';
import { UI_HEADER, VIEW_LABELS } from '@shared/labels';
import { Button } from '../../components/Button';
import { cn } from '../../components/cn';
import { can, viewsFor } from '../../permissions';
import { useUi } from '../../stores/ui';
import { ApproveUsersButton } from '../Approval/ApproveUsersButton';
import { Brand } from './Brand';
import { LinkIndicator } from './LinkIndicator';
import { NotificationBell } from './NotificationBell';
import { PushButton } from './PushButton';
import { LogoutButton, UserIdentity } from './SessionControls';
import { VolumeControl } from './VolumeControl';
import { VIEW_ICONS } from './views';

/**
 * SPEC §2 non-driver header: title, link, approvals, notifications (and turning on their pushes, CONTRACT
 * §23), user, logout and the view buttons.
 */
export function StaffHeader({ user }: { user: SessionUser }) {
  const view = useUi((s) => s.view);
  const setView = useUi((s) => s.setView);
  const openCreateTask = useUi((s) => s.setCreateTaskOpen);
  const isAdmin = can(user.role, 'approveUsers');

  return (
    <header className="sticky top-0 z-30 bg-slate-900 text-white shadow-md">
      {/* Phone: brand + buttons, then who and the link on a second line. md+: one row. */}
      <div className="grid grid-cols-[1fr_auto] items-center gap-x-3 gap-y-2 px-4 py-2.5 md:flex lg:px-6">
        <div className="min-w-0 md:flex-1">
          <Brand />
        </div>
        <div className="flex items-center gap-1 sm:gap-2 md:order-last">
          {/* md+: up here, so the views' row keeps its room for every view (issue 28: at 1440 px
              `Sistema` scrolled out of sight behind it). */}
          {isAdmin && <ApproveUsersButton className="max-md:hidden" />}
          <PushButton />
          <NotificationBell />
          <VolumeControl />
          <LogoutButton />
        </div>
        <div className="col-span-2 flex min-w-0 items-center justify-between gap-3 md:contents">
          <UserIdentity user={user} />
          <LinkIndicator />
        </div>
      </div>

      <div className="flex items-center gap-2 border-t border-white/10 bg-slate-800/60 px-2 lg:px-4">
        <nav aria-label={UI_HEADER.nav} className="-mb-px flex min-w-0 flex-1 overflow-x-auto">
          {viewsFor(user.role).map((v) => {
            const Icon = VIEW_ICONS[v];
            const active = v === view;
            return (
              <button
                key={v}
                type="button"
                aria-current={active ? 'page' : undefined}
                onClick={() => setView(v)}
                className={cn(
                  'flex h-11 shrink-0 items-center gap-1.5 border-b-2 px-2 text-sm font-medium transition-colors',
                  'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-400',
                  active
                    ? 'border-blue-400 text-white'
                    : 'border-transparent text-slate-400 hover:border-slate-500 hover:text-slate-100',
                )}
              >
                {/* Twelve views fit one row from 1440 px only as words; the icons come back from 1536. */}
                <Icon aria-hidden className="size-4 md:max-2xl:hidden" />
                {VIEW_LABELS[v]}
              </button>
            );
          })}
        </nav>
        <div className="flex shrink-0 items-center gap-2 py-1.5">
          {isAdmin && <ApproveUsersButton className="md:hidden" />}
          {view === 'dashboard' && can(user.role, 'createTasks') && (
            <Button size="sm" onClick={() => openCreateTask(true)}>
              <Plus aria-hidden className="size-4" />
              <span className="hidden sm:inline">{UI_HEADER.newTask}</span>
              <span className="sr-only sm:hidden">{UI_HEADER.newTask}</span>
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
