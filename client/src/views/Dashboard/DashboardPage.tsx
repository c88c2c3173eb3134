import { lazy, Suspense } from 'react';
import type { SessionUser } from '@shared/schemas';
import { UI_COMMON } from '@shared/labels';
import { can, VIEW_ROLES } from '../../permissions';
import { useNotificationsFeed } from '../../stores/notifications';
import { usePendingUsersFeed } from '../../stores/pendingUsers';
import { useSession } from '../../stores/session';
import { useUi } from '../../stores/ui';
import { ApproveUsersModal } from '../Approval/ApproveUsersModal';
import { CreateTaskDialog } from '../Board/CreateTaskDialog';
import { Spinner } from '../../components/Spinner';
import { DriverHeader } from './DriverHeader';
import { StaffHeader } from './StaffHeader';
import { VIEW_COMPONENTS } from './views';

// Only conductors open the driver screen: its code is loaded then (the service worker keeps it for offline
// starts), not by every staff screen (the initial JavaScript budget in docs/PERFORMANCE.md).
const DriverView = lazy(() => import('../Driver/DriverView').then((m) => ({ default: m.DriverView })));

/** /dashboard: the driver screen for conductors, the staff shell with its views for everyone else. */
export function DashboardPage() {
  const user = useSession((s) => s.user);
  useNotificationsFeed();
  if (!user) return null;
  return can(user.role, 'driverScreen') ? <DriverShell user={user} /> : <StaffShell user={user} />;
}

const SkipLink = () => (
  <a
    href="#main"
    className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-semibold text-slate-900 focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
  >
    {UI_COMMON.skipToContent}
  </a>
);

function DriverShell({ user }: { user: SessionUser }) {
  return (
    <div className="min-h-dvh bg-slate-100">
      <SkipLink />
      <DriverHeader user={user} />
      <main id="main" className="mx-auto max-w-6xl px-3 py-4 sm:px-4">
        <Suspense fallback={<Spinner />}>
          <DriverView />
        </Suspense>
      </main>
    </div>
  );
}

function StaffShell({ user }: { user: SessionUser }) {
  const selected = useUi((s) => s.view);
  // A view the role may not use (e.g. left over from another user) falls back to the board.
  const view = VIEW_ROLES[selected].includes(user.role) ? selected : 'dashboard';
  const View = VIEW_COMPONENTS[view];
  return (
    <div className="min-h-dvh bg-slate-100">
      <SkipLink />
      <StaffHeader user={user} />
      <main id="main" className="px-3 py-4 sm:px-4 lg:px-6">
        <Suspense fallback={<Spinner />}>
          <View />
        </Suspense>
      </main>
      {can(user.role, 'createTasks') && <CreateTaskDialog />}
      {can(user.role, 'approveUsers') && <AdminApprovals />}
    </div>
  );
}

/** Keeps the pending-users list live for the header button and the dialog. */
function AdminApprovals() {
  usePendingUsersFeed();
  return <ApproveUsersModal />;
}
