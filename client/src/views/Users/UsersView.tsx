import { useRef, useState } from 'react';
import * as Menu from '@radix-ui/react-dropdown-menu';
import {
  ChevronDown,
  KeyRound,
  MonitorSmartphone,
  Pencil,
  Settings2,
  Trash2,
  Truck,
  UserCog,
  UserRoundCheck,
  UserRoundPen,
  Users,
  Wifi,
  type LucideIcon,
} from 'lucide-react';
import { toast } from 'sonner';
import { VEHICLE_TYPES } from '@shared/enums';
import { ERR, TASK_TYPE_LABELS, TOAST, UI_USERS, USER_STATUS } from '@shared/labels';
import type { AdminUser } from '@shared/schemas';
import { Badge, RoleBadge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ListCard } from '../../components/ListCard';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { StatGrid } from '../../components/StatCard';
import { VEHICLE_TONE } from '../../components/tones';
import { useSession } from '../../stores/session';
import { loadUsers, useUsers, useUsersFeed } from '../../stores/users';
import { toastError } from '../../toast';
import { EditAccountDialog } from './EditAccountDialog';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { RoleDialog } from './RoleDialog';
import { SessionsDialog } from './SessionsDialog';
import { TaskTypesDialog } from './TaskTypesDialog';

type DialogKind = 'edit' | 'role' | 'types' | 'sessions' | 'reset' | 'delete';
type Dialog = { kind: DialogKind; user: AdminUser } | null;

/** SPEC §2 Usuarios (admin): summary cards and the users table, live from users:changed. */
export function UsersView() {
  useUsersFeed();
  const users = useUsers((s) => s.users);
  const loaded = useUsers((s) => s.loaded);
  const failed = useUsers((s) => s.failed);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  // Dialogs follow the live row (a push may change it while one is open).
  const target = dialog && (users.find((u) => u.id === dialog.user.id) ?? dialog.user);

  const remove = async (user: AdminUser) => {
    try {
      toast.success(await useUsers.getState().remove(user.id));
    } catch (err) {
      toastError(err, TOAST.deleteUserError);
      throw err;
    }
  };

  return (
    <div className="space-y-4">
      <SummaryCards users={users} />
      <ListCard
        title={UI_USERS.title}
        icon={<Users aria-hidden className="size-5" />}
        actions={loaded && <Badge>{users.length}</Badge>}
        load={loadUsers}
        loaded={loaded}
        failed={failed}
        errorTitle={TOAST.loadUsersError}
        empty={users.length === 0 && <EmptyState title={UI_USERS.empty} hint={UI_USERS.emptyHint} />}
      >
        <UsersTable users={users} onAction={(kind, user) => setDialog({ kind, user })} />
      </ListCard>

      {target && dialog?.kind === 'edit' && (
        <EditAccountDialog key={target.id} user={target} onClose={close} />
      )}
      {target && dialog?.kind === 'role' && <RoleDialog key={target.id} user={target} onClose={close} />}
      {target && dialog?.kind === 'types' && (
        <TaskTypesDialog key={target.id} user={target} onClose={close} />
      )}
      {target && dialog?.kind === 'sessions' && (
        <SessionsDialog key={target.id} user={target} onClose={close} />
      )}
      {target && dialog?.kind === 'reset' && (
        <ResetPasswordDialog key={target.id} user={target} onClose={close} />
      )}
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        onOpenChange={(open) => !open && close()}
        title={UI_USERS.deleteDialog.title}
        message={target ? UI_USERS.deleteDialog.message(target.name, target.email) : ''}
        confirmLabel={UI_USERS.deleteDialog.confirm}
        onConfirm={() => target && remove(target)}
      >
        <p className="font-semibold text-red-700">{UI_USERS.deleteDialog.irreversible}</p>
      </ConfirmDialog>
    </div>
  );
}

function SummaryCards({ users }: { users: AdminUser[] }) {
  const S = UI_USERS.stats;
  return (
    <StatGrid
      items={[
        { label: S.total, value: users.length, tone: 'slate', icon: Users },
        { label: S.online, value: users.filter((u) => u.is_online).length, tone: 'green', icon: Wifi },
        {
          label: S.pending,
          value: users.filter((u) => !u.is_approved).length,
          tone: 'amber',
          icon: UserRoundCheck,
        },
        {
          label: S.drivers,
          value: users.filter((u) => u.role === 'conductor').length,
          tone: 'blue',
          icon: Truck,
        },
      ]}
    />
  );
}

const TH = 'px-4 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-500';

