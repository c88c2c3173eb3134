// SPEC §2 Dashboard view for admin, manager and gestor, laid out for a control room (CONTRACT §15): the
// stat cards, then at once the kanban at 3/4 width, with the sidebar beside it. Nothing above the board
// comes and goes: the workload alert and the unread notifications sit at the top of the sidebar, and the
// pending users are one line in the board's title row. 'Modo pantalla' opens the wall screen's own URL.
import { Maximize2, UserPlus } from 'lucide-react';
import { useNavigate } from 'react-router';
import { UI_BOARD } from '@shared/labels';
import { Button } from '../../components/Button';
import { Kanban } from '../../components/board/Kanban';
import { can } from '../../permissions';
import { useDriversFeed } from '../../stores/drivers';
import { usePendingUsers } from '../../stores/pendingUsers';
import { useSession } from '../../stores/session';
import { useStatsFeed } from '../../stores/stats';
import { useTasksFeed } from '../../stores/tasks';
import { useServerClockSync } from '../../stores/timeclock';
import { useUi } from '../../stores/ui';
import { WALL_PATH } from '../Wall/path';
import { Sidebar } from './Sidebar';
import { StatCards } from './StatCards';

export function BoardView() {
  const user = useSession((s) => s.user);
  const navigate = useNavigate();
  useTasksFeed();
  useStatsFeed();
  useDriversFeed();
  useServerClockSync();
  if (!user) return null;

  const enterWall = () => {
    // Full screen where the browser allows it; the wall works without it too.
    void document.documentElement.requestFullscreen?.().catch(() => undefined);
    void navigate(WALL_PATH);
  };

  return (
    <div className="space-y-3">
      <StatCards role={user.role} />
      <div className="grid gap-4 lg:grid-cols-4">
        <section aria-labelledby="board-title" className="min-w-0 lg:col-span-3">
          {/* One row of fixed height: what appears in it never moves the board below. */}
          <div className="mb-2 flex h-9 items-center gap-3">
            <h2 id="board-title" className="text-lg font-bold text-slate-900">
              {UI_BOARD.kanban.label}
            </h2>
            {can(user.role, 'approveUsers') && <PendingUsersLine />}
            <Button
              variant="secondary"
              size="sm"
              onClick={enterWall}
              title={UI_BOARD.wall.enterHint}
              className="ml-auto"
            >
              <Maximize2 aria-hidden className="size-4" />
              {UI_BOARD.wall.enter}
            </Button>
          </div>
          <Kanban mode="staff" />
        </section>
        <Sidebar role={user.role} />
      </div>
    </div>
  );
}

/** CONTRACT §15: `3 usuarios pendientes · Revisar`, one line whatever the number; Revisar opens the dialog. */
export function PendingUsersLine() {
  const count = usePendingUsers((s) => s.users.length);
  const open = useUi((s) => s.setApprovalOpen);
  if (count === 0) return null;
  return (
    <p
      data-testid="pending-users-line"
      className="flex min-w-0 items-center gap-2 rounded-lg bg-amber-50 py-0.5 pl-2.5 pr-0.5 text-sm font-semibold text-amber-900 ring-1 ring-amber-300"
    >
      <UserPlus aria-hidden className="size-4 shrink-0" />
      <span className="truncate">{UI_BOARD.pending.line(count)}</span>
      <span aria-hidden>·</span>
      <button
        type="button"
        onClick={() => open(true)}
        className="rounded-md px-2 py-1 font-bold text-amber-900 underline underline-offset-2 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-blue-500"
      >
        {UI_BOARD.pending.review}
      </button>
    </p>
  );
}