function UsersTable({
  users,
  onAction,
}: {
  users: AdminUser[];
  onAction: (kind: DialogKind, user: AdminUser) => void;
}) {
  const me = useSession((s) => s.user?.id);
  const C = UI_USERS.columns;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[960px] text-sm">
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            <th scope="col" className={TH}>
              {C.user}
            </th>
            <th scope="col" className={TH}>
              {C.email}
            </th>
            <th scope="col" className={TH}>
              {C.role}
            </th>
            <th scope="col" className={TH}>
              {C.status}
            </th>
            <th scope="col" className={`${TH} text-right`}>
              {C.movements}
            </th>
            <th scope="col" className={TH}>
              {C.taskTypes}
            </th>
            <th scope="col" className={`${TH} text-right`}>
              {C.actions}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {users.map((u) => (
            <tr key={u.id} data-testid="user-row" data-user-id={u.id} className="hover:bg-slate-50/70">
              <td className="px-4 py-3">
                <div className="flex items-center gap-2">
                  <span className="font-semibold text-slate-900">{u.name}</span>
                  {u.id === me && <Badge tone="sky">{UI_USERS.you}</Badge>}
                </div>
                <span className="font-mono text-xs text-slate-500">{UI_USERS.shortId(u.id)}</span>
              </td>
              <td className="max-w-60 truncate px-4 py-3 text-slate-700 2xl:max-w-72" title={u.email}>
                {u.email}
              </td>
              <td className="px-4 py-3">
                <RoleBadge role={u.role} />
              </td>
              <td className="px-4 py-3">
                <UserStatus user={u} />
              </td>
              <td className="px-4 py-3 text-right font-semibold tabular-nums text-slate-900">
                {u.movements_count}
              </td>
              <td className="px-4 py-3">
                <TaskTypes user={u} />
              </td>
              <td className="px-4 py-3">
                <div className="flex justify-end gap-1.5">
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={UI_USERS.actionLabels.role(u.name)}
                    onClick={() => onAction('role', u)}
                  >
                    <UserCog aria-hidden className="size-4" />
                    {UI_USERS.actions.role}
                  </Button>
                  {u.role === 'conductor' && (
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={UI_USERS.actionLabels.taskTypes(u.name)}
                      onClick={() => onAction('types', u)}
                    >
                      <Settings2 aria-hidden className="size-4" />
                      {UI_USERS.actions.taskTypes}
                    </Button>
                  )}
                  <AccountMenu user={u} isMe={u.id === me} onAction={onAction} />
                  <Button
                    variant="secondary"
                    size="sm"
                    className="text-red-700 hover:bg-red-50"
                    aria-label={UI_USERS.actionLabels.delete(u.name)}
                    disabled={u.id === me}
                    title={u.id === me ? ERR.cannotDeleteSelf : undefined}
                    onClick={() => onAction('delete', u)}
                  >
                    <Trash2 aria-hidden className="size-4" />
                    {UI_USERS.actions.delete}
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const MENU_ITEM =
  'flex cursor-pointer items-start gap-2.5 rounded-lg px-3 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50';

/**
 * CONTRACT §14 account actions of a row, in one menu so the row still fits a 1440 px screen: edit name
 * and email, open sessions, password reset (not your own: it would end the session showing it).
 */
function AccountMenu({
  user,
  isMe,
  onAction,
}: {
  user: AdminUser;
  isMe: boolean;
  onAction: (kind: DialogKind, user: AdminUser) => void;
}) {
  const M = UI_USERS.accountMenu;
  const trigger = useRef<HTMLButtonElement>(null);
  const chosen = useRef<DialogKind | null>(null);
  const item = (kind: DialogKind, Icon: LucideIcon, label: string, note?: string) => (
    <Menu.Item className={MENU_ITEM} disabled={note !== undefined} onSelect={() => (chosen.current = kind)}>
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-500" />
      <span>
        {label}
        {note && <span className="block text-xs text-slate-500">{note}</span>}
      </span>
    </Menu.Item>
  );
  return (
    <Menu.Root>
      <Menu.Trigger asChild ref={trigger}>
        <Button
          variant="secondary"
          size="sm"
          aria-label={UI_USERS.actionLabels.account(user.name)}
          title={UI_USERS.actions.account}
        >
          <UserRoundPen aria-hidden className="size-4" />
          {/* Below 2xl a row's four actions only fit a 1440 px screen with this one as an icon. */}
          <span className="hidden 2xl:inline">{UI_USERS.actions.account}</span>
          <ChevronDown aria-hidden className="-mr-0.5 size-3.5 text-slate-400" />
        </Button>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align="end"
          sideOffset={4}
          // The chosen dialog opens only once the menu has closed and put focus back on its trigger, so
          // the menu's focus return never fights the dialog's focus trap.
          onCloseAutoFocus={(e) => {
            const kind = chosen.current;
            chosen.current = null;
            if (!kind) return;
            e.preventDefault();
            trigger.current?.focus();
            onAction(kind, user);
          }}
          className="z-50 w-60 rounded-xl bg-white p-1 shadow-xl ring-1 ring-slate-900/10"
        >
          {item('edit', Pencil, M.edit)}
          {item('sessions', MonitorSmartphone, M.sessions)}
          {item('reset', KeyRound, M.resetPassword, isMe ? UI_USERS.resetSelf : undefined)}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

/** SPEC §4: not approved = Pendiente; approved and online = En línea; else Desconectado. */
function UserStatus({ user }: { user: AdminUser }) {
  if (!user.is_approved) return <Badge tone="amber">{USER_STATUS.pending}</Badge>;
  if (user.is_online)
    return (
      <Badge tone="green">
        <span aria-hidden className="size-1.5 rounded-full bg-emerald-500" />
        {USER_STATUS.online}
      </Badge>
    );
  return <Badge tone="slate">{USER_STATUS.offline}</Badge>;
}

function TaskTypes({ user }: { user: AdminUser }) {
  if (user.role !== 'conductor') return <span className="text-slate-400">{UI_USERS.notApplicable}</span>;
  if (user.task_types.length === 0) return <Badge tone="red">{UI_USERS.noTaskTypes}</Badge>;
  return (
    <div className="flex flex-wrap gap-1" data-testid="task-types">
      {VEHICLE_TYPES.filter((t) => user.task_types.includes(t)).map((t) => (
        <Badge key={t} tone={VEHICLE_TONE[t]}>
          {TASK_TYPE_LABELS[t]}
        </Badge>
      ))}
    </div>
  );
}
